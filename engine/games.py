"""The one small interface every game offers, and the registry of games (DESIGN.md).

A game is a `GameInfo`: static facts (name, title, player counts, presets,
record format, whether it has a real-time phase, rules text) plus the
functions that make a state, read a record, summarise a replay and make
bots. A state (`GameState`) answers `apply`, `legal`, `to_act`, `view`,
`finished`, `winners` and `realtime()`. The server,
records, benchmarks and the client's shared widgets speak only this
interface; nothing outside a game's package imports its internals.

Adding a game: a package `engine/<name>/` whose `__init__` defines `GAME`
(a `GameInfo`), and one line in `_PACKAGES` below.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .errors import SetupError

if TYPE_CHECKING:
    from .review import ReviewTerms
    from .search import Searcher

Action = dict[str, Any]
Event = dict[str, Any]


class GameState(Protocol):
    """One game in progress; mutable; every method is pure rules (no time, no I/O)."""

    game_name: str  # the registry name of its game (class attribute): records need it
    players: tuple[str, ...]
    n: int
    finished: bool
    winners: list[int]
    actions: list[Action]  # every applied action, as a record stores it

    def apply(self, action: Action) -> list[Event]:
        """Apply one record action (with `seat`); raise a RuleError and change nothing."""

    def step(self, action: Action, events: list[Event] | None = None) -> Action:
        """`apply` without the log: the action as the log would keep it, its events added
        to `events` (None: nobody listens, as in `Record.played`'s replay)."""

    def legal(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may send now, with bounds a client can use directly."""

    def to_act(self) -> list[int]:
        """Seats whose decision the game waits for now."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """All that `seat` (None: a spectator) may know: the only door secrets pass."""

    def realtime(self) -> bool:
        """True while a real-time clock runs (the server then owns `GameInfo.hammer`)."""


class Bot(Protocol):
    level: str

    def choose(self, view: dict[str, Any]) -> Action | None:
        """An action (without `seat`) for the view's player, or None if none is due."""


@dataclass(frozen=True)
class GameInfo:
    """Static facts about one game and the functions the rest of the system needs."""

    name: str  # the wire and record name: "modernart", "serengeti", "artsociety"
    title: str  # shown to people
    players: tuple[int, ...]  # allowed player counts
    presets: Mapping[str, Any]  # preset name -> the variant it stands for
    preset_help: Mapping[str, str]  # preset name -> one line for the lobby
    default_preset: str
    record_format: str  # RECORD.md `format`, e.g. "serengeti-record/1"
    summary: str  # one paragraph for the lobby and F1
    rules: str  # the rules text (Markdown) shown by F1
    # new_state(players, variant, deck, seed, first) -> GameState: the state's class, whose
    # constructor takes these five in this order (`create` fills in the defaults)
    new_state: Callable[..., GameState]
    # parse_variant(value, players) -> a JSON-able dict; raises ValueError
    parse_variant: Callable[[object, int | None], dict[str, Any]]
    # check_deck(deck) -> True if `deck` is a valid shuffled deck for this game
    check_deck: Callable[[object], bool]
    # the RECORD.md header of a state: {"variant", "deck", "first_auctioneer"}
    record_header: Callable[[GameState], dict[str, Any]]
    # replay_fields(state) -> the game's own fields of `modernart replay`'s result
    replay_fields: Callable[[GameState], dict[str, Any]]
    # timeout_action(state, seat) -> what a timed-out seat does (without `seat`), or None
    timeout_action: Callable[[GameState, int], Action | None]
    # bots: level -> factory(seed) -> Bot
    bots: Mapping[str, Callable[[int | None], Bot]]
    default_bot: str
    # the action the server applies when a real-time window passes (None: no real time)
    hammer: Action | None = None
    # When a bot's decided shout goes out in a real-time window (a game with `hammer`):
    # shout_delay_ms(level, since_change_ms, deadline_ms, rng) -> milliseconds from now;
    # bots shout with such reaction times only in rooms whose bots think at least
    # `min_reaction_ms` (None: bots act at once, as in turn-based play)
    shout_delay_ms: Callable[[str, float, float | None, random.Random], int] | None = None
    min_reaction_ms: int = 0
    # shown beside the title wherever a game is chosen (lobby, F1), e.g. Art Society's
    # "house rules where the printed rules were unavailable"; "" for none
    caveat: str = ""
    # check_card(code) -> True if `code` is one of this game's card codes (RECORD.md: a
    # record naming any other card is invalid); None: the game's actions carry no cards
    check_card: Callable[[object], bool] | None = None
    bot_help: Mapping[str, str] = field(default_factory=dict)
    # action type -> the fields (besides `type` and `seat`) that action carries: what a
    # server reads from a client's `act` (the engine then checks the values)
    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The view's entries that differ from seat to seat (None: any may; a server then
    # sends `view(seat)` whole), and optionally a fast way to get them:
    # seat_view(state, seat, public) -> those entries of `view(seat)`, given `view(None)`
    seat_keys: tuple[str, ...] | None = None
    seat_view: Callable[[GameState, int, dict[str, Any]], dict[str, Any]] | None = None
    # the list in `replay_fields` that ranks the players at the end (money, points):
    # ratings order the seats by it after the game's own `winners`
    score_field: str = "money"
    # The determinized search's hooks (engine/search.py), above all the sampler of
    # worlds consistent with a player's view: what makes the game's `expert`.
    search: Searcher | None = None
    # hint(view) -> (the hard bot's action for this view or None, one line saying why)
    hint: Callable[[dict[str, Any]], tuple[Action | None, str]] | None = None
    # Events after which the game's clients show a summary over the table (Modern Art's
    # round end): a server starts the next turn clocks after a reading time (issue 28)
    summary_events: frozenset[str] = frozenset()
    # the expert's review of a finished game (engine/review.py): its unit, marks, reasons
    review: ReviewTerms | None = None

    def make_bot(self, level: str | None = None, seed: int | None = None) -> Bot:
        """A bot of the named level (the game's default if None); KeyError if unknown."""
        return self.bots[level or self.default_bot](seed)

    def create(
        self,
        players: Sequence[str],
        variant: object = None,
        deck: Sequence[Any] | None = None,
        seed: int | str | None = None,
        first: int | None = None,
    ) -> GameState:
        return self.new_state(players, variant, deck, seed, first)


def seats_showing(public: dict[str, Any], seat: int, key: str, value: Any) -> list[Any]:
    """The spectators' `seats` with `seat`'s own `key` (a secret until the end) shown: the
    `seats` of a `seat_view`."""
    seats = public["seats"]
    if public["finished"]:
        return seats
    seats = list(seats)
    seats[seat] = {**seats[seat], key: value}
    return seats


# The setup every state constructor shares; each raises SetupError with the game's words.


def seat_players(players: Sequence[str], counts: Container[int], why: str) -> tuple[str, ...]:
    """The players as a tuple if their number is one of `counts`."""
    if len(players) not in counts:
        raise SetupError(why)
    return tuple(players)


def shuffled_deck(
    deck: Sequence[str] | None,
    full: Sequence[str],
    check: Callable[[object], bool],
    rng: random.Random | None,
    why: str,
) -> tuple[str, ...]:
    """`deck` if given (it must pass `check`), else `full` shuffled by `rng` (then given)."""
    if deck is None:
        assert rng is not None
        shuffled = list(full)
        rng.shuffle(shuffled)
        return tuple(shuffled)
    if not check(deck):
        raise SetupError(why)
    return tuple(deck)


def first_seat(first: int | None, n: int, rng: random.Random | None, name: str) -> int:
    """`first` if it is a seat, a random seat if None (`rng` then given); SetupError
    naming `name` otherwise."""
    if first is None:
        assert rng is not None
        return rng.randrange(n)
    if type(first) is not int or not 0 <= first < n:
        raise SetupError(f"{name} must be a seat from 0 to {n - 1}")
    return first


# name -> the module whose `GAME` describes it; imported on first use.
_PACKAGES: dict[str, str] = {
    "modernart": "modernart.engine.modernart",
    "serengeti": "modernart.engine.serengeti",
    "artsociety": "modernart.engine.artsociety",
}
DEFAULT_GAME = "modernart"
GAME_NAMES: tuple[str, ...] = tuple(_PACKAGES)

_loaded: dict[str, GameInfo] = {}


def get_game(name: str) -> GameInfo:
    """The game registered under `name`; KeyError for an unknown name."""
    info = _loaded.get(name)
    if info is None:
        module = importlib.import_module(_PACKAGES[name])
        info = _loaded[name] = module.GAME
    return info


def game_of(state: object) -> GameInfo:
    """The game a state belongs to: its class's `game_name`, else the registered package
    its class was defined in; KeyError if neither names a registered game."""
    name = getattr(state, "game_name", None)
    if name is None:
        module = type(state).__module__
        name = next((n for n, pkg in _PACKAGES.items() if module.startswith(pkg + ".")), None)
    if name not in _PACKAGES:
        raise KeyError(f"no registered game for {type(state).__name__}")
    return get_game(name)


def all_games() -> list[GameInfo]:
    return [get_game(name) for name in GAME_NAMES]
