"""Fire Combat (8), its damage (9) and voluntary retreat (9.3, 12), and over-stacking (5.4).

A fire is a frame: the firing side picks units one by one ("with U"), at most one Leader's
bonus, then a target area; the dice are rolled at once and the receiver allocates every
Damage Point ("damage" frame), then may retreat fresh units that flipped ("retreat").
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice, IllegalAction

from . import board
from .board import enemy, kind, label, name, units_at



# ------------------------------------------------------------------ 8.2 range, 8.3 line of sight
def unit_range(uid: str, mode: str, manica: bool) -> int:
    if mode == "advancing":
        return 2  # 8.8.6
    return board.fire_range(uid) + (1 if manica and kind(uid) == "ship" else 0)  # 16.7: five to six


def reaches(state: dict[str, Any], uid: str, frm: str, to: str, mode: str, manica: bool) -> bool:
    d = board.dist(frm, to)
    rng = unit_range(uid, mode, manica) + recon_range(state, uid)
    if d > rng or (state["ac"]["night"] and d > 1):  # 17.9 Night Attack: the same or adjacent areas only
        return False
    if kind(uid) in ("inf", "remnant") and d == rng:  # 8.3.2: only these need a line of sight
        return board.line_of_sight(frm, to)
    return True


def recon_range(state: dict[str, Any], uid: str) -> int:
    """Aerial Recon: +1 range for the Round's artillery and ships."""
    r = state["ac"]["round"]
    return 1 if r["range"] and r["side"] == board.side_of(uid) and kind(uid) in ("art", "ship") else 0


def targets(state: dict[str, Any], side: str, frm: str, units: list[str], mode: str) -> list[str]:
    """Areas every one of ``units`` can hit: enemy units there (19.5), no sea (16.6), only the
    firers' own area while enemy units share it (8.2.2), opportunity fire at its own area (8.9.2);
    Coordinated Attack (8.4.2): artillery of several areas, each from its own."""
    if not units:
        return []
    if mode == "coordinated":
        common = None
        for u in units:
            got = set(targets(state, side, state["units"][u]["at"], [u], "standard"))
            common = got if common is None else common & got
        return sorted(common or ())
    held = board.enemy_areas(state, side)
    if mode == "opportunity" or (not board.is_sea(frm) and frm in held):
        pool = [frm] if frm in held else []
    else:
        pool = [a for a in held if not board.is_sea(a)]
    manica = "hms-manica" in units
    return sorted(a for a in pool if all(reaches(state, u, frm, a, mode, manica) for u in units if u != "hms-manica"))


# ------------------------------------------------------------------ the fire frame
def new_fire(state: dict[str, Any], side: str, frm: str, mode: str, cands: list[str], leaders: list[str]) -> dict:
    return {"k": "fire", "side": side, "mode": mode, "from": frm, "cands": cands, "units": [],
            "leaders": leaders, "leader": None}


def fire_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    side, frm, mode = f["side"], f["from"], f["mode"]
    out = []
    for u in f["cands"]:
        if u not in f["units"] and targets(state, side, frm, f["units"] + [u], mode):
            out.append(Choice(f"with {label(state, u)}", {"do": "with", "unit": u}))
    if f["leader"] is None:
        out += [Choice(f"bonus from {label(state, ldr)} (+{board.fp_bonus(ldr)})", {"do": "leader", "unit": ldr})
                for ldr in f["leaders"]]
    if any(board.firepower(u, True) > 0 for u in f["units"]):  # not Manica alone
        out += [Choice(f"fire at {name(a)}", {"do": "fire", "at": a}) for a in targets(state, side, frm, f["units"], mode)]
    if mode != "standard":  # 8.8.5, 8.9.1: advancing and opportunity fire are never compulsory
        out.append(Choice(f"no {mode} fire", {"do": "hold"}))
    return out


def do_fire(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], dice: Any, events: list) -> None:
    do = action["do"]
    if do == "with":
        f["units"].append(action["unit"])
    elif do == "leader":
        f["leader"] = action["unit"]
    elif do == "hold":
        state["frames"].pop()
    elif do == "fire":
        state["frames"].pop()
        resolve(state, f, action["at"], dice, events)
    else:
        raise IllegalAction(f"no {do} in a fire")


