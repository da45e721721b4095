"""The layout keeps the architecture (issue 15): the server's modules import each other
without a cycle (a room reports to its hub through its ports, server/rooms/ports.py;
docs/decisions/layout.md), and only a game's own packages, `engine/<game>/` and `tui/<game>/`,
import that game's internals: the server and the client's shared part speak
`GameInfo` (engine/games.py)."""

from __future__ import annotations

import ast
import graphlib
import pathlib

import pytest

from modernart.engine.games import GAME_NAMES

TOP = pathlib.Path(__file__).resolve().parents[2]
INSTALLED = {"engine": "modernart.engine", "server": "modernart.server", "tui": "modernart.tui"}


def module_name(path: pathlib.Path) -> str:
    """`server/doors/ssh/keys.py` → `modernart.server.doors.ssh.keys` (a package's
    `__init__`: itself)."""
    folder, *rest = path.relative_to(TOP).with_suffix("").parts
    parts = [INSTALLED[folder], *rest]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path) -> set[str]:
    """The absolute names of every module `path` imports (relative imports resolved,
    `from X import y` also as `X.y`, `if TYPE_CHECKING:` ones too)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def python_files(folder: str) -> list[pathlib.Path]:
    return sorted((TOP / folder).rglob("*.py"))


def game_internals(names: set[str]) -> set[str]:
    """Of `names`, those inside a game's package (engine or client)."""
    return {
        name
        for name in names
        for game in GAME_NAMES
        for package in (f"modernart.engine.{game}", f"modernart.tui.{game}")
        if name == package or name.startswith(package + ".")
    }


def test_server_modules_import_each_other_without_a_cycle():
    modules = {module_name(p): p for p in python_files("server")}
    graph = {name: imports(path) & modules.keys() for name, path in modules.items()}
    assert {"modernart.server.rooms.room", "modernart.server.wire.session"} <= graph[
        "modernart.server.hub"
    ]
    assert (
        "modernart.server.doors.ssh.keys" in graph["modernart.server.doors.ssh.server"]
    )  # the package too
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a cycle
    assert (
        not {"modernart.server.hub", "modernart.server.wire.session"}
        & graph["modernart.server.rooms.room"]
    )


@pytest.mark.parametrize("path", python_files("server"), ids=lambda p: str(p.relative_to(TOP)))
def test_the_server_imports_no_game_internals(path: pathlib.Path):
    assert game_internals(imports(path)) == set()


def test_the_import_check_sees_a_game_import():
    """The check above would fail on the import issue 15 removed from server/rooms/room.py."""
    assert game_internals({"modernart.engine.modernart.bots.timing"}) == {
        "modernart.engine.modernart.bots.timing"
    }
    assert game_internals({"modernart.engine.games", "modernart.engine.records"}) == set()


def shared_client_modules() -> list[pathlib.Path]:
    """The client's shared part: every module at `tui/`'s top but the registry of games
    (tui/games.py names each game's table: its one line per game)."""
    return [p for p in sorted((TOP / "tui").glob("*.py")) if p.name != "games.py"]


@pytest.mark.parametrize("path", shared_client_modules(), ids=lambda p: p.name)
def test_the_clients_shared_part_imports_no_game_internals(path: pathlib.Path):
    assert game_internals(imports(path)) == set()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_games_client_package_imports_no_other_games_internals(game: str):
    own = {f"modernart.engine.{game}", f"modernart.tui.{game}"}
    for path in python_files(f"tui/{game}"):
        foreign = {
            name
            for name in game_internals(imports(path))
            if not any(name == p or name.startswith(p + ".") for p in own)
        }
        assert foreign == set(), path
