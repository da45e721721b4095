"""The client process of one SSH session: `python -m modernart.server.ssh.client FD`.

`server/ssh/pty.py` starts it in a new session with the PTY as its standard
streams and passes it one pipe, `FD`. The pipe's first line is a JSON object
`{url, name, token}` (the identity token travels only here: never in argv, the
environment or a log). The pipe then stays open as a lifeline: when the SSH
server closes it, or dies, this process ends at once, so no client outlives
its session.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import termios
import threading


class SessionTokens:
    """One identity's token, with the interface of `tui.tokens.TokenStore` (get/put).

    The key arguments (server URL, name …) do not matter: this process serves
    one identity on one server. A token the server issues instead (it had
    forgotten ours) is used on reconnection.
    """

    def __init__(self, token: str | None) -> None:
        self.token = token

    def get(self, *key: str) -> str | None:
        return self.token

    def put(self, *key_and_token: str) -> None:
        self.token = key_and_token[-1]

    def rename(self, *urls_and_names: str) -> None:
        """One identity whatever its name: nothing to move."""


def read_line(fd: int) -> bytes:
    line = b""
    while not line.endswith(b"\n"):
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        line += chunk
    return line


def watch_lifeline(fd: int) -> None:
    """End the process as soon as the pipe from the SSH server closes."""
    while os.read(fd, 1024):
        pass
    os._exit(0)


def main(argv: list[str]) -> int:
    fd = int(argv[1])
    config = json.loads(read_line(fd))
    # Make the PTY this session's controlling terminal, so that a window change
    # (TIOCSWINSZ on the master side) sends us SIGWINCH and a hang-up SIGHUP.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    threading.Thread(target=watch_lifeline, args=(fd,), daemon=True).start()

    from modernart.tui.app import ClientApp

    tokens = SessionTokens(config.get("token"))
    ClientApp(config["url"], name=config["name"], tokens=tokens).run()  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
