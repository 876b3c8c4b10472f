"""Gallipoli 1915 by e-mail at the game book's pace (engine/games/gallipoli_1915/RULES.md,
"Hand-overs"): each phase waits only for the sides the book gives it to, standing orders let a
side's decisions of a game turn go in one file, and what the tool can do alone (the End of Turn,
the Entente's daylight draw) waits for no one.

Seeded games between campaigns (bench/handovers.py ``play_files``, the module's own player,
bot.py) count each game turn's files against the floor (bench/handovers_floors.py); before this
cadence a game turn took 18 files, 15 of them a person's."""

from __future__ import annotations

import copy
import json

import pytest

from pbem_engine.chance.dice import Dice
from pbem_engine.protocol.core import IllegalAction, forced

from pbem.bench import handovers_refereed
from pbem.bench.handovers import per_turn, play_files
from pbem.bench.handovers_floors import FLOORS
from pbem_engine.games.gallipoli_1915 import GAME
from pbem_engine.games.gallipoli_1915.position import position

MODULE = "gallipoli-1915"


@pytest.mark.parametrize("seed", range(2))
def test_a_landing_turn_costs_four_files_two_of_them_a_persons(seed, tmp_path):
    files = play_files(MODULE, {"last_turn": 5}, seed, tmp_path, scenario="helles")
    turns = per_turn(files, FLOORS[MODULE])
    assert [t["turn"] for t in turns] == [1, 2, 3, 4]
    for t in turns[1:]:  # turn 1 holds the set-up's files too
        # the Ottoman's tool reveals the Entente's roll; the Entente's tool draws and lands as planned
        # (plans.py); the Ottoman's CD fire (bound: sealed at once) and his activations; the
        # Entente's activations and his plan of the next landings
        assert (t["files"], t["human"], t["floor"]) == (4, 2, 2), t
        assert t["days"] == 2
    planned = [f for f in files if f["side"] == "entente" and not f["person"] and f["kind"] == "forced choice"]
    assert len(planned) >= 4  # the draw and the planned landings, no person asked
    assert not any(f["side"] == "ottoman" and f["kind"] == "forced choice" for f in files)  # the CD fire rides along


def test_a_refereed_game_plays_to_its_end_in_as_few_player_files(tmp_path):
    """The referee's tool does not make the draw alone: the module's player says it (bot.py)."""
    files = handovers_refereed.play_files(MODULE, {"last_turn": 3}, 0, tmp_path, scenario="helles")
    turns = per_turn(files, FLOORS[MODULE])
    assert turns and all(t["human"] == 2 and t["files"] <= 6 for t in turns[1:]), turns


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


def test_the_ottomans_standing_cd_fire_binds_and_his_tool_fires_it_at_a_landing_alone():
    """103.13: steps at sea under fire and the CD steps in range are facts of the board: given once
    as a standing order, the fire at each landing is the prompt's one legal choice (it binds), which
    his tool takes alone and whose roll is sealed at once (cadence.standing_cd_fire)."""
    landed = {"turn": 3, "phase": "amphibious-assault", "active": "ottoman", "landed": {"w-beach": 3, "x-beach": 2},
              "done": ["entente"]}
    state = position(landed).state
    assert GAME.prompt(state).free  # fired by hand until he orders it
    for order, words in (("cd fire at every landing", "cd fire 5 steps at the landing, then done"),
                         ("cd fire at every landing few", "cd fire 5 steps few at the landing, then done")):
        action = GAME.parse_order(state, "ottoman", order)
        ordered, events = GAME.apply(copy.deepcopy(state), "ottoman", action, None)
        assert "its tool fires alone" in events[0]["text"]
        prompt = GAME.prompt(ordered)
        assert forced(prompt) and prompt.choices[0].label == words  # nothing else may be ordered now
        fired, events = GAME.apply(ordered, "ottoman", prompt.choices[0].action, Dice(bytes(32)))
        assert "Coastal Defense fire at the landing: 5 step(s)" in events[0]["text"] and fired["cd_standing"]["fired"] == 5
        # sealed at once in his own file, so he opens the Activations Phase there (cadence.settle)
        assert fired["phase"] == "activations" and fired["active"] == "ottoman", events
        fired["phase"], fired["landed"]["y-beach"] = "amphibious-assault", 2  # more landed after a pass: only those
        fired["active"], fired["done"] = "ottoman", []
        assert GAME.prompt(fired).choices[0].label == words.replace("5 steps", "2 steps")
    quiet = position({"turn": 3, "phase": "amphibious-assault", "active": "ottoman"}).state
    quiet["cd_standing"] = {"few": False}
    assert GAME.prompt(quiet).free  # no landing, nothing to fire at
    withdrawn, _ = GAME.apply(copy.deepcopy(state) | {"cd_standing": {"few": True}}, "ottoman",
                              GAME.parse_order(state, "ottoman", "cd fire by hand"), None)
    assert "cd_standing" not in withdrawn
    with pytest.raises(IllegalAction):
        GAME.apply(copy.deepcopy(state), "entente", {"do": "cd-standing", "few": False}, None)


