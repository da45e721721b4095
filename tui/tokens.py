"""Identity tokens kept per server URL in the user's config directory, to resume a seat."""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs


def default_path() -> Path:
    return Path(platformdirs.user_config_dir("modernart")) / "tokens.json"


class TokenStore:
    """A small JSON file {url: token}; written privately (0600) since tokens are secrets."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return (
            {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}
        )

    def get(self, url: str) -> str | None:
        return self._load().get(url)

    def put(self, url: str, token: str) -> None:
        data = self._load()
        if data.get(url) == token:
            return
        data[url] = token
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, self.path)
