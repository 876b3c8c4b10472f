"""The lead sealed with a match (initiative.py; 10.4.2; RULES.md, "Hand-overs"): a matcher who
may win the initiative names the card he then leads, sealed; when his roll wins, his own tool
leads it and the other side matches at once, no second file of his person; when it loses, the
order lapses unopened."""

from __future__ import annotations

import json

import pytest

from pbem_engine.games.assault_on_gallipoli import GAME, initiative, rules
from pbem_engine.games.assault_on_gallipoli.position import position
from pbem_engine.protocol.core import IllegalAction, forced

TURK = ["ambush", "bayonet-charge", "infiltrate", "raid", "raid", "creeping-barrage", "bayonet-charge"]
ANZAC = ["ambush", "ambush", "bayonet-charge", "bayonet-charge", "bayonet-charge", "infiltrate", "infiltrate", "raid",
         "raid", "creeping-barrage"]


def _matching(roll: int, hands: dict | None = None):
    """Lone Pine (the 10.4 example): the ANZAC leads Ambush; the Turk is to match."""
    pos = position({"turn_phase": "close", "options": {"turns": 1}, "trenches": {"lone-pine": 1},
                    "control": {"lone-pine": "turkish"}, "hands": hands or {},
                    "units": {"lone-pine": ["tur-1-27", "tur-2-27 exhausted", "aus-1", "aus-2 exhausted"]}})
    dice = pos.dice([ANZAC, TURK, roll], seals=["L1"])
    state = pos.state
    rules.settle(state, dice, [])  # to the combat's first decision
    for side, action in (("anzac", {"do": "draw"}), ("anzac", {"do": "play", "card": "ambush"}), ("turkish", {"do": "draw"})):
        state, _ = GAME.apply(state, side, action, dice)
    return state, dice


def _sealed(roll: int, lead: str = "raid"):
    state, dice = _matching(roll)
    prompt = GAME.prompt(state)
    offer = next(c for c in prompt.choices if c.action == {"do": "play", "card": "ambush", "seal": True})
    assert "and seal your lead should the roll win the initiative" in offer.label
    state, _ = GAME.apply(state, "turkish", offer.action, dice)
    plan = GAME.prompt(state)
    assert plan.side == "turkish" and plan.free and plan.choices[-1].action == {"do": "later"}
    chosen = next(c for c in plan.choices if c.action["do"] == "seal"
                  and json.loads(c.action["lead"]["$hide"]) == {"do": "play", "card": lead})
    state, events = GAME.apply(state, "turkish", chosen.action, dice)
    assert dice.table["L1"][0] == "turkish" and "raid" not in json.dumps(state["frames"][-1])  # sealed
    match = GAME.prompt(state)  # the match made with it: the one legal choice (a seal, then a roll)
    assert forced(match) and match.choices[0].action == {"do": "play", "card": "ambush"}
    state, events = GAME.apply(state, "turkish", match.choices[0].action, dice)
    return state, dice, events


def test_a_won_initiative_leads_the_sealed_card_by_the_matcher_s_tool():
    state, dice, events = _sealed(2)  # 3 or less: the Turk takes the initiative
    assert "turkish rolls 2 for the initiative, needing 3 or less: turkish has it" in [e["text"] for e in events]
    prompt = GAME.prompt(state)
    assert prompt.side == "turkish" and forced(prompt)  # no person asked
    state, events = GAME.apply(state, "turkish", prompt.choices[0].action, dice)
    texts = [e["text"] for e in events]
    assert "L1" in dice.opened and "turkish opens the lead it sealed with its match" in texts
    assert any("turkish plays Raid" in t for t in texts), texts
    assert GAME.prompt(state).side == "anzac"  # the other side matches at once


def test_a_lost_initiative_lets_the_sealed_lead_lapse_unopened():
    state, dice, events = _sealed(5)
    assert "turkish's sealed lead lapses: it does not have the initiative" in [e["text"] for e in events]
    assert "L1" not in dice.opened and "plan" not in state["frames"][-1]
    prompt = GAME.prompt(state)
    assert prompt.side == "anzac" and not forced(prompt)  # the ANZAC leads, as the rules give it


def test_a_sealed_lead_no_longer_legal_lapses_and_its_side_decides():
    state, dice = _matching(2)
    state, _ = GAME.apply(state, "turkish", {"do": "play", "card": "ambush", "seal": True}, dice)
    state, _ = GAME.apply(state, "turkish", {"do": "seal", "lead": {"$hide": '{"do": "play", "card": "ambush"}'}}, dice)
    state, _ = GAME.apply(state, "turkish", {"do": "play", "card": "ambush"}, dice)  # its one Ambush: matched
    state, events = GAME.apply(state, "turkish", {"do": "planned"}, dice)
    assert "turkish's sealed lead is not a legal lead now (10.3): it decides" in [e["text"] for e in events]
    prompt = GAME.prompt(state)
    assert prompt.side == "turkish" and not forced(prompt)


def test_no_seal_where_no_roll_follows_and_no_card_window_at_the_bound_match():
    state, dice = _matching(2, hands={"turkish": ["good-luck#1"]})
    assert any(c.action["do"] == "card" for c in GAME.prompt(state).choices)  # the window, before the seal
    state, _ = GAME.apply(state, "turkish", {"do": "play", "card": "ambush", "seal": True}, dice)
    state, _ = GAME.apply(state, "turkish", {"do": "later"}, dice)
    assert [c.action for c in GAME.prompt(state).choices] == [{"do": "play", "card": "ambush"}]
    barrage = dict(state["frames"][-1], lead="creeping-barrage", matching=None)  # matched: no roll (card types)
    assert not any(c.action.get("seal") for c in initiative.combat_choices(state, barrage))
    assert any(c.action.get("seal") for c in initiative.combat_choices(state, dict(barrage, lead="ambush")))
    for bad in ({"do": "seal"}, {"do": "seal", "lead": 7}, {"do": "seal", "lead": {"$hide": "x" * 201}}):
        pos_state, d = _matching(2)
        pos_state, _ = GAME.apply(pos_state, "turkish", {"do": "play", "card": "ambush", "seal": True}, d)
        with pytest.raises(IllegalAction):
            GAME.apply(pos_state, "turkish", bad, d)
