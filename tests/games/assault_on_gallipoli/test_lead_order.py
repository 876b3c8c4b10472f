"""The lead order (leadorder.py; 10.2-10.3; RULES.md, "Hand-overs"): sealed in a Round while an area
is contested, never opened in play; at each of its side's leads its own tool (``sealed_choice``,
with what only it knows) draws and leads the first card of the order the hand holds, so the leader
after its own pass, or after the other side's forced choices, is not asked again; every other tool
sees an ordinary lead."""

from __future__ import annotations

import json

import pytest

from pbem_engine.games.assault_on_gallipoli import GAME, leadorder, rules
from pbem_engine.games.assault_on_gallipoli.position import position
from pbem_engine.protocol.core import IllegalAction, forced

RAREST = "raid creeping-barrage ambush infiltrate bayonet-charge reserve-trench:raid"
TURK = ["ambush", "bayonet-charge", "infiltrate", "raid", "raid", "creeping-barrage", "bayonet-charge"]
UNITS = {"lone-pine": ["tur-1-27", "tur-2-27 exhausted", "aus-1", "aus-2 exhausted"]}


def _round():
    """The ANZAC's Round with Lone Pine contested (the 10.4 example's units)."""
    pos = position({"options": {"turns": 1}, "trenches": {"lone-pine": 1}, "control": {"lone-pine": "turkish"},
                    "units": dict(UNITS, **{"plugges-plateau": ["aus-3"]}),
                    "frames": [{"k": "round", "side": "anzac", "acted": False}]})
    return pos.state, pos.dice([], seals=["L1"])


def _sealed(order: str = RAREST):
    state, dice = _round()
    offer = next(c for c in GAME.prompt(state).choices if c.action == {"do": "leads"})
    assert "seal a lead order for this turn's close combats" in offer.label
    state, _ = GAME.apply(state, "anzac", offer.action, dice)
    prompt = GAME.prompt(state)
    assert prompt.side == "anzac" and prompt.free and prompt.choices[-1].action == {"do": "later"}
    chosen = next(c for c in prompt.choices if c.action.get("order", {}).get("$hide") == order)
    state, events = GAME.apply(state, "anzac", chosen.action, dice)
    return state, dice, events


def test_a_lead_order_is_sealed_in_a_round_and_the_round_is_still_to_decide():
    state, dice, events = _sealed()
    assert "anzac seals a lead order for this turn's close combats (10.3)" in [e["text"] for e in events]
    assert dice.table["L1"] == ("anzac", {"$hide": RAREST}) or dice.table["L1"][0] == "anzac"
    assert state["leadorders"] == {"anzac": {"sealed": "L1"}} and "creeping-barrage" not in json.dumps(state)
    prompt = GAME.prompt(state)  # the Round: not acted, and no second order offered
    assert prompt.side == "anzac" and not state["frames"][-1]["acted"]
    assert {"do": "pass"} in [c.action for c in prompt.choices]
    assert {"do": "leads"} not in [c.action for c in prompt.choices]


def test_no_lead_order_without_a_contested_area_nor_from_a_text_no_listed_order_gives():
    pos = position({"options": {"turns": 1}, "units": {"plugges-plateau": ["aus-3"], "lone-pine": ["tur-1-27"]},
                    "frames": [{"k": "round", "side": "anzac", "acted": False}]})
    assert {"do": "leads"} not in [c.action for c in GAME.prompt(pos.state).choices]
    state, dice = _round()
    state, _ = GAME.apply(state, "anzac", {"do": "leads"}, dice)
    for bad in ({"$hide": "raid joker"}, {"$hide": "reserve-trench"}, {"$hide": ""}, "x" * 64 + "1", 7):
        with pytest.raises(IllegalAction):
            GAME.apply(state, "anzac", {"do": "seal", "order": bad}, dice)
    state, _ = GAME.apply(state, "anzac", {"do": "later"}, dice)  # no order: the Round as before
    assert "leadorders" not in state and GAME.prompt(state).side == "anzac"


def _combat(hand: list[str], order: str = RAREST, rolls: tuple[int, ...] = ()):
    """Lone Pine fought with the ANZAC's lead order standing: the ANZAC attacks and leads."""
    pos = position({"turn_phase": "close", "options": {"turns": 1}, "trenches": {"lone-pine": 1},
                    "control": {"lone-pine": "turkish"}, "units": UNITS,
                    "hands": {"anzac": ["good-luck#1", "hand-grenades#1"]}})
    dice = pos.dice([hand + ["bayonet-charge"] * (10 - len(hand)), TURK, *rolls], seals=["L1"])  # 10: aus-1, aus-2
    state = pos.state
    state["frames"].append(leadorder.new("anzac"))
    state, _ = GAME.apply(state, "anzac", {"do": "seal", "order": {"$hide": order}}, dice)
    rules.settle(state, dice, [])
    return state, dice


