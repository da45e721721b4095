"""Hand-built decks and small drivers for the engine tests.

`deck_with` builds a 70-card deck from the round-1 hands wanted per seat
(R6: seat 0 takes the first k cards, then seat 1, …; the virtual hand last),
so a test reads like "seat 0 holds krypto.open, …". `scripted_deck` builds a
deck for a whole scripted game: every card a seat plays in a round is in its
hand by then. `play_through` plays a card and lets its auction end with nobody
paying, to walk quickly to the situation under test.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from modernart.engine import RuleError
from modernart.engine.modernart import FULL_DECK, Game
from modernart.engine.modernart.bots.random_bot import choose_from_legal
from modernart.engine.modernart.cards import ARTIST_OF, DEAL

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


def _take(pool: Counter[str], cards: Iterable[str]) -> list[str]:
    """Remove `cards` from `pool`, failing loudly if the deck cannot hold them (R3)."""
    out = []
    for card in cards:
        assert pool[card] > 0, f"the deck has no more {card} (R3)"
        pool[card] -= 1
        out.append(card)
    return out


def _padding(pool: Counter[str], avoid: Sequence[str]) -> list[str]:
    """The cards left in `pool`, those of the `avoid`ed artists (or card codes) last."""
    rest = [c for c in dict.fromkeys(FULL_DECK) for _ in range(pool[c])]

    def avoided(card: str) -> bool:
        return card in avoid or ARTIST_OF[card] in avoid

    return [c for c in rest if not avoided(c)] + [c for c in rest if avoided(c)]


def deck_with(
    hands: Sequence[Sequence[str]],
    *,
    virtual: Sequence[str] | None = None,
    then: Sequence[str] = (),
    avoid: Sequence[str] = (),
) -> list[str]:
    """A deck dealing `hands` in round 1 (each padded to R6's k), then `then`, then the rest.

    `virtual` is the virtual player's round-1 hand (R29), dealt after the seats.
    Padding takes cards of the `avoid`ed artists or codes only when nothing else is left.
    """
    pool = Counter(FULL_DECK)
    wanted = [*hands, virtual] if virtual is not None else list(hands)
    k = DEAL[len(wanted)][0]
    dealt = [_take(pool, hand) for hand in wanted]
    top = _take(pool, then)
    deck: list[str] = []
    for hand in dealt:
        assert len(hand) <= k, f"round 1 deals only {k} cards a hand (R6)"
        pad = _padding(pool, avoid)[: k - len(hand)]
        deck.extend(hand + _take(pool, pad))
    deck.extend(top)
    deck.extend(_padding(pool, avoid))
    assert len(deck) == 70
    return deck


def new_game(
    hands: Sequence[Sequence[str]],
    *,
    first: int = 0,
    variant: object = None,
    virtual: Sequence[str] | None = None,
    then: Sequence[str] = (),
    avoid: Sequence[str] = (),
) -> Game:
    """A game whose round-1 hands start with `hands` (see `deck_with`)."""
    if virtual is not None and variant is None:
        variant = "classic_3p_virtual"
    deck = deck_with(hands, virtual=virtual, then=then, avoid=avoid)
    return Game(list(NAMES[: len(hands)]), variant, deck, first_auctioneer=first)


Turn = str | tuple[str, str]  # a card, or a double and the card its player adds to it
Play = tuple[int, int, Turn]  # (round, seat, turn)


def cyclic(n: int, first: int, rounds: Sequence[Sequence[Turn]]) -> list[Play]:
    """Turns taken in order from `first`, nobody ever skipped.

    A round starts left of whoever ended the previous one (R7), so without
    skipped hands or doubles added by others the seats simply keep going round.
    """
    plays: list[Play] = []
    i = first
    for r, turns in enumerate(rounds, start=1):
        for turn in turns:
            plays.append((r, i % n, turn))
            i += 1
    return plays


def _cards(turn: Turn) -> tuple[str, ...]:
    return (turn,) if isinstance(turn, str) else turn


def scripted_deck(n: int, plays: Sequence[Play], avoid: Sequence[str] = ()) -> list[str]:
    """A deck in which every scripted card is in its player's hand by its round (R6).

    A card for round r goes into the latest deal (rounds 1–3) not after r with
    room left; the other slots are padded (avoided artists last).
    """
    k = DEAL[n]
    room = [[k[r] for r in range(3)] for _ in range(n)]
    deals: list[list[list[str]]] = [[[], [], []] for _ in range(n)]
    pool = Counter(FULL_DECK)
    for r, seat, turn in sorted(plays, key=lambda p: p[0]):
        for card in _cards(turn):
            for d in range(min(r, 3) - 1, -1, -1):
                if room[seat][d]:
                    room[seat][d] -= 1
                    deals[seat][d].extend(_take(pool, [card]))
                    break
            else:
                raise AssertionError(f"seat {seat} cannot hold {card} by round {r}")
    deck: list[str] = []
    for d in range(3):
        for seat in range(n):
            pad = _padding(pool, avoid)[: room[seat][d]]
            deck.extend(deals[seat][d] + _take(pool, pad))
    deck.extend(_padding(pool, avoid))
    assert len(deck) == 70
    return deck


def scripted_game(
    n: int,
    plays: Sequence[Play],
    *,
    first: int = 0,
    variant: object = None,
    avoid: Sequence[str] = (),
) -> Game:
    """A game (no virtual player) dealt so that `plays` can be played in order."""
    deck = scripted_deck(n, plays, avoid)
    return Game(list(NAMES[:n]), variant, deck, first_auctioneer=first)


# ------------------------------------------------------------------ actions


def act(g: Game, seat: int | None, kind: str, arg: Any = None) -> list[dict[str, Any]]:
    """Apply one action: `arg` is the card (play/add) or the amount (bid/sealed/price)."""
    action: dict[str, Any] = {"type": kind}
    if seat is not None:
        action["seat"] = seat
    if kind in ("play", "add"):
        action["card"] = arg
    elif kind in ("bid", "sealed", "price"):
        action["amount"] = arg
    return g.apply(action)


def play_through(g: Game, seat: int, turn: Turn) -> list[dict[str, Any]]:
    """`seat` plays `turn` and its auction ends with nobody bidding.

    A (double, card) turn adds the player's own card to the double (R16).
    Open: closed with no bid; once-around: all pass; sealed: all bid 0;
    double: everyone declines (all free, R10, R16); fixed price: the lowest
    price and everyone passes, so the auctioneer buys from the bank (R15).
    """
    assert g.auctioneer == seat and g.phase == "play", (seat, turn, g.auctioneer, g.phase)
    cards = _cards(turn)
    events = act(g, seat, "play", cards[0])
    if len(cards) == 2 and g.phase == "offer":
        events += act(g, seat, "add", cards[1])
    if g.phase == "open":
        events += act(g, None, "close")
    while g.phase in ("once_around", "buy", "offer"):
        events += act(g, g.to_act()[0], "decline" if g.phase == "offer" else "pass")
    if g.phase == "sealed":
        for s in range(g.n):
            events += act(g, s, "sealed", 0)
    if g.phase == "price":
        events += act(g, g.to_act()[0], "price", g.legal(g.to_act()[0])["price"][0])
        while g.phase == "buy":
            events += act(g, g.to_act()[0], "pass")
    return events


def run_plays(g: Game, plays: Sequence[Play]) -> list[dict[str, Any]]:
    """Play a script with `play_through`, checking round and turn before each turn."""
    events: list[dict[str, Any]] = []
    for r, seat, turn in plays:
        assert g.round == r, (r, seat, turn, g.round)
        events += play_through(g, seat, turn)
    return events


def of_type(events: Iterable[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def one(events: Iterable[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = of_type(events, kind)
    assert len(found) == 1, (kind, found)
    return found[0]


# ------------------------------------------------------------------- checks


def snapshot(g: Game) -> Any:
    """Everything observable about `g`: every view, the secret money, hands, actions."""
    return copy.deepcopy(
        (
            [g.view(s) for s in range(g.n)],
            g.view(None),
            list(g.money),
            [list(h) for h in g.hands],
            list(g.actions),
            g.phase,
            g.cards_in_play(),
        )
    )


def assert_refused(g: Game, action: dict[str, Any], code: str) -> RuleError:
    """The action raises a RuleError with `code` and changes nothing."""
    before = snapshot(g)
    with pytest.raises(RuleError) as info:
        g.apply(action)
    assert info.value.code == code, (info.value.code, str(info.value))
    assert str(info.value)
    assert snapshot(g) == before
    return info.value


# ------------------------------------------------------------- random games


def random_step(g: Game, rng: random.Random) -> dict[str, Any]:
    """A random legal action of a random seat that may act (or `close` in an open auction)."""
    if g.phase == "open" and rng.random() < 0.15:
        return {"type": "close"}
    seats = [s for s in range(g.n) if g.legal(s)]
    seat = rng.choice(seats)
    action = choose_from_legal(g.legal(seat), rng)
    assert action is not None
    return {**action, "seat": seat}


def random_game(seed: int, n: int = 4, variant: object = None, max_actions: int = 3000) -> Game:
    """A whole game of random legal actions, deterministic for a seed."""
    rng = random.Random(seed)
    g = Game(list(NAMES[:n]), variant, seed=seed)
    while not g.finished and len(g.actions) < max_actions:
        g.apply(random_step(g, rng))
    assert g.finished
    return g
