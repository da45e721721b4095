"""The server's modules import each other without a cycle (a room reports to its hub
through the `RoomHost` protocol; docs/decisions.md)."""

from __future__ import annotations

import ast
import graphlib
import pathlib

import modernart.server

SERVER = pathlib.Path(modernart.server.__file__).parent


def local_imports(path: pathlib.Path) -> set[str]:
    """The server modules `path` imports, also under `if TYPE_CHECKING:`."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                names.add(node.module.split(".")[0])
            elif node.module and node.module.startswith("modernart.server."):
                names.add(node.module.split(".")[2])
    return names


def test_server_modules_import_each_other_without_a_cycle():
    graph = {p.stem: local_imports(p) for p in SERVER.glob("*.py")}
    assert graph["lobby"] >= {"room", "session"}  # the parse sees the edges
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a cycle
    assert not {"lobby", "session"} & graph["room"]