def test_the_leaders_tool_draws_and_leads_the_first_card_of_its_order():
    hand = ["bayonet-charge", "ambush", "infiltrate", "bayonet-charge", "ambush", "reserve-trench"]
    state, dice = _combat(hand)
    deal = GAME.prompt(state)
    assert deal.side == "anzac" and forced(deal)  # its Action Cards at the deal given up for the order
    state, _ = GAME.apply(state, "anzac", deal.choices[0].action, dice)
    lead = GAME.prompt(state)
    assert lead.side == "anzac" and lead.free
    mine = GAME.sealed_choice(state, lead, {"L1": RAREST})
    assert mine == {"do": "ordered", "card": "ambush"}  # no Raid nor Creeping Barrage: the Ambush
    assert GAME.sealed_choice(state, lead, {}) is None  # another tool cannot read it
    state, events = GAME.apply(state, "anzac", mine, dice)
    texts = [e["text"] for e in events]
    assert "anzac leads by its sealed lead order" in texts and any("anzac plays Ambush" in t for t in texts), texts
    assert GAME.prompt(state).side == "turkish"  # the other side draws and matches
    assert "L1" not in dice.opened  # never opened: the other side learns the card led, no more


def test_a_reserve_trench_leads_as_the_order_names_it():
    state, dice = _combat(["bayonet-charge", "reserve-trench", "bayonet-charge"],
                          order="reserve-trench:ambush raid creeping-barrage ambush infiltrate bayonet-charge")
    state, _ = GAME.apply(state, "anzac", {"do": "draw"}, dice)
    order = "reserve-trench:ambush raid creeping-barrage ambush infiltrate bayonet-charge"
    assert GAME.sealed_choice(state, GAME.prompt(state), {"L1": order}) == {
        "do": "ordered", "card": "reserve-trench", "as": "ambush"}


def test_an_ordered_lead_is_refused_where_no_order_stands_or_the_lead_is_not_legal():
    state, dice = _combat(["bayonet-charge", "ambush", "infiltrate"])
    state, _ = GAME.apply(state, "anzac", {"do": "draw"}, dice)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "anzac", {"do": "ordered", "card": "raid"}, dice)  # not in the hand
    with pytest.raises(IllegalAction):
        GAME.apply(state, "anzac", {"do": "ordered", "card": "ambush", "as": "raid"}, dice)  # not a Reserve Trench
    without = dict(state, leadorders={})
    with pytest.raises(IllegalAction):
        GAME.apply(without, "anzac", {"do": "ordered", "card": "ambush"}, dice)
    state, _ = GAME.apply(state, "anzac", {"do": "play", "card": "infiltrate"}, dice)  # its person may still lead
    assert GAME.prompt(state).side == "turkish"


def test_the_order_lapses_when_the_turns_close_combats_are_over():
    state, dice = _combat(["raid"] * 5, rolls=(9,) * 12)  # the Turk's initiative rolls fail
    state, _ = GAME.apply(state, "anzac", {"do": "draw"}, dice)
    for _ in range(40):
        prompt = GAME.prompt(state)
        if prompt.side is None or state["frames"][0]["phase"] != "close":
            break
        action = GAME.sealed_choice(state, prompt, {"L1": RAREST}) or prompt.choices[-1].action
        state, _ = GAME.apply(state, prompt.side, action, dice)
    assert "leadorders" not in state


def test_a_lead_under_an_order_refuses_another_frame_s_sealed_shape():
    """The lead is a free prompt there (only its owner's tool lists the ordered lead): a sealed order
    of another frame (a lead sealed with a match, discards) is still refused, in one line."""
    state, dice = _combat(["bayonet-charge", "ambush", "infiltrate"])
    state, _ = GAME.apply(state, "anzac", {"do": "draw"}, dice)
    assert GAME.prompt(state).free
    for hostile in ({"do": "seal", "lead": "a" * 64}, {"do": "seal", "cards": "b" * 64},
                    {"do": "seal", "order": "c" * 64}):
        with pytest.raises(IllegalAction):
            GAME.apply(state, "anzac", hostile, dice)
