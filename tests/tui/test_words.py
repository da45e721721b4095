"""Plain-language event lines, the token store and the command line."""

from __future__ import annotations

import pytest

from modernart.cli import main
from modernart.tui.modernart.narrate import narrate
from modernart.tui.modernart.style import card_chip
from modernart.tui.roomrows import Layout
from modernart.tui.tokens import TokenStore
from modernart.tui.words import short_name

NAMES = ["Ann", "Bob", "Cy"]


def test_r17_split_double_sale_names_both_sellers() -> None:
    event = {
        "type": "sold",
        "winner": 1,
        "price": 23,
        "cards": ["krypto.double", "krypto.open"],
        "seller": 2,
        "payments": [{"from": 1, "to": 0, "amount": 11}, {"from": 1, "to": 2, "amount": 12}],
    }
    assert narrate(event, NAMES) == "Bob bought Krypto ×2 for 23: 11 to Ann, 12 to Cy"


def test_r10_sales_to_another_player_and_to_the_bank() -> None:
    sold = {
        "type": "sold",
        "winner": 2,
        "price": 9,
        "cards": ["yoko.sealed"],
        "seller": 0,
        "payments": [{"from": 2, "to": 0, "amount": 9}],
    }
    assert narrate(sold, NAMES) == "Cy bought Yoko for 9 from Ann"
    own = {**sold, "winner": 0, "payments": [{"from": 0, "to": None, "amount": 9}]}
    assert narrate(own, NAMES) == "Ann bought their own Yoko for 9, paid to the bank"
    free = {"type": "free", "seat": 1, "cards": ["yoko.double"]}
    assert narrate(free, NAMES) == "Bob takes Yoko for free"


def test_r14_reveal_r29_virtual_player_and_round_end_lines() -> None:
    assert (
        narrate({"type": "reveal", "bids": [0, 7, 3]}, NAMES) == "Sealed bids: Ann 0, Bob 7, Cy 3"
    )
    assert narrate({"type": "sealed_in", "seat": 2}, NAMES) == "Cy has sealed a bid"
    turned = narrate({"type": "turned", "card": "krypto.once_around"}, NAMES)
    assert turned == "The virtual player turns up Krypto (once around)"
    end = {"type": "round_end", "round": 1, "tokens": {"krypto": 30, "yoko": 20}}
    assert narrate(end, NAMES) == "Round 1 ends. Tokens: Krypto 30, Yoko 20"
    assert narrate({"type": "going", "stage": 2, "deadline_ms": 900}, NAMES) == "Going twice…"
    assert narrate({"type": "something_new"}, NAMES) is None  # unknown events are skipped


def test_cards_are_five_cells_with_symbol_and_names_keep_their_number() -> None:
    assert card_chip("krypto.sealed").plain == " KR? "
    assert card_chip("yoko.double", selected=True).plain == "[YO=]"
    assert short_name("Heuristic bot 12", 12) == "Heuristic…12"
    # A table's rematches differ only at the end: the last part after " · " stays whole.
    assert short_name("alice's table · rematch 2", 20) == "alice's… · rematch 2"
    assert short_name("alice's table · rematch", 20) == "alice's t… · rematch"
    assert short_name("alice's table · rematch 2", 15) == "al… · rematch 2"  # 80 columns
    assert short_name("alice's table · rematch 12", 15) == "alic…rematch 12"
    assert short_name("a · a very long last part", 12) == "a · a very …"  # too long to keep
    assert short_name("Ann", 12) == "Ann"


