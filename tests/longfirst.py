"""The suite's longest tests start first (scripts/test runs it on four xdist workers): one
that starts last makes the suite wait for it alone at the end (docs/decisions/29-vtime.md).

xdist hands out the tests in the order collected (its groups of several tests first), so
the conftest puts these, the longest of `scripts/test --durations=60` (about 9 s or more
on the 2-core machine, 2026-12-04), at the front in this order. A name that is gone only stops
counting as long; the rest run in the order they were collected."""

from __future__ import annotations

import pytest

LONG = (
    "tests/tui/test_artsociety_table.py::test_a7_a28_whole_game_with_keys_only_against_a_server",
    "tests/tui/test_local_game.py::test_whole_game_against_bots_with_keys_only",
    "tests/server/test_terminal_faults.py::test_a_stuck_worker_leaves_the_other_workers_answering_",
    "tests/tui/test_quiet_tables.py::test_every_games_tables_drawn_through_the_caches_are_drawn_as",
    "tests/tui/test_artsociety_rest.py::test_the_footer_lists_hint_chat_and_leave_at_every_decisio",
    "tests/tui/test_artsociety_newcomer.py::test_the_event_log_keeps_four_lines_at_80x24_in_every_",
    "tests/server/test_fuzz.py::test_fuzzed_frames_in_the_lobby_never_crash",
    "tests/engine/test_artsociety_bots.py::test_bots_answer_only_when_a_decision_is_due_and_only_w",
    "tests/engine/test_artsociety_properties.py::test_views_show_no_pile_order_no_sealed_card_and_",
    "tests/server/test_fuzz.py::test_fuzzed_messages_in_a_running_game_never_crash",
    "tests/server/test_ssh_screen.py::test_the_terminal_shows_what_textual_would_have_drawn_whatev",
    "tests/tui/test_rematch_in_sight.py::test_a_player_answers_the_rematch_in_the_game_over_dialog",
    "tests/server/test_web_records.py::test_the_open_list_shows_a_game_that_ends_meanwhile_with_an",
    "tests/tui/test_footer_memory.py::test_a_client_watching_a_whole_game_holds_no_dead_footer_wid",
    "tests/server/test_server_loop.py::test_the_server_process_serves_websocket_ssh_and_an_expert_",
    "tests/engine/test_artsociety_properties.py::test_legal_actions_are_accepted_and_others_refuse",
    "tests/engine/test_artsociety_properties.py::test_malformed_actions_get_a_rule_error_and_chang",
    "tests/engine/test_games_registry.py::test_every_game_plays_to_the_end_through_the_interface_a",
    "tests/server/test_terminal_faults.py::test_a_killed_zygote_takes_no_session_with_it_and_is_st",
    "tests/server/test_web_records.py::test_the_page_lists_your_finished_games_and_downloads_one",
    "tests/server/test_fairness.py::test_a_costly_flood_is_served_at_its_share_beside_a_neighbour_",
    "tests/engine/test_search.py::test_sampled_worlds_never_contradict_the_view",
    "tests/tui/test_replay.py::test_the_viewer_steps_through_a_whole_game_and_shows_the_end",
    "tests/tui/test_rematch_in_sight.py::test_a_spectator_follows_the_players_into_the_rematch",
    "tests/engine/test_bots_expert.py::test_expert_wins_more_than_its_share_against_hard_bots",
    "tests/server/test_reviews.py::test_one_review_per_identity_and_a_bounded_queue",
    "tests/engine/test_engine_properties.py::test_invariants_money_and_cards_conserved_views_leak_",
    "tests/engine/test_serengeti_properties.py::test_invariants_legal_accepted_else_refused_chips_",
    "tests/server/test_ssh.py::test_the_host_key_is_kept_private_and_reused_on_restart",
    "tests/server/test_reviews.py::test_a_bots_turn_in_a_live_game_does_not_wait_behind_reviews",
)


def rank(item: pytest.Item) -> int:
    """Where `item` goes: its place in LONG, or after them all."""
    return next((i for i, name in enumerate(LONG) if item.nodeid.startswith(name)), len(LONG))


def long_first(items: list[pytest.Item]) -> None:
    """Reorder `items` in place: LONG's tests first, the others as collected."""
    items.sort(key=rank)  # a stable sort: every xdist worker collects the same order
