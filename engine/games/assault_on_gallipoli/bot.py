"""A simple, sensible player for tests: fire when it can, land and bring on reinforcements (every
landing with a landing plan), march on the nearest VP area it does not hold, assault the enemy
next to it every other Round (close combat: closecombat.py), take damage on the cheapest counter
first; and play its Action Cards where they help (``card``, ``use_for``): to ignore fire damage,
for 2 more close combat cards or fire dice, +2 MF, and the brown and red cards at the start of
every third Round of its own; Good Luck ahead on the next landing roll if it lands at the beach
next to the most enemy units, on its close combat initiative or withdrawal roll if it fails (or
the enemy's initiative if it succeeds), else on one missed die of its own fire; Sudden Storm on
an enemy group that just entered its area, or ahead at the start of its Round when the enemy
can move next to its units (a landing to come, a fresh enemy unit 2 areas away or closer);
Heroic Act on an exhausted unit next to the enemy at the start of its own Round or at its
opportunity fire (the unit then fires, else moves, else digs).  Cards ride on decisions the
side has anyway (no turn file of their own); it reads only its own hand and the public board,
never the other hand."""

from __future__ import annotations

import json
from typing import Any

from pbem_engine.protocol.core import Choice, Prompt

from . import board, cards, effects, fireplan, plans, rules
from .board import enemy
from .closecombat import WILD, cc_side


def goal_distance(state: dict[str, Any], side: str, area: str) -> int:
    goals = [a for a in sorted(state["cubes"]) if state["cubes"].get(a) != side or board.controller(state, a) != side]
    return min((board.dist(area, g) for g in goals), default=0)


