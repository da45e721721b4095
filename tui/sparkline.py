"""A sparkline: a series of numbers as one row of block characters."""

from __future__ import annotations

BLOCKS = "▁▂▃▄▅▆▇█"


def squeeze(values: list[float], width: int) -> list[float]:
    """At most `width` values: consecutive runs averaged, in order (none dropped)."""
    if len(values) <= width:
        return list(values)
    out = []
    for i in range(width):
        run = values[i * len(values) // width : (i + 1) * len(values) // width]
        out.append(sum(run) / len(run))
    return out


def sparkline(values: list[float], width: int, low: float, high: float) -> str:
    """`values` squeezed to `width` columns on the scale `low`..`high` (shared by the
    lines drawn together, so that their heights compare)."""
    span = high - low
    top = len(BLOCKS) - 1
    line = []
    for value in squeeze(values, width):
        at = 0 if span <= 0 else round((value - low) / span * top)
        line.append(BLOCKS[max(0, min(top, at))])
    return "".join(line)