def modifiers(state: dict[str, Any], side: str, frm: str, to: str) -> list[tuple[str, int]]:
    """8.6 and 13.1, the terrain modifiers every die of a fire from ``frm`` shares, each (what, value)
    (the Reference Sheet's full list is missing: these are the ones the text gives, at the values in
    force, dataset.FIRE)."""
    found = []
    if board.woods(to):
        found.append(("woods", "woods"))
    if board.elevation(to) > board.elevation(frm):
        found.append(("higher", "higher"))
    trench = state["trenches"].get(to, 0)
    if trench and board.controller(state, to) == enemy(side):  # 13.1.2-13.1.3: the controller's cover only
        found.append(("deep_trench" if trench == 2 else "shallow_trench", f"{'deep' if trench == 2 else 'shallow'} trench"))
    elif state["ac"]["night"]:  # 17.9 Night Attack: units in the open (13.1.3)
        found.append(("night_open", "night, in the open"))
    return [(text, board.fire_value(key)) for key, text in found]


def hits_of(values: list[int], target: int, bounds: str) -> int:
    if bounds == "1-9":  # option: a 1 always hits, a 10 always misses
        return sum(1 for v in values if v == 1 or (v != 10 and v <= target))
    return sum(1 for v in values if v <= target)  # default: as written, at or under the target


