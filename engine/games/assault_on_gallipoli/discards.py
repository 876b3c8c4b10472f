"""Discards sealed with a pass (RULES.md, "Hand-overs"): the Action Cards a side will discard at
the next turn's draw should it then hold the Morale Advantage (17.3, 18.1).

The Morale Advantage roll (18.3) follows the last decision of a turn and waits for the other
side's next link.  When the side that made that decision wins it, it discards and draws first:
a second file of its own after a file of the other side's tool that only revealed the link.  The
discards are cards of its hidden hand (17.1), so a standing order naming them must be sealed:
"pass, and seal your discards for the next draw" (offered at any pass of a turn with a next
turn to come, while the side holds cards and has no such order yet) opens a frame where it
picks them, all at once, among every set its hand allows; the pick is sealed (``dice.seal``,
``{"$hide": "token token"}``), so the other side learns nothing, whatever the roll.  At the draw,
if the side holds the Advantage, the draw's one legal choice is "discard as sealed, then draw":
its own tool opens the order, discards the cards still in its hand (a card played since is
gone) and draws, and no person is asked.  When the other side holds the Advantage the order
lapses unopened: the side then decides its discards knowing the holder's, as 18.1 gives it.
A player who would rather decide at the draw passes as before.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import cards
from .board import enemy
from .sealing import opened, seal, sealable

MAX_SETS = 64  # every set of a hand of six (the holder's five and one taken by Espionage)


def offered(state: dict[str, Any], side: str) -> bool:
    return (state["turn"] < state["turns"] and bool(cards.hand(state, side))
            and side not in state.get("discards", {}))


def pass_choices(state: dict[str, Any], side: str) -> list[Choice]:
    if not offered(state, side):
        return []
    return [Choice("pass, and seal your discards for the next turn's draw, should you hold the Morale Advantage "
                   "then (17.3, 18.1)", {"do": "pass", "discards": True})]


def new(side: str) -> dict[str, Any]:
    return {"k": "discardplan", "side": side}


def text(f: dict[str, Any]) -> str:
    return (f"{f['side']} passes (4.4); its discards at the next turn's draw, should it hold the Morale Advantage "
            f"then, sealed now (17.3, 18.1): which cards?")


def choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    """Every set of the hand's cards (a card played before the draw is simply not discarded)."""
    held = cards.hand(state, f["side"])
    out: list[Choice] = []
    for n in range(len(held) + 1):
        for picked in combinations(held, n):
            action = {"do": "seal", "cards": {"$hide": " ".join(picked)}}
            if len(out) < MAX_SETS and all(c.action != action for c in out):
                named = ", ".join(cards.label(e) for e in picked) or "nothing"
                out.append(Choice(f"discard {named} at the draw", action))
    return out


def valid(action: dict[str, Any]) -> bool:
    """The frame's one order: a set of cards (the prompt is free in every tool but its author's:
    what it seals cannot be listed there)."""
    return set(action) == {"do", "cards"} and action["do"] == "seal" and sealable(action["cards"], 65 * MAX_SETS)


def do_seal(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    if not valid(action):
        raise IllegalAction("seal a set of your cards: one of the listed choices")
    state["frames"].pop()
    state["frames"][-1]["pass"] = True  # the Round's one choice now: its own action, since it rolls
    state.setdefault("discards", {})[f["side"]] = seal(dice, f["side"], action["cards"])
    events.append({"text": f"{f['side']} seals its discards for the next turn's draw, should it hold the Morale "
                           f"Advantage then (17.3)"})


def due(state: dict[str, Any], f: dict[str, Any]) -> bool:
    """The draw's one legal choice is the sealed discards: the holder's first draw of a turn."""
    return (f["side"] == state["ma"] and not f["wait"] and state["turn"] > 1
            and f["side"] in state.get("discards", {}))


def lapse(state: dict[str, Any], events: list) -> None:
    """The draw phase begins: the other side's sealed discards lapse unopened (18.1)."""
    other = enemy(state["ma"])
    if state.get("discards", {}).pop(other, None) is not None:
        events.append({"text": f"{other}'s sealed discards lapse: it does not hold the Morale Advantage"})


def do_planned(state: dict[str, Any], f: dict[str, Any], dice: Any, events: list) -> None:
    """Open the sealed discards (in the side's own file: only its tool can), discard those still
    held, then draw (17.3)."""
    side = f["side"]
    picked = opened(dice, side, state["discards"].pop(side))
    events.append({"text": f"{side} opens its sealed discards"})
    for entry in picked.split():
        if entry in cards.hand(state, side):
            cards.do_draw(state, f, {"do": "discard", "card": entry}, dice, events)
    cards.do_draw(state, f, {"do": "draw"}, dice, events)
