"""Standing orders for the next Mutual Operations (3.1, 12.1, 13.2), given in one's own player turn.

The Turks' Mutual Operations come right after their own turn's supply survival rolls (3.4, 3.5,
3.1), and those rolls wait for the British player's next link: without a standing order the Turkish
player decides his turn, the British tool reveals the rolls, and the Turkish player must decide
again (replacements depend on who survived, 13.2) before the British may move.  The rules do not
ask him to wait: he may choose earlier, knowing less.  In his movement or combat phase he gives

    mutual operations: create a depot at 1201; create depots at 1201; replace 2/38; replace all

(or ``mutual operations: done``: none), and the rules carry it out when his Mutual Operations
come, in the reveal file: each order in turn if the rules allow it then, else skipped with the
reason said (a unit that did not survive, or is not reduced, or a site lost); then his Mutual
Operations are over.  ``create depots at HEX``: as many as his supply points allow there;
``replace all``: every unit that may be replaced then, in counter order, while points last.  A
player who gives none decides them when they come, as before.  Either side may give one; it holds
for that side's next Mutual Operations only, and a new one replaces it.

The same for the advance after combat (8.1), which follows a roll that waits for the defender's
reveal when the defender had nothing to decide: an attack order may end with ``; advance``
(``attack 1345 from 1244, expending the depot; advance``); then, if the attack vacates the hex,
every ground unit that may advance does, in the order the rules list them, into the vacated hex
(the retreat path's first), as far as stacking allows; nothing further along the path, no boat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set as AbstractSet
from typing import Any

from pbem_engine.protocol.core import IllegalAction

from . import counters, hexmap, sequence
from .board import side_of

WORDS = "mutual operations: ORDERS"
MOST = 12  # orders in one standing order: enough for any turn's supply points
KINDS = ("depot", "depots", "replace", "replace-all")


def parse(state: dict[str, Any], side: str, text: str, unit: Callable[[dict[str, Any], str, str], str]
          ) -> dict[str, Any] | None:
    """``mutual operations: ...`` as an action, or None if ``text`` is not one (``unit`` finds
    one of ``side``'s units by its words)."""
    m = re.fullmatch(r"\s*mutual operations?\s*:\s*(.*?)\s*", text, re.I | re.S)
    if not m:
        return None
    orders: list[dict[str, Any]] = []
    for part in (p.strip() for p in m.group(1).split(";")):
        low = " ".join(part.lower().split())
        if low in ("", "done", "none", "nothing"):
            continue
        low = re.sub(r"\s*\(\d+\.\d+\)$", "", low)  # a listed choice's words, its rule number after them
        depot = re.fullmatch(r"(?:create )?(a depot|depots) at (\d{4})(?: \([^)]*\))?(?: for .*)?", low)
        if depot:
            orders.append({"do": "depot" if depot[1] == "a depot" else "depots", "hex": depot[2]})
        elif low in ("replace all", "replace any"):
            orders.append({"do": "replace-all"})
        elif low.startswith("replace "):
            who = re.sub(r" to full strength.*$", "", part.strip()[len("replace "):], flags=re.I)
            orders.append({"do": "replace", "unit": unit(state, side, who)})
        else:
            raise IllegalAction(f"'{part}' is not a Mutual Operations order: say 'create a depot at HEX', "
                                "'create depots at HEX', 'replace UNIT' or 'replace all' (3.1, 12.1, 13.2)")
    return {"do": "mutual-plan", "orders": orders}


def give(state: dict[str, Any], side: str, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Record ``side``'s standing order, given in its own movement or combat phase."""
    if state["phase"] not in ("move", "combat") or state["active"] != side or state["pending"]:
        raise IllegalAction("a standing order for the Mutual Operations is given in your own movement or "
                            "combat phase (3.1)")
    orders = action.get("orders")
    if not isinstance(orders, list) or len(orders) > MOST or set(action) != {"do", "orders"}:
        raise IllegalAction(f"a standing order holds a list of at most {MOST} Mutual Operations orders")
    for o in orders:
        if not isinstance(o, dict) or o.get("do") not in KINDS:
            raise IllegalAction(f"{o!r} is not a Mutual Operations order (3.1)")
        if o["do"] in ("depot", "depots") and (set(o) != {"do", "hex"} or o["hex"] not in hexmap.ALL_HEXES_SET):
            raise IllegalAction(f"no hex {o.get('hex')!r} on the map (12.1)")
        if o["do"] == "replace" and (set(o) != {"do", "unit"} or o["unit"] not in state["units"]
                                     or side_of(o["unit"]) != side):
            raise IllegalAction(f"{o.get('unit')!r} is not a {side} unit on the map (13.2)")
        if o["do"] == "replace-all" and set(o) != {"do"}:
            raise IllegalAction("'replace all' takes nothing more (13.2)")
    state.setdefault("standing", {})[side] = [dict(o) for o in orders]
    events.append({"text": f"{side} give a standing order for their next Mutual Operations (3.1): "
                           + ("; ".join(words(o) for o in orders) or "none")})


def words(o: dict[str, Any]) -> str:
    if o["do"] in ("depot", "depots"):
        return f"create {'a depot' if o['do'] == 'depot' else 'depots'} at {hexmap.label(o['hex'])}"
    return "replace all" if o["do"] == "replace-all" else f"replace {counters.name(o['unit'])}"


def pending(state: dict[str, Any], side: str) -> bool:
    return side in state.get("standing", {})


def carry_out(state: dict[str, Any], side: str, events: list[dict[str, Any]],
              do: Callable[[dict[str, Any], str, dict[str, Any], list[dict[str, Any]]], None]) -> None:
    """3.1: ``side``'s Mutual Operations by its standing order (``do`` applies one listed order,
    as the player's own would be, once this has found it allowed): each order the rules allow now,
    the others skipped with why; then its Mutual Operations are over."""
    orders = state["standing"].pop(side)
    if not state["standing"]:
        del state["standing"]
    lines: dict[Any, AbstractSet[str]] = {}  # the lines home, searched once while nothing they depend on changes

    def allowed(action: dict[str, Any]) -> bool:
        return sequence.mutual_allowed(state, side, action, lines)  # as listed by mutual_choices

    for o in orders:
        if o["do"] in ("depot", "depots"):
            action = {"do": "depot", "hex": o["hex"]}
            done = 0
            while allowed(action) and (o["do"] == "depots" or not done):
                do(state, side, action, events)
                done += 1
            if not done:
                events.append({"text": f"standing order not carried out: {words(o)} (no supply points left, or "
                                       f"not a depot site now, 12.1)"})
        elif o["do"] == "replace":
            action = {"do": "replace", "unit": o["unit"]}
            if allowed(action):
                do(state, side, action, events)
            else:
                why = ("eliminated" if o["unit"] not in state["units"] else "at full strength"
                       if state["units"][o["unit"]]["steps"] >= counters.UNITS[o["unit"]].get("steps", 1)
                       else "no supply point left, or not stacked with an HQ with a line home 3 hexes from the enemy")
                events.append({"text": f"standing order not carried out: {words(o)} ({why}, 13.2)"})
        else:
            for uid in sorted(state["units"]):
                action = {"do": "replace", "unit": uid}
                if side_of(uid) == side and allowed(action):
                    do(state, side, action, events)
    events.append({"text": f"{side} Mutual Operations done by their standing order (3.1)"})


def advance(pending: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """8.1 by the attack's order: the next unit into the vacated hex, or no further advance."""
    first = pending["path"][0]
    for words, action in pending["choices"]:
        if action.get("do") == "advance" and action.get("to") == first:
            events.append({"text": f"standing order (8.1): {words}"})
            return action
    return {"do": "stop"}
