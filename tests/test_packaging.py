"""The package installs under one `modernart` namespace, from a built wheel too."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_built_wheel_holds_the_namespace_and_imports(tmp_path: Path) -> None:
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*pip_wheel, "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("modernart-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for game in ("modernart", "serengeti", "artsociety"):  # every game's engine and rules
        assert f"modernart/engine/{game}/__init__.py" in names
        assert f"modernart/engine/{game}/rules.md" in names
    assert "modernart/engine/modernart/bots/__init__.py" in names
    assert "modernart/server/__init__.py" in names
    assert "modernart/tui/__init__.py" in names
    assert "modernart/tui/artsociety/artsociety.tcss" in names
    for asset in ("index.html", "page.js", "page.css", "xterm.js", "xterm.css", "addon-fit.js"):
        # the browser page, served by us
        assert f"modernart/server/doors/web/static/{asset}" in names
    # No bare top-level `engine`, `server` or `tui` packages.
    tops = {n.split("/")[0] for n in names if not n.startswith("modernart-")}
    assert tops == {"modernart"}
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import modernart.engine, modernart.server, modernart.tui, modernart.cli;"
        "import modernart.server.doors.web.page;"
        "from modernart.tui.games import CLIENT_GAMES;"
        "[(g.table(), g.rules_text()) for g in CLIENT_GAMES.values()];"
        "print(modernart.engine.__file__)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.stdout.strip().startswith(str(site))
