"""A simple, sensible player for tests: fire when it can, land and bring on reinforcements (every
landing with a landing plan), march on the nearest VP area it does not hold, assault the enemy
next to it every other Round (close combat: closecombat.py), take damage on the cheapest counter
first; and play its Action Cards where they help (``card``): to ignore fire damage, for 2 more
close combat cards or fire dice, +2 MF, and the brown and red cards at the start of every third
Round of its own."""

from __future__ import annotations

from typing import Any

from pbem_engine.core import Prompt

from . import board, cards, effects, plans, rules


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

    if k == "card":  # how to use the card just played: the first use it was played for
        return pick(lambda a: a.get("use") in USES) or "1"
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
        return pick(lambda a: a["do"] == "pass") or "1"
    if k == "landplan":  # what it would do at that beach: its own choice on the board the plan foresees
        sim, planned = plans.simulate(state, f, f["beach"], rules.prompt, rules.apply)
        return order(sim, side, planned, known) if planned else str(len(choices))
    if k == "fire":
        return (pick(lambda a: a["do"] == "with") or pick(lambda a: a["do"] == "leader")
                or pick(lambda a: a["do"] == "fire" and not board.contested(state, a["at"]))
                or pick(lambda a: a["do"] == "hold")  # advancing or opportunity fire: leave it to close combat
                or pick(lambda a: a["do"] == "fire") or "1")
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
    if k == "cc":
        return close_combat(choices, pick)
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
USES = tuple(dict.fromkeys(u for want in WANT.values() for u in want))


def card(state: dict[str, Any], side: str, prompt: Prompt, known: dict[str, str]) -> str | None:
    """An Action Card of its hand worth playing now (its name known: its own hand), or None."""
    f = state["frames"][-1]
    want = WANT.get(f["k"], ())
    if f["k"] == "round" and (f["acted"] or state["clock"] % 3):
        return None
    for i, c in enumerate(prompt.choices):
        if c.action["do"] != "card":
            continue
        name = known.get(c.action["card"], c.action["card"])
        if name not in cards.DECK or cards.timing(state, side, name):
            continue
        if any(u.action["use"] in want for u in effects.uses(state, side, name)):
            return str(i + 1)
    return None
