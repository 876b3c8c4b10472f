"""The measure of what a game costs by e-mail: turn files per game turn, per module."""

from __future__ import annotations

from pbem.bench.handovers import measure


def test_turn_files_per_game_turn_are_counted_for_each_module():
    duel = measure("barrage", games=1)
    assert duel["median"] == 2 and duel["game_turns"] >= 1  # red fires, blue reveals and fires: two files a round
    blocks = measure("gallipoli-blocks", games=1)
    assert blocks["game_turns"] >= 1 and blocks["max"] >= blocks["median"] >= 1
    # battle plans and forced rolls sealed at once: a turn of battles costs well under the rules'
    # order (20 for three battles), and never more than the planned floor plus the landings and
    # response windows (RULES.md, "Hand-overs"); it took 36 before
    assert blocks["fighting_turns"] >= 1 and blocks["median"] <= 6
    assert blocks["median_fighting"] < blocks["required_fighting"] and blocks["median_fighting"] <= 16
    assert blocks["planned_fighting"] < blocks["required_fighting"]
