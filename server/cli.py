"""`modernart-server`: not yet available (the server issue)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("modernart-server: not yet available", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
