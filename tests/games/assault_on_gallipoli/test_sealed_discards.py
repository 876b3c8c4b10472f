"""Discards sealed with a pass (discards.py; RULES.md, "Hand-overs"): a side that may win the
Morale Advantage with the last decision of a turn gives its discards ahead, sealed, and its own
tool opens them at the draw, so no second file of its person follows the roll's reveal."""

from __future__ import annotations

import json

import pytest

from pbem_engine.protocol.core import IllegalAction, forced
from pbem_engine.games.assault_on_gallipoli import GAME, rules
from pbem_engine.games.assault_on_gallipoli.position import position

HANDS = {"anzac": ["good-luck#1", "sniper#1", "dig-in#1"], "turkish": ["heroic-act#1", "low-ammo#1"]}
UNITS = {"anzac-cove": ["aus-9"], "koja-plain": ["tur-1-27"]}
SEALED = "PLAN"


def _passing(turn: int = 2):
    return position({"turn": turn, "ma": "turkish", "hands": HANDS, "units": UNITS,
                     "frames": [{"k": "round", "side": "anzac", "acted": False}]})


def _sealed(picked: str):
    """ANZAC passes with its discards sealed (the pass roll: 3, Killing Time unchanged)."""
    pos = _passing()
    dice = pos.dice([3], seals=[SEALED])
    offered = [c for c in GAME.prompt(pos.state).choices if c.action.get("discards")]
    assert [c.action for c in offered] == [{"do": "pass", "discards": True}]
    state, _ = GAME.apply(pos.state, "anzac", offered[0].action, dice)
    prompt = GAME.prompt(state)
    assert prompt.side == "anzac" and prompt.free and len(prompt.choices) == 2 ** 3  # every set of three cards
    chosen = next(c for c in prompt.choices if c.action["cards"] == {"$hide": picked})
    state, events = GAME.apply(state, "anzac", chosen.action, dice)
    assert state["discards"] == {"anzac": {"sealed": SEALED}} and dice.table[SEALED] == ("anzac", picked)
    assert "seals its discards" in events[0]["text"]
    then = GAME.prompt(state)  # the pass: its own action (it rolls), the one legal choice, no card window
    assert forced(then) and then.choices[0].action == {"do": "pass"}
    state, events = GAME.apply(state, "anzac", then.choices[0].action, dice)
    assert any("anzac passes, rolls 3" in e["text"] for e in events)
    return state, dice


def test_the_pass_seals_the_discards_and_nothing_of_them_is_in_the_state():
    state, _ = _sealed("sniper#1 dig-in#1")
    assert "sniper" not in json.dumps(state["discards"]) and state["frames"][-1]["k"] != "discardplan"


def test_the_holder_s_draw_is_its_sealed_discards_taken_by_its_tool_alone():
    state, dice = _sealed("sniper#1 dig-in#1")
    state["ac"]["hands"]["anzac"].remove("dig-in#1")  # played since: not discarded again
    state["ma"], state["frames"] = "anzac", [state["frames"][0]]
    state["frames"][0]["phase"] = "cards"
    draw = position({}).dice([["keep-moving#1", "night-attack#1", "aerial-recon#1", "espionage#1"]])
    draw.table = dice.table
    events: list = []
    rules.settle(state, draw, events)
    prompt = GAME.prompt(state)
    assert prompt.side == "anzac" and forced(prompt), prompt  # no person asked
    state, events = GAME.apply(state, "anzac", prompt.choices[0].action, draw)
    texts = [e["text"] for e in events]
    assert SEALED in draw.opened and "anzac" not in state["discards"]
    assert "anzac discards Sniper! (17.3)" in texts and not any("Dig In" in t for t in texts if "discards" in t)
    assert state["ac"]["hands"]["anzac"] == ["good-luck#1", "keep-moving#1", "night-attack#1", "aerial-recon#1",
                                              "espionage#1"]
    assert GAME.prompt(state).side == "turkish"  # then the other side's draw, its own decision


def test_the_sealed_discards_lapse_unopened_when_the_other_side_holds_the_advantage():
    state, dice = _sealed("sniper#1")
    state["frames"] = [state["frames"][0]]
    state["frames"][0]["phase"] = "cards"  # the Turk keeps the Advantage
    events: list = []
    rules.settle(state, dice, events)
    assert "anzac's sealed discards lapse: it does not hold the Morale Advantage" in [e["text"] for e in events]
    assert "discards" not in state or "anzac" not in state["discards"]
    assert SEALED not in dice.opened
    state["frames"][-1]["side"] = "turkish"
    assert not forced(GAME.prompt(state))  # the Turk, holder, decides his own


def test_not_offered_on_the_last_turn_without_cards_or_twice():
    last = _passing(turn=5).state  # anzac-landing: 5 turns
    assert not any(c.action.get("discards") for c in GAME.prompt(last).choices)
    state, _ = _sealed("")
    state["frames"].append({"k": "round", "side": "anzac", "acted": False})
    assert not any(c.action.get("discards") for c in GAME.prompt(state).choices)
    empty = position({"turn": 2, "hands": {"anzac": []}, "units": UNITS,
                      "frames": [{"k": "round", "side": "anzac", "acted": False}]}).state
    assert not any(c.action.get("discards") for c in GAME.prompt(empty).choices)


def test_only_a_set_of_cards_is_sealed():
    pos = _passing()
    dice = pos.dice([3])
    state, _ = GAME.apply(pos.state, "anzac", {"do": "pass", "discards": True}, dice)
    for bad in ({"do": "seal"}, {"do": "seal", "cards": 3}, {"do": "seal", "cards": "x" * 63},
                {"do": "seal", "cards": {"$hide": "a", "more": 1}}, {"do": "pass"}):
        with pytest.raises(IllegalAction):
            GAME.apply(json.loads(json.dumps(state)), "anzac", bad, dice)
