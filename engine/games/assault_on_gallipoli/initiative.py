"""The lead sealed with a match (RULES.md, "Hand-overs"; 10.4.2): a matcher who may win the
initiative names, with his match, the card he then leads.

After a match the matcher rolls for the initiative (10.4.2-10.4.3); the roll waits for the other
side's next link, and when it wins, the matcher leads next: a second file of his after a file of
the other side's tool that only revealed the link.  The card he would lead is in his hidden hand,
so a standing order naming it is sealed: "match with X, and seal your lead should the roll win
the initiative" opens a frame where he picks it among the leads his hand leaves (a Reserve
Trench led as a card of his choice, a withdrawal from round three), or "decide after the roll".
The pick is sealed (``dice.seal``; the other side learns nothing, whatever the roll), then the
match is made, its one legal choice (a seal and a roll are two actions).  When the roll wins,
the lead's one legal choice is "lead as sealed": his own tool opens it and plays it, and the
other side matches at once.  When it loses, or the lead is no longer legal (10.3 is checked on
the hand then), the order lapses and he decides as before.  Action Cards he could have played at
that lead are given up for the choice made early (as a landing plan gives them up).
"""

from __future__ import annotations

import json
from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import closecombat as cc
from .sealing import opened, seal, sealable


def offered(f: dict[str, Any]) -> bool:
    """A match that rolls for the initiative (a matched Creeping Barrage gives it without a roll)."""
    return f["step"] == "match" and f["lead"] != "creeping-barrage" and not f.get("matching")


def match_choices(f: dict[str, Any], matches: list[Choice]) -> list[Choice]:
    if not offered(f):
        return []
    return [Choice(f"{c.label}, and seal your lead should the roll win the initiative (10.4.2)",
                   dict(c.action, seal=True)) for c in matches if c.action["do"] == "play"]


def new(f: dict[str, Any], side: str, card: str) -> dict[str, Any]:
    return {"k": "leadplan", "side": side, "card": card, "area": f["area"]}


def text(state: dict[str, Any], plan: dict[str, Any]) -> str:
    return (f"{plan['side']} matches with {cc.card_name(plan['card'])} at {cc.name(plan['area'])}; should its roll "
            f"win the initiative, it leads, sealed now (10.4.2): which lead?")


def _leads(state: dict[str, Any], plan: dict[str, Any]) -> list[Choice]:
    """The leads the hand leaves after the match, in the next round (cc.cc_choices' own)."""
    f, side = state["frames"][-2], plan["side"]
    hand = list(state["ccdeck"][side]["hand"])
    hand.remove(plan["card"])
    after = dict(state, ccdeck=dict(state["ccdeck"], **{side: dict(state["ccdeck"][side], hand=hand)}))
    return cc.cc_choices(after, dict(f, step="lead", init=side, round=f["round"] + 1))


def choices(state: dict[str, Any], plan: dict[str, Any]) -> list[Choice]:
    out = [Choice(f"should the roll win the initiative: {c.label}",
                  {"do": "seal", "lead": {"$hide": json.dumps(c.action, sort_keys=True)}})
           for c in _leads(state, plan) if c.action["do"] in ("play", "withdraw")]
    return out + [Choice("decide after the roll", {"do": "later"})]


def valid(action: dict[str, Any]) -> bool:
    """The frame's sealed order (the prompt is free in every tool but its author's)."""
    return set(action) == {"do", "lead"} and action["do"] == "seal" and sealable(action["lead"], 200)


def do_plan(state: dict[str, Any], plan: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    """Seal the lead (or not), then leave the match as the combat's one legal choice."""
    if action != {"do": "later"} and not valid(action):
        raise IllegalAction("seal one of the listed leads, or decide after the roll")
    state["frames"].pop()
    f = state["frames"][-1]
    f["matching"] = plan["card"]
    if action["do"] == "seal":
        check(dice, plan["side"], action["lead"])
        f["plan"] = dict(seal(dice, plan["side"], action["lead"]), side=plan["side"])
        events.append({"text": f"{plan['side']} seals the card it leads should its roll win the initiative (10.4.2)"})


def check(dice: Any, side: str, value: Any) -> None:
    """In its author's tool, before it signs: a card of his hand leads as itself, a Reserve Trench
    as another card (10.3 card types), as the lead would check it when opened."""
    lead = json.loads(value["$hide"]) if isinstance(value, dict) else None
    if not isinstance(lead, dict) or lead.get("do") != "play" or lead["card"] in cc.DECK:
        return
    own = getattr(dice, "own_item", lambda s, t: None)(side, lead["card"])
    if own is not None and (own == cc.WILD) != ("as" in lead):
        raise IllegalAction(f"that card is {cc.card_name(own)}: "
                            + ("a Reserve Trench leads as another card" if own == cc.WILD else "it leads as itself"))


def bound_match(f: dict[str, Any]) -> list[Choice]:
    """The match chosen with the seal, now the combat's one legal choice."""
    return [Choice(f"match with {cc.card_name(f['matching'])}", {"do": "play", "card": f["matching"]})]


def combat_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    """The close combat's choices: the match made with a seal, the sealed lead, or the rules' own
    (with the sealed lead offered beside each match)."""
    if f.get("matching"):
        return bound_match(f)
    if due(f):
        return [Choice("lead as sealed with your match (10.4.2)", {"do": "planned"})]
    listed = cc.cc_choices(state, f)
    return listed + match_choices(f, listed)


def bound(f: dict[str, Any]) -> bool:
    """No Action Card window: the decision was taken with the seal."""
    return f["k"] == "cc" and (bool(f.get("matching")) or due(f))


def due(f: dict[str, Any]) -> bool:
    return f["step"] == "lead" and f.get("plan", {}).get("side") == f["init"]


def lapse(f: dict[str, Any], events: list) -> None:
    """After the roll: an order whose roll lost the initiative lapses unopened."""
    f.pop("matching", None)
    plan = f.get("plan")
    if plan is not None and (f["step"] != "lead" or f["init"] != plan["side"]):
        del f["plan"]
        events.append({"text": f"{plan['side']}'s sealed lead lapses: it does not have the initiative"})


def do_planned(state: dict[str, Any], f: dict[str, Any], dice: Any, events: list) -> None:
    """Open the sealed lead (its owner's tool) and play it if it is a legal lead now; else it lapses
    and the side decides."""
    plan = f.pop("plan")
    side = plan["side"]
    words = opened(dice, side, plan)
    events.append({"text": f"{side} opens the lead it sealed with its match"})
    try:
        action = json.loads(words)
    except ValueError:
        action = None
    if action not in [c.action for c in cc.cc_choices(state, f)]:
        events.append({"text": f"{side}'s sealed lead is not a legal lead now (10.3): it decides"})
        return
    try:
        cc.do_cc(state, f, action, dice, events)
    except IllegalAction as e:  # its author's tool checked it before sealing (``check``)
        raise IllegalAction(f"cheating: {side}'s sealed lead: {e}") from None
