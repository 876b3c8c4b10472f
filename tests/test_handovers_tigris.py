"""Blood on the Tigris by e-mail at the rules' floor: the Turks give their next Mutual Operations as a
standing order with their turn, and an attacker his advance after combat with the attack
(engine/games/blood_on_the_tigris/standing.py), so the supply survival rolls and an attack's roll
that wait for the other side's reveal no longer cost a player a second file.

Seeded games between two campaigns (bench/handovers.py ``play_files``, the game's own player)
count, per game turn, the files that needed a person against the floor (bench/handovers_floors.py)."""

from __future__ import annotations

import pytest

from pbem.bench.handovers import again, per_turn, play_files
from pbem.bench.handovers_floors import FLOORS
from pbem.bench.handovers_report import SETTINGS
from pbem_engine.games.blood_on_the_tigris import GAME
from pbem_engine.games.blood_on_the_tigris.position import position
from pbem_engine.protocol.core import IllegalAction, step

MODULE = "blood-on-the-tigris"
SETTING = next(s for s in SETTINGS if s.game == MODULE and s.mode == "two-player")


def _movement():
    return position({"turn": 3, "phase": "move", "active": "turkish", "supply": {"turkish": 1},
                     "units": {"1201": ["tk-2-38 steps=1", "tk-38-div-hq"], "1853": ["br-16-6"]}})


def test_the_standing_order_is_offered_in_the_movement_prompt_and_read_in_the_rules_words():
    state = _movement().state
    prompt = GAME.prompt(state)
    assert prompt.side == "turkish" and "'mutual operations: ORDERS'" in prompt.text
    action = GAME.parse_order(state, "turkish", "Mutual operations: create a depot at 1201 (Baghdad) for 1 supply "
                                                "point(s) (12.1); replace 2/38; create depots at 1201; replace all")
    assert action == {"do": "mutual-plan", "orders": [{"do": "depot", "hex": "1201"}, {"do": "replace", "unit": "tk-2-38"},
                                                      {"do": "depots", "hex": "1201"}, {"do": "replace-all"}]}
    assert GAME.parse_order(state, "turkish", "mutual operations: done") == {"do": "mutual-plan", "orders": []}


@pytest.mark.parametrize("words", ["mutual operations: build a fort at 1201", "mutual operations: replace 16/6",
                                   "mutual operations: create a depot at Baghdad", "end movement; advance"])
def test_a_standing_order_the_rules_cannot_read_is_refused(words):
    with pytest.raises(IllegalAction):
        GAME.parse_order(_movement().state, "turkish", words)


def test_without_a_standing_order_the_turks_decide_their_mutual_operations_as_before():
    pos = _movement()
    state, dice = pos.state, pos.dice([1])
    state, _ = step(GAME, state, "turkish", {"do": "end"}, dice)
    prompt = GAME.prompt(state)
    assert (state["phase"], prompt.side) == ("mutual", "turkish")  # asked, after the roll
    assert "replace 2/38 Infantry Brigade to full strength for 1 supply point (13.2)" in [c.label for c in prompt.choices]


def test_an_empty_standing_order_ends_the_mutual_operations_without_spending():
    pos = _movement()
    state, dice = pos.state, pos.dice([1])
    for action in ({"do": "mutual-plan", "orders": []}, {"do": "end"}):
        state, events = step(GAME, state, "turkish", action, dice)
    assert (state["phase"], GAME.prompt(state).side) == ("move", "british")
    assert state["supply"]["turkish"] == 4 and state["units"]["tk-2-38"]["steps"] == 1  # 1 kept, 3 arrived (16.3)
    assert "standing" not in state  # used up: the next turn's are decided again


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_turkish_player_files_no_more_than_the_floor_in_every_game_turn(seed, tmp_path):
    files = play_files(MODULE, SETTING.options, seed, tmp_path, scenario=SETTING.scenario,
                       note=lambda state, match, waiting, result: {"planned": any(
                           a.get("do") == "mutual-plan" for a in result.drafted)})
    turns = per_turn(files, FLOORS[MODULE])
    assert len(turns) >= 6
    assert [(t["turn"], t["human"]) for t in turns] == [(t["turn"], t["floor"]) for t in turns]
    assert all(t["again"] == 0 for t in turns)
    assert any(f["planned"] for f in files if f["side"] == "turkish")  # the bot gave standing orders
    assert again(files, None) == 0
