"""The client's shape: no screen imports the app (they post messages to it), and every
game the client lists has a table that fulfils GameTable's contract."""

from __future__ import annotations

import ast
import pathlib

import pytest

from modernart.engine.games import get_game
from modernart.tui.games import CLIENT_GAMES, client_game
from modernart.tui.gametable import GameTable

TUI = pathlib.Path(__file__).resolve().parents[2] / "tui"


def imported(path: pathlib.Path) -> set[str]:
    """Every module `path` imports, relative ones as written (".app"), TYPE_CHECKING too."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_module_of_the_client_imports_the_app() -> None:
    """The old cycle app ↔ lobby ↔ table is gone: only the app knows the app."""
    offenders = []
    for path in sorted(TUI.rglob("*.py")):
        if path.name == "app.py" and path.parent == TUI:
            continue
        names = imported(path)
        depth = len(path.relative_to(TUI).parts) - 1
        app_names = {"." * (depth + 1) + "app", "modernart.tui.app"}
        if names & app_names:
            offenders.append(str(path.relative_to(TUI)))
    assert offenders == []


@pytest.mark.parametrize("name", list(CLIENT_GAMES))
def test_every_listed_game_has_a_table_and_its_own_rules(name: str) -> None:
    game = client_game(name)
    assert issubclass(game.table(), GameTable)
    assert game.title == get_game(name).title
    assert game.title in game.rules_text()  # F1 tells the game being played


def test_a_server_without_games_means_modern_art() -> None:
    assert client_game(None).name == "modernart"