def order(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str:
    choices = list(prompt.choices)
    f = state["frames"][-1]
    k = f["k"]

    def pick(pred) -> str | None:
        for i, c in enumerate(choices):
            if pred(c.action):
                return str(i + 1)
        return None

    if k == "card":  # how to use the card just played: the use it was played for
        got = use_for(state, side, f["card"], choices)
        return str(choices.index(got) + 1) if got else "1"
    if k == "heroic":  # Heroic Act's free activation: fire, else move, else dig
        return pick(lambda a: a["do"] == "fire") or pick(lambda a: a["do"] == "move") or pick(
            lambda a: a["do"] == "dig") or "1"
    if k == "draw" and any(c.action.get("ships") for c in choices):  # its draw, with the ships placed (standing.py)
        plain = [c for c in choices if not c.action.get("ships")]
        got = order(state, side, prompt._replace(choices=tuple(plain)), known)
        if got.isdigit() and plain[int(got) - 1].action == {"do": "draw"}:
            return str(next(i for i, c in enumerate(choices) if c.action.get("ships")) + 1)
        return got
    if k == "round" and pick(lambda a: a["do"] == "leads"):  # its leads as it would make them (leadorder.py)
        return pick(lambda a: a["do"] == "leads")
    if k == "leadorder":  # the rarest card first, a Reserve Trench last as a Raid (leadorder.ORDERS)
        return "1"
    got = card(state, side, prompt, known)
    if got:
        return got
    if k == "round":
        near = board.enemy_areas(state, side)
        if state["clock"] % 2 == 0:  # every other Round, an assault: move from next to the enemy
            got = pick(lambda a: a["do"] == "move" and any(b in near for b in board.adj(a["from"])))
            if got:
                return got
        got = pick(lambda a: a["do"] == "land" and a.get("plan"))  # a landing plan (plans.py) saves two files
        if got:
            return got
        for do in ("land", "fire", "reinforce", "move", "refresh"):  # a contested area is left to close combat
            got = pick(lambda a, do=do: a["do"] == do and not (do == "fire" and board.contested(state, a["from"])))
            if got:
                return got
        return (pick(lambda a: a["do"] == "pass" and a.get("order")) or pick(lambda a: a["do"] == "pass" and a.get("discards"))
                or pick(lambda a: a["do"] == "pass") or "1")
    if k == "discardplan":  # its discards at the draw, as it makes them there (below): the whole hand
        return str(len(choices))
    if k == "landplan":  # what it would do at that beach: its own choice on the board the plan foresees
        sim, planned = plans.simulate(state, f, f["beach"], rules.prompt, rules.apply)
        return order(sim, side, planned, known) if planned else str(len(choices))
    if k == "fire":
        got = (pick(lambda a: a["do"] == "with") or pick(lambda a: a["do"] == "leader")
               or pick(lambda a: a["do"] == "fire" and not board.contested(state, a["at"]))
               or pick(lambda a: a["do"] == "hold")  # advancing or opportunity fire: leave it to close combat
               or pick(lambda a: a["do"] == "fire") or "1")
        planned = dict(choices[int(got) - 1].action, plan=True)  # with its next decisions planned (fireplan.py)
        return pick(lambda a: a == planned) or got
    if k == "fireplan":  # what it would do after a miss: its own choice on the board the plan foresees
        sim, planned = fireplan.simulate(state, f, rules.prompt, rules.apply)
        return order(sim, side, planned, known) if planned else str(len(choices))
    if k == "move":
        if not f["went"]:
            return pick(lambda a: a["do"] == "take") or pick(lambda a: a["do"] == "go") or "1"
        near = board.enemy_areas(state, side)
        assault = next((c for c in choices if c.action["do"] == "go" and c.action["to"] in near), None)
        if assault is not None and not board.is_sea(assault.action["to"]):
            return str(choices.index(assault) + 1)
        here = goal_distance(state, side, f["at"])
        best = min((c for c in choices if c.action["do"] == "go"),
                   key=lambda c: goal_distance(state, side, c.action["to"]), default=None)
        if best is not None and goal_distance(state, side, best.action["to"]) < here:
            return str(choices.index(best) + 1)
        return pick(lambda a: a["do"] == "stop") or "1"
    if k == "damage":
        for do in ("wire", "flip", "reduce", "eliminate"):
            got = pick(lambda a, do=do: a["do"] == do)
            if got:
                return got
    if k == "retreat":
        return pick(lambda a: a["do"] == "stay") or "1"
    if k == "cc":  # its match, with the lead it would make sealed (initiative.py)
        got = close_combat([c for c in choices if not c.action.get("seal")], pick)
        chosen = choices[int(got) - 1].action
        sealed = next((i for i, c in enumerate(choices) if c.action == dict(chosen, seal=True)), None)
        return str(sealed + 1) if sealed is not None else got
    if k == "leadplan":  # the lead it would make if the roll wins: its own choice among the leads left, its
        leads = []       # cards read (a card not a Reserve Trench leads as itself)
        for i, c in enumerate(choices[:-1]):
            a = json.loads(c.action["lead"]["$hide"])
            read = known.get(a.get("card", ""), a.get("card"))
            if "as" not in a or read == WILD:
                leads.append((i, dict(a, card=read) if "card" in a else a))
        got = close_combat([Choice("", a) for _, a in leads],
                           lambda pred: next((str(j + 1) for j, (_, a) in enumerate(leads) if pred(a)), None))
        return str(leads[int(got) - 1][0] + 1) if leads else str(len(choices))
    if k == "ccdamage":  # Remnants first, then change, then units, Leaders last
        return (pick(lambda a: a["do"] == "eliminate" and board.kind(a["unit"]) == "remnant")
                or pick(lambda a: a["do"] == "change")
                or pick(lambda a: a["do"] == "eliminate" and board.kind(a["unit"]) != "leader") or "1")
    return "1"


RAREST = ("raid", "ambush", "infiltrate", "bayonet-charge", "creeping-barrage")


def close_combat(choices: list, pick) -> str:
    """Draw; lead the rarest card it holds (a Reserve Trench last, as a Raid); match with the
    card itself before a Reserve Trench; never withdraw while it holds a card."""
    got = pick(lambda a: a["do"] == "draw")
    if got:
        return got
    for card in RAREST:
        got = pick(lambda a, card=card: a["do"] == "play" and a["card"] == card and "as" not in a)
        if got:
            return got
    return (pick(lambda a: a["do"] == "play" and a.get("as") in (None, "raid")) or pick(lambda a: a["do"] == "nomatch")
            or "1")


# what the player plays an Action Card for, at each decision (the uses of effects.uses), best first
WANT = {"damage": ("ignore",), "fire": ("dice",), "move": ("march",), "cc": ("grenades",),
        "round": ("keep", "dig", "hospital", "remnant", "thirst", "wire", "sink", "dysentery", "take", "night",
                  "coord", "wrong")}


def card(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str | None:
    """An Action Card of its hand worth playing now (its name known: its own hand), or None."""
    for i, c in enumerate(prompt.choices):
        if c.action["do"] != "card":
            continue
        name = known.get(c.action["card"], c.action["card"])
        if name not in cards.DECK or cards.timing(state, side, name):
            continue
        if use_for(state, side, name, effects.uses(state, side, name)):
            return str(i + 1)
    return None


def first(uses: list[Choice], pred) -> Choice | None:
    return next((c for c in uses if pred(c.action)), None)


def use_for(state: dict[str, Any], side: str, name: str, uses: list[Choice]) -> Choice | None:
    """The use (one of ``uses``, effects.uses) it plays ``name`` for at this decision, or None."""
    f = effects.under(state)
    start = f["k"] == "round" and f["side"] == side and not f["acted"]  # the start of its own Round
    want = WANT.get(f["k"], ()) if f["k"] != "round" or (start and state["clock"] % 3 == 0) else ()
    got = first(uses, lambda a: a["use"] in want)
    if got or not cards.kind(name) in ("good-luck", "sudden-storm", "heroic-act"):
        return got
    if cards.kind(name) == "good-luck":
        return luck_use(state, side, f, start, uses)
    if cards.kind(name) == "sudden-storm":
        return storm_use(state, side, start, uses)
    return heroic_use(state, side, start, uses)


def exposed_beach(state: dict[str, Any]) -> str:
    """The landing beach next to the most enemy units (the first in the landing table if tied)."""
    beaches = [b for _, b in board.landing()]
    return max(beaches, key=lambda b: sum(len(board.units_at(state, a, "turkish")) for a in (b, *board.adj(b))))


def luck_use(state: dict[str, Any], side: str, f: dict[str, Any], start: bool,
             uses: list[Choice]) -> Choice | None:
    """Good Luck ahead (luck.py) on the roll to come: the landing at the start of its Round while
    boats wait; in close combat its withdrawal (no card left to lead), its initiative roll if it
    fails (when matching) or the enemy's if it succeeds (when leading); else one missed die of its
    own fire (not while boats wait, nor with a close combat to come: those first).  One order of
    its own waiting at a time."""
    def offer(**keys: str) -> Choice | None:
        return first(uses, lambda a: a["use"] == "luck" and all(a.get(k) == v for k, v in keys.items()))

    landing = side == "anzac" and bool(state["waves"])
    waiting = {o["roll"] for o in state["ac"].get("luck", []) if o["side"] == side}
    if start and landing and "landing" not in waiting:
        return offer(roll="landing", on=exposed_beach(state))
    if f["k"] == "cc" and cc_side(f) == side and not waiting & {"initiative", "withdrawal"}:
        if f["step"] == "lead" and f["round"] >= 3 and not state["ccdeck"][side]["hand"]:
            return offer(roll="withdrawal", of=side)
        if f["step"] == "match":
            return offer(roll="initiative", of=side)
        if f["step"] == "lead":
            return offer(roll="initiative", of=enemy(side))
    fighting = any(board.contested(state, a) for a in effects.land(state, side))  # kept for the close combat
    if f["k"] == "fire" and f["side"] == side and not landing and not fighting:
        return first(uses, lambda a: a["use"] == "lucky")
    return None


def closing(state: dict[str, Any], side: str) -> bool:
    """Can the enemy move next to its units: a boat to land (for the Turk), or a fresh enemy unit
    on land 2 areas or less from one of its areas."""
    ours = effects.land(state, side)
    if side == "turkish" and state["waves"]:
        return True
    return any(v["fresh"] and board.side_of(u) != side and not board.is_sea(v["at"]) and board.kind(u) != "art"
               and min((board.dist(v["at"], a) for a in ours), default=99) <= 2
               for u, v in sorted(state["units"].items()))


def storm_use(state: dict[str, Any], side: str, start: bool, uses: list[Choice]) -> Choice | None:
    """Sudden Storm: back 2 MF with the enemy group that just entered an area of its units; or, at
    the start of its Round, waiting for the next enemy stop when the enemy can close in."""
    adv = next((g for g in reversed(state["frames"]) if g["k"] == "advance" and g["side"] == enemy(side)), None)
    got = first(uses, lambda a: a["use"] == "storm")
    if got:
        return got if adv and board.units_at(state, adv["area"], side) else None
    if start and not any(s["side"] == side for s in state["ac"].get("storm", [])) and closing(state, side):
        return first(uses, lambda a: a["use"] == "storm-wait")
    return None


def heroic_use(state: dict[str, Any], side: str, start: bool, uses: list[Choice]) -> Choice | None:
    """Heroic Act on an exhausted unit (not a Leader) in or next to an enemy-held area: at the start
    of its own Round (the unit acts at once), or at its opportunity fire in the enemy's Round (it
    acts right after that Round, before its own Round: the file it sends anyway). Not in the
    middle of its own Round: the free activation after it would be a file of its own whenever
    the Round ends with an enemy decision."""
    f = effects.under(state)
    if not (start or (f["k"] == "fire" and f["side"] == side and f["mode"] == "opportunity")):
        return None
    near = {a for e in board.enemy_areas(state, side) for a in (e, *board.adj(e))}
    return first(uses, lambda a: a["use"] == "heroic" and board.kind(a["unit"]) != "leader"
                 and state["units"][a["unit"]]["at"] in near and not board.is_sea(state["units"][a["unit"]]["at"]))
