"""One game of Art Society (ARTSOCIETY.md A6–A22, A28), as the game interface's state.

A round: the auctioneer chooses shapes (`shapes`, A9), everyone lays a bid
card (`bid`, A10), then in bid order (A11) each player picks (`pick`, A12)
and completes their placement (A13–A19): `place` a tile at a cell, `assist`,
`exchange`, `excess`, then any frame bonus (`decor`, `decline`, and the
taken piece's `place` / `assist` / `discard`), and `done` when the
assistant's tile could still be hung but is kept. `apply` checks everything
before it changes anything.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ..actionlog import ActionLog
from ..errors import Illegal, NotYourTurn, RuleError, SetupError
from ..games import Action, Event
from .rules import (
    BID_CARDS,
    DECOR_OF,
    DECOR_SIZES,
    EXCESS_TO_END,
    GENRES,
    START_SHAPE,
    WHITE_CARDS,
    House,
    Painting,
    Spot,
    catalogue,
    cell_index,
    decor_code,
    parse_variant,
    shape_name,
    spot_at,
    spots,
    start_code,
)
from .wall import Wall, multipliers, score

SETUP, PREPARE, BID, PICK, PLACE, OVER = "setup", "prepare", "bid", "pick", "place", "over"
TILES = ("start", "picked", "assistant", "decor")


# ---------------------------------------------------------------------- deck


def new_deck(house: House, n: int, rng: random.Random) -> dict[str, Any]:
    """A6–A8's shuffles: each shape's pile (top first), the starting paintings, the white cards."""
    piles = {}
    for w, h, count in house.shapes:
        name = shape_name(w, h)
        pile = [f"{name}.{j}" for j in range(count)]
        rng.shuffle(pile)
        piles[name] = pile
    return {
        "piles": piles,
        "starts": rng.sample(GENRES, n),
        "white": rng.sample(WHITE_CARDS, n),
    }


@lru_cache(maxsize=64)
def pile_codes(name: str, size: int) -> list[str]:
    """A pile's paintings' codes, sorted: what a deck's pile of that shape must hold. Kept
    (a record's every replay checks its deck), a few: a record's names are anyone's."""
    return sorted(f"{name}.{j}" for j in range(size))


def check_deck(deck: object) -> bool:
    """True if `deck` has the shape of an Art Society deck (docs/records.md).

    The deck alone is checked (2–4 seats, each pile a permutation of its own
    shape's paintings); whether it fits a variant's shape table is the game's
    check when it is created.
    """
    if not isinstance(deck, dict) or set(deck) != {"piles", "starts", "white"}:
        return False
    piles, starts, white = deck["piles"], deck["starts"], deck["white"]
    if not isinstance(piles, dict) or not piles:
        return False
    for name, pile in piles.items():
        if not isinstance(name, str) or not isinstance(pile, list) or not pile:
            return False
        w, _, h = name.partition("x")
        if not (w.isdigit() and h.isdigit()):
            return False
        try:  # codes of other types fail to sort with strings, or differ from the codes
            if sorted(pile) != pile_codes(name, len(pile)):
                return False
        except TypeError:
            return False
    if not isinstance(starts, list) or not isinstance(white, list):
        return False
    if not 2 <= len(starts) <= 4 or len(white) != len(starts):
        return False
    if len(set(starts)) != len(starts) or any(g not in GENRES for g in starts):
        return False
    return len(set(white)) == len(white) and all(type(c) is int and c in WHITE_CARDS for c in white)


# ---------------------------------------------------------------------- state


class ArtSociety:
    """One game of Art Society from the deal (A6–A8) to A22's end and A28's winners."""

    game_name = "artsociety"  # its name in the registry (engine/games.py)

    def __init__(
        self,
        players: Sequence[str],
        variant: object = None,
        deck: dict[str, Any] | None = None,
        seed: int | str | None = None,
        first: int | None = None,
    ) -> None:
        n = len(players)
        if not 2 <= n <= 4:
            raise SetupError("Art Society needs 2 to 4 players")
        self.players: tuple[str, ...] = tuple(players)
        self.n = n
        self.house: House = parse_variant(variant, n)
        house = self.house
        self.paintings: dict[str, Painting] = catalogue(house.shapes)
        if deck is None:
            rng = random.Random(seed)
            deck = new_deck(house, n, rng)
            if first is not None:  # give the lowest white card to `first` (A8)
                if type(first) is not int or not 0 <= first < n:
                    raise SetupError(f"first must be a seat from 0 to {n - 1}")
                white = deck["white"]
                low = white.index(min(white))
                white[low], white[first] = white[first], white[low]
        self._check_deck(deck)
        self.deck: dict[str, Any] = deck
        white = list(deck["white"])
        self.first_auctioneer = white.index(min(white))
        if first is not None and first != self.first_auctioneer:
            raise SetupError("first must be the seat dealt the lowest white card (A8)")

        self.piles: dict[str, list[str]] = {
            name: list(reversed(pile)) for name, pile in deck["piles"].items()
        }  # top of each pile last
        self.starts: list[str] = [start_code(g) for g in deck["starts"]]  # A7
        self.hands: list[list[int]] = [list(range(1, BID_CARDS + 1)) for _ in range(n)]
        self.stacks: list[list[int]] = [[c] for c in white]  # A8: white at the bottom
        self.prestige: dict[str, int] = dict.fromkeys(GENRES, 0)  # A6
        self.museum: list[str] = []
        self.decor: list[int] = list(house.decor)  # the pool, by size
        self.decor_lost = 0  # decor pieces taken and lost (A18)
        self.walls: list[Wall] = [Wall(house.cols, house.rows) for _ in range(n)]
        self.assistants: list[str | None] = [None] * n
        self.excess: list[list[str]] = [[] for _ in range(n)]
        star_mask = 0
        for star in house.stars:
            star_mask |= 1 << cell_index(star, house.cols, house.rows)  # type: ignore[operator]
        self.star_mask = star_mask

        self.round = 1
        self.phase = SETUP
        self.auctioneer = self.first_auctioneer
        self.lot: list[str] = []
        self.bids: list[int | None] = [None] * n
        self.order: list[int] = []
        self.pick_index = 0
        self.picker: int | None = None
        # The picker's placement (A12–A19).
        self.picked: str | None = None
        self.bonus = 0  # shields still to take from a frame bonus (A18)
        self.multi = False  # M >= 4: several pieces
        self.held: int | None = None  # a decor piece taken and not yet placed
        self.full_round = False  # A19: a wall became full this round
        self.finished = False
        self.winners: list[int] = []
        self.actions: ActionLog | list[Action] = ActionLog()  # packed (engine/actionlog.py)

    def _check_deck(self, deck: object) -> None:
        if not check_deck(deck):
            raise SetupError("not an Art Society deck (docs/records.md)")
        assert isinstance(deck, dict)
        shapes = {shape_name(w, h): count for w, h, count in self.house.shapes}
        if {name: len(pile) for name, pile in deck["piles"].items()} != shapes:
            raise SetupError("the deck's piles do not match the variant's shapes (A3)")
        if len(deck["starts"]) != self.n:
            raise SetupError("the deck deals a starting painting to each player (A7)")

    # ------------------------------------------------------------------ facts

    def realtime(self) -> bool:
        return False  # every decision waits for its player

    def to_act(self) -> list[int]:
        phase = self.phase
        if phase in (PICK, PLACE):
            return [self.picker]  # type: ignore[list-item]
        if phase == BID:
            return [s for s in range(self.n) if self.bids[s] is None]
        if phase == PREPARE:
            return [self.auctioneer]
        if phase == SETUP:
            return [s for s in range(self.n) if not self.walls[s].tiles]
        return []

    def lot_size(self) -> int:
        """A9: N + 1 paintings, or every painting left when fewer remain."""
        return min(self.n + 1, sum(len(p) for p in self.piles.values()))

    def tile_shape(self, code: str, turned: bool = False) -> tuple[int, int]:
        size = DECOR_OF.get(code)
        if size is not None:
            return (1, size) if turned else (size, 1)
        painting = self.paintings[code]
        return painting.w, painting.h

    def _tile_options(self, seat: int, tile: str, code: str) -> list[dict[str, Any]]:
        """`place` bounds for one tile: for each orientation, the top-left cells (A13)."""
        wall = self.walls[seat]
        options = []
        turns = (False, True) if DECOR_OF.get(code, 1) > 1 else (False,)
        for turned in turns:
            w, h = self.tile_shape(code, turned)
            cells = wall.cells_for(w, h)
            if cells:
                options.append({"tile": tile, "turned": turned, "w": w, "h": h, "cells": cells})
        return options

    def _can_hang(self, seat: int, code: str) -> bool:
        wall = self.walls[seat]
        if DECOR_OF.get(code, 1) > 1:
            return wall.can_hang(*self.tile_shape(code)) or wall.can_hang(
                *self.tile_shape(code, True)
            )
        return wall.can_hang(*self.tile_shape(code))

    def _exchanges(self, seat: int) -> list[dict[str, Any]]:
        """A16: museum paintings (same genre unless `exchange: any`) that can be hung now."""
        genre = self.paintings[self.picked].genre  # type: ignore[index]
        wall = self.walls[seat]
        out = []
        for code in dict.fromkeys(self.museum):
            painting = self.paintings[code]
            if self.house.exchange == "same" and painting.genre != genre:
                continue
            cells = wall.cells_for(painting.w, painting.h)
            if cells:
                out.append({"painting": code, "w": painting.w, "h": painting.h, "cells": cells})
        return out

    def legal(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may send now, with bounds (docs/protocol.md, Art Society)."""
        if seat is None or not 0 <= seat < self.n:
            return {}
        phase = self.phase
        if phase == BID:
            return {"bid": list(self.hands[seat])} if self.bids[seat] is None else {}
        if phase == SETUP:
            if self.walls[seat].tiles:
                return {}
            w, h = START_SHAPE
            house = self.house
            cells = [s.cell for s in spots(house.cols, house.rows, w, h) if s.mask & self.star_mask]
            return {"place": [{"tile": "start", "turned": False, "w": w, "h": h, "cells": cells}]}
        if phase == PREPARE:
            if seat != self.auctioneer:
                return {}
            piles = {name: len(p) for name, p in self.piles.items() if p}
            return {"shapes": {"count": self.lot_size(), "piles": piles}}
        if phase == OVER or seat != self.picker:
            return {}
        if phase == PICK:
            return {"pick": list(self.lot)}
        # PLACE
        assistant = self.assistants[seat]
        if self.held is not None:
            out: dict[str, Any] = {}
            options = self._tile_options(seat, "decor", decor_code(self.held))
            if options:
                out["place"] = options
            if assistant is None:
                out["assist"] = True
            out["discard"] = True
            return out
        if self.bonus:
            if self.house.frame_bonus == "exact":  # A18: the decor equals M
                return {"decor": self._decor_sizes()}
            return {"decor": self._decor_sizes(), "decline": True}
        out = {}
        places = []
        picked = self.picked
        if picked is not None:
            places += self._tile_options(seat, "picked", picked)
        if assistant is not None:
            places += self._tile_options(seat, "assistant", assistant)
        if places:
            out["place"] = places
        if picked is None:
            out["done"] = True
            return out
        if assistant is None:
            out["assist"] = True
        if not places or places[0]["tile"] != "picked":  # A14: it cannot be hung
            exchanges = self._exchanges(seat)
            if exchanges:
                out["exchange"] = exchanges
            out["excess"] = True
        return out

    def _decor_sizes(self) -> list[int]:
        """A18: the sizes the frame bonus may take now. Revision 1 (`at_most`): any size
        up to what is left. `exact`: one piece of M while that size lasts; else smaller
        pieces towards M (several pieces: any size up to what is left)."""
        bonus, supply = self.bonus, self.decor
        if self.house.frame_bonus == "exact" and not self.multi and supply[bonus - 1]:
            return [bonus]
        return [s for s in DECOR_SIZES if s <= bonus and supply[s - 1]]

    def multipliers(self) -> dict[str, int]:
        return multipliers(self.prestige, self.house.multipliers)

    def scores(self) -> list[dict[str, Any]]:
        """A23–A27 for every seat, as things stand."""
        return [
            score(self.walls[s], len(self.excess[s]), self.prestige, self.house, self.paintings)
            for s in range(self.n)
        ]

    def describe(self, code: str) -> dict[str, Any]:
        """A painting's public face (A3)."""
        p = self.paintings[code]
        return {
            "code": code,
            "w": p.w,
            "h": p.h,
            "genre": p.genre,
            "frame": p.frame,
            "value": p.value,
        }

    def _tile_json(self, code: str) -> dict[str, Any]:
        if code in DECOR_OF:
            return {"code": code, "shields": DECOR_OF[code]}
        return self.describe(code)

    def view(self, seat: int | None) -> dict[str, Any]:
        """All `seat` may know (None: a spectator). Hidden (A10, hidden information): pile
        order, bid cards before the reveal, other players' hands and stacks."""
        you = seat if seat is not None and 0 <= seat < self.n else None
        phase = self.phase
        revealed = phase in (PICK, PLACE) or (phase == OVER and self.order)
        scores = self.scores()
        seats = []
        for s in range(self.n):
            wall = self.walls[s]
            tiles = []
            for hung in wall.tiles:
                entry = self._tile_json(hung.code)
                entry.update(cell=hung.spot.cell, w=hung.w, h=hung.h)
                tiles.append(entry)
            assistant = self.assistants[s]
            seats.append(
                {
                    "name": self.players[s],
                    "cards": len(self.hands[s]),
                    "start": self.describe(self.starts[s]) if phase == SETUP else None,
                    "white": self.stacks[s][0] if phase == SETUP else None,
                    "wall": tiles,
                    "assistant": self._tile_json(assistant) if assistant else None,
                    "excess": len(self.excess[s]),
                    "score": scores[s],
                }
            )
        picker = self.picker if phase in (PICK, PLACE) else None
        house = self.house
        return {
            "you": you,
            "phase": phase,
            "round": self.round,
            "auctioneer": self.auctioneer,
            "to_act": self.to_act(),
            "wall": {
                "cols": house.cols,
                "rows": house.rows,
                "eyeline": list(house.eyeline),
                "stars": list(house.stars),
            },
            "piles": {name: len(p) for name, p in self.piles.items()},
            "lot": [self.describe(c) for c in self.lot],
            "museum": [self.describe(c) for c in self.museum],
            "prestige": dict(self.prestige),
            "multipliers": self.multipliers(),
            "decor": list(self.decor),
            "bid_in": [s for s in range(self.n) if self.bids[s] is not None]
            if phase == BID
            else [],
            "bids": list(self.bids) if revealed else None,
            "order": list(self.order) if revealed else [],
            "turn": {
                "seat": picker,
                "picked": self.describe(self.picked) if self.picked else None,
                "bonus": self.bonus,
                "multi": self.multi,
                "held": self.held,
            }
            if picker is not None
            else None,
            "seats": seats,
            "hand": list(self.hands[you]) if you is not None else [],
            "my_bid": self.bids[you] if you is not None and phase == BID else None,
            "stack": list(self.stacks[you]) if you is not None else [],
            "legal": self.legal(you),
            "variant": house.to_dict(),
            "finished": phase == OVER,
            "winners": list(self.winners),
        }

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        """Apply one action (with `seat`) and log it; return its events or raise a RuleError.

        Everything is checked before anything changes: an error leaves the game as it was.
        """
        events: list[Event] = []
        self.actions.append(self.step(action, events))
        return events

    def step(self, action: Action, events: list[Event] | None = None) -> Action:
        """`apply` without the log: the action as the log keeps it (its type, seat and own
        fields, a new map); its events go to `events`, None when nobody listens."""
        if not isinstance(action, dict):
            raise Illegal("an action must be a map")
        try:  # subscripts, not `get`: this runs for every action of every replay
            kind = action["type"]
            fields, handler = ACTIONS[kind]
        except (KeyError, TypeError):  # no type, an unknown one, or not even hashable
            raise Illegal(f"unknown action type {action.get('type')!r}"[:200]) from None
        if self.finished:
            raise Illegal("the game is over (A22)")
        try:
            seat = action["seat"]
        except KeyError:
            seat = None
        if type(seat) is not int or not 0 <= seat < self.n:
            raise Illegal(f"seat must be a player's seat from 0 to {self.n - 1}")
        if seat not in self.to_act():
            raise NotYourTurn(f"seat {seat} has nothing to do now")
        handler(self, seat, action, events)
        record: Action = {"type": kind, "seat": seat}
        for name in fields:
            if name in action:
                record[name] = action[name]
        return record

    # -- placement

    def _spot(self, seat: int, w: int, h: int, cell: object, first: bool = False) -> Spot:
        """Where a w × h tile goes with its corner at `cell`, if it may (A13); else why not.
        A cell's name is a key of the spots on the wall (`spot_at`): a tile that fits is
        found with one lookup, and only a refused one asks `problem` why."""
        wall = self.walls[seat]
        spot = spot_at(wall.cols, wall.rows, w, h).get(cell) if isinstance(cell, str) else None
        if spot is not None and wall.fits(spot, first):
            return spot
        problem = wall.problem(w, h, cell, first)
        assert problem is not None  # no spot that fits: `problem` says why
        raise Illegal(problem)

    def _place(self, seat: int, action: Action, events: list[Event] | None) -> None:
        tile, cell, turned = action.get("tile"), action.get("cell"), action.get("turned", False)
        if tile not in TILES:
            raise Illegal(f"tile must be one of {TILES}")
        if type(turned) is not bool:
            raise Illegal("turned must be true or false")
        if tile == "start":
            if self.phase != SETUP:
                raise Illegal("the starting painting is hung before the first round (A7)")
            code = self.starts[seat]
        elif self.phase != PLACE:
            raise Illegal("nothing to place now (A12)")
        elif tile == "decor":
            if self.held is None:
                raise Illegal("no decor piece in hand (A18)")
            code = decor_code(self.held)
        elif self.held is not None or self.bonus:
            raise Illegal("take, place or discard the frame bonus first (A18)")
        elif tile == "picked":
            if self.picked is None:
                raise Illegal("the picked painting is already placed")
            code = self.picked
        else:
            if self.assistants[seat] is None:
                raise Illegal("the assistant holds no tile (A15)")
            code = self.assistants[seat]  # type: ignore[assignment]
        if turned and DECOR_OF.get(code, 1) == 1:
            raise Illegal("paintings are never rotated (A3); a 1×1 decor has no turn")
        w, h = self.tile_shape(code, turned)
        first = tile == "start"
        spot = self._spot(seat, w, h, cell, first)
        if first and not spot.mask & self.star_mask:
            raise Illegal("the starting painting must cover a star cell (A7)")
        # -- checked; now change
        wall = self.walls[seat]
        painting = self.paintings.get(code)
        matches = wall.frame_matches(spot, painting.frame, self.paintings) if painting else 0
        wall.hang(code, spot, w, h)
        if events is not None:
            events.append(
                {
                    "type": "placed",
                    "seat": seat,
                    "tile": tile,
                    "code": code,
                    "cell": cell,
                    "w": w,
                    "h": h,
                }
            )
        if tile == "start":
            if all(wall.tiles for wall in self.walls):
                self.phase = PREPARE
            return
        if tile == "decor":
            self.held = None
        elif tile == "picked":
            self.picked = None
        else:
            self.assistants[seat] = None
        self._hung(seat, matches, events)

    def _hung(self, seat: int, matches: int, events: list[Event] | None) -> None:
        """After a tile is hung: A19's full wall, A18's frame bonus, the turn's end."""
        if self.walls[seat].full and not self.full_round:
            self.full_round = True
            if events is not None:
                events.append({"type": "wall_full", "seat": seat})
        if matches and not self.full_round:
            self.bonus, self.multi = matches, matches >= 4
            if events is not None:
                events.append({"type": "bonus", "seat": seat, "matches": matches})
        self._continue(seat, events)

    def _continue(self, seat: int, events: list[Event] | None) -> None:
        """Lapse a bonus nothing can be taken for; end the turn when nothing is left to do."""
        if self.full_round:
            self.bonus = 0
        if self.bonus and not self._decor_sizes():
            self.bonus = 0
        if self.picked is None and self.held is None and not self.bonus:
            assistant = self.assistants[seat]
            if assistant is None or not self._can_hang(seat, assistant):
                self._end_turn(events)

    def _assist(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A15 / A18: give the picked painting, or the decor piece in hand, to the assistant."""
        self._check_placing()
        if self.assistants[seat] is not None:
            raise Illegal("the assistant already holds a tile (A15)")
        if self.held is not None:
            code = decor_code(self.held)
            self.held = None
        elif self.bonus:
            raise Illegal("take a decor piece or decline the bonus first (A18)")
        elif self.picked is not None:
            code = self.picked
            self.picked = None
        else:
            raise Illegal("nothing to give to the assistant (A15)")
        self.assistants[seat] = code
        if events is not None:
            events.append({"type": "assisted", "seat": seat, "code": code})
        self._continue(seat, events)

    def _check_placing(self) -> None:
        if self.phase != PLACE:
            raise Illegal("nothing to place now (A12)")

    def _check_unhangable(self, seat: int) -> str:
        """A14: exchange and excess only for a picked painting that cannot be hung."""
        self._check_placing()
        if self.held is not None or self.bonus:
            raise Illegal("take, place or discard the frame bonus first (A18)")
        if self.picked is None:
            raise Illegal("no picked painting to place (A14)")
        if self._can_hang(seat, self.picked):
            raise Illegal("the painting can be hung, so it must be hung or assisted (A14)")
        return self.picked

    def _exchange(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A16: the picked painting to the museum, a museum painting hung at once."""
        given = self._check_unhangable(seat)
        code, cell = action.get("painting"), action.get("cell")
        if not isinstance(code, str) or code not in self.museum:
            raise Illegal(f"{code!r} is not in the museum (A16)")
        taken = self.paintings[code]
        if self.house.exchange == "same" and taken.genre != self.paintings[given].genre:
            raise Illegal("an exchange takes a painting of the same genre (A16)")
        spot = self._spot(seat, taken.w, taken.h, cell)
        wall = self.walls[seat]
        matches = wall.frame_matches(spot, taken.frame, self.paintings)
        self.museum.remove(code)
        self.museum.append(given)
        self.picked = None
        wall.hang(code, spot, taken.w, taken.h)
        if events is not None:
            events.append(
                {"type": "exchanged", "seat": seat, "given": given, "taken": code, "cell": cell}
            )
        self._hung(seat, matches, events)

    def _excess(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A17: the painting to the excess pile; a 1-shield decor piece if one is left."""
        code = self._check_unhangable(seat)
        self.excess[seat].append(code)
        self.picked = None
        if events is not None:
            events.append({"type": "excess", "seat": seat, "code": code})
        if self.decor[0] and not self.full_round:
            self.decor[0] -= 1
            self.held = 1
            if events is not None:
                events.append({"type": "decor", "seat": seat, "size": 1})
        self._continue(seat, events)

    def _decor(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A18: take one decor piece of the bonus (`_decor_sizes`)."""
        self._check_placing()
        size = action.get("size")
        if not self.bonus or self.held is not None:
            raise Illegal("no frame bonus to take decor from (A18)")
        if type(size) is not int or size not in self._decor_sizes():
            raise Illegal(f"decor size must be one of {self._decor_sizes()} (A18)")
        self.decor[size - 1] -= 1
        self.held = size
        if self.house.frame_bonus == "exact":  # smaller than M: the rest in more pieces
            self.bonus -= size
            self.multi = self.multi or self.bonus > 0
        else:
            self.bonus = self.bonus - size if self.multi else 0
        if events is not None:
            events.append({"type": "decor", "seat": seat, "size": size})

    def _decline(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """Revision 1's A18: a bonus of at most M may be taken as nothing."""
        self._check_placing()
        if not self.bonus or self.held is not None:
            raise Illegal("no frame bonus to decline (A18)")
        if self.house.frame_bonus == "exact":
            raise Illegal("the frame bonus is decor of exactly M shields: take it (A18)")
        self.bonus = 0
        if events is not None:
            events.append({"type": "declined", "seat": seat})
        self._continue(seat, events)

    def _discard(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A18: a decor piece neither hung nor given to the assistant is lost."""
        self._check_placing()
        if self.held is None:
            raise Illegal("no decor piece in hand (A18)")
        self.decor_lost += 1
        if events is not None:
            events.append({"type": "discarded", "seat": seat, "size": self.held})
        self.held = None
        self._continue(seat, events)

    def _done(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """End the placement, keeping the assistant's tile (A15)."""
        self._check_placing()
        if self.picked is not None or self.held is not None or self.bonus:
            raise Illegal("the picked painting and any bonus must be placed first (A14, A18)")
        self._end_turn(events)

    # -- the round

    def _shapes(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A9: the auctioneer chooses the lot's shapes; their top paintings turn face up."""
        if self.phase != PREPARE:
            raise Illegal("shapes are chosen at the start of a round (A9)")
        shapes = action.get("shapes")
        count = self.lot_size()
        if not isinstance(shapes, list) or len(shapes) != count:
            raise Illegal(f"choose {count} shapes (A9)")
        if any(not isinstance(s, str) or s not in self.piles for s in shapes):
            raise Illegal("a shape must be one of the piles (A9)")
        for name, wanted in Counter(shapes).items():
            if wanted > len(self.piles[name]):
                raise Illegal(f"the {name} pile has only {len(self.piles[name])} left (A9)")
        self.lot = [self.piles[name].pop() for name in shapes]
        self.phase = BID
        if events is not None:
            events.append({"type": "shapes", "seat": seat, "shapes": list(shapes)})
            events.append({"type": "lot", "paintings": [self.describe(c) for c in self.lot]})

    def _bid(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A10: a card from hand onto the stack; A11: all revealed, ordered by the stacks."""
        if self.phase != BID:
            raise Illegal("no bidding now (A10)")
        card = action.get("card")
        if type(card) is not int or card not in self.hands[seat]:
            raise Illegal("bid one of your remaining bid cards (A10)")
        self.hands[seat].remove(card)
        self.bids[seat] = card
        self.stacks[seat].append(card)
        if events is not None:
            events.append({"type": "bid_in", "seat": seat})
        if None in self.bids:
            return
        stacks = self.stacks
        self.order = sorted(range(self.n), key=lambda s: stacks[s][::-1], reverse=True)
        if events is not None:
            events.append({"type": "reveal", "bids": list(self.bids), "order": list(self.order)})
        self.pick_index = -1
        self._end_turn(events)

    def _pick(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """A12: take one painting of the lot."""
        if self.phase != PICK:
            raise Illegal("no picking now (A12)")
        code = action.get("painting")
        if not isinstance(code, str) or code not in self.lot:
            raise Illegal(f"{code!r} is not in the lot (A12)")
        self.lot.remove(code)
        self.picked = code
        self.phase = PLACE
        if events is not None:
            events.append({"type": "picked", "seat": seat, "code": code})

    def _end_turn(self, events: list[Event] | None) -> None:
        """The next player in bid order picks (A12); when none is left, the round ends."""
        self.picked, self.held, self.bonus, self.multi = None, None, 0, False
        self.pick_index += 1
        if self.pick_index < len(self.order) and self.lot:
            self.picker = self.order[self.pick_index]
            self.phase = PICK
            return
        self.picker = None
        self._end_round(events)

    def _end_round(self, events: list[Event] | None) -> None:
        """A20 (the unpicked painting to the museum), A22 (the end), A21 (next auctioneer)."""
        for code in self.lot:
            painting = self.paintings[code]
            self.prestige[painting.genre] += painting.value
            self.museum.append(code)
            prestige = self.prestige[painting.genre]
            if events is not None:
                events.append(
                    {"type": "museum", "code": code, "genre": painting.genre, "prestige": prestige}
                )
        self.lot = []
        if events is not None:
            events.append(
                {
                    "type": "round_end",
                    "round": self.round,
                    "prestige": dict(self.prestige),
                    "multipliers": self.multipliers(),
                }
            )
        over = (
            any(wall.full for wall in self.walls)
            or not any(self.hands)
            or any(len(e) >= EXCESS_TO_END for e in self.excess)
            or not any(self.piles.values())  # no painting left for another lot
        )
        if over:
            self._finish(events)
            return
        self.round += 1
        self.auctioneer = (self.auctioneer + 1) % self.n
        self.phase = PREPARE
        self.bids = [None] * self.n
        self.order = []
        self.full_round = False

    def _finish(self, events: list[Event] | None) -> None:
        """A28: most points; then fewer excess paintings; then more shields; else shared."""
        self.phase = OVER
        self.finished = True
        scores = self.scores()
        keys = [
            (scores[s]["total"], -len(self.excess[s]), scores[s]["shields"]) for s in range(self.n)
        ]
        best = max(keys)
        self.winners = [s for s in range(self.n) if keys[s] == best]
        points = [sc["total"] for sc in scores]
        if events is not None:
            events.append(
                {
                    "type": "game_end",
                    "points": points,
                    "scores": scores,
                    "winners": list(self.winners),
                }
            )

    # ------------------------------------------------------------- for tests

    def tile_count(self) -> int:
        """Paintings in piles, lot, hands, walls, assistants, excess and museum (conserved)."""
        on_walls = sum(1 for w in self.walls for t in w.tiles if t.code not in DECOR_OF)
        assisted = sum(1 for a in self.assistants if a and a not in DECOR_OF)
        unhung = sum(1 for s in range(self.n) if self.phase == SETUP and not self.walls[s].tiles)
        return (
            sum(len(p) for p in self.piles.values())
            + len(self.lot)
            + (self.picked is not None)
            + on_walls
            + assisted
            + sum(len(e) for e in self.excess)
            + len(self.museum)
            + unhung
        )

    def decor_count(self) -> int:
        """Decor pieces in the pool, walls, assistants, hand and lost (conserved)."""
        on_walls = sum(1 for w in self.walls for t in w.tiles if t.code in DECOR_OF)
        assisted = sum(1 for a in self.assistants if a in DECOR_OF)
        return sum(self.decor) + on_walls + assisted + (self.held is not None) + self.decor_lost


Handler = Callable[[ArtSociety, int, Action, list[Event]], None]

# type -> (the fields a record keeps, the handler)
ACTIONS: dict[str, tuple[tuple[str, ...], Handler]] = {
    "place": (("tile", "cell", "turned"), ArtSociety._place),
    "shapes": (("shapes",), ArtSociety._shapes),
    "bid": (("card",), ArtSociety._bid),
    "pick": (("painting",), ArtSociety._pick),
    "assist": ((), ArtSociety._assist),
    "exchange": (("painting", "cell"), ArtSociety._exchange),
    "excess": ((), ArtSociety._excess),
    "decor": (("size",), ArtSociety._decor),
    "decline": ((), ArtSociety._decline),
    "discard": ((), ArtSociety._discard),
    "done": ((), ArtSociety._done),
}
ACTION_FIELDS: dict[str, tuple[str, ...]] = {kind: f for kind, (f, _) in ACTIONS.items()}

__all__ = ["ACTIONS", "ACTION_FIELDS", "ArtSociety", "RuleError", "SetupError", "check_deck"]