PLAN = "plan assault: land 3 steps at W Beach; land river clyde; done"


def _planned(orders: str = PLAN):
    """The Entente in turn 3's Activations Phase seals a plan; turn 4's Amphibious Assault Phase."""
    pos = position({"turn": 3, "phase": "activations", "active": "entente"})
    dice = pos.dice(seals=["P1"])
    state, events = GAME.apply(pos.state, "entente", GAME.parse_order(pos.state, "entente", orders), dice)
    assert "seals its orders for its next Amphibious Assault Phase" in events[0]["text"]
    token = state["plans"]["entente"]["token"]
    assert "W Beach" not in json.dumps(state) and "W Beach" not in json.dumps(events)  # sealed
    state.update(turn=4, phase="amphibious-assault", active="entente", done=["ottoman"], landed={}, clyde=False)
    return state, dice, token


def test_planned_landings_are_sealed_and_given_by_the_entente_tool_when_the_phase_comes():
    state, dice, token = _planned()
    assert GAME.order_without_choice(state, GAME.prompt(state)) == "carry out the planned orders"
    state, events = GAME.apply(state, "entente", GAME.parse_order(state, "entente", "carry out the planned orders"), dice)
    assert token in dice.opened and "plans" in state and "entente" not in state["plans"]
    assert state["landed"] == {"w-beach": 3, "v-beach": 2} and state["clyde"]
    assert "entente" in state["done"] or state["phase"] != "amphibious-assault", events  # its 'done' given too
    assert GAME.order_without_choice(state, GAME.prompt(state)) is None  # opened once


def test_a_plan_waits_for_its_phase_and_a_refused_order_ends_it_leaving_the_rest_to_the_player():
    state, dice, _ = _planned("plan assault: land 3 steps at W Beach; land 99 steps at X Beach; land river clyde")
    early = copy.deepcopy(state) | {"turn": 3, "phase": "activations"}
    assert GAME.order_without_choice(early, GAME.prompt(early)) is None  # not before its phase
    pos = position({"turn": 4, "phase": "amphibious-assault", "active": "entente", "done": ["ottoman"]})
    now, _ = GAME.apply(pos.state, "entente", GAME.parse_order(pos.state, "entente", PLAN), pos.dice(seals=["P2"]))
    assert GAME.order_without_choice(now, GAME.prompt(now)) is None  # given in this phase: for the next one
    state, events = GAME.apply(state, "entente", {"do": "open-plan"}, dice)
    texts = " | ".join(e["text"] for e in events)
    assert state["landed"] == {"w-beach": 3} and not state["clyde"], texts  # the state before the refused order
    assert "planned order 'land 99 steps at X Beach' refused" in texts and "the rest is entente's" in texts
    assert state["active"] == "entente" and GAME.prompt(state).free  # his to decide now
    with pytest.raises(IllegalAction):  # nothing planned is due now
        GAME.apply(state, "entente", {"do": "open-plan"}, dice)


def test_plan_orders_are_checked_as_typed():
    state = position({"turn": 3, "phase": "activations", "active": "entente"}).state
    for bad in ("plan assault", "plan sometime: done", "plan assault:   "):
        with pytest.raises(IllegalAction):
            GAME.parse_order(state, "entente", bad)
    with pytest.raises(IllegalAction):  # the Amphibious Assault Phase is the Entente's alone (103.2)
        GAME.apply(state | {"active": "ottoman"}, "ottoman", GAME.parse_order(state, "ottoman", PLAN),
                   position({}).dice())
    with pytest.raises(IllegalAction):  # bounded before it is sealed
        GAME.apply(copy.deepcopy(state), "entente",
                   GAME.parse_order(state, "entente", "plan assault: " + "; ".join(["done"] * 41)), position({}).dice())
    withdrawn, _ = GAME.apply(_planned()[0], "entente", GAME.parse_order(state, "entente", "plan none"), None)
    assert "entente" not in withdrawn["plans"]
