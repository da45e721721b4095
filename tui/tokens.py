"""Identity tokens kept per server URL *and* player name in the user's config directory.

Two players may share one OS account (two terminals, a shared SSH login): each
name is its own identity on a server, so a different name never resumes
someone else's seat. The file is `{url: {name: token}}`; entries of the older
`{url: token}` form (one identity per server, whoever's it was) are ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs


def default_path() -> Path:
    return Path(platformdirs.user_config_dir("modernart")) / "tokens.json"


class TokenStore:
    """A small JSON file; written privately (0600) since tokens are secrets."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            url: {name: t for name, t in names.items() if isinstance(t, str)}
            for url, names in data.items()
            if isinstance(names, dict)
        }

    def _save(self, data: dict[str, dict[str, str]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({url: names for url, names in data.items() if names}, f, indent=1)
        os.replace(tmp, self.path)

    def get(self, url: str, name: str) -> str | None:
        return self._load().get(url, {}).get(name)

    def put(self, url: str, name: str, token: str) -> None:
        data = self._load()
        if data.get(url, {}).get(name) == token:
            return
        data.setdefault(url, {})[name] = token
        self._save(data)

    def rename(self, url: str, old: str, new: str) -> None:
        """The identity kept for `old` on `url` is now called `new` (a lobby rename)."""
        data = self._load()
        names = data.get(url, {})
        if old in names and old != new:
            names[new] = names.pop(old)
            self._save(data)

    def identities(self) -> list[tuple[str, str]]:
        """Every (server URL, name) with a kept token, sorted."""
        return sorted((url, name) for url, names in self._load().items() for name in names)

    def forget(self, url: str, name: str | None = None) -> int:
        """Drop one name's token on a server, or every name's; how many were dropped."""
        data = self._load()
        names = data.get(url, {})
        gone = [n for n in names if name is None or n == name]
        for n in gone:
            del names[n]
        if gone:
            self._save(data)
        return len(gone)
