"""Serengeti's payout variant and presets (SERENGETI.md S19, S20)."""

from __future__ import annotations

from ..errors import VariantError

PAYOUTS = ("split", "majority")  # S19

PRESETS: dict[str, dict[str, str]] = {  # S20
    "serengeti": {"payout": "split"},
    "don": {"payout": "majority"},
}
PRESET_HELP: dict[str, str] = {
    "serengeti": "A price is split evenly among the other holders of its last digit.",
    "don": "Don's rule: the holder with the most cards of the last digit takes the price.",
}
DEFAULT_PRESET = "serengeti"


def parse_variant(value: object, players: int | None = None) -> dict[str, str]:
    """A preset name, a mapping `{payout}` (optional key) or None; ValueError otherwise."""
    if value is None:
        return dict(PRESETS[DEFAULT_PRESET])
    if isinstance(value, str):
        if value not in PRESETS:
            raise VariantError(f"unknown preset {value!r}; choose from {', '.join(PRESETS)}")
        return dict(PRESETS[value])
    if not isinstance(value, dict):
        raise VariantError("a variant is a preset name or an object {payout}")
    unknown = set(value) - {"payout"}
    if unknown:
        raise VariantError(f"unknown variant keys {sorted(map(str, unknown))}")
    payout = value.get("payout", "split")
    if payout not in PAYOUTS:
        raise VariantError(f"payout must be one of {', '.join(PAYOUTS)}")
    return {"payout": payout}
