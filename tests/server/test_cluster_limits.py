"""Hand-off codes and the slow rates across a cluster's processes (issue 30).

A code asked for on one process is good once on any (the shared store holds it,
hashed); wrong passwords, wrong codes and new identities from one address spent on one
process are taken from its budget on the others by the next beat. Real servers in this
test's loop, a real PostgreSQL and a real redis-server, as in tests/server/test_cluster.py
(whose fixtures these tests share). Nothing here waits a fixed time: after a try, a test
waits until the other process has heard of it (its beat), with a deadline.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

from websockets.exceptions import ConnectionClosed

from modernart.server import limits
from modernart.server.limits import (
    NEW_IDENTITIES,
    NEW_IDENTITIES_BURST,
    PASSWORD_TRIES,
    WRONG_CODES,
    WRONG_PASSWORDS,
    Buckets,
    Limits,
)
from modernart.server.people.handoff import normal
from modernart.server.store.errors import token_hash
from modernart.server.wire.app import Server

from .rediscluster import redis_url  # noqa: F401 (a fixture)
from .test_cluster import pg_url, servers, url  # noqa: F401 (fixtures)
from .waiting import eventually
from .wsclient import Client

DEADLINE_S = 30.0  # for what the beats bring: a second or two, unless the machine crawls
# A try back every 1,000 minutes: none comes back while a test runs, however slow.
SLOW = Limits.for_dev().replace(password_tries_per_minute=0.001)
MAL = "10.6.6.6"  # the address that tries too much


class Heard:
    """What each server hears the other processes spend (their beats' `t`), per kind and key."""

    def __init__(self, *watched: Server) -> None:
        self.counts: dict[Server, Counter[tuple[str, str]]] = {}
        for server in watched:
            nodes, counts = server.hub.cluster.nodes, Counter()
            self.counts[server] = counts
            nodes.on_spent = self._recorder(nodes.on_spent, counts)

    @staticmethod
    def _recorder(debit: Any, counts: Counter[tuple[str, str]]) -> Any:
        def record(spent: dict[str, dict[str, int]]) -> None:
            debit(spent)
            for kind, keys in spent.items():
                for key, tokens in keys.items():
                    counts[kind, key] += tokens

        return record

    async def until(self, server: Server, kind: str, key: str, total: int) -> None:
        """Until `server` has heard the others spend `total` of `kind` for `key`."""
        await eventually(
            lambda: self.counts[server][kind, key] >= total,
            f"{total} of {kind} for {key} told to the other process",
            timeout=DEADLINE_S,
        )


async def ask_code(client: Client) -> str:
    return (await client.expect_reply(await client.send("handoff")))["code"]


async def claim(client: Client, code: str) -> dict[str, Any]:
    return await client.expect_reply(await client.send("claim", code=code))


def test_a_shared_bucket_counts_what_it_spends_and_takes_what_others_spent():
    buckets = Buckets(3, 0.0001)
    assert buckets.take("a") and buckets.spent() == {}  # not shared: nothing counted
    buckets.share()
    assert buckets.take("a") and buckets.take("b") and buckets.take("a")
    assert buckets.spent() == {"a": 2, "b": 1}
    assert buckets.spent() == {}  # handed over once
    buckets.debit("b", 5)  # more than it holds: a debt of 3
    assert not buckets.take("b") and buckets.spent() == {}
    assert buckets["b"].tokens < -2.99
    buckets.debit("c", 2)  # a key new here
    assert buckets.take("c") and not buckets.take("c")
    assert buckets.spent() == {"c": 1}
    off = Buckets(3, float("inf"))  # a limit of 0: always a token, nothing to tell
    off.share()
    assert off.take("a") and off.spent() == {}


def test_tries_made_at_once_on_two_processes_are_owed_on_both(monkeypatch):
    """Two processes' buckets for one address, each spending its whole burst at the same
    moment (before either beat): once each hears the other's, both owe the other's burst,
    so the next try comes back when it would on one process that had let all through."""
    now = [0.0]
    monkeypatch.setattr(limits, "clock", lambda: now[0])
    rate = 1 / 60  # a try a minute
    a, b = Buckets(PASSWORD_TRIES, rate), Buckets(PASSWORD_TRIES, rate)
    for buckets in (a, b):
        buckets.share()
        assert all(buckets.take(MAL) for _ in range(PASSWORD_TRIES))
    told_a, told_b = a.spent(), b.spent()  # their beats
    for buckets, told in ((a, told_b), (b, told_a)):
        for key, tokens in told.items():
            buckets.debit(key, tokens)
    now[0] = (PASSWORD_TRIES + 1) / rate - 1  # the other's burst and one try, nearly
    assert not a[MAL].ready() and not b[MAL].ready()
    now[0] += 1
    assert a.take(MAL) and b.take(MAL)


async def test_a_code_asked_for_on_one_process_is_claimed_once_on_another(servers):  # noqa: F811
    """Ann on A asks for a code; a phone whose connection lands on B claims it and plays
    Ann from then on. The code is then used up, on B and on A alike; the store holds
    its hash, never the code."""
    a, b = await servers("a"), await servers("b")
    ann = await Client.hello(url(a), "Ann")
    phone, other = await Client.hello(url(b), "Phone"), await Client.hello(url(a), "Other")
    try:
        code = await ask_code(ann)
        stored = [r[0] for r in a.hub.store.db.execute("SELECT code_hash FROM handoffs")]
        assert stored == [token_hash(normal(code))]
        claimed = await claim(phone, code.lower())
        assert claimed["t"] == "claimed" and claimed["name"] == "Ann"
        assert (await claim(phone, code))["code"] == "wrong_code"  # on B: used up
        assert (await claim(other, code))["code"] == "wrong_code"  # on A too
        again = await Client.hello(url(a), "Ann", claimed["token"])
        assert again.you == ann.you  # the phone's own token, Ann's identity
        await again.close()
    finally:
        for client in (ann, phone, other):
            await client.close()


async def test_a_revoked_devices_code_cannot_be_claimed_on_another_process(servers):  # noqa: F811
    """Ann's phone (on B) asks for a code; Ann revokes the phone from her laptop (on A)
    before anyone claims it: the code is gone for every process."""
    a, b = await servers("a"), await servers("b")
    ann = await Client.hello(url(a), "Ann")
    first = await Client.hello(url(b), "Phone")
    token = (await claim(first, await ask_code(ann)))["token"]
    await first.close()
    phone = await Client.hello(url(b), "Ann", token)
    strangers = [await Client.hello(url(s), f"Stranger{n}") for s, n in ((a, "A"), (b, "B"))]
    try:
        code = await ask_code(phone)
        devices = (await ann.expect_reply(await ann.send("devices")))["devices"]
        phones = [d["id"] for d in devices if not d["current"]]
        assert len(phones) == 1
        answer = await ann.expect_reply(await ann.send("revoke_device", device=phones[0]))
        assert answer.get("revoked") == phones[0], answer
        for stranger in strangers:
            assert (await claim(stranger, code))["code"] == "wrong_code"
    finally:
        for client in (ann, phone, *strangers):
            with contextlib.suppress(ConnectionClosed):
                await client.close()


async def test_wrong_passwords_from_one_address_count_on_every_process(servers):  # noqa: F811
    """Mallory's address guesses at a locked room on A and another on B, in turn: after
    as many wrong tries in all as one process allows, both processes refuse it, even
    the right password; the rooms themselves are not exhausted (another address gets in)."""
    a = await servers("a", limits=SLOW, trust_proxy=True)
    b = await servers("b", limits=SLOW, trust_proxy=True)
    heard = Heard(a, b)
    ann = await Client.hello(url(a), "Ann", address="10.0.0.1")
    bob = await Client.hello(url(b), "Bob", address="10.0.0.2")
    mal = {a: await Client.hello(url(a), "Mal", address=MAL)}
    mal[b] = await Client.hello(url(b), "Mal", mal[a].token, address=MAL)
    try:
        rooms = {}
        for host, server, password in ((ann, a, "1234"), (bob, b, "9999")):
            await host.send("create", seats=3, password=password)
            rooms[server] = (await host.expect("joined"))["room"]
        spent = {a: 0, b: 0}
        for guess in range(PASSWORD_TRIES):
            here, there = (a, b) if guess % 2 == 0 else (b, a)
            await mal[here].send("join", room=rooms[here], password=f"{guess:04d}")
            await mal[here].expect_error("wrong_password")
            spent[here] += 1
            await heard.until(there, WRONG_PASSWORDS, MAL, spent[here])  # its beat
        for server, password in ((a, "1234"), (b, "9999")):
            await mal[server].send("join", room=rooms[server], password=password)
            refused = await mal[server].expect_error("rate_limited")
            assert "wrong passwords" in refused["message"]
        eve = await Client.hello(url(b), "Eve", address="10.7.7.7")
        await eve.send("join", room=rooms[b], password="9999")
        await eve.expect("joined")
        await eve.close()
    finally:
        for client in (ann, bob, *mal.values()):
            with contextlib.suppress(ConnectionClosed):
                await client.close()


async def test_wrong_codes_from_one_address_count_on_every_process(servers):  # noqa: F811
    """Wrong hand-off codes from one address, on A and B in turn: refused on both after
    as many as one process allows, even the right code."""
    a = await servers("a", limits=SLOW, trust_proxy=True)
    b = await servers("b", limits=SLOW, trust_proxy=True)
    heard = Heard(a, b)
    ann = await Client.hello(url(a), "Ann", address="10.0.0.1")
    eve = {a: await Client.hello(url(a), "Eve", address=MAL)}
    eve[b] = await Client.hello(url(b), "Eve", eve[a].token, address=MAL)
    try:
        code = await ask_code(ann)
        spent = {a: 0, b: 0}
        for wrong in range(PASSWORD_TRIES):
            here, there = (a, b) if wrong % 2 == 0 else (b, a)
            assert (await claim(eve[here], f"0000-000{wrong}"))["code"] == "wrong_code"
            spent[here] += 1
            await heard.until(there, WRONG_CODES, MAL, spent[here])
        for server in (a, b):
            assert (await claim(eve[server], code))["code"] == "rate_limited"
        phone = await Client.hello(url(b), "Phone", address="10.0.0.3")
        assert (await claim(phone, code))["t"] == "claimed"  # not used by the refusals
        await phone.close()
    finally:
        for client in (ann, *eve.values()):
            with contextlib.suppress(ConnectionClosed):
                await client.close()


async def test_new_identities_from_one_address_count_on_every_process(servers):  # noqa: F811
    """New identities from one address, some on A, some on B (each batch heard by the
    other before the next): after a burst's worth in all, both processes refuse
    another; a returning token is still welcome."""
    few = Limits.for_dev().replace(new_identities_per_hour=0.001)
    a = await servers("a", limits=few, trust_proxy=True)
    b = await servers("b", limits=few, trust_proxy=True)
    heard = Heard(a, b)
    spent = {a: 0, b: 0}
    made = 0
    token = ""
    while made < NEW_IDENTITIES_BURST:
        here, there = (a, b) if (made // 5) % 2 == 0 else (b, a)
        for _ in range(min(5, NEW_IDENTITIES_BURST - made)):
            client = await Client.hello(url(here), f"Newcomer{made}", address=MAL)
            token = client.token
            await client.close()
            made += 1
            spent[here] += 1
        await heard.until(there, NEW_IDENTITIES, MAL, spent[here])
    for server, late in ((a, "LateA"), (b, "LateB")):
        client = await Client.open(url(server), MAL)
        await client.send("hello", v=1, name=late)
        answer = await client.recv()
        assert answer["t"] == "error" and answer["code"] == "rate_limited", answer
        with contextlib.suppress(ConnectionClosed):
            await client.close()
    back = await Client.hello(url(b), f"Newcomer{made - 1}", token, address=MAL)
    await back.close()
