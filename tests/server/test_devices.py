"""An identity's devices (issue 33, item 9b): a claimed code makes a device with a token of
its own, the identity's clients list and revoke them, and a replaced device is told which
one took over. Real sockets, real msgpack, real asyncssh."""

from __future__ import annotations

import time
from typing import Any

from modernart.server.people.devices import NATIVE
from modernart.server.store.devices import FIRST_DEVICE
from modernart.server.store.port import open_store

from .sshgate import identity_of, lobby
from .wsclient import Client


async def claim(url: str, owner: Client, name: str = "Phone") -> str:
    """A code from `owner`, claimed by a new client: the token that client got."""
    code = (await owner.expect_reply(await owner.send("handoff")))["code"]
    phone = await Client.hello(url, name)
    claimed = await phone.expect_reply(await phone.send("claim", code=code))
    await phone.close()
    return claimed["token"]


async def listing(client: Client) -> list[dict[str, Any]]:
    answer = await client.expect_reply(await client.send("devices"))
    assert answer["t"] == "devices"
    return answer["devices"]


async def test_a_claim_makes_a_second_device_and_both_tokens_play_the_identity(url):
    ann = await Client.hello(url, "Ann")
    phone_token = await claim(url, ann)
    assert phone_token != ann.token

    phone = await Client.hello(url, "Ann", phone_token)
    assert phone.you == ann.you
    replaced = await ann.expect("replaced")  # told which device took over, then closed
    assert replaced["by"] == NATIVE and replaced["same"] is False
    await ann.ws.wait_closed()
    assert ann.ws.close_code == 4000

    devices = await listing(phone)
    assert [d["current"] for d in devices] == [False, True]  # oldest first, this one marked
    assert replaced["device"] == devices[1]["id"] != devices[0]["id"]
    assert all(d["label"] == NATIVE and d["created"] <= d["seen"] for d in devices)
    assert ann.token not in str(phone.received) and phone_token not in str(devices)

    back = await Client.hello(url, "Ann", ann.token)  # the first token still works too
    assert back.you == ann.you
    assert [d["current"] for d in await listing(back)] == [True, False]
    await phone.ws.wait_closed()
    await back.close()


async def test_a_revoked_device_is_refused_and_cannot_revoke_back(url):
    ann = await Client.hello(url, "Ann")
    await ann.send("create", seats=3, name="T")
    room = (await ann.expect("joined"))["room"]
    phone_token = await claim(url, ann)
    laptop_code = (await ann.expect_reply(await ann.send("handoff")))["code"]
    phone = await Client.hello(url, "Ann", phone_token)  # the laptop is replaced
    assert (await phone.expect("joined"))["room"] == room  # same identity, same seat
    laptop, own = await listing(phone)

    rid = await phone.send("revoke_device", device=own["id"])
    assert (await phone.expect_reply(rid))["code"] == "not_allowed"  # not this one
    rid = await phone.send("revoke_device", device="d000000000000")
    assert (await phone.expect_reply(rid))["code"] == "no_such_device"
    answer = await phone.expect_reply(await phone.send("revoke_device", device=laptop["id"]))
    assert answer["revoked"] == laptop["id"]
    assert [d["id"] for d in answer["devices"]] == [own["id"]]

    # The laptop's token plays the identity no more: its name is another player's now.
    refused = await Client.open(url)
    await refused.send("hello", v=1, name="Ann", token=ann.token)
    assert (await refused.expect("error"))["code"] == "name_taken"
    # Under another name it is just a new identity, which cannot revoke the phone.
    stranger = await Client.hello(url, "Mallory", ann.token)
    assert stranger.you != ann.you and stranger.token != ann.token
    rid = await stranger.send("revoke_device", device=own["id"])
    assert (await stranger.expect_reply(rid))["code"] == "no_such_device"
    # A code the laptop asked for goes with it.
    other = await Client.hello(url, "Other")
    rid = await other.send("claim", code=laptop_code)
    assert (await other.expect_reply(rid))["code"] == "wrong_code"
    assert [d["id"] for d in await listing(phone)] == [own["id"]]  # the phone plays on
    assert not phone.ws.close_code
    await phone.close()


async def test_revoking_an_ssh_device_ends_its_session_and_frees_its_key(ssh, key):
    gate = await ssh()
    url = f"ws://127.0.0.1:{gate.server.port}/"
    ann = await Client.hello(url, "Ann")
    code = (await ann.expect_reply(await ann.send("handoff")))["code"]
    term = await lobby(gate, key, "bob")
    term.send("i")
    await term.wait_text("Play an identity from another device")
    term.send(code + "\r")
    await term.wait(lambda: identity_of(gate, key).id == ann.you, "the key's move")
    await term.wait_text("Rooms")
    replaced = await ann.expect("replaced")
    fingerprint = key.get_fingerprint()
    assert replaced["by"] == f"SSH key {fingerprint[:19]}…"

    # The laptop takes the identity back: the SSH session's client stops, saying who.
    back = await Client.hello(url, "Ann", ann.token)
    await term.wait(lambda: "from another device" in " ".join(term.text().split()), "the note")
    mine, ssh_device = await listing(back)
    assert mine["current"] and ssh_device["label"] == replaced["by"]
    await back.expect_reply(await back.send("revoke_device", device=ssh_device["id"]))
    await term.wait_closed()
    assert "signed out" in term.output()
    # The key's token is refused: its next login gets an identity of its own.
    assert gate.identities.get(fingerprint) is None  # the dead token is forgotten
    again = await lobby(gate, key, "robert")
    assert identity_of(gate, key).id != ann.you
    assert back.ws.close_code is None  # the laptop plays on
    assert again.chan is not None
    again.chan.close()
    await again.wait_closed()


def test_a_store_from_before_devices_keeps_every_token_as_a_first_device(tmp_path, store_url):
    store = open_store(tmp_path, store_url)
    store.add_identity("u1", "Ann", "token-of-ann")
    store.add_identity("u2", "Bob", "token-of-bob")
    key = "SHA256:" + "k" * 43
    store.put_key_token(key, "token-of-bob")
    store.db.execute("DROP TABLE devices")  # as a store from before issue 33
    store.close()

    for _ in range(2):  # made once: opened again, nothing changes
        store = open_store(tmp_path, store_url)
        assert store.find_identity("token-of-ann") == ("u1", "Ann", False)
        assert [d.label for d in store.devices_of("u1")] == [FIRST_DEVICE]
        assert [d.label for d in store.devices_of("u2")] == [f"SSH key {key[:19]}…"]
        store.close()

    store = open_store(tmp_path, store_url)  # an expired identity's devices go with it
    assert store.expire_identities(time.time() + 1, {"u2"}, 10) == 1
    assert store.devices_of("u1") == [] and store.find_identity("token-of-ann") is None
    assert len(store.devices_of("u2")) == 1
    store.close()
