"""A simple, sensible player for the demo and the tests: it lands, attacks when it has the
numbers, holds beaches, and plays reinforcements when it holds them.  Pure: it
sees the public state, its prompt, and its own hidden items (``known``); it
answers with an order as a player would type it (a choice's number, or words)."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Prompt

from . import board, combat, ops
from .board import army_of, enemy
from .cards import DEFAULT
from .sequence import hand_limit
from .data import BLOCKS, SPACES

CARDS = DEFAULT
SETUP = [("ott-9-div-25-rgt", 4, "krithia"), ("ott-9-div-26-rgt", 3, "achi-baba"),
         ("ott-9-div-27-rgt", 2, "sedd-el-bahr"), ("ott-dummy-1", None, "gully-ravine"),
         ("ott-dummy-2", None, "alexi"), ("ott-19-div-57-rgt", 3, "kilia-liman"),
         ("ott-19-div-72-rgt", 3, "maidos"), ("ott-19-div-77-rgt", 3, "boghali")]


def distance(src: str, goals: set[str]) -> int:
    seen, frontier, d = {src}, [src], 0
    while frontier:
        if any(s in goals for s in frontier):
            return d
        d += 1
        frontier = [n for s in frontier for n in board.adjacent(s) if n not in seen and not seen.add(n)]  # type: ignore[func-returns-value]
    return 99


def order(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
    frame = state["frames"][-1]
    kind = frame["k"]
    if kind == "bid":
        return "bid 6"
    if kind == "bid-open":
        return "1"
    army = army_of(state, side)
    if board.standing(state, army):
        return "stand up"
    labels = [c.label for c in prompt.choices]
    actions = [c.action for c in prompt.choices]

    def pick(test) -> str | None:
        for i, a in enumerate(actions):
            if test(a):
                return str(i + 1)
        return None

    def card(a: dict[str, Any]) -> dict[str, Any]:
        return CARDS[known[a["card"]]] if a.get("card") in known else {}

    if kind == "deploy":
        return deploy_order(state, frame, army, known)
    if kind in ("allied-setup", "reinforce", "supply", "final", "reveal"):
        return labels[0]
    if kind == "manual":
        return "done" if frame.get("noted") else "note no effect on the board (placeholder event)"
    if kind == "battle" and frame["step"] in ("lead-att", "lead-def"):
        return "lead strongest"
    if kind == "battle" and frame["step"] in ("plan-att", "plan-def"):
        return "plan lead strongest; events all"  # a plan saves four exchanges a battle
    if kind == "phase":
        hand = [CARDS[known[t]] for t in state["hands"][army] if t in known]
        for kind_wanted in ("suvla", "reinforce", "ops"):
            choice = pick(lambda a, k=kind_wanted: a.get("as") == "event" and card(a).get("event", {}).get("kind") == k)
            if choice:
                return choice
        best = max((c["ops"] for c in hand), default=0)
        if best >= 2 or (hand and len(hand) >= hand_limit(state, army)):
            return pick(lambda a: a.get("as") == "ops" and card(a).get("ops") == best) or labels[-1]
        return pick(lambda a: a["do"] == "discard" and card(a).get("ops", 9) == 0) or labels[-1]
    if kind == "response":
        return pick(lambda a: card(a).get("event", {}).get("kind") == "response") or "1"
    if kind == "ops":
        return ops_order(state, army, actions)
    if kind == "move":
        return move_order(state, frame, army, actions)
    if kind == "landing":
        return pick(lambda a: card(a).get("bombardment", 0) >= 2 and card(a).get("ops", 3) <= 1) or "1"
    if kind == "hits":
        return str(1 + max(range(len(actions)), key=lambda i: state["blocks"][actions[i]["block"]]["steps"] or 0))
    if kind == "battle":
        step = frame["step"]
        if step == "bombard":
            return pick(lambda a: card(a).get("bombardment", 0) >= 2 and card(a).get("ops", 3) <= 1) or "1"
        if step == "entrench":
            return pick(lambda a: card(a).get("entrenchment", 0) >= 2 and card(a).get("ops", 3) <= 1) or "1"
        if step in ("events-att", "events-def"):
            return pick(lambda a: card(a).get("event", {}).get("kind") == "battle") or "1"
        if step == "advance":
            moved = sum(1 for t, b in state["blocks"].items() if b["at"] == frame["to"])
            return "1" if moved < 3 and len(actions) > 1 else labels[-1]
        if step == "press":
            mine = len(combat.eligible(state, frame))
            return "1" if mine >= len(combat.defenders(state, frame)) else "2"
    return "1"


def deploy_order(state: dict[str, Any], frame: dict[str, Any], army: str, known: dict[str, str]) -> str:
    """Set-up and reinforcements; a reinforcement plan (sequence.offer_plan) is given the same
    way, as a battle plan is: it saves the exchange after the Allies' response window."""
    plan = frame.get("plan") or {}
    placed = {board.parse_sealed(known[t])[0] for t in [*board.tokens(state, army=army), *plan] if t in known}
    placed |= {b["id"] for b in state["blocks"].values() if b["id"]}
    if frame["origin"] == "setup":
        for bid, steps, space in SETUP:
            if bid not in placed:
                return f"deploy dummy {space}" if steps is None else f"deploy {bid} {steps} {space}"
        return "done"
    quota = state["quota"][frame["origin"]]
    spent = sum(board.parse_sealed(known[t])[1] or 0 for t, b in [*state["blocks"].items(), *plan.items()]
                if b["origin"] == frame["origin"] and t in known)
    left = quota - spent
    spare = [b for b in sorted(BLOCKS) if BLOCKS[b][1] == army and not board.is_dummy(b) and b not in placed]
    if left >= 1 and spare and board.room(state, "ottoman-hq") - len(plan) > 0:
        return f"deploy {spare[0]} {min(4, left)} ottoman hq"
    return "done"


