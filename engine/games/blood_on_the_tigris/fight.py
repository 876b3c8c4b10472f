"""The combat phase on the map (3.22, 7.0-7.8, 8.0-8.1, 9.0, 11.0): who may attack what, the
air missions and interception, the depot decisions, the CRT (combat.py) and what the result
asks of each side.  An attack order names the target hex and where the attack comes from
(every adjacent unit, or one hex's), whether the attacker expends its depot and sends its
aeroplanes; the defender is asked only when it has a real choice (a depot, interceptors)."""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import Choice

from . import board, combat, counters, hexmap, movement, supply
from .board import enemy, kind, side_of
from .charts import Charts
from .counters import UNITS

INTERCEPT_RANGE = 4  # 3.22 A, 11.2


def strength(state: dict[str, Any], uid: str) -> int:
    """Printed factor; a reduced two-step unit has half (rounded up: ours, the counters' back)."""
    u = UNITS[uid]
    v = state["units"][uid]
    if u["kind"] == "air":
        return u["bomb"]
    cf = u["cf"]
    return -(-cf // 2) if v["steps"] < u["steps"] else cf


def attackers_of(state: dict[str, Any], side: str, target: str,
                 ground: dict[str, list[str]] | None = None) -> list[str]:
    """Ground units of ``side`` next to ``target`` that have not attacked (7.4) (``ground``:
    ``board.ground_index`` of this position, when the caller has it)."""
    ground = board.ground_index(state) if ground is None else ground
    out = []
    for n in hexmap.neighbours(target):
        for u in ground.get(n, ()):
            if side_of(u) != side:
                continue
            if u not in state["fired"] and kind(u) in ("combat", "hq", "support") and UNITS[u]["cf"] > 0:
                out.append(u)
    return out


def targets(state: dict[str, Any], side: str) -> list[str]:
    foe = enemy(side)
    hexes = sorted({state["units"][u]["at"] for u in state["units"]
                    if side_of(u) == foe and board.is_ground(u) and state["units"][u]["at"] in hexmap.ALL_HEXES_SET})
    hit = set(state["attacked"])  # 7.4: no unit or hex attacked twice a combat phase (units: "@uid")
    ground = board.ground_index(state)
    return [h for h in hexes if h not in hit
            and not any("@" + u in hit for u in ground.get(h, ()) if side_of(u) == foe)
            and any(kind(u) == "combat" for u in attackers_of(state, side, h, ground))]


def gunboats_by(state: dict[str, Any], side: str, h: str) -> list[str]:
    """9.0: gunboats only have to be adjacent (on a hexside of the hex)."""
    return sorted(u for u, v in state["units"].items() if kind(u) == "gunboat" and side_of(u) == side
                  and not v.get("aground") and "|" in v["at"] and h in hexmap.bordering(v["at"]))


def _bases(state: dict[str, Any], side: str) -> list[tuple[str, int | None]]:
    """11.0: aerodromes the side holds and its HQs, each in supply "at the instant of combat"
    (an aerodrome traces its line then, an HQ is in supply unless marked OOS); an HQ's reach is
    its radius."""
    held = board.occupants(state)
    ours = [h for h in hexmap.AERODROMES if state["control"].get(h) == side and held.get(h) != enemy(side)]
    lines = supply.traces_supply_all(state, side, ours)  # one search for them all
    out: list[tuple[str, int | None]] = [(h, None) for h in ours if h in lines]
    for u, v in sorted(state["units"].items()):
        if kind(u) == "hq" and side_of(u) == side and v["at"] in hexmap.ALL_HEXES_SET and not v["oos"]:
            out.append((v["at"], UNITS[u]["radius"]))
    return out


def planes_for(state: dict[str, Any], side: str, target: str, intercept: bool,
               bases: list[tuple[str, int | None]] | None = None) -> list[str]:
    """11.0-11.2: unflown aeroplanes with a base in reach of the target (bombers: the plane's
    radius from an aerodrome, the HQ's radius from an HQ; interceptors: 4 hexes).  ``bases``:
    ``_bases`` of this position, when the caller has them."""
    out = []
    bases = _bases(state, side) if bases is None else bases
    for u, v in sorted(state["units"].items()):
        if kind(u) != "air" or side_of(u) != side or u in state["air_used"]:
            continue
        if intercept and UNITS[u]["air"][0] == 0:
            continue
        if not intercept and UNITS[u]["bomb"] == 0:
            continue
        for h, radius in bases:
            reach = INTERCEPT_RANGE if intercept else min(UNITS[u]["range"], radius or UNITS[u]["range"])
            if hexmap.distance(h, target) <= reach:
                out.append(u)
                break
    return out


def attack_choices(state: dict[str, Any], side: str) -> list[Choice]:
    out: list[Choice] = []
    hexes = targets(state, side)
    if not hexes:
        return out
    ground, bases, got = board.ground_index(state), _bases(state, side), supply.assign(state, side)  # one position
    for t in hexes:
        groups = [("", attackers_of(state, side, t, ground))]
        froms = sorted({state["units"][u]["at"] for u in groups[0][1]})
        if len(froms) > 1:
            groups += [(f, [u for u in groups[0][1] if state["units"][u]["at"] == f]) for f in froms]
        planes = planes_for(state, side, t, intercept=False, bases=bases)
        for f, units in groups:
            if not any(kind(u) == "combat" for u in units):
                continue
            src = supply.combat_source(state, units, got)
            for depot in ([True, False] if supply.can_expend(state, src, side) else [False]):
                for air in ([True, False] if planes else [False]):
                    words = f"attack {hexmap.label(t)}" + (f" from {f}" if f else " from every adjacent hex")
                    words += ", expending the depot" if depot else ", without a depot (half strength)"
                    words += f", with {len(planes)} aeroplane(s)" if air else ""
                    out.append(Choice(words, {"do": "attack", "target": t, "from": f, "depot": depot, "air": air}))
    return out


def counter_choices(state: dict[str, Any], side: str, units: list[str], hexes: list[str]) -> list[tuple[str, dict]]:
    """7.7: the engaged defender counterattacks one attacking hex; the combat is "treated
    normally in all other respects (air units, supply expenditure, TA's etc.)": it expends its
    depot or not, and sends its unflown bombers in reach (11.1: once a turn), as an attack does."""
    out = []
    src = supply.combat_source(state, units)
    depots = [True, False] if supply.can_expend(state, src, side) else [False]
    for h in hexes:
        planes = planes_for(state, side, h, intercept=False)
        for depot in depots:
            for air in ([True, False] if planes else [False]):
                words = f"counterattack {hexmap.label(h)} (7.7)"
                words += ", expending the depot" if depot else ", without a depot (half strength)"
                words += f", with {len(planes)} aeroplane(s)" if air else ""
                out.append((words, {"do": "counter", "hex": h, "depot": depot, "air": air}))
    return out


def declare_counter(state: dict[str, Any], side: str, units: list[str], action: dict[str, Any]) -> dict[str, Any]:
    """7.7: the counterattack as an attack frame: the attacking hex now defends (its own depot
    and interceptors are then asked of it, 7.1, 7.2).  A breakthrough gives the counterattacker its
    movement (7.8) but no attack: the phase is the enemy's (7.0)."""
    planes = planes_for(state, side, action["hex"], intercept=False) if action.get("air") else []
    return {"k": "defend", "side": enemy(side), "attacker": side, "target": action["hex"], "units": units,
            "depot": action.get("depot", False), "planes": planes, "counter": True, "no_bt": False}


def why_not_attack(state: dict[str, Any], side: str, action: dict[str, Any]) -> str:
    """Why the typed order "attack HEX with UNIT, ..." cannot be given, or "" (7.0-7.4, 7.2, 11.0)."""
    t, units = action.get("target"), action.get("units") or []
    if t not in targets(state, side):
        return f"{t} cannot be attacked now (7.4: an enemy hex not yet attacked, next to a unit that has not attacked)"
    free = attackers_of(state, side, t)
    for u in units:
        if u not in free:
            return f"{counters.name(u) if u in UNITS else u} is not a unit of yours next to {t} that has not attacked (7.4)"
    if not any(kind(u) == "combat" for u in units):
        return "an attack needs a combat unit (9.0)"
    if action.get("depot") and not supply.can_expend(state, supply.combat_source(state, units), side):
        return "these units have no depot to expend (7.2)"
    if action.get("air") and not planes_for(state, side, t, intercept=False):
        return f"no aeroplane can reach {t} (11.0)"
    return ""


def declare(state: dict[str, Any], side: str, action: dict[str, Any]) -> dict[str, Any]:
    """The attack as a frame: who attacks, with what, and what the defender must decide."""
    t = action["target"]
    units = [u for u in attackers_of(state, side, t) if not action.get("from") or state["units"][u]["at"] == action["from"]]
    if action.get("units"):  # 7.4: "not all units within a hex need to attack the same hex"
        units = [u for u in units if u in action["units"]]
    planes = planes_for(state, side, t, intercept=False) if action.get("air") else []
    f = {"k": "defend", "side": enemy(side), "attacker": side, "target": t, "units": units,
         "depot": action["depot"], "planes": planes, "counter": action.get("counter", False),
         "no_bt": any(u in state.get("bt_done", []) for u in units)}  # 7.8: no second breakthrough
    if action.get("advance"):
        f["advance"] = True  # 8.1: the advance after combat, ordered with the attack (standing.py)
    return f


def defend_choices(state: dict[str, Any], f: dict[str, Any]) -> list[Choice]:
    d = f["side"]
    defenders = board.ground_at(state, f["target"], d)
    src = supply.combat_source(state, defenders)
    depots = [True, False] if supply.can_expend(state, src, d) else [False]
    fighters = planes_for(state, d, f["target"], intercept=True) if f["planes"] else []
    out = []
    for depot in depots:
        for air in ([True, False] if fighters else [False]):
            words = f"defend {hexmap.label(f['target'])}" + (", expending the depot" if depot else ", without a depot")
            words += f", intercepting with {len(fighters)} aeroplane(s)" if air else ""
            out.append(Choice(words, {"do": "defend", "depot": depot, "intercept": air}))
    return out


def _commands(state: dict[str, Any], side: str, units: list[str], near: str) -> list[combat.Command]:
    """7.3 added, 9.0 added: HQs of the side within range of the units in the combat."""
    out = []
    divisions = {UNITS[u].get("division") for u in units}
    hexes = [state["units"][u]["at"] for u in units if state["units"][u]["at"] in hexmap.ALL_HEXES_SET] or [near]
    for h, v in sorted(state["units"].items()):
        if kind(h) != "hq" or side_of(h) != side or v["at"] not in hexmap.ALL_HEXES_SET:
            continue
        in_range = any(hexmap.distance(v["at"], x) <= UNITS[h]["radius"] for x in hexes)
        if not in_range:
            continue
        level = UNITS[h]["echelon"]
        out.append(combat.Command(counters.name(h), UNITS[h]["command"], level, True,
                                  UNITS[h].get("division") in divisions))
    return out


def _tas(state: dict[str, Any], charts: Charts, units: list[str], defending_hex: str | None) -> dict[str, int]:
    """The advantages a side claims: terrain for a defender (TEC), entrenchment, fort, rivers and
    wadis (checked by combat.py against 'across'), infantry with artillery, HQs (7.5)."""
    out: dict[str, int] = {}
    arms = {UNITS[u].get("arm") for u in units}
    if "infantry" in arms and "artillery" in arms:
        out["combined_arms"] = 1
    if any(kind(u) == "hq" for u in units):
        out["hq"] = 1
    if defending_hex:
        ta = charts.terrain_effects.get(hexmap.terrain(defending_hex), {}).get("ta", "")
        if ta:
            out[ta] = 1
        if any(state["units"][u].get("entrenched") for u in units):
            out["trench"] = 1
        if defending_hex in state.get("forts", []):
            out["fort"] = 1
        out["river"] = 1
        out["wadi"] = 1
    return out


def _unit(state: dict[str, Any], uid: str, target: str, attacking: bool = False) -> combat.Unit:
    v = state["units"][uid]
    k = {"combat": "combat", "support": "support", "hq": "hq", "gunboat": "gunboat", "air": "air"}[kind(uid)]
    at = v["at"]
    return combat.Unit(counters.name(uid), strength(state, uid), k, oos=v.get("oos", False) and k in combat.GROUND,
                       ooc=v.get("ooc", False) and k in combat.GROUND, asterisk=UNITS[uid].get("star", False),
                       crossed=attacking and v.get("crossed") == state["turn"],  # 9.4
                       hex=at, adjacent=at == target or hexmap.adjacent(at, target) if "|" not in at and at != "air" else True)


def build(state: dict[str, Any], charts: Charts, f: dict[str, Any], att_depot: bool, def_depot: bool,
          bombers: list[str]) -> combat.Attack:
    t = f["target"]
    a_side, d_side = f["attacker"], f["side"]
    attackers = [u for u in f["units"] if u in state["units"]]
    defenders = board.ground_at(state, t, d_side)
    a_units = [_unit(state, u, t, attacking=True) for u in attackers + gunboats_by(state, a_side, t) + bombers]
    d_units = [_unit(state, u, t) for u in defenders + gunboats_by(state, d_side, t)]
    across = set()
    for feature in ("river", "wadi"):
        if attackers and all(hexmap.crossing(state["units"][u]["at"], t, board.rain(state)) == feature for u in attackers):
            across.add(feature)
    return combat.Attack(tuple(a_units), tuple(d_units), d_side, att_depot, def_depot,
                         _tas(state, charts, attackers, None), _tas(state, charts, defenders, t), frozenset(across),
                         tuple(_commands(state, a_side, attackers, t)), tuple(_commands(state, d_side, defenders, t)))


def allocate(state: dict[str, Any], units: list[str], steps: int, events: list[dict[str, Any]]) -> None:
    """7.6: step losses "if at all possible", each to the strongest unit left (the owner's choice
    in the rules; a fixed order here, ours, to spare a hand-over).  Gunboats and aeroplanes never
    take CRT losses (7.61)."""
    for _ in range(steps):
        left = [u for u in units if u in state["units"] and board.is_ground(u)]
        if not left:
            return
        left.sort(key=lambda u: (-(kind(u) == "combat"), -strength(state, u), -state["units"][u]["steps"], u))
        supply.lose_step(state, left[0], events)


def air_combat(state: dict[str, Any], charts: Charts, f: dict[str, Any], fighters: list[str], dice: Any,
               events: list[dict[str, Any]]) -> list[str]:
    """7.1, 11.4: interceptors against bombers; the bombers left to bomb."""
    bombers = list(f["planes"])
    state["air_used"].extend(u for u in bombers + fighters if u not in state["air_used"])
    if not fighters or not bombers:
        return bombers
    rating = [tuple(UNITS[u]["air"]) for u in fighters]
    b_rating = [tuple(UNITS[u]["air"]) for u in bombers]
    from fractions import Fraction

    res = combat.resolve_air(charts, [Fraction(*r) for r in rating], [Fraction(*r) for r in b_rating],
                             f["side"] == "turkish", dice)
    events.append({"text": f"air-to-air {res.column_label}, die {res.die}: {res.result.text} (7.1)"})
    for group, part in ((fighters, res.result.interceptor), (bombers, res.result.bomber)):
        if "D" in part and group:
            lost = group.pop(0)
            del state["units"][lost]
            state["lost"].append(lost)
            events.append({"text": f"{counters.name(lost)} is shot down (7.1)"})
    return [] if "A" in res.result.bomber else bombers


def retreat_choices(charts: Charts, state: dict[str, Any], units: list[str], n: int, attackers: list[str]):
    hexes = sorted({state["units"][u]["at"] for u in attackers if u in state["units"]})
    return movement.retreat_paths(charts, state, units, n, hexes)
