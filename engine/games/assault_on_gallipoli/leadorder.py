"""The lead order (RULES.md, "Hand-overs"; 10.2-10.3): the cards a side leads in this turn's close
combats, by a preference it seals during the Activation Phase; its own tool then draws and leads
for it.

A close combat's leader draws its hand and leads at once (closecombat.py), so its first lead
comes right after what started the combat: often its own pass that ended the phase (the other
side's tool only revealed the link that resolved the pass's roll), or the other side's forced
choices that ended the close combat before.  Either way it is a second file of the same person
with no decision of the other's between.  The hand is not drawn yet, so no card can be named;
a *preference* can: "seal a lead order for this turn's close combats" (offered in each of its
Rounds while an area is contested and it has none) opens a frame where it picks one of the
orders listed (the rarest card first, or one card first, then the rarest; a Reserve Trench as a
card of its choice).  The order is sealed (``dice.seal``) and never opened in play: at each of
its leads its own tool reads it and the hand (``choose``) and leads the first card of the order
that it holds (``{"do": "ordered"}``, an ordinary lead the other side sees as any other, marked
as made by the order).  So the other side learns only the cards led, as it would anyway.

What the order gives up, as a landing plan does: the Action Cards it could play at its own deal
and leads, and the withdrawal from round three (it leads while it holds a card).  It lapses when
the turn's close combats are over.  A player who would rather decide each lead leaves it.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction, Prompt

from . import closecombat as cc
from . import initiative
from .sealing import seal, sealable

RAREST = ("raid", "creeping-barrage", "ambush", "infiltrate", "bayonet-charge")  # 5, 5, 6, 6 and 9 of 36
CARDS = tuple(c for c in cc.DECK if c != cc.WILD)


def _orders() -> list[tuple[str, list[str]]]:
    """(label, entries): each entry a card it leads as itself, or ``reserve-trench:CARD``."""
    out = [("the rarest card first, a Reserve Trench last as a Raid", [*RAREST, f"{cc.WILD}:raid"])]
    for first in RAREST[1:]:
        rest = [c for c in RAREST if c != first]
        out.append((f"{cc.card_name(first)} first, then the rarest, a Reserve Trench last as a Raid",
                    [first, *rest, f"{cc.WILD}:raid"]))
    for alias in RAREST:
        out.append((f"a Reserve Trench first, as {cc.card_name(alias)}, then the rarest",
                    [f"{cc.WILD}:{alias}", *RAREST]))
    return out


ORDERS = _orders()


def offered(state: dict[str, Any], f: dict[str, Any], side: str) -> bool:
    """In a Round not yet acted, while an area is contested and the side has no order."""
    return (f["k"] == "round" and not f["acted"] and not f.get("pass") and side not in state.get("leadorders", {})
            and bool(cc.pending(state, [])))


def round_choices(state: dict[str, Any], side: str) -> list[Choice]:
    f = state["frames"][-1]
    if not offered(state, f, side):
        return []
    return [Choice("seal a lead order for this turn's close combats: your tool draws and leads for you (10.3)",
                   {"do": "leads"})]


def new(side: str) -> dict[str, Any]:
    return {"k": "leadorder", "side": side}


def text(f: dict[str, Any]) -> str:
    return (f"{f['side']}'s lead order for this turn's close combats, sealed now: at each lead its tool plays "
            f"the first card of the order it holds (no Action Card at its deal and leads, no withdrawal while a card is held)")


def choices() -> list[Choice]:
    out = [Choice(f"lead {label}", {"do": "seal", "order": {"$hide": " ".join(entries)}}) for label, entries in ORDERS]
    return out + [Choice("no lead order: decide each lead", {"do": "later"})]


def valid(action: dict[str, Any]) -> bool:
    """The frame's sealed order (the prompt is free in every tool but its author's)."""
    return set(action) == {"do", "order"} and action["do"] == "seal" and sealable(action["order"], 200)


def entries(text: str) -> list[str] | None:
    """The order's entries, or None for a text no listed order gives."""
    out = text.split()
    ok = all(e in CARDS or e.partition(":")[0] == cc.WILD and e.partition(":")[2] in CARDS for e in out)
    return out if ok and 0 < len(out) <= 12 else None


def do_seal(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    """Seal the order (or not); the Round goes on, its decision still to make."""
    if action == {"do": "later"}:
        state["frames"].pop()
        return
    if not valid(action):
        raise IllegalAction("seal one of the listed lead orders, or decide each lead")
    if isinstance(action["order"], dict) and entries(action["order"]["$hide"]) is None:  # its author's tool
        raise IllegalAction("a lead order names close combat cards, a Reserve Trench as one of them")
    state["frames"].pop()
    state.setdefault("leadorders", {})[f["side"]] = seal(dice, f["side"], action["order"])
    events.append({"text": f"{f['side']} seals a lead order for this turn's close combats (10.3)"})


def _leading(state: dict[str, Any], f: dict[str, Any]) -> str | None:
    """The side that draws and leads now, holding a lead order."""
    if f["k"] != "cc" or f["step"] not in ("deal", "lead"):
        return None
    side = cc.cc_side(f)
    return side if side in state.get("leadorders", {}) else None


def bound(state: dict[str, Any], f: dict[str, Any]) -> bool:
    """No Action Card window at a deal or lead the order covers."""
    return _leading(state, f) is not None


def free(state: dict[str, Any], f: dict[str, Any]) -> bool:
    """A lead the order covers takes an action no tool but its owner's can list (``ordered``): the
    prompt is free there, while the hand holds a card and no lead sealed with a match is due."""
    side = _leading(state, f)
    return side is not None and f["step"] == "lead" and bool(state["ccdeck"][side]["hand"]) and not initiative.due(f)


def choose(state: dict[str, Any], prompt: Prompt, known: dict[str, str]) -> dict[str, Any] | None:
    """In its owner's tool: the lead its order gives (the first entry its hand holds), as an
    ``ordered`` action; None anywhere else, or where the order leads nothing (the side decides)."""
    f = state["frames"][-1]
    side = _leading(state, f)
    if side is None or f["step"] != "lead" or prompt.side != side:
        return None
    order = state["leadorders"][side]
    words = known.get(order["sealed"]) if "sealed" in order else order["plain"]
    listed = entries(words) if isinstance(words, str) else None
    if listed is None:
        return None
    for entry in listed:
        card, _, alias = entry.partition(":")
        for c in prompt.choices:
            a = c.action
            if a.get("do") == "play" and known.get(a["card"], a["card"]) == card and a.get("as") == (alias or None):
                return dict(a, do="ordered")
    return None


def ordered(state: dict[str, Any], side: str, action: dict[str, Any], listed: list[dict[str, Any]]) -> bool:
    """An ``ordered`` lead: the side holds an order, and the lead is one the rules list."""
    return (action.get("do") == "ordered" and _leading(state, state["frames"][-1]) == side
            and dict(action, do="play") in listed)


def do_ordered(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    side = cc.cc_side(f)
    events.append({"text": f"{side} leads by its sealed lead order"})
    cc.do_cc(state, f, dict(action, do="play"), dice, events)


def lapse(state: dict[str, Any]) -> None:
    """The turn's close combats are over."""
    state.pop("leadorders", None)
