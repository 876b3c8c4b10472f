"""Gunboats and steamers (15.0-15.6) and the Ecbatana (16.24).

Boats stand on water hexsides and move along them, 30 hexsides a turn (15.2).  A sail order
names a boat (or every boat of the side on a hexside) and a destination hexside; the route is
the shortest, and what happens on the way (artillery fire 15.0, grounding 15.1, a gunboat's
attack on a steamer 15.5, the gunboat duel 15.6) is rolled hexside by hexside.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from . import board, counters, hexmap
from .board import enemy, kind, side_of
from .counters import UNITS
from .logistics import load
from .scenarios import blocked_sides

GROUNDING_EVERY = 10  # 15.1: a check after every 10 hexsides of seasonal water, dry turns


def blocked(state: dict[str, Any], side: str) -> bool:
    b = state.get("blocked")
    return bool(b) and b["side"] == side and state["turn"] < b["until"]


def route(state: dict[str, Any], start: str, goal: str | None = None, mp: int = 30) -> dict[str, list[str]]:
    """Water hexsides a boat can reach from ``start`` (15.2), each with its path; not across
    the blocked channel (16.24)."""
    wet = board.rain(state)
    closed = blocked_sides(state)  # 18.1
    paths = {start: [start]}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if len(paths[s]) - 1 >= mp:
            continue
        for t in hexmap.boat_links(s, wet):
            if t not in paths and not blocked(state, t) and t not in closed:
                paths[t] = paths[s] + [t]
                queue.append(t)
    paths.pop(start)
    return paths


def boats_at(state: dict[str, Any], side_: str, owner: str) -> list[str]:
    return [u for u in board.units_at(state, side_, owner) if kind(u) in ("gunboat", "steamer")]


def cargo(state: dict[str, Any], steamer: str) -> list[str]:
    return sorted(u for u, v in state["units"].items() if v.get("aboard") == steamer)


def _hostile_guns(state: dict[str, Any], side: str, hexside: str) -> list[str]:
    """Hexes bordering a hexside with an enemy HQ or artillery unit (15.0)."""
    out = []
    for h in hexmap.bordering(hexside):
        if any(kind(u) == "hq" or UNITS[u].get("arm") == "artillery" for u in board.ground_at(state, h, enemy(side))):
            out.append(h)
    return out


def sink(state: dict[str, Any], uid: str, events: list[dict[str, Any]]) -> None:
    """A ship sunk: a British gunboat counter (two ships) is flipped first (15.0 added, 15.6);
    a steamer's troops land on a bordering land hex with a step lost, depots go down (15.0)."""
    from .supply import lose_step

    at = state["units"][uid]["at"]
    if kind(uid) == "steamer":
        land = next((h for h in hexmap.bordering(at) if hexmap.terrain(h) != "lake"
                     and board.occupied_by(state, h) != enemy(side_of(uid))), None)
        for u in cargo(state, uid):
            state["units"][u].pop("aboard", None)
            if land is None:
                del state["units"][u]
                state["lost"].append(u)
                events.append({"text": f"{counters.name(u)} goes down with the steamer"})
                continue
            state["units"][u]["at"] = land
            events.append({"text": f"{counters.name(u)} swims ashore at {hexmap.label(land)} and loses a step (15.0)"})
            lose_step(state, u, events)
        for d in sorted(state["depots"]):
            if state["depots"][d].get("aboard") == uid:
                del state["depots"][d]
    events.append({"text": f"{counters.name(uid)} is hit (15.0)"})
    lose_step(state, uid, events)


def sail(state: dict[str, Any], boats: list[str], goal: str, dice: Any, events: list[dict[str, Any]]) -> None:
    """Move boats together to ``goal`` hexside by hexside (15.0-15.6)."""
    side = side_of(boats[0])
    start = state["units"][boats[0]]["at"]
    path = route(state, start)[goal]
    seasonal = 0
    fired: set[str] = set()
    for s in path[1:]:
        for b in boats:
            if b in state["units"]:
                state["units"][b]["at"] = s
        for u in list(state["units"]):
            if state["units"][u].get("aboard") in boats:
                state["units"][u]["at"] = s
        for d in state["depots"].values():
            if d.get("aboard") in boats:
                d["hex"] = s  # 15.3: depots ride along
        boats = [b for b in boats if b in state["units"]]
        guns = [h for h in _hostile_guns(state, side, s) if h not in fired]
        if guns:  # 15.0: the stack pauses and undergoes one artillery attack
            fired.update(guns)
            _artillery(state, boats, dice, events)
            boats = [b for b in boats if b in state["units"]]
        gunboats = [b for b in boats if kind(b) == "gunboat"]
        if gunboats:
            _steamer_attack(state, side, s, dice, events)
            gunboats = _duel(state, side, s, gunboats, dice, events)
            boats = [b for b in boats if b in state["units"]]
        if not boats:
            return
        if hexmap.water(s) == "seasonal" and not board.rain(state):
            seasonal += 1
            if seasonal % GROUNDING_EVERY == 0:
                for b in [b for b in boats if kind(b) == "gunboat"]:
                    die = dice.roll(6, f"grounding of {counters.name(b)} (15.1)")
                    if die <= 2:
                        state["units"][b]["aground"] = True
                        events.append({"text": f"{counters.name(b)} runs aground at {s} ({die}, 15.1)"})
                boats = [b for b in boats if not state["units"][b].get("aground")]
                if not boats:
                    return
    for b in boats:
        state["units"][b]["moved"] = True


