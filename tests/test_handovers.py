"""The measure of what a game costs by e-mail: turn files per game turn, per module."""

from __future__ import annotations

from pbem.bench.handovers import measure


def test_turn_files_per_game_turn_are_counted_for_each_module():
    duel = measure("barrage", games=1)
    assert duel["median"] == 2 and duel["game_turns"] >= 1  # red fires, blue reveals and fires: two files a round
    blocks = measure("gallipoli-blocks", games=1)
    assert blocks["game_turns"] >= 1 and blocks["max"] >= blocks["median"] >= 1
