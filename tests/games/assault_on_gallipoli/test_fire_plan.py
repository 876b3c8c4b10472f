"""The plan given with a fire (fireplan.py; RULES.md, "Hand-overs"): a side whose next decision
after a missed fire is its own (its Round after a Heroic Act's activation at its start, here)
plans it with the fire, on the board a miss leaves; the file that resolves the roll carries it out
when the fire missed, and it lapses when the fire hit (the other side then decides)."""

from __future__ import annotations

from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.assault_on_gallipoli import GAME
from pbem_engine.games.assault_on_gallipoli.position import position
from pbem_engine.protocol.core import step

UNITS = {"the-400-plateau": ["aus-9 exhausted"], "anzac-cove": ["aus-10"], "lone-pine": ["tur-1-27"]}
PLANNED = {"do": "fire", "at": "lone-pine", "plan": True}


def _heroic_fire():
    """The ANZAC's Round: Heroic Act on 9th Bn at its start, which then fires (its target next)."""
    state = position({"frames": [{"k": "round", "side": "anzac", "acted": False}], "hands": {"anzac": ["heroic-act#1"]},
                      "units": UNITS}).state
    for a in ({"do": "card", "card": "heroic-act#1"}, {"do": "use", "use": "heroic", "unit": "aus-9"}, {"do": "fire"}):
        state, _ = step(GAME, state, "anzac", a, ScriptedDice([]))
    return state


def _planned(dice: ScriptedDice):
    state = _heroic_fire()
    offer = next(c for c in GAME.prompt(state).choices if c.action == PLANNED)
    assert offer.label == "fire at Lone Pine, and plan your next decisions should it score no hit"
    state, _ = step(GAME, state, "anzac", PLANNED, ScriptedDice([]))
    plan = GAME.prompt(state)  # its Round on the board a miss leaves: 9th Bn exhausted again
    assert plan.side == "anzac" and plan.choices[-1].action == {"do": "plan-end"}
    acts = [c.action.get("act") for c in plan.choices]
    assert {"do": "move", "from": "anzac-cove"} in acts and {"do": "pass"} in acts
    assert not any(a and a.get("from") == "the-400-plateau" for a in acts)
    return step(GAME, state, "anzac", {"do": "plan", "act": {"do": "dig", "units": ["aus-10"]}}, dice)


def test_a_missed_fire_carries_out_the_planned_round_in_the_same_action():
    dice = ScriptedDice([10] * 8)
    state, events = _planned(dice)
    texts = [e["text"] for e in events]
    assert "anzac carries out the plan it gave with its fire" in texts, texts
    assert any("anzac digs: shallow trench at ANZAC Cove" in t for t in texts), texts
    assert state["trenches"].get("anzac-cove") == 1 and GAME.prompt(state).side == "turkish"


def test_a_hit_lets_the_plan_lapse_and_the_round_is_decided_after():
    state, events = _planned(ScriptedDice([1] * 8))
    texts = [e["text"] for e in events]
    assert any("plan lapses: its fire hit" in t for t in texts), texts
    assert "anzac-cove" not in state["trenches"]
    for _ in range(5):  # the Turk's damage (when it is a decision), then the ANZAC's Round as the rules give it
        prompt = GAME.prompt(state)
        if prompt.side == "anzac":
            break
        state, _ = step(GAME, state, prompt.side, prompt.choices[0].action, ScriptedDice([]))
    assert GAME.prompt(state).text.startswith("turn 1, Killing Time 8: anzac Round")


def test_the_plan_waits_for_the_roll_as_the_fire_does():
    from pbem_engine.chance.dice import DiceNotReady, ScriptExhausted

    state = _heroic_fire()
    state, _ = step(GAME, state, "anzac", PLANNED, ScriptedDice([]))
    try:
        step(GAME, state, "anzac", {"do": "plan-end"}, ScriptedDice([]))
    except (DiceNotReady, ScriptExhausted):
        pass
    else:
        raise AssertionError("the fire rolled without dice")


def test_no_plan_where_the_next_decision_after_the_fire_is_the_enemy_s():
    """The Round's own fire: after it the Round ends and the Turk's comes (no Keep Moving)."""
    state = position({"frames": [{"k": "round", "side": "anzac", "acted": False}],
                      "units": {"the-400-plateau": ["aus-9"], "lone-pine": ["tur-1-27"]}}).state
    for a in ({"do": "fire", "from": "the-400-plateau"}, {"do": "with", "unit": "aus-9"}):
        state, _ = step(GAME, state, "anzac", a, ScriptedDice([]))
    actions = [c.action for c in GAME.prompt(state).choices]
    assert {"do": "fire", "at": "lone-pine"} in actions and not any(a.get("plan") for a in actions)


def test_a_public_plan_holds_no_sealed_order():
    """A lead order or sealed discards in a plan would be read by the other side before its time:
    the plan lists neither, though the Round it plans offers the lead order (an area contested)."""
    state = position({"frames": [{"k": "round", "side": "anzac", "acted": False}],
                      "hands": {"anzac": ["heroic-act#1", "sniper#1"]},
                      "units": dict(UNITS, **{"plugges-plateau": ["aus-3", "tur-2-27"]})}).state
    assert {"do": "leads"} in [c.action for c in GAME.prompt(state).choices]
    for a in ({"do": "card", "card": "heroic-act#1"}, {"do": "use", "use": "heroic", "unit": "aus-9"}, {"do": "fire"},
              PLANNED):
        state, _ = step(GAME, state, "anzac", a, ScriptedDice([]))
    acts = [c.action.get("act") for c in GAME.prompt(state).choices if c.action["do"] == "plan"]
    assert {"do": "pass"} in acts
    assert not any(a["do"] in ("leads", "card") or a.get("discards") for a in acts), acts
