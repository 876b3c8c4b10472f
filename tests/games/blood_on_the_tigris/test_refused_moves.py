"""A refused move says why, with the rule: not enough movement points (with the cheapest way's
cost and what the unit has), an enemy zone of control, an unbridged river, an enemy-held hex,
prohibited terrain, the 35th Division's tether to Nasirya."""

from __future__ import annotations

import pytest

from pbem_engine.protocol.core import IllegalAction, step
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME
from pbem_engine.games.blood_on_the_tigris.position import position


def refusal(units: dict[str, list[str]], uid: str, to: str, **before) -> str:
    state = position({"units": units, **before}).state
    side = "turkish" if uid.startswith("tk-") else "british"
    state["active"] = side
    with pytest.raises(IllegalAction) as err:
        step(GAME, state, side, {"do": "move", "unit": uid, "to": to}, ScriptedDice([]))
    return str(err.value)


def test_not_enough_movement_points_gives_the_cost_and_the_allowance():
    said = refusal({"1853": ["br-16-6"]}, "br-16-6", "1347")
    assert said.startswith("16th Brigade cannot reach 1347: not enough movement points")
    assert "costs 11 MPs, it has 10 (4.2)" in said, said
    halved = refusal({"1853": ["br-16-6 oos"]}, "br-16-6", "1347")
    assert "it has 5 (printed 10: halved out of supply or of communication, 3.21, 10.0)" in halved, halved


def test_a_river_in_the_way_says_so_and_what_the_way_round_costs():
    said = refusal({"1853": ["br-16-6"]}, "br-16-6", "1446")
    assert "an unbridged river hexside is in the way" in said and "9.4" in said, said
    assert "the way round costs 29 MPs, it has 10 (4.2)" in said, said


def test_an_enemy_zone_of_control_stops_it():
    said = refusal({"1853": ["br-16-6"], "1751": ["tk-1-38"]}, "br-16-6", "1651")
    assert "enemy zones of control stop it on the way, at 1752 (4.3, 5.1" in said, said


def test_enemy_held_hexes_prohibited_terrain_and_the_35th_division():
    assert "never enters an enemy-occupied hex (4.3)" in refusal({"1853": ["br-16-6"], "1852": ["tk-1-38"]},
                                                                 "br-16-6", "1852")
    assert "lake is prohibited terrain for it" in refusal({"1853": ["br-16-6"]}, "br-16-6", "1436")
    assert "within 5 hexes of Nasirya until attacked or turn 10 (16.22)" in \
        refusal({"0830": ["tk-1-35"]}, "tk-1-35", "0837", turn=3, phase="move")
