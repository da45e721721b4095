"""The scoring values of a game's variant in words (ARTSOCIETY.md A18, A23, A25, A27).

F1, the end screen, the placement panel and the log say the values of the room's
own variant (the view's `variant`), never numbers written into the client: a
`house_r1` game says revision 1's, a `house` game revision 2's.
"""

from __future__ import annotations

from modernart.engine.artsociety.rules import PRESETS, House, parse_variant
from modernart.engine.errors import VariantError


def house_of(variant: object) -> House:
    """The variant's settings; `house` for none (a waiting room) or one this client cannot
    read (a newer server's keys)."""
    try:
        return parse_variant(variant)
    except VariantError:
        return PRESETS["house"]


def points(count: int) -> str:
    return f"{count} point{'s' if count != 1 else ''}"


def shields(count: int | str) -> str:
    return f"{count} shield{'s' if count != 1 else ''}"


def frame_bonus(house: House, m: int | str) -> str:
    """A18: what M matching frames bring, "decor of exactly 2 shields"."""
    if house.frame_bonus == "exact":
        return f"decor of exactly {shields(m)}"
    return f"decor up to {shields(m)}"


def eyeline(house: House) -> str:
    """A25: what a first-ranked scoring painting on the eyeline scores more, "+3"."""
    parts = []
    if house.eyeline_bonus:
        times = "once" if house.eyeline_bonus == 1 else f"{house.eyeline_bonus} times"
        parts.append(f"its multiplier {times} more")
    if house.eyeline_points:
        parts.append(f"+{house.eyeline_points}")
    return " and ".join(parts) or "nothing more"


def end_costs(house: House) -> list[str]:
    """A27's penalties and bonus, "−2 per excess painting", … (the zero ones left out)."""
    out = [f"−{house.excess_penalty} per excess painting"] if house.excess_penalty else []
    if house.empty_penalty:
        out.append(f"−{house.empty_penalty} per empty cell")
    if house.corner_penalty:
        out.append(f"−{house.corner_penalty} per empty corner cell")
    if house.full_bonus:
        out.append(f"+{house.full_bonus} for a full wall")
    return out


def wall_hint(house: House) -> str:
    """What an empty wall costs, for the player hanging their starting painting (A27)."""
    if house.empty_penalty:
        return f"Each empty cell costs {points(house.empty_penalty)} at the end: fill your wall."
    if house.corner_penalty:
        return (
            f"Each empty corner costs {points(house.corner_penalty)} at the end; "
            f"a full wall earns {house.full_bonus}."
        )
    return f"A full wall earns {house.full_bonus} at the end."