def resolve(state: dict[str, Any], f: dict[str, Any], to: str, dice: Any, events: list) -> None:
    """8.5: one d10 a Firepower point, at or under the modified target hits; 8.2.4 units at
    different ranges roll apart; a 10 lowers Killing Time once (19.3-19.4) and, from artillery or
    ships into another contested area, hits a friendly unit (8.7)."""
    side, mode, units = f["side"], f["mode"], f["units"]
    fresh_fp = mode != "advancing"  # 8.8.2: advancing fire flips before firing
    bonus = 0
    if f["leader"]:
        bonus = board.fp_bonus(f["leader"])
        state["units"][f["leader"]]["fresh"] = False  # 2.3.3: a fresh Leader lending his bonus flips
    manica = "hms-manica" in units
    far = manica and any(board.dist(f["from"], to) > board.fire_range(u) for u in units if kind(u) == "ship")
    ac = state["ac"]
    cover = [c for c in ac["cover"] if c["area"] == to and c["side"] == enemy(side)]  # Hidden Gully, Sudden Storm
    ac["cover"] = [c for c in ac["cover"] if c not in cover]
    # every modifier of the target but range and terrain, (what, value): the event lists them all
    shared = [("cover", -len(cover))] * bool(cover) \
        + [("HMS Manica", 1)] * (manica and not far) \
        + [("Aerial Recon", 1)] * (ac["round"]["aim"] == to and ac["round"]["side"] == side) \
        + [("leader", bonus)] * bool(f["leader"])  # 16.7 (unless she lends her range), Aerial Recon, 8.6
    groups: dict[tuple[int, bool, str], int] = {}
    why: dict[tuple[int, bool, str], list[str]] = {}
    for u in units:
        fp = board.firepower(u, fresh_fp and state["units"][u]["fresh"])
        if fp <= 0:
            continue
        frm = state["units"][u]["at"]  # one area, but Coordinated Attack's (8.4.2)
        long = board.dist(frm, to) == unit_range(u, mode, manica) + recon_range(state, u)
        lr = board.fire_value("long_range") if long else 0  # 8.2.3: at the greatest range
        mods = [("long range", lr)] * (lr != 0) + modifiers(state, side, frm, to) + shared
        t = board.fire_value("base") + sum(v for _, v in mods)
        key = (t, kind(u) in ("art", "ship"), frm)
        groups[key] = groups.get(key, 0) + fp
        why[key] = [f"base {board.fire_value('base')}"] + [f"{text} {v:+d}" for text, v in mods]
    for low in [x for x in ac["lowammo"] if x["side"] == side and any(k[2] == x["area"] for k in groups)]:
        ac["lowammo"].remove(low)  # Low Ammo: every roll from that area halved (8.2.4)
        groups = {k: (n // 2 if k[2] == low["area"] else n) for k, n in groups.items()}
        events.append({"text": f"Low Ammo: the fire from {name(low['area'])} is halved"})
    if f.get("grenades") and units_at(state, to, side) and groups:  # Hand Grenades: in an area with our units
        best = max(groups)
        groups[best] += f["grenades"]
    if mode != "advancing":
        for u in units:
            state["units"][u]["fresh"] = False  # 2.3.2, 8.1.3, 8.9.2
    bounds = state["options"].get("target_bounds", "none")
    hits = friendly = 0
    ten = False
    lucky = f.get("lucky", 0)
    rolls = []
    for (t, indirect, frm), n in sorted(groups.items()):
        if n <= 0:
            continue
        values = dice.dice(n, 10, f"{mode} fire at {name(to)}, hit on {t} or less")
        ten = ten or 10 in values
        while lucky and any(not hits_of([v], t, bounds) for v in values):  # Good Luck, played before the roll
            i = next(i for i, v in enumerate(values) if not hits_of([v], t, bounds))
            values[i] = dice.roll(10, f"Good Luck: re-roll of a missed {values[i]}")
            lucky -= 1
        h = hits_of(values, t, bounds)
        hits += h
        rolls.append({"t": t, "values": values})
        if indirect and to != frm and units_at(state, to, side):
            friendly += values.count(10)
        events.append({"text": f"{side} {mode} fire from {name(frm)} at {name(to)}: {n} dice needing "
                               f"{t} or less ({', '.join(why[t, indirect, frm])}; rolled "
                               f"{' '.join(map(str, values))}): {h} hit(s)"})
    if ten and state["kt"] > 0:
        state["kt"] -= 1
        events.append({"text": f"a 10 was rolled: Killing Time down to {state['kt']} (19.3)"})
    wire = any(kind(u) in ("art", "ship") for u in units)
    if friendly:  # 8.7.1: the firer allocates his own losses (pushed first, resolved after the enemy's)
        state["frames"].append(damage_frame(side, to, friendly, wire, retreat=False))
    if hits:
        state["frames"].append(dict(damage_frame(enemy(side), to, hits, wire, retreat=mode != "opportunity"),
                                    rolls=rolls))  # the dice, for Good Luck at the allocation


# ------------------------------------------------------------------ 9 damage
def damage_frame(side: str, area: str, n: int, wire: bool, retreat: bool) -> dict[str, Any]:
    return {"k": "damage", "side": side, "area": area, "left": n, "wire": wire, "retreat": retreat, "flipped": []}


def damage_options(state: dict[str, Any], f: dict[str, Any]) -> list[tuple[str, dict[str, Any], int]]:
    """9.1.2-9.1.3 and 9.4: (label, action, Damage Points absorbed) for every way to take a point."""
    side, area, left = f["side"], f["area"], f["left"]
    out = []
    here = units_at(state, area, side)
    spare = min(len(board.pool(state, side)), board.LAND_LIMIT - len(here) + 1)  # 9.4.4 pool, 9.4.5 stacking
    for u in here:
        fresh = state["units"][u]["fresh"]
        if fresh:
            out.append((f"flip {label(state, u)}", {"do": "flip", "unit": u}, 1))
        elif kind(u) not in ("leader", "remnant"):
            s = board.strength(u, False)
            for n in range(min(2, s - 1, spare), 0, -1):  # 9.4.1-9.4.2: 2 -> 1, 3 -> 2 ('change') or 1
                out.append((f"reduce {label(state, u)} to {n} Remnant{'s' * (n > 1)}",
                            {"do": "reduce", "unit": u, "n": n}, s - n))
        out.append((f"eliminate {label(state, u)}", {"do": "eliminate", "unit": u},
                    board.strength(u, fresh)))
    if f["wire"] and area in state["wire"]:  # 14.7
        out.append(("take 1 on the wire", {"do": "wire"}, 1))
    fitting = [o for o in out if o[2] <= left]
    return fitting or [o for o in out if o[1]["do"] == "eliminate"]  # 9.2.1: allocate wherever possible


def do_damage(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    cost = next(c for _, a, c in damage_options(state, f) if a == action)
    u = action.get("unit")
    do = action["do"]
    if do == "flip":
        state["units"][u]["fresh"] = False
        if kind(u) not in ("remnant", "leader"):
            f["flipped"].append(u)
        events.append({"text": f"{board.unit_name(u)} flips to absorb 1 Damage Point"})
    elif do == "reduce":
        area = state["units"].pop(u)["at"]  # reduced, not eliminated: no casualty for 18.4 (our reading)
        made = board.place_remnants(state, f["side"], area, action["n"])
        events.append({"text": f"{board.unit_name(u)} is reduced to {len(made)} Remnant(s) (9.4)"})
    elif do == "eliminate":
        board.eliminate(state, u, events)
    else:
        state["wire"].remove(f["area"])
        events.append({"text": f"the Wire at {name(f['area'])} takes a Damage Point and is removed (14.7)"})
    f["left"] = max(0, f["left"] - cost)


def settle_damage(state: dict[str, Any], f: dict[str, Any], events: list) -> bool:
    """True when the frame is done (popped); a retreat offer follows if the rules allow one."""
    if f["left"] > 0 and damage_options(state, f):
        return False
    state["frames"].pop()
    if f["left"]:
        events.append({"text": f"{f['left']} Damage Point(s) find no unit to take them"})
    board.update_control(state)
    cands = [u for u in f["flipped"] if u in state["units"] and state["units"][u]["at"] == f["area"]]
    if f["retreat"] and cands and retreat_areas(state, f["area"], f["side"]):
        state["frames"].append({"k": "retreat", "side": f["side"], "from": f["area"], "cands": cands, "chosen": []})
    return True


# ------------------------------------------------------------------ 9.3, 12 retreats
def retreat_areas(state: dict[str, Any], frm: str, side: str) -> list[str]:
    """12.4-12.7: one or two areas, ending closer to the friendly edge, never into or through
    enemy units, across red lines or into the sea; terrain costs ignored (12.5)."""
    def open_(a: str) -> bool:
        return not board.has_enemy(state, a, side) and a not in state["off"]  # Scenarios 3, 4: half the board

    found = set()
    for a in board.adj(frm):
        if board.walkable(frm, a) and open_(a):
            found.add(a)
            found |= {b for b in board.adj(a) if b != frm and board.walkable(a, b) and open_(b)}
    here = board.edge_dist(side, frm, state["off"])  # measured on the half in play (Scenarios 3, 4)
    return sorted(a for a in found if board.edge_dist(side, a, state["off"]) < here)


def retreat_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    out = [Choice(f"retreat with {label(state, u)}", {"do": "with", "unit": u}) for u in f["cands"]
           if u not in f["chosen"]]
    if f["chosen"]:
        out += [Choice(f"retreat to {name(a)}", {"do": "retreat", "to": a})
                for a in retreat_areas(state, f["from"], f["side"])]
    return out + [Choice("no retreat", {"do": "stay"})]


def do_retreat(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    if action["do"] == "with":
        f["chosen"].append(action["unit"])
        return
    state["frames"].pop()
    if action["do"] == "stay":
        return
    to = action["to"]
    for u in f["chosen"]:
        state["units"][u]["at"] = to
    events.append({"text": f"{', '.join(board.unit_name(u) for u in f['chosen'])} retreat to {name(to)} (9.3)"})
    check_stacking(state, f["side"], to, f["chosen"])
    board.update_control(state)


# ------------------------------------------------------------------ 5.4 over-stacking
def check_stacking(state: dict[str, Any], side: str, area: str, arrived: list[str]) -> None:
    n = board.over_stacked(state, area, side)
    if n:
        state["frames"].append({"k": "overstack", "side": side, "area": area, "arrived": list(arrived), "n": n})


def overstack_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    return [Choice(f"eliminate {label(state, u)} (over-stacked)", {"do": "eliminate", "unit": u})
            for u in f["arrived"] if u in state["units"] and state["units"][u]["at"] == f["area"]]


def do_overstack(state: dict[str, Any], f: dict[str, Any], action: dict[str, Any], events: list) -> None:
    board.eliminate(state, action["unit"], events)
    f["n"] -= 1
    if f["n"] <= 0 or not overstack_choices(state, f):
        state["frames"].pop()
        board.update_control(state)

