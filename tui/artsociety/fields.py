"""The Art Society table's own fields, declared once for the parts mixed into it."""

from __future__ import annotations

from typing import Any


class TableFields:
    """The fields `ArtSocietyTable.init_fields` sets and its view: what the table's drawing
    (tabledraw.py) and keys (tableacts.py) read and set."""

    view: dict[str, Any]
    cursor: tuple[int, int]  # the ghost's top-left corner (column, row)
    choice: int  # which placement option the ghost shows
    exchanging: bool
    pointer: int  # the bid card, the lot painting or the shape under the cursor
    chosen: list[str]  # shapes chosen for the lot so far (A9)
    watching: int | None  # whose wall is shown full size (None: yours)
    error: str
    drawn_from: dict[str, str]  # a part of the table -> what it was last drawn from
