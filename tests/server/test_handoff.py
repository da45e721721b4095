"""Play this identity elsewhere (issue 17): `handoff` codes and `claim`, over real sockets."""

from __future__ import annotations

import re

from modernart.server.people.handoff import VALID_S, HandoffCodes, normal

from .wsclient import Client


async def test_a_code_gives_another_device_the_identity_once(player, url):
    ann = await player("Ann")
    rid = await ann.send("handoff")
    reply = await ann.expect_reply(rid)
    assert reply["t"] == "handoff" and reply["expires_s"] == VALID_S
    code = reply["code"]
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", code)
    assert ann.token not in str(reply)

    phone = await player("Phone")
    rid = await phone.send("claim", code=code.lower().replace("-", " "))  # as typed
    claimed = await phone.expect_reply(rid)
    assert claimed["t"] == "claimed" and claimed["name"] == "Ann" and claimed["re"] == rid
    assert claimed["token"] != ann.token  # a device of its own (issue 33)
    again = await Client.hello(url, "Ann", claimed["token"])
    assert again.you == ann.you  # the same identity on the other device
    await again.close()

    rid = await phone.send("claim", code=code)  # used up
    error = await phone.expect_reply(rid)
    assert error["t"] == "error" and error["code"] == "wrong_code"


async def test_wrong_codes_are_refused_then_limited_per_address(player):
    ann = await player("Ann")
    rid = await ann.send("handoff")
    code = (await ann.expect_reply(rid))["code"]
    eve = await player("Eve")
    for _ in range(5):
        rid = await eve.send("claim", code="0000-0000")
        assert (await eve.expect_reply(rid))["code"] == "wrong_code"
    rid = await eve.send("claim", code=code)  # even the right one, until a try is back
    assert (await eve.expect_reply(rid))["code"] == "rate_limited"
    assert not any(m.get("t") == "claimed" for m in eve.received)


async def test_a_new_code_replaces_the_old_and_codes_expire():
    codes = HandoffCodes(tries_per_minute=3)
    first = codes.issue("u1", "d1", now=0.0)
    second = codes.issue("u1", "d1", now=1.0)
    assert codes.redeem(first, "a", now=2.0) is None
    assert codes.redeem(second, "a", now=1.0 + VALID_S) is None  # expired
    third = codes.issue("u1", "d1", now=2.0)
    handoff = codes.redeem(third.lower(), "a", now=3.0)
    assert handoff is not None and handoff.identity_id == "u1" and handoff.device == "d1"
    assert normal("abcd-efgh") == "ABCD-EFGH".replace("-", "")
    assert normal("o1l-i") == "0111"
