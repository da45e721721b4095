"""The suite's longest tests start first (scripts/test runs it on four xdist workers): one
that starts last makes the suite wait for it alone at the end (docs/decisions/29-vtime.md).

xdist hands out the tests in the order collected (its groups of several tests first), so
the conftest puts these, the longest of `scripts/test --durations=60` (about 8 s or more
on the 2-core machine), at the front in this order. A name that is gone only stops
counting as long; the rest run in the order they were collected."""

from __future__ import annotations

import pytest

LONG = (
    "tests/server/test_reviews.py::test_a_bots_turn_in_a_live_game_does_not_wait_behind_reviews",
    "tests/server/test_terminal_faults.py::test_a_stuck_worker_leaves_the_other_workers_",
    "tests/tui/test_artsociety_table.py::test_a7_a28_whole_game_with_keys_only_against_a_server",
    "tests/server/test_reviews.py::test_a_crashed_review_worker_fails_that_review_and_the_next",
    "tests/tui/test_artsociety_newcomer.py::test_the_event_log_keeps_four_lines_at_80x24_",
    "tests/tui/test_artsociety_rest.py::test_the_footer_lists_hint_chat_and_leave_at_every_",
    "tests/engine/test_artsociety_bots.py::test_bots_answer_only_when_a_decision_is_due_",
    "tests/engine/test_artsociety_properties.py::test_views_show_no_pile_order_no_sealed_",
    "tests/tui/test_quiet_tables.py::test_every_games_tables_drawn_through_the_caches_",
    "tests/server/test_fuzz.py::test_fuzzed_messages_in_a_running_game_never_crash",
    "tests/tui/test_local_game.py::test_whole_game_against_bots_with_keys_only",
    "tests/server/test_fuzz.py::test_fuzzed_frames_in_the_lobby_never_crash",
    "tests/engine/test_artsociety_properties.py::test_legal_actions_are_accepted_and_others_",
    "tests/server/test_web_records.py::test_the_open_list_shows_a_game_that_ends_meanwhile_",
    "tests/tui/test_footer_memory.py::test_a_client_watching_a_whole_game_holds_no_dead_",
    "tests/server/test_fairness.py::test_a_costly_flood_is_served_at_its_share_beside_",
    "tests/tui/test_review_request.py::test_review_from_past_games_shows_progress_then_",
    "tests/server/test_web_records.py::test_the_page_lists_your_finished_games_and_downloads",
    "tests/engine/test_search.py::test_sampled_worlds_never_contradict_the_view",
    "tests/tui/test_rematch_in_sight.py::test_a_player_answers_the_rematch_in_the_game_over_",
    "tests/server/test_hardening.py::test_8_no_field_of_any_message_makes_a_handler_fail",
    "tests/server/test_bot_pool.py::test_r12_bots_shout_no_sooner_than_a_human_reaction_time",
    "tests/server/test_terminal_faults.py::test_a_killed_zygote_takes_no_session_with_it_",
    "tests/engine/test_bots_expert.py::test_expert_wins_more_than_its_share_against_hard_bots",
    "tests/engine/test_actionlog.py::test_an_action_log_reads_back_the_plain_list",
    "tests/server/test_server_loop.py::test_the_server_process_serves_websocket_ssh_and_",
    "tests/server/test_ssh_screen.py::test_the_terminal_shows_what_textual_would_have_drawn",
    "tests/server/test_attacks.py::test_6_the_servers_own_stall_is_not_counted_as_a_clients",
)


def rank(item: pytest.Item) -> int:
    """Where `item` goes: its place in LONG, or after them all."""
    return next((i for i, name in enumerate(LONG) if item.nodeid.startswith(name)), len(LONG))


def long_first(items: list[pytest.Item]) -> None:
    """Reorder `items` in place: LONG's tests first, the others as collected."""
    items.sort(key=rank)  # a stable sort: every xdist worker collects the same order