def _artillery(state: dict[str, Any], boats: list[str], dice: Any, events: list[dict[str, Any]]) -> None:
    """15.0: steamers alone: 1-3 sinks one; with a gunboat: 1 sinks a gunboat, 2 a steamer;
    gunboats alone: 1 sinks one."""
    gunboats = [b for b in boats if kind(b) == "gunboat"]
    steamers = [b for b in boats if kind(b) == "steamer"]
    die = dice.roll(6, "artillery fire on a moving stack of boats (15.0)")
    if not gunboats:
        hit = steamers[0] if die <= 3 else None
    elif die == 1:
        hit = gunboats[0]
    elif die == 2 and steamers:
        hit = steamers[0]
    else:
        hit = None
    events.append({"text": f"artillery fires on the boats: {die} (15.0)"})
    if hit:
        sink(state, hit, events)


def _steamer_attack(state: dict[str, Any], side: str, s: str, dice: Any, events: list[dict[str, Any]]) -> None:
    """15.5: gunboats moving next to (or onto) an enemy steamer's hexside attack it: 1-3 sunk,
    4-5 surrenders (cargo eliminated, depots captured, the steamer used by the captor), 6
    escapes for the rest of the turn."""
    near = {s, *hexmap.boat_links(s, True)}
    for st in sorted(u for u, v in state["units"].items()
                     if kind(u) == "steamer" and side_of(u) != side and v["at"] in near and not v.get("escaped")):
        die = dice.roll(6, f"gunboats attack {counters.name(st)} (15.5)")
        if die <= 3:
            events.append({"text": f"{counters.name(st)} is sunk ({die}, 15.5)"})
            sink(state, st, events)
        elif die <= 5:
            events.append({"text": f"{counters.name(st)} surrenders ({die}, 15.5)"})
            capture(state, st, events)
        else:
            state["units"][st]["escaped"] = True
            events.append({"text": f"{counters.name(st)} escapes ({die}, 15.5)"})


def capture(state: dict[str, Any], st: str, events: list[dict[str, Any]]) -> None:
    """15.5: a surrendered steamer's troops are eliminated, its depots captured, and the
    captor uses it: it becomes its twin counter of the other side (counters.captured_twin),
    which has moved this turn."""
    for u in cargo(state, st):
        del state["units"][u]
        state["lost"].append(u)
        events.append({"text": f"{counters.name(u)}, aboard, is eliminated (15.5)"})
    twin = counters.captured_twin(st)
    v = state["units"].pop(st)
    state["units"][twin] = {**v, "moved": True}
    for d in state["depots"].values():
        if d.get("aboard") == st:
            d["aboard"], d["side"] = twin, side_of(twin)
    events.append({"text": f"{counters.name(twin)} now sails for the {side_of(twin)} (15.5)"})


def _duel(state: dict[str, Any], side: str, s: str, gunboats: list[str], dice: Any,
          events: list[dict[str, Any]]) -> list[str]:
    """15.6: each gunboat counter rolls a die against an enemy one beside it (pairs in id order:
    the text does not say how counters pair; option ``duel_pairing``), ties re-rolled; a
    difference of 5 sinks the low roller, otherwise the low roller is displaced (moved off to
    the next hexside away; ours) and no longer stops the moving stack."""
    near = {s, *hexmap.boat_links(s, True)}
    foes = sorted(u for u, v in state["units"].items()
                  if kind(u) == "gunboat" and side_of(u) != side and v["at"] in near and not v.get("displaced"))
    for own, foe in zip(sorted(gunboats), foes):
        while True:
            a = dice.roll(6, f"gunboat duel: {counters.name(own)} (15.6)")
            b = dice.roll(6, f"gunboat duel: {counters.name(foe)} (15.6)")
            if a != b:
                break
            events.append({"text": f"gunboat duel tie {a}-{b}: re-rolled (15.6)"})
        low = own if a < b else foe
        events.append({"text": f"gunboat duel {counters.name(own)} {a} against {counters.name(foe)} {b} (15.6)"})
        if abs(a - b) == 5:
            sink(state, low, events)
        else:
            state["units"][low]["displaced"] = True
            events.append({"text": f"{counters.name(low)} is displaced (15.6)"})
            if low == own:
                return []
    return [g for g in gunboats if g in state["units"]]


def ecbatana(state: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    """16.24: turn 1, Turkish movement: the Ecbatana is scuttled in the channel 1344-1444; a 1
    blocks it for a second die of turns (the ship is lost either way: ours)."""
    die = dice.roll(6, "the Ecbatana settles in the channel (16.24)")
    sink(state, "tk-ss-ecbatana", events)  # anyone aboard swims ashore (15.0)
    if die == 1:
        turns = dice.roll(6, "turns the channel stays blocked (16.24)")
        state["blocked"] = {"side": "1344|1444", "until": state["turn"] + 1 + turns}
        events.append({"text": f"the Ecbatana blocks the channel ({die}); boats may not pass 1344-1444 "
                               f"for {turns} turns (16.24)"})
    else:
        events.append({"text": f"the Ecbatana swings as it settles ({die}): the channel stays open (16.24)"})


def embark_ok(state: dict[str, Any], uid: str, steamer: str) -> bool:
    """15.3, 4.4: a ground unit that has not moved, beside the steamer's hexside, not cavalry,
    armoured cars or aeroplanes; three units at most."""
    v = state["units"][uid]
    if not board.is_ground(uid) or v["moved"] or v.get("aboard") or UNITS[uid].get("arm") in ("cavalry", "armoured-car"):
        return False
    at = state["units"][steamer]["at"]
    return v["at"] in hexmap.bordering(at) and load(state, steamer) < UNITS[steamer]["carry"]
