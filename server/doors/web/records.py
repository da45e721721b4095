"""A player's finished games in the browser (issue 28): `/records` lists them as JSON
for the page, `/record/ROOM.json` downloads one (Content-Disposition: attachment).

Both answer only to the page's cookie (server/doors/web/identity.py): without a cookie that
names an identity of this server, 403, even for a public game; with one, the rule of
the `record` message (server/rooms/records.py): only a game that is over, a locked room's
only to its players. The cookie is SameSite=Strict and every answer is
Cross-Origin-Resource-Policy: same-origin (page.py), so another site can neither send
it nor read the answer.
"""

from __future__ import annotations

import json
import re

from websockets.datastructures import Headers
from websockets.http11 import Response

from modernart.engine import dump_record
from modernart.engine.games import get_game
from modernart.server.doors.web import page
from modernart.server.doors.web.identity import cookie_token
from modernart.server.rooms.records import identity_of_token, own_games, visible_record
from modernart.server.store.sqlite import Store
from modernart.server.wire.httpcheck import cookies
from modernart.server.wire.refusal import Refused

LIST = "/records"
ONE = re.compile(r"/record/([A-Za-z0-9_-]{1,64})\.json")
HINT = 'download it with "Your finished games" below the terminal.'
NO_COOKIE = "no player here: open the game's page in this browser first"


def is_records(path: str) -> bool:
    return path == LIST or path.startswith("/record/")


def answer(store: Store, headers: Headers, path: str) -> Response:
    """`/records` or `/record/ROOM.json` for the identity of the request's cookie."""
    viewer = identity_of_token(store, cookie_token(cookies(headers)))
    if viewer is None:
        return page.text(403, NO_COOKIE)
    if path == LIST:
        games = [
            {
                "room": g.room,
                "game": g.game,
                "title": get_game(g.game).title,
                "finished": int(g.finished),
                "outcome": g.outcome,
                "url": f"/record/{g.room}.json",
            }
            for g in own_games(store, viewer)
        ]
        body = json.dumps({"games": games}).encode()
        return page.respond(200, body, "application/json", Cache_Control="no-store")
    found = ONE.fullmatch(path)
    if found is None:
        return page.text(404, "not found")
    room = found.group(1)
    try:
        record = visible_record(store, viewer, room)
    except Refused as exc:
        return page.text(404 if exc.code == "no_such_room" else 403, str(exc))
    return page.respond(
        200,
        dump_record(record).encode(),
        "application/json",
        Cache_Control="no-store",
        Content_Disposition=f'attachment; filename="{record.game}-{room}.json"',
    )
