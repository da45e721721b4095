"""Which of the table's own keys the Art Society footer lists while you decide.

A decision's keys come first (a decor piece after excess lists seven); the table's own
keys (t chat, L leave, w walls, PgUp the log) follow whenever the footer has room for
them beside the decision's keys, Quit and Help, at the screen's width. Those that do
not fit stay bound, unlisted (F1 lists them). The hint (`?`) is a decision's key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.cells import cell_len
from textual.actions import parse
from textual.binding import Binding

# The table's own keys, in the order they are given room: chat and leave first.
SIDE_ORDER = ("chat", "leave", "cycle_wall", "log_up")
# A compact footer key is its key, a space, its label, and a space after it.
GAP = 2


def key_width(display: str, description: str) -> int:
    return cell_len(display) + cell_len(description) + GAP


def side_name(binding: Binding) -> str | None:
    """The side key a binding is ("chat", "log_up", …), or None for a decision's key."""
    _, name, parameters = parse(binding.action)
    if name == "log":
        return "log_up" if parameters == (-1,) and binding.show else None
    return name if name in SIDE_ORDER and binding.show else None


def side_keys_shown(
    bindings: Iterable[Binding],
    allowed: Callable[[str, tuple[object, ...]], object],
    display: Callable[[Binding], str],
    width: int,
) -> set[str]:
    """The side keys (by name) that fit at `width` after every other shown binding that
    `allowed` lets through (one per action, as the footer shows them)."""
    used, seen_keys, seen_actions = 0, set(), set()
    side: dict[str, Binding] = {}
    for binding in bindings:
        name = side_name(binding)
        if name is not None:
            side.setdefault(name, binding)
            continue
        if not binding.show or binding.key in seen_keys:
            continue
        _, action, parameters = parse(binding.action)
        if allowed(action, parameters):
            seen_keys.add(binding.key)
            if binding.action not in seen_actions:
                seen_actions.add(binding.action)
                used += key_width(display(binding), binding.description)
    shown = set()
    for name in SIDE_ORDER:
        binding = side.get(name)
        if binding is None:
            continue
        need = key_width(display(binding), binding.description)
        if used + need <= width:
            shown.add(name)
            used += need
    return shown
