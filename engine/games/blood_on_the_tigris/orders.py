"""Typed orders and the situation in words: "move 16/6 to 1444", "cross 16/6 to 1444", "sail
Odin to 1345|1445", "sail all at 1853|1953 to 1345|1445", "move depot d2 to
1444", "carry 16/6 with ford van 1 to 1440", "mutual operations: create a depot at 1201; replace all"
(standing.py); a listed choice by its number or words."""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.protocol.core import IllegalAction, Prompt, find_choice

from . import board, counters, hexmap, standing
from .board import side_of


def _unit(state: dict[str, Any], side: str, words: str) -> str:
    words = words.strip().lower()
    mine = [u for u in sorted(state["units"]) if side_of(u) == side]
    for test in (lambda u: u == words, lambda u: counters.name(u).lower() == words,
                 lambda u: u.split("-", 1)[1] == words, lambda u: counters.name(u).lower().startswith(words)):
        found = [u for u in mine if test(u)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise IllegalAction(f"'{words}' is ambiguous: " + ", ".join(counters.name(u) for u in found[:8]))
    raise IllegalAction(f"no {side} unit '{words}' on the map")


def parse(state: dict[str, Any], side: str, text: str, prompt: Prompt) -> dict[str, Any]:
    t = " ".join(text.split())
    low = t.lower()
    if low.startswith("move depot ") and " to " in low:
        did, _, dest = t[len("move depot "):].rpartition(" to ")
        return {"do": "move-depot", "depot": did.strip(), "to": dest.strip()}
    if low.startswith("carry ") and " with " in low and " to " in low:
        rest, _, dest = t[len("carry "):].rpartition(" to ")
        who, _, van = rest.rpartition(" with ")
        return {"do": "carry", "unit": _unit(state, side, who), "van": _unit(state, side, van), "to": dest.strip()}
    if low.startswith("place ") and " at " in low and " on the railhead " not in low:  # 20.1 is listed
        who, _, dest = t[len("place "):].rpartition(" at ")
        return {"do": "place", "unit": _unit(state, side, who), "to": dest.strip()}
    for verb in ("move", "cross"):
        if low.startswith(verb + " ") and " to " in low:
            who, _, dest = t[len(verb) + 1:].rpartition(" to ")
            return {"do": verb, "unit": _unit(state, side, who), "to": dest.strip()}
    ahead = re.fullmatch(r"(.+?)\s*;\s*advance", t, re.IGNORECASE | re.S)
    if ahead:  # 8.1: the advance after combat, ordered with the attack (standing.py)
        action = parse(state, side, ahead[1], prompt)
        if action.get("do") != "attack":
            raise IllegalAction("'; advance' is ordered with an attack only (8.1)")
        return {**action, "advance": True}
    typed = re.match(r"attack (\d{4})(?: \([^)]*\))? with (.+)$", t, re.IGNORECASE)
    if typed:  # 7.4: some of a hex's units attack
        depot = air = False
        units = []
        for part in re.split(r",| and ", typed[2]):
            words = part.strip().lower()
            if words == "expending the depot":
                depot = True
            elif re.fullmatch(r"with (the |\d+ )?aeroplanes?(\(s\))?", words):
                air = True
            elif words and not words.startswith("without a depot"):
                units.append(_unit(state, side, words))
        return {"do": "attack", "target": typed[1], "from": "", "units": units, "depot": depot, "air": air}
    if low.startswith("sail ") and " to " in low:
        who, _, dest = t[5:].rpartition(" to ")
        if who.lower().startswith("all at "):
            at = who[7:].strip()
            boats = [u for u in board.units_at(state, at, side) if board.kind(u) in ("gunboat", "steamer")]
        else:
            boats = [_unit(state, side, who)]
        return {"do": "sail", "boats": boats, "to": dest.strip()}
    plan = standing.parse(state, side, t, _unit)  # 3.1: the next Mutual Operations, given now
    if plan is not None:
        return plan
    return find_choice(prompt, t).action


def describe(view: dict[str, Any]) -> list[str]:
    lines = [f"turn {view['turn']} of {view['last']}, {view['phase']} ({view['active']}); supply points: "
             f"British {view['supply']['british']}, Turkish {view['supply']['turkish']}"]
    by_at: dict[str, list[str]] = {}
    for u, v in sorted(view["units"].items()):
        marks = "".join(m for m, k in ((" OOS", "oos"), (" OOC", "ooc"), (" entrenched", "entrenched")) if v.get(k))
        steps = "" if v["steps"] >= counters.UNITS[u].get("steps", 1) else " (reduced)"
        by_at.setdefault(v["at"], []).append(f"{counters.name(u)}{steps}{marks}")
    for at in sorted(by_at):
        where = hexmap.label(at) if at in hexmap.ALL_HEXES_SET else at
        lines.append(f"{where}: " + "; ".join(by_at[at]))
    for d, v in sorted(view["depots"].items()):
        lines.append(f"{v['side']} depot ({v['mode']}) at {hexmap.label(v['hex'])}")
    if view.get("rail"):  # 20.1
        lines.append("railroad (20.1): " + "; ".join(
            f"railhead {h} at {hexmap.label(line[-1])} ({len(line) - 1} hex(es) of track)"
            for h, line in sorted(view["rail"]["lines"].items())))
    if view.get("blocked"):
        lines.append(f"the channel {view['blocked']['side']} is blocked until turn {view['blocked']['until']} (16.24)")
    return lines
