"""A simple player for the demo and tests: it moves every unit a few hexes toward its goal
(the British up the Tigris toward Baghdad, the Turks toward Basra), attacks at the best odds
it can with its depot when it has one, defends with its depot, retreats rather than bleed,
and advances (ordered with each attack it announces: ``; advance``, standing.py); the Turks give
their next Mutual Operations as a standing order (``mutual_plan``).  Pure: it sees the state and its prompt and answers with an order's words."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Prompt, order_part

from . import board, counters, hexmap, logistics, movement, rules, scenarios, standing, supply
from .board import side_of
from .charts import Charts

GOAL = {"british": "1302", "turkish": "1345"}


def order(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str], used: Charts) -> str:
    """``used``: the charts in use, ours or a player's (they change movement costs too)."""
    labels = [c.label for c in prompt.choices]
    if state["phase"] == "move" and not state["pending"]:
        gap = rules.garrison_gap(state, side, used)
        if gap:  # 16.21: send the nearest unit that can reach it
            for uid in sorted(state["units"], key=lambda u: (hexmap.distance(state["units"][u]["at"], gap)
                                                              if state["units"][u]["at"] in hexmap.ALL_HEXES_SET else 99, u)):
                if side_of(uid) == side and board.kind(uid) == "combat" and not rules.why_not_move(state, uid) \
                        and gap in movement.reach(used, state, uid):
                    return f"move {uid} to {gap}"
        for d, dv in sorted(state["depots"].items()):  # 12.3: mobile depots follow the army
            if dv["side"] == side and not logistics.depot_why_not(state, side, d):
                here = hexmap.distance(dv["hex"], GOAL[side])
                best = sorted((hexmap.distance(h, GOAL[side]), h) for h in logistics.depot_reach(used, state, d)
                              if any(board.side_of(u) == side and board.kind(u) == "combat"
                                     for n in (h, *hexmap.neighbours(h)) for u in board.ground_at(state, n)))
                if best and best[0][0] < here:
                    return f"move depot {d} to {best[0][1]}"
        for uid in sorted(state["units"]):
            v = state["units"][uid]
            if side_of(uid) != side or not board.is_ground(uid) or v["moved"] or v.get("aboard"):
                continue
            if rules.why_not_move(state, uid) or board.kind(uid) == "hq" and uid.endswith("army-hq"):
                continue
            reach = movement.reach(used, state, uid)
            here = hexmap.distance(v["at"], GOAL[side])
            best = sorted((hexmap.distance(h, GOAL[side]), h) for h in reach
                          if board.stack_load(state, h, side) + counters.stack_size(uid) <= counters.STACK_LIMIT)
            if best and best[0][0] < here:
                return f"move {uid} to {best[0][1]}"
        plan = mutual_plan(state, side)
        return plan or "end movement"
    if state["phase"] == "combat" and not state["pending"] and not state.get("announced") and state.get("plan"):
        backed = sum(1 for f in state["plan"] if f["depot"])  # 7.0: announce no more depot attacks than depots
        have = sum(1 for d in state["depots"].values() if d["side"] == side) + (state["supply"][side] > 0)
        if backed >= have:
            return "resolve the announced attacks"
    for prefer in ("expending the depot", "resolve", "retreat", "advance", "counterattack", "create a depot", "replace"):
        for i, label in enumerate(labels):
            if prefer in label:
                if prompt.choices[i].action.get("do") == "attack" and prompt.free:  # 8.1, ordered now (standing.py)
                    return f"{order_part(label)}; advance"
                return str(i + 1)
    if state["phase"] == "combat" and not state["pending"]:
        return "end combat"
    return "1"


def mutual_plan(state: dict[str, Any], side: str) -> str | None:
    """The Turks' next Mutual Operations as a standing order (standing.py), given before their
    movement ends: they come after the supply survival rolls, which wait for the British reveal,
    so a decision then would cost the Turkish player a second file.  What this player would do
    then, decided now: depots at Baghdad's first site while points last, then replacements.  None
    when it has given one, is British (its Mutual Operations follow the Turks', no roll between),
    or will have no supply point to spend."""
    if side != "turkish" or standing.pending(state, side):
        return None
    due = counters.SUPPLY[side].get(state["turn"] + 1, 0) if scenarios.campaign_rules(state) else 0
    if state["supply"][side] + due < 1:
        return None
    sites = supply.depot_sites(state, side)
    return "mutual operations: " + (f"create depots at {sites[0]}; " if sites else "") + "replace all"
