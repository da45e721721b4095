"""Rule variants and presets (RULES.md R28–R30)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import VariantError

DOUBLE_PAYMENTS = ("split", "second_takes_all")


@dataclass(frozen=True, slots=True)
class Variant:
    double_payment: str = "split"  # R17 / R28
    virtual_player: bool = False  # R29

    def to_dict(self) -> dict[str, object]:
        return {"double_payment": self.double_payment, "virtual_player": self.virtual_player}


PRESETS: dict[str, Variant] = {
    "classic": Variant("split", False),
    "classic_3p_virtual": Variant("split", True),
    "japanese": Variant("second_takes_all", False),
}

PRESET_HELP: dict[str, str] = {
    "classic": "Base rules: a double's price is split between the two sellers.",
    "classic_3p_virtual": "3 players plus a virtual fourth hand that turns up cards.",
    "japanese": "Japanese edition: the player who adds to a double takes the whole price.",
}


def parse_variant(value: object, players: int | None = None) -> Variant:
    """Read a variant from a preset name, a mapping, a Variant or None (classic)."""
    if value is None:
        variant = PRESETS["classic"]
    elif isinstance(value, Variant):
        variant = value
    elif isinstance(value, str):
        if value not in PRESETS:
            raise VariantError(f"unknown variant preset {value!r}")
        variant = PRESETS[value]
    elif isinstance(value, dict):
        extra = set(value) - {"double_payment", "virtual_player"}
        if extra:
            raise VariantError(f"unknown variant keys: {sorted(extra)}")
        payment = value.get("double_payment", "split")
        virtual = value.get("virtual_player", False)
        if payment not in DOUBLE_PAYMENTS:
            raise VariantError(f"double_payment must be one of {DOUBLE_PAYMENTS}")
        if not isinstance(virtual, bool):
            raise VariantError("virtual_player must be true or false")
        variant = Variant(payment, virtual)
    else:
        raise VariantError("variant must be a preset name or an object")
    if variant.virtual_player and players is not None and players != 3:
        raise VariantError("the virtual player (R29) needs exactly 3 players")
    return variant
