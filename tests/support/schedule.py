"""The order the tests start in under pytest-xdist, so the long ones start at once on
different workers instead of queueing behind each other on one.

xdist's ``worksteal`` scheduler first hands each of the ``n`` workers an equal contiguous
block of the collected tests (the remainder going to the later blocks), then moves tests
from the back of a busy worker's queue to an idle one. :func:`heads_first` builds those
blocks: the tests listed in :data:`SLOW` go to the heads of the blocks, longest first,
each to the block with the fewest seconds of them so far; the other tests fill the blocks
in their collected order. Nothing but the order depends on the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

#: Node id (or its start, for every parameter of a test) -> seconds the test takes on a
#: quiet two-core machine alone (``pytest --durations``). Tests not named count as short.
SLOW: dict[str, float] = {
    "tests/loopback/test_two_shards.py::test_two_shard_processes_play_games_across_20_guilds":
        74,
    "tests/loopback/test_local_discord.py::"
    "test_herdbot_run_plays_a_full_game_of_each_game_over_loopback": 65,
    "tests/bench/test_capacity.py::"
    "test_variants_alternate_per_rate_and_switch_how_tables_are_drawn": 19,
    "tests/faults/test_kill_restart.py::test_sigkill_mid_play_then_restart_loses_nothing": 15,
    "tests/test_static.py::test_mypy_finds_no_errors": 12,
    "tests/conformance/test_languages_unleashed.py::"
    "test_a_whole_unleashed_game_in_the_pseudo_locale_conforms_with_no_refusal"
    "[llamas-unleashed-7]": 6,
    "tests/discord/test_ack_first.py::test_real_games_acknowledge_every_click_first": 9,
    "tests/adversarial/test_texts.py::"
    "test_eight_weird_names_stay_within_discord_limits_and_never_ping_everyone": 9,
    "tests/conformance/test_languages_unleashed.py::"
    "test_a_whole_unleashed_game_in_the_pseudo_locale_conforms_with_no_refusal"
    "[llamas-unleashed-8]": 4.5,
    "tests/adversarial/test_spectators.py::test_a_spectator_never_sees_a_hidden_card"
    "[llamas-unleashed-5]": 8,
    "tests/conformance/test_one_message.py::test_a_whole_game_in_a_group_dm_is_one_message"
    "[llamas-unleashed-8]": 4,
    "tests/loopback/test_shutdown.py::"
    "test_herdbot_run_with_a_render_pool_stops_with_nothing_on_stderr": 6,
    "tests/faults/test_table_recording.py::"
    "test_a_table_posted_but_not_recorded_is_adopted_at_restart_not_posted_again": 6,
    "tests/discord/test_unleashed_play.py::"
    "test_full_three_player_game_through_the_panels_never_leaks": 6,
    "tests/conformance/test_languages_unleashed.py::"
    "test_a_whole_unleashed_game_in_the_pseudo_locale_conforms_with_no_refusal"
    "[llamas-unleashed-6]": 3.5,
    "tests/conformance/test_languages_unleashed.py::"
    "test_a_whole_unleashed_game_in_the_pseudo_locale_conforms_with_no_refusal"
    "[llamas-unleashed-4]": 3,
    "tests/discord/test_replay_pictures.py::test_replayed_pictures_are_the_posted_pictures"
    "[llamas-unleashed-8]": 5.5,
    "tests/conformance/test_languages_unleashed.py::"
    "test_a_whole_unleashed_game_in_the_pseudo_locale_conforms_with_no_refusal"
    "[llamas-unleashed-5]": 2.5,
    "tests/discord/test_replay_pictures.py::test_replayed_pictures_are_the_posted_pictures"
    "[llamas-unleashed-7]": 5,
    "tests/adversarial/test_names.py::test_unleashed_with_a_loud_nickname": 5,
    "tests/bench/test_capacity.py::test_a_short_run_drives_the_three_real_games_without_errors":
        6,
    "tests/faults/test_startup.py::"
    "test_a_second_bot_on_the_same_file_is_refused_and_a_killed_ones_lock_does_not_block": 5,
    "tests/discord/test_replay_pictures.py::test_replayed_pictures_are_the_posted_pictures"
    "[llamas-unleashed-4]": 4.5,
    "tests/adversarial/test_spectators.py::test_a_spectator_never_sees_a_hidden_card"
    "[llamas-unleashed-3]": 4.5,
    "tests/conformance/test_games.py::test_every_request_of_a_whole_game_conforms"
    "[llamas-alpacas-2]": 1,
    "tests/loopback/test_reconnect_log.py::": 4,
    "tests/conformance/test_languages_pacapaca.py::"
    "test_a_whole_pacapaca_game_in_the_pseudo_locale_conforms_with_no_refusal[pacapaca-6]": 1.5,
    "tests/conformance/test_languages.py::"
    "test_a_whole_game_in_the_pseudo_locale_conforms_with_no_refusal[llamas-alpacas-4]": 1.5,
    "tests/discord/test_replay_pictures.py::test_replayed_pictures_are_the_posted_pictures"
    "[llamas-unleashed-5]": 3.5,
    "tests/conformance/test_one_message.py::test_a_whole_game_in_a_group_dm_is_one_message"
    "[llamas-alpacas-4]": 2,
    "tests/conformance/test_games.py::test_every_request_of_a_whole_game_conforms"
    "[llamas-unleashed-2]": 1,
    "tests/discord/test_replay_pictures.py::test_replayed_pictures_are_the_posted_pictures"
    "[llamas-unleashed-6]": 3,
    "tests/store/test_transfer.py::test_herdbot_migrate_store_prints_what_it_copied": 2.6,
}


def seconds(nodeid: str) -> float:
    """The :data:`SLOW` figure of a test (the longest entry it starts with), else 0."""
    return max((s for key, s in SLOW.items() if nodeid.startswith(key)), default=0.0)


def block_sizes(total: int, workers: int) -> list[int]:
    """The sizes of the first blocks xdist's ``worksteal`` scheduler hands ``workers``
    idle workers out of ``total`` tests (``len(pending) // workers left`` each in turn)."""
    sizes = []
    left = total
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


def heads_first(items: Sequence[T], nodeids: Sequence[str], workers: int) -> list[T]:
    """``items`` (with their node ids) reordered into ``workers`` blocks, the slow tests
    at the heads (see the module docstring). ``workers`` < 2 keeps the order."""
    if workers < 2 or len(items) < 2 * workers:
        return list(items)
    slow = sorted((i for i, n in enumerate(nodeids) if seconds(n) > 0),
                  key=lambda i: (-seconds(nodeids[i]), i))
    sizes = block_sizes(len(items), workers)
    heads: list[list[int]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for i in slow:
        room = [b for b in range(workers) if len(heads[b]) < sizes[b]]
        b = min(room, key=lambda b: (load[b], b))
        heads[b].append(i)
        load[b] += seconds(nodeids[i])
    taken = set(slow)
    rest = iter(i for i in range(len(items)) if i not in taken)
    order: list[int] = []
    for b in range(workers):
        order += heads[b]
        order += [next(rest) for _ in range(sizes[b] - len(heads[b]))]
    return [items[i] for i in order]
