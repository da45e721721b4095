"""Play an identity from another device (issue 17) over SSH: `i` in the session's lobby
takes the code, and the key then leads to the claimed identity. Real asyncssh clients."""

from __future__ import annotations

from .sshgate import identity_of, lobby, seat_of
from .sshterm import open_terminal, ssh_connect
from .wsclient import Client

ERASE = "\x7f" * 20  # backspaces: the dialog's field emptied


async def test_a_code_claimed_over_ssh_moves_the_key_to_that_seat(ssh, key):
    gate = await ssh()
    url = f"ws://127.0.0.1:{gate.server.port}/"
    ann = await Client.hello(url, "Ann")  # the other device, seated in a waiting room
    await ann.send("create", seats=3, name="T")
    room = (await ann.expect("joined"))["room"]
    rid = await ann.send("handoff")
    code = (await ann.expect_reply(rid))["code"]
    fingerprint = key.get_fingerprint()

    term = await lobby(gate, key, "bob")
    own = gate.identities.get(fingerprint)
    bob = identity_of(gate, key)
    term.send("i")
    await term.wait_text("Play an identity from another device")
    term.send("0000-0000\r")
    await term.wait_text("wrong, used or expired")  # a clear error, and nothing moved
    assert gate.identities.get(fingerprint) == own and seat_of(gate, key) == (None, None)

    term.send(ERASE)
    await term.wait(lambda: "0000-0000" not in term.text(), "the field emptied")
    term.send(code)
    await term.wait_text(code)
    term.send("\r")
    await term.wait(lambda: identity_of(gate, key).id == ann.you, "the key's move")
    await term.wait(lambda: seat_of(gate, key) == (room, 0), "the claimed seat")
    await term.wait_text("Waiting room")  # the session plays on there, as Ann
    moved = gate.identities.get(fingerprint)  # a device of its own (issue 33)
    assert moved not in (ann.token, own) and gate.server.store.find_identity(moved)[0] == ann.you
    assert bob.id != ann.you and bob.conn is None  # the key's old identity is left as it is
    await ann.ws.wait_closed()
    assert ann.ws.close_code == 4000  # the other device lets go, as on any second login
    assert term.chan is not None
    term.chan.close()
    await term.wait_closed()

    # The next login with the same key lands in the claimed seat.
    again = await open_terminal(await ssh_connect(gate.port, "bob", key))
    await again.wait_text("Waiting room")
    assert seat_of(gate, key) == (room, 0) and identity_of(gate, key).conn is not None
