"""Getting games out of the store as RECORD.md records that `modernart replay` reads."""

from __future__ import annotations

import pathlib
import sys
from typing import Any

from modernart.engine import Record, dump_record
from modernart.engine.games import DEFAULT_GAME
from modernart.server.store.port import StorePort, has_database, open_store


def record_of_room(store: StorePort, room_id: str) -> Record | None:
    """The record of a started game (None if there is no such started room)."""
    stored = store.room(room_id)
    if stored is None or stored.header is None:
        return None
    header = stored.header
    extra: dict[str, Any] = {"room": stored.id, "name": stored.name, "status": stored.status}
    return Record(
        players=list(header["players"]),
        variant=header["variant"],
        deck=header["deck"],
        first_auctioneer=header["first_auctioneer"],
        actions=stored.actions,
        extra=extra,
        game=header.get("game", DEFAULT_GAME),
    )


def export_command(
    data: pathlib.Path, rooms: list[str], every: bool, out: pathlib.Path, url: str | None = None
) -> int:
    if not has_database(data, url):
        print(f"modernart-server export: no database in {data}", file=sys.stderr)
        return 2
    store = open_store(data, url)
    try:
        ids = list(rooms) + (store.finished_room_ids() if every else [])
        if not ids:
            print("modernart-server export: name rooms or use --all", file=sys.stderr)
            return 2
        out.mkdir(parents=True, exist_ok=True)
        status = 0
        for room_id in ids:
            record = record_of_room(store, room_id)
            if record is None:
                print(f"modernart-server export: no started game {room_id!r}", file=sys.stderr)
                status = 1
                continue
            path = out / f"{room_id}.json"
            path.write_text(dump_record(record), encoding="utf-8")
            print(path)
        return status
    finally:
        store.close()