def ops_order(state: dict[str, Any], army: str, actions: list[dict[str, Any]]) -> str:
    def size(space: str, who: str) -> int:
        return len(board.tokens(state, space, who))

    for i, a in enumerate(actions):  # attack with the numbers
        if a["do"] == "attack" and size(a["from"], army) >= size(a["to"], enemy(army)) + (0 if army == "allied" else 1):
            return str(i + 1)
    goals = goal_spaces(state, army)
    best, best_i = 0, None
    for i, a in enumerate(actions):
        if a["do"] != "activate":
            continue
        here = a["space"]
        now = distance(here, goals)
        useful = any(distance(to, goals) < now or (board.is_hq(here) and SPACES[to][2] == "beach")
                     for t in board.tokens(state, here, army) for to in ops.movable(state, army, t))
        if not useful:
            continue  # an activation that brings no block nearer is a wasted OPS
        gain = 10 * size(here, army) if board.is_hq(here) else now * size(here, army)
        if gain > best:
            best, best_i = gain, i
    return str(best_i + 1) if best_i is not None else str(len(actions))


def goal_spaces(state: dict[str, Any], army: str) -> set[str]:
    if army == "allied":
        goals = {s for s in board.objectives() if board.occupant(state, s) != "allied"}
        return goals or set(board.objectives())
    held = {b["at"] for b in state["blocks"].values() if b["army"] == "allied" and not board.is_hq(b["at"])}
    return held or {s for s, v in SPACES.items() if v[2] == "beach"}


def move_order(state: dict[str, Any], frame: dict[str, Any], army: str, actions: list[dict[str, Any]]) -> str:
    src = frame["space"]
    goals = goal_spaces(state, army)
    here = distance(src, goals)
    stay = 0 if board.is_hq(src) or src in goals else 1  # leave one block to hold a space on the way
    left = len([t for t in board.tokens(state, src, army) if t not in frame["moved"]])
    if left > stay:
        options = [(distance(a["to"], goals), i) for i, a in enumerate(actions) if a["do"] == "move"]
        options = [o for o in options if o[0] < here or (board.is_hq(src) and SPACES[actions[o[1]]["to"]][2] == "beach")]
        if options:
            return str(min(options)[1] + 1)
    return str(len(actions))
