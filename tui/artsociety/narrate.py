"""Art Society's events in plain words for the event log (docs/protocol.md's events)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from modernart.engine.artsociety.rules import DEFAULT_SHAPES, PRESETS, House, catalogue

from .look import GENRE_NAME

_PAINTINGS = catalogue(DEFAULT_SHAPES)


def painting_words(code: str) -> str:
    """'a 3×2 landscape (frame 2)' for a painting code; decor codes as shields."""
    if code.startswith("d") and code[1:].isdigit():
        return f"a {code[1:]}-shield decor"
    p = _PAINTINGS.get(code)
    if p is None:  # a variant's shape outside the default table: the code says the shape
        return code
    return f"a {p.w}×{p.h} {GENRE_NAME[p.genre]} (frame {p.frame[1:]}, value {p.value})"


# Events told in one line of their fields: `{who}` is the seat's name ("You" for yours), a
# field the event lacks reads "None".
SAID = {
    "bid_in": "{who} laid a bid card",
    "decor": "{who} took a {size}-shield decor",
    "declined": "{who} took no (more) decor",
    "discarded": "{who} lost a {size}-shield decor",
    "round_end": "Round {round} ends",
}


class _Fields(dict[str, Any]):
    """An event's fields for `str.format_map`, with None for a field it lacks (as `get`)."""

    def __missing__(self, key: str) -> None:
        return None


def narrate(
    event: dict[str, Any], names: Sequence[str], you: int | None, house: House | None = None
) -> str | None:
    """One line for an event, or None for events not worth a line; `house`: the room's
    variant, for the values it says (the `house` preset if not given)."""

    def who(seat: object, start: bool = True) -> str:
        if seat == you:
            return "You" if start else "you"
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind, seat = event.get("type"), event.get("seat")
    said = SAID.get(kind)
    if said is not None:
        return said.format_map(_Fields(event, who=who(seat)))
    if kind == "placed":
        if event.get("tile") == "start":
            what = "your starting painting" if seat == you else "their starting painting"
        else:
            what = painting_words(str(event.get("code")))
        if event.get("tile") == "assistant":
            what += " from the assistant"
        return f"{who(seat)} hung {what} at {event.get('cell')}"
    if kind == "shapes":
        return f"{who(seat)} chose the lot: " + ", ".join(
            s.replace("x", "×") for s in event.get("shapes") or []
        )
    if kind == "reveal":
        bids = event.get("bids") or []
        order = event.get("order") or []
        shown = ", ".join(f"{who(s)} {bids[s]}" for s in order if s < len(bids))
        tie = len(set(bids)) < len(bids)
        why = "; equal bids: the cards beneath decide, down to the white cards (A11)"
        return f"Bids revealed (pick order): {shown}{why if tie else ''}"
    if kind == "picked":
        return f"{who(seat)} picked {painting_words(str(event.get('code')))}"
    if kind == "assisted":
        return f"{who(seat)} gave {painting_words(str(event.get('code')))} to the assistant"
    if kind == "exchanged":
        return (
            f"{who(seat)} exchanged it for {painting_words(str(event.get('taken')))} "
            f"from the museum, hung at {event.get('cell')}"
        )
    if kind == "excess":
        penalty = (house or PRESETS["house"]).excess_penalty
        return f"{who(seat)} could not hang it: excess (−{penalty} at the end)"
    if kind == "bonus":
        return (
            f"Frame bonus for {who(seat, False)}: {event.get('matches')} matching frame(s) touch it"
        )
    if kind == "wall_full":
        whose = "Your" if seat == you else f"{who(seat)}'s"
        return f"{whose} wall is full: no more decor this round; the game ends"
    if kind == "museum":
        return (
            f"To the museum: {painting_words(str(event.get('code')))}; "
            f"{GENRE_NAME.get(str(event.get('genre')), '?')} prestige now {event.get('prestige')}"
        )
    if kind == "game_end":
        points = event.get("points") or []
        winners = event.get("winners") or []
        return "Game over: " + ", ".join(
            f"{who(s)} {p}{' (wins)' if s in winners else ''}" for s, p in enumerate(points)
        )
    return None


def action_words(action: dict[str, Any]) -> str | None:
    """A pick or a placement in the game's words for the review's marks
    (tui/reviewmarks.py). None: no words of the game's for it."""
    kind, painting = action.get("type"), action.get("painting")
    if kind == "place":
        return f"hang it at {action.get('cell')}" + (", turned" if action.get("turned") else "")
    if kind == "pick" and isinstance(painting, str):
        return f"pick {painting_words(painting)}"
    return None
