"""A simple player for the demo and tests: it moves every unit a few hexes toward its goal
(the British up the Tigris toward Baghdad, the Turks toward Basra), attacks at the best odds
it can with its depot when it has one, defends with its depot, retreats rather than bleed,
and advances.  Pure: it sees the state and its prompt and answers with an order's words."""

from __future__ import annotations

from typing import Any

from pbem_engine.core import Prompt

from . import board, counters, hexmap, movement, rules
from .board import enemy, side_of
from .charts import PROVISIONAL

GOAL = {"british": "1302", "turkish": "1345"}


def order(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
    labels = [c.label for c in prompt.choices]
    if state["phase"] == "move" and not state["pending"]:
        for uid in sorted(state["units"]):
            v = state["units"][uid]
            if side_of(uid) != side or not board.is_ground(uid) or v["moved"] or v.get("aboard"):
                continue
            if rules.why_not_move(state, uid) or board.kind(uid) == "hq" and uid.endswith("army-hq"):
                continue
            reach = movement.reach(PROVISIONAL, state, uid)
            here = hexmap.distance(v["at"], GOAL[side])
            best = sorted((hexmap.distance(h, GOAL[side]), h) for h in reach
                          if board.stack_load(state, h, side) + counters.stack_size(uid) <= counters.STACK_LIMIT)
            if best and best[0][0] < here:
                return f"move {uid} to {best[0][1]}"
        return "end movement"
    for prefer in ("expending the depot", "retreat", "advance", "counterattack", "create a depot", "replace"):
        for i, label in enumerate(labels):
            if prefer in label:
                return str(i + 1)
    if state["phase"] == "combat" and not state["pending"]:
        return "end combat"
    return "1"
