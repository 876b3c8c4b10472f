"""Gallipoli 1915 by e-mail at the game book's pace (engine/games/gallipoli_1915/RULES.md,
"Hand-overs"): each phase waits only for the sides the book gives it to, standing orders let a
side's decisions of a game turn go in one file, and what the tool can do alone (the End of Turn,
the Entente's daylight draw) waits for no one.

Seeded games between campaigns (bench/handovers.py ``play_files``, the module's own player,
bot.py) count each game turn's files against the floor (bench/handovers_floors.py); before this
cadence a game turn took 18 files, 15 of them a person's."""

from __future__ import annotations

import copy

import pytest

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import IllegalAction

from pbem.bench import handovers_refereed
from pbem.bench.handovers import per_turn, play_files
from pbem.bench.handovers_floors import FLOORS
from pbem_engine.games.gallipoli_1915 import GAME
from pbem_engine.games.gallipoli_1915.position import position

MODULE = "gallipoli-1915"


@pytest.mark.parametrize("seed", range(2))
def test_a_landing_turn_costs_four_files_three_of_them_a_persons(seed, tmp_path):
    files = play_files(MODULE, {"last_turn": 5}, seed, tmp_path, scenario="helles")
    turns = per_turn(files, FLOORS[MODULE])
    assert [t["turn"] for t in turns] == [1, 2, 3, 4]
    for t in turns[1:]:  # turn 1 holds the set-up's files too
        # the Entente (its activations, the next draw and orders, the landings), the Ottoman's CD fire
        # (his tool's, a standing order), the Entente's activations after its result, the Ottoman's
        assert (t["files"], t["human"], t["floor"]) == (4, 3, 2), t
        assert t["days"] == 3
    assert not any(f["side"] == "entente" and f["kind"] == "forced choice" for f in files)  # the draw rides along
    cd = [f for f in files if f["side"] == "ottoman" and not f["person"] and f["kind"] == "forced choice"]
    assert len(cd) >= 4  # every landing answered by the Ottoman's tool, no person asked


def test_a_refereed_game_plays_to_its_end_in_as_few_player_files(tmp_path):
    """The referee's tool does not make the draw alone: the module's player says it (bot.py)."""
    files = handovers_refereed.play_files(MODULE, {"last_turn": 3}, 0, tmp_path, scenario="helles")
    turns = per_turn(files, FLOORS[MODULE])
    assert turns and all(t["human"] == 3 and t["files"] <= 8 for t in turns[1:]), turns


def test_the_draw_is_what_the_entente_must_do_and_its_tool_does_alone():
    day = position({"turn": 3, "phase": "reinforcement"}).state
    prompt = GAME.prompt(day)
    assert prompt.side == "entente" and GAME.order_without_choice(day, prompt) == "draw naval gunfire helles"
    night = position({"turn": 9, "phase": "reinforcement"}).state
    assert GAME.order_without_choice(night, GAME.prompt(night)) is None  # 103.14: daylight turns only
    drawn = position({"turn": 3, "phase": "reinforcement", "held": {"helles": "C1"}, "chits": {"C1": "no-fire"}}).state
    assert GAME.order_without_choice(drawn, GAME.prompt(drawn)) is None
    ottoman = position({"turn": 3, "phase": "reinforcement", "active": "ottoman"}).state
    assert GAME.order_without_choice(ottoman, GAME.prompt(ottoman)) is None


def test_a_turn_without_a_landing_is_at_the_floor(tmp_path):
    """Kemal's Counterattack (102.2: no landing, no naval gunfire): each side's file once a game turn."""
    files = play_files(MODULE, {"last_turn": 8}, 1, tmp_path, scenario="kemal")
    turns = per_turn(files, FLOORS[MODULE])
    assert [(t["turn"], t["files"], t["human"], t["floor"]) for t in turns[1:]] == [(6, 2, 2, 2), (7, 2, 2, 2)]


def test_the_ottomans_standing_cd_fire_is_what_his_tool_fires_at_a_landing_alone():
    """103.13: steps at sea under fire and the CD steps in range are facts of the board: given once
    as a standing order, the fire at each landing needs no person (cadence.standing_cd_fire)."""
    landed = {"turn": 3, "phase": "amphibious-assault", "active": "ottoman", "landed": {"w-beach": 3, "x-beach": 2}}
    state = position(landed).state
    assert GAME.order_without_choice(state, GAME.prompt(state)) is None  # fired by hand until he orders it
    for order, words in (("cd fire at every landing", "cd fire 5 steps at the landing, then done"),
                         ("cd fire at every landing few", "cd fire 5 steps few at the landing, then done")):
        action = GAME.parse_order(state, "ottoman", order)
        ordered, events = GAME.apply(copy.deepcopy(state), "ottoman", action, None)
        assert "its tool fires alone" in events[0]["text"]
        assert GAME.order_without_choice(ordered, GAME.prompt(ordered)) == words
        fired, _ = GAME.apply(ordered, "ottoman", GAME.parse_order(ordered, "ottoman", words), Dice(bytes(32)))
        assert "ottoman:cd-fire" in fired["acts"] and fired["cd_standing"]["fired"] == 5
        fired["landed"]["y-beach"] = 2  # the Entente lands more after the fire (a pass between): only those
        fired["active"], fired["done"] = "ottoman", []
        assert GAME.order_without_choice(fired, GAME.prompt(fired)) == words.replace("5 steps", "2 steps")
    quiet = position({"turn": 3, "phase": "amphibious-assault", "active": "ottoman"}).state
    quiet["cd_standing"] = {"few": False}
    assert GAME.order_without_choice(quiet, GAME.prompt(quiet)) is None  # no landing, nothing to fire at
    withdrawn, _ = GAME.apply(copy.deepcopy(state) | {"cd_standing": {"few": True}}, "ottoman",
                              GAME.parse_order(state, "ottoman", "cd fire by hand"), None)
    assert "cd_standing" not in withdrawn
    with pytest.raises(IllegalAction):
        GAME.apply(copy.deepcopy(state), "entente", {"do": "cd-standing", "few": False}, None)