def test_token_store_keeps_one_token_per_server_and_name_privately(tmp_path) -> None:
    store = TokenStore(tmp_path / "cfg" / "tokens.json")
    assert store.get("ws://a:1/", "Ann") is None
    store.put("ws://a:1/", "Ann", "secret-a")
    store.put("ws://a:1/", "Bob", "secret-b")
    store.put("ws://b:2/", "Ann", "secret-c")
    again = TokenStore(store.path)
    assert again.get("ws://a:1/", "Ann") == "secret-a"
    assert again.get("ws://a:1/", "Bob") == "secret-b"  # same server, another player
    assert again.get("ws://b:2/", "Ann") == "secret-c"
    assert again.get("ws://b:2/", "Bob") is None
    assert store.path.stat().st_mode & 0o077 == 0
    assert again.identities() == [("ws://a:1/", "Ann"), ("ws://a:1/", "Bob"), ("ws://b:2/", "Ann")]
    assert again.forget("ws://a:1/", "Bob") == 1 and again.get("ws://a:1/", "Bob") is None
    assert again.forget("ws://b:2/") == 1 and again.identities() == [("ws://a:1/", "Ann")]
    assert again.forget("ws://nowhere/") == 0
    store.path.write_text('{"ws://a:1/": "an old per-server token"}')
    assert store.get("ws://a:1/", "Ann") is None  # whose it was is unknown: never reused
    store.path.write_text("not json")
    assert store.get("ws://a:1/", "Ann") is None  # a damaged file: a new identity, no crash


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "6"],
        ["--variant", "classic_3p_virtual"],
        ["connect", "http://x:1/"],
        ["--name", ""],
    ],
)
def test_command_line_refuses_bad_arguments(argv, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "modernart" in capsys.readouterr().err


def test_your_own_moves_are_told_in_the_second_person() -> None:
    you = 1
    assert narrate({"type": "played", "seat": 1, "card": "yoko.open"}, NAMES, you) == (
        "You auction Yoko (open)"
    )
    assert narrate({"type": "bid", "seat": 1, "amount": 12}, NAMES, you) == "You bid 12"
    assert narrate({"type": "bid", "seat": 0, "amount": 12}, NAMES, you) == "Ann bids 12"
    assert narrate({"type": "sealed_in", "seat": 1}, NAMES, you) == "You have sealed a bid"
    own = {
        "type": "sold",
        "winner": 1,
        "price": 9,
        "cards": ["yoko.sealed"],
        "seller": 1,
        "payments": [{"from": 1, "to": None, "amount": 9}],
    }
    assert narrate(own, NAMES, you) == "You bought your own Yoko for 9, paid to the bank"
    start = {"type": "round_start", "round": 2, "auctioneer": 1}
    assert narrate(start, NAMES, you) == "Round 2 begins; you open"
    end = {"type": "game_end", "money": [100, 300, 200], "winners": [1]}
    assert narrate(end, NAMES, you) == "Game over: you win with 300"
    # A spectator (you=None) reads everyone in the third person.
    assert narrate({"type": "bid", "seat": 1, "amount": 12}, NAMES) == "Bob bids 12"
    sold = {**own, "winner": 2, "payments": [{"from": 2, "to": 1, "amount": 9}]}
    assert narrate(sold, NAMES, you) == "Cy bought Yoko for 9 from you"


def test_f1_explains_every_column_marker_symbol_and_the_clock() -> None:
    """Issue 8.11, 8.7: the help names what each piece of the table means."""
    from modernart.tui.games import client_game

    text = client_game("modernart").rules_text()
    for piece in ("`cards`", "`now`", "`▶`", "`A`", "`on`", "`#`", "`$`", "`bought`"):
        assert piece in text
    for symbol in ("`!` open", "`@` once around", "`?` sealed", "`$` fixed price", "`=` double"):
        assert symbol in text
    assert "red `*`" in text and "10 s" in text and "PgUp" in text


def test_r18_a_card_that_ends_the_round_is_not_told_as_auctioned() -> None:
    from modernart.tui.modernart.narrate import mark_round_enders

    end = {"type": "round_end", "round": 2, "counts": {"krypto": 5}, "tokens": {}}
    played = {"type": "played", "seat": 1, "card": "krypto.open"}
    lines = [narrate(e, NAMES, 0) for e in mark_round_enders([played, end])]
    assert lines[0] == "Bob plays Krypto (open), the 5th Krypto: it ends round 2, unsold"
    added = {"type": "added", "seat": 0, "card": "krypto.sealed"}
    (line,) = [narrate(e, NAMES, 0) for e in mark_round_enders([added, end])][:1]
    assert line == "You add Krypto (sealed), the 5th Krypto: round 2 ends, the double unsold"
    turned = {"type": "turned", "card": "krypto.double"}
    (line,) = [narrate(e, NAMES) for e in mark_round_enders([turned, end])][:1]
    assert line == "The virtual player turns up Krypto (double), the 5th Krypto: it ends round 2"
    # A card followed by the round's end for another reason (hands empty) is auctioned.
    other = {**end, "counts": {"krypto": 3}}
    assert narrate(mark_round_enders([played, other])[0], NAMES) == "Bob auctions Krypto (open)"


def test_leaving_is_not_losing_the_connection_and_a_bot_standing_in_is_told() -> None:
    """Presence is told by every table alike (tui/presence.py), never by a game's words."""
    from modernart.tui.presence import PresenceTeller

    teller = PresenceTeller()

    def told(event: dict, you: int | None = None) -> str | None:
        line = teller.line(event, NAMES, you)
        return None if line is None else line[0]

    assert told({"type": "left", "seat": 2}) == "Cy left the table"
    assert told({"type": "disconnected", "seat": 2}) == "Cy lost the connection"
    away = told({"type": "autopilot", "seat": 1})
    assert away == "Bob is away: a stand-in bot plays for them until they are back"
    assert told({"type": "autopilot", "seat": 1}) is None  # said once
    assert told({"type": "connected", "seat": 1}) == "Bob is back: the stand-in stops"
    assert told({"type": "connected", "seat": 1}) == "Bob is back"
    timeout = {"type": "timeout", "seat": 1}
    assert told(timeout) == "Time ran out for Bob: the server moves for them"
    assert told(timeout, 1) == "Time ran out for you: the server moves for you"
    # Yours stands out in the log (playtests 2026-12-05 #4: easy to miss when away).
    assert "bold" in teller.line(timeout, NAMES, 1)[1]
    assert "bold" not in teller.line(timeout, NAMES, 0)[1]
    assert narrate({"type": "left", "seat": 2}, NAMES) is None  # not Modern Art's to tell


def test_r18_hand_warning_counts_the_fifth_card_and_a_doubles_second() -> None:
    from modernart.tui.modernart.hand import round_ender

    counts = {"krypto": 4, "yoko": 3}
    assert "the 5th: ends the round, unsold" in round_ender("krypto.open", "play", counts)
    assert "double unsold" in round_ender("krypto.open", "add", counts)
    assert round_ender("yoko.open", "play", counts) is None
    assert "a 2nd added would be the 5th" in round_ender("yoko.double", "play", counts)
    assert round_ender("yoko.double", "play", {"yoko": 2}) is None


def test_purchases_are_counts_per_artist() -> None:
    from modernart.tui.modernart.style import paintings

    cards = ["lite_metal.open", "yoko.sealed", "lite_metal.double", "krypto.open"]
    assert paintings(cards).plain == "LM2 YO1 KR1"


def test_players_table_keeps_the_turn_marker_with_long_purchases() -> None:
    """Issue 8.5: `bought` wraps; the ▶ and A markers and every count stay visible."""
    from rich.console import Console
    from rich.text import Text

    from modernart.tui.modernart.players import players_lines

    everything = ["lite_metal.open", "yoko.open", "christin_p.open", "karl_gitter.open"]
    seats = [
        {"name": "Heuristic bot 12", "hand_size": 5, "purchased": [*everything, "krypto.open"]},
        {"name": "Ann", "hand_size": 6, "purchased": [], "money": 80},
    ]
    view = {"status": "playing", "you": 1, "to_act": [0], "auctioneer": 0, "seats": seats}
    console = Console(width=36, record=True, color_system=None)
    console.print(Text("\n").join(players_lines(view, name_width=10)))
    shown = console.export_text()
    assert "▶ A Heurist…12" in shown
    for count in ("LM1", "YO1", "CP1", "KG1", "KR1"):
        assert count in shown


def test_local_game_pace_options_reach_the_room(monkeypatch) -> None:
    """Issue 8.12: bot thinking time, the shout window and the bell from the command line."""
    from modernart.tui.app import ClientApp

    seen: list[ClientApp] = []
    monkeypatch.setattr(ClientApp, "run", lambda self: seen.append(self))
    assert main(["--bot-delay", "0.5", "--shout-window", "9", "--bell", "--name", "Ann"]) == 0
    (app,) = seen
    create = app.local.create_message()
    assert create["options"]["bot_delay_ms"] == 500
    assert create["options"]["shout_window_ms"] == 9000
    assert create["options"]["turn_timeout_s"] == 0 and app.bell_on_turn
    seen.clear()
    assert main([]) == 0  # defaults for a human: bots think ~2 s, the hammer waits 6 s
    assert seen[0].local.create_message()["options"]["shout_window_ms"] == 6000
    assert seen[0].local.create_message()["options"]["bot_delay_ms"] == 2000
    assert not seen[0].bell_on_turn


def test_identities_are_listed_and_forgotten_from_the_command_line(
    tmp_path, monkeypatch, capsys
) -> None:
    """Issue 8.1: a user lists and forgets the identities kept per server and name."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    from modernart.tui.tokens import TokenStore, default_path

    assert default_path().is_relative_to(tmp_path)
    store = TokenStore()
    store.put("ws://h:1/", "Ann", "t1")
    store.put("ws://h:1/", "Bea", "t2")
    assert main(["identities"]) == 0
    assert capsys.readouterr().out.splitlines() == ["ws://h:1/\tAnn", "ws://h:1/\tBea"]
    assert main(["identities", "--forget", "ws://h:1/", "Bea"]) == 0
    assert store.identities() == [("ws://h:1/", "Ann")]
    assert main(["identities", "--forget", "ws://h:1/", "Bea"]) == 1  # nothing left to forget
    assert "t1" not in capsys.readouterr().out  # tokens are never printed


def test_r18_s7_f1_says_what_rule_ids_are_and_each_help_carries_them() -> None:
    """Issue: messages cite (R18), (S7): F1 says these are rule numbers, and each game's
    help gives the id in brackets where it tells that rule."""
    from modernart.tui.games import client_game

    for game in ("modernart", "serengeti"):
        text = client_game(game).rules_text()
        assert text.startswith("# ")  # the title first, then what the ids mean
        assert "refers to the rule of that number" in text.split("\n## ")[0]
    modern = client_game("modernart").rules_text()
    for rule in ("[R1]", "[R12]", "[R13]", "[R14]", "[R15]", "[R18]", "[R20–R22]", "[R29]"):
        assert rule in modern


def test_f1_of_a_game_without_open_auctions_offers_no_shout_window_and_names_its_command():
    """Issue 28: Serengeti's and Art Society's F1 ended with Modern Art's paragraph."""
    from modernart.tui.games import CLIENT_GAMES

    modernart = CLIENT_GAMES["modernart"].rules_text(where="local")
    assert "--shout-window" in modernart and "(`modernart`)" in modernart
    for name in ("serengeti", "artsociety"):
        text = CLIENT_GAMES[name].rules_text(where="local")
        assert "--shout-window" not in text
        assert f"(`modernart --game {name}`)" in text and "--bot-delay" in text


def test_counts_and_winners_agree_with_their_numbers():
    """Issue 28: 'You wins!', '1 pts', '1 shield(s)'."""
    from modernart.tui.words import count, winners_line

    assert winners_line(["You"]) == "You win"
    assert winners_line(["Ann"]) == "Ann wins"
    assert winners_line(["Ann", "You"]) == "Ann and You win"
    assert [count(n, "shield") for n in (0, 1, 2)] == ["0 shields", "1 shield", "2 shields"]
    assert count(1, "pt") == "1 pt"


def test_a_tables_rematch_rooms_read_apart_in_the_lobby_at_80_and_99_columns() -> None:
    """Play-test 2026-12-03: at 99 columns both rooms read "alice's table · remat…"; at 80
    the word "rematch" went (2026-12-05)."""
    for columns in (80, 99):
        rooms_read_apart(Layout.of(columns))


def rooms_read_apart(layout: Layout) -> None:
    names = ["alice's table", "alice's table · rematch", "alice's table · rematch 2"]
    rooms = [
        {"id": f"r{i}", "name": n, "seats": 4, "seated": ["alice"]} for i, n in enumerate(names)
    ]
    shown = [str(layout.cells(room)[0]) for room in rooms]
    assert len(set(shown)) == 3 and shown[1].endswith("· rematch")
    assert shown[2].endswith("· rematch 2")
    assert all(len(cell) <= layout.width("Room", 40) for cell in shown)
