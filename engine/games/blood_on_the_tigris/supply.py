"""Supply and communication (10.0, 12.0-12.6), the supply survival roll (3.4, 9.3), depots,
replacements (13.2).

Lines of communication (10.0) run any distance to Basra (Fao while Basra is not British) or
Baghdad through hexes free of enemy units and of enemy ZOC that no friendly ZOC negates (5.1);
lines of supply (12.2) the same way but at most 6 hexes, to a depot or a major source (Baghdad;
Basra once British, paying a stockpiled point).  Both may cross unbridged rivers (10.0).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Set as AbstractSet
from typing import Any

from . import board, counters, hexmap
from .board import enemy, kind, side_of
from .counters import UNITS

SUPPLY_RANGE = 6  # 3.4, 10.0, 12.2
DEPOT_COST = {"british": 2, "turkish": 1}  # 12.1
DEPOTS_A_HEX = 5  # 6.0, 12.3
# 12.3: what a depot supplies: combat units in thirds of a brigade, HQs, support units (None: any)
CAPACITY = {"mobile": (9, 1, 1), "static": (15, 2, None)}
SURVIVAL_DRM = {"town": -1, "city": -2}  # 3.4; a fort also -1 (9.3)


def home(state: dict[str, Any], side: str) -> list[str]:
    """10.0: where a line of communication runs to: Basra for the British (Fao if Basra is not
    British), Baghdad for the Turks."""
    if side == "turkish":
        return list(hexmap.BAGHDAD)
    basra = hexmap.PLACE_HEX["basra"]
    return [basra] if state["control"].get(basra) == "british" else [hexmap.PLACE_HEX["fao"]]


def _blocked(state: dict[str, Any], side: str) -> set[str]:
    """Hexes a line may not pass: enemy-occupied, or in an enemy ZOC no friendly ZOC negates (5.1).
    A friendly unit with a ZOC negates the enemy ZOC in its own hex too (5.1 "friendly units
    with a ZOC can negate": ours, else a unit in contact could never trace a line, not even to
    the depot in its own hex).  One pass over the units (board.zoc_map's reading of a ZOC)."""
    foe = enemy(side)
    foe_zoc: set[str] = set()
    own_zoc: set[str] = set()
    foe_at: set[str] = set()
    for u, v in state["units"].items():
        at, s = v["at"], side_of(u)
        if board.exerts_zoc(state, u):
            on_map = at in hexmap.ALL_HEXES_SET
            if s == side:
                own_zoc.add(at)
                if on_map:
                    own_zoc.update(hexmap.neighbours(at))
            elif on_map:
                foe_zoc.update(hexmap.neighbours(at))
        if s == foe and board.is_ground(u):
            foe_at.add(at)
    return (foe_zoc - own_zoc) | foe_at | hexmap.LAKE_HEXES


def _layers(blocked: set[str], sources: list[str], limit: int | None, free: int | None = None) -> list[int]:
    """The hexes reachable from ``sources`` through hexes not ``blocked`` (``_blocked``), as bits
    (hexmap.spread), by distance: layer d holds the hexes d hexes away, up to ``limit``.  A
    source off the map (none in play) is in no layer; its neighbours are at distance 1.
    ``free``: the hexes not blocked as bits, when the caller searches from several sources."""
    start = [h for h in sources if h not in blocked]
    front = hexmap.bits(start)
    layers = [front]
    off = hexmap.bits(n for h in start if h not in hexmap.BIT for n in hexmap.neighbours(h))
    todo = (hexmap.FULL & ~hexmap.bits(blocked) if free is None else free) & ~front  # not reached yet
    while limit is None or len(layers) <= limit:
        front = (hexmap.spread(front) | off) & todo
        if not front:
            break
        off = 0
        layers.append(front)
        todo ^= front
    return layers


def _depth(layers: list[int], h: str, sources: list[str], blocked: set[str]) -> int | None:
    """How far ``h`` is in ``_layers(blocked, sources, ...)``; None: out of reach."""
    bit = hexmap.BIT.get(h)
    if bit is None:
        return 0 if h in sources and h not in blocked else None
    for d, layer in enumerate(layers):
        if layer & bit:
            return d
    return None


def loc_hexes(state: dict[str, Any], side: str) -> AbstractSet[str]:
    """Every hex with a line of communication home (10.0)."""
    sources = home(state, side)
    blocked = _blocked(state, side)
    reached = 0
    for layer in _layers(blocked, sources, None):
        reached |= layer
    return hexmap.HexSet(reached, frozenset(h for h in sources if h not in blocked and h not in hexmap.BIT))


def loc_kept(state: dict[str, Any], side: str, memo: dict[Any, AbstractSet[str]]) -> AbstractSet[str]:
    """``loc_hexes``, kept in the caller's ``memo`` under everything the search reads (where
    home is; each unit's hex, supply and boat, which make the ZOCs and the blocked hexes), so
    a series of orders that moves no unit searches once."""
    key = (side, tuple(home(state, side)),
           tuple((u, v["at"], v.get("oos"), v.get("aboard")) for u, v in state["units"].items()))
    if key not in memo:
        memo[key] = loc_hexes(state, side)
    return memo[key]


def hq_ok(state: dict[str, Any], hid: str, loc: AbstractSet[str] | None = None) -> bool:
    """An HQ on the map with a line of communication home (``loc``: its side's ``loc_hexes``,
    when the caller has them for this position already)."""
    at = state["units"][hid]["at"]
    if at not in hexmap.ALL_HEXES_SET:
        return False
    return at in (loc_hexes(state, side_of(hid)) if loc is None else loc)


def commanders(state: dict[str, Any], uid: str, chiefs: list[str] | None = None) -> list[str]:
    """10.0: the HQs that may put a unit in communication: its own divisional HQ; a corps or
    army HQ for non-divisional units (and, our reading, for a division whose HQ is gone).
    ``chiefs``: ``high_command`` of the unit's side, when the caller has it."""
    parent = counters.parent_hq(uid)
    if parent and parent in state["units"]:
        return [parent]
    return high_command(state, side_of(uid)) if chiefs is None else chiefs


def high_command(state: dict[str, Any], side: str) -> list[str]:
    """The side's corps and army HQs, by id."""
    return sorted(h for h in state["units"] if kind(h) == "hq" and side_of(h) == side
                  and UNITS[h]["echelon"] in ("corps", "army"))


def out_of_command(state: dict[str, Any], uid: str, loc: AbstractSet[str] | None = None,
                   chiefs: list[str] | None = None) -> bool:
    """10.0: not within command range of a commanding HQ that has a line of communication.
    An HQ is out of communication only if it has no line itself.  Boats, aircraft and mobile
    supply need none (15.1, 10.0).  ``loc``, ``chiefs``: the side's ``loc_hexes`` and
    ``high_command``, when the caller has them."""
    k = kind(uid)
    if k in ("gunboat", "steamer", "air"):
        return False
    loc = loc_hexes(state, side_of(uid)) if loc is None else loc
    at = state["units"][uid]["at"]
    if at not in hexmap.ALL_HEXES_SET:
        return state["units"][uid]["ooc"]  # aboard a steamer: as it was
    if k == "hq":
        return at not in loc
    for h in commanders(state, uid, chiefs):
        hat = state["units"][h]["at"]
        if hat in loc and hexmap.distance(hat, at) <= UNITS[h]["radius"]:
            return False
    return True


def update_command(state: dict[str, Any]) -> list[dict[str, Any]]:
    """3.1: mark and unmark OOC."""
    events = []
    for side in board.SIDES:
        loc, chiefs = loc_hexes(state, side), high_command(state, side)  # marking OOC changes neither
        for uid in sorted(state["units"]):
            if side_of(uid) != side or not board.is_ground(uid):
                continue
            v = state["units"][uid]
            now = out_of_command(state, uid, loc, chiefs) and state["turn"] != v.get("normal_turn")
            if now != v["ooc"]:
                v["ooc"] = now
                events.append({"text": f"{counters.name(uid)} is {'out of' if now else 'back in'} communication (3.1)"})
    return events


# -- 12.2-12.3 lines of supply ---------------------------------------------------------------

def sources(state: dict[str, Any], side: str) -> list[tuple[str, str]]:
    """(hex, depot id or "major") of every supply source (12.2)."""
    out = [(v["hex"], d) for d, v in sorted(state["depots"].items()) if v["side"] == side and not v.get("aboard")]
    if side == "turkish":
        out += [(h, "major") for h in hexmap.BAGHDAD if board.occupied_by(state, h) != "british"]
    else:
        basra = hexmap.PLACE_HEX["basra"]
        if state["control"].get(basra) == "british" and state["supply"]["british"] > 0:
            out.append((basra, "major"))  # 12.2: drawing from Basra costs a stockpiled point
    return out


def traces_supply(state: dict[str, Any], side: str, h: str) -> bool:
    """12.2: a line of supply of at most 6 hexes from ``h`` to one of the side's sources (for an
    aerodrome, 11.0: "in supply at the instant of combat"; tracing it costs no point: ours)."""
    return h in traces_supply_all(state, side, [h])


def traces_supply_all(state: dict[str, Any], side: str, hexes: list[str]) -> set[str]:
    """Those of ``hexes`` that trace a line of supply (``traces_supply``), by one search."""
    if not hexes:
        return set()
    blocked = _blocked(state, side)
    found = [x for x, _ in sources(state, side)]
    layers = _layers(blocked, found, SUPPLY_RANGE)
    return {h for h in hexes if _depth(layers, h, found, blocked) is not None}


def assign(state: dict[str, Any], side: str) -> dict[str, str]:
    """Which source each ground unit of ``side`` draws supply from (12.2-12.3): the nearest
    within 6 hexes with room left, units nearest a source served first, ties by id (the
    rules leave the owner's choice open; this fixed order is ours).  Units not listed are OOS."""
    srcs = sources(state, side)
    blocked = _blocked(state, side)  # the same for every source
    hexes = dict((src, h) for h, src in srcs)  # "major": the last of Baghdad's hexes
    room: dict[str, list[int | None]] = {}
    for h, src in srcs:
        if src != "major":
            room[src] = list(CAPACITY[state["depots"][src]["mode"]])
    mine = [u for u in sorted(state["units"]) if side_of(u) == side and board.is_ground(u)]
    where = hexmap.bits(state["units"][u]["at"] for u in mine)
    free = hexmap.FULL & ~hexmap.bits(blocked)
    near: dict[str, dict[str, int]] = {}  # each source hex (depots share them) to the units' hexes
    for h in dict.fromkeys(hexes.values()):
        near[h] = {h: 0} if h not in hexmap.BIT and h not in blocked else {}  # a source off the map
        for d, layer in enumerate(_layers(blocked, [h], SUPPLY_RANGE, free)):
            if layer & where:
                near[h].update(dict.fromkeys(hexmap.few_hexes(layer & where), d))
    away = {src: near[h] for src, h in hexes.items()}
    wants = []
    for uid in mine:
        at = state["units"][uid]["at"]
        options = sorted((away[s][at], s) for _, s in srcs if at in away[s])
        if options:
            wants.append((options[0][0], uid, options))
    out: dict[str, str] = {}
    for _, uid, options in sorted(wants):
        slot = 0 if kind(uid) == "combat" else 1 if kind(uid) == "hq" else 2
        need = counters.stack_size(uid) if slot == 0 else 1
        for _, src in options:
            if src == "major":
                out[uid] = f"major:{hexes[src]}"
                break
            left = room[src][slot]
            if left is None or left >= need:
                if left is not None:
                    room[src][slot] = left - need
                out[uid] = src
                break
    return out


def in_supply_now(state: dict[str, Any], uid: str) -> bool:
    """16.3, 15.3: units in supply on their turn of entry or of landing from a steamer."""
    v = state["units"][uid]
    return state["turn"] in (v.get("normal_turn"), v.get("landed_turn"))


def check(state: dict[str, Any], side: str) -> tuple[dict[str, str], dict[str, bool]]:
    """3.4, 10.0, 12.2: what the supply phase finds for ``side`` as things stand: the source each
    ground unit draws on (``assign``) and, for each one not aboard a steamer, whether it is out of
    supply (no source with room within 6 hexes, and not in supply by its turn of entry or landing).
    The supply phase places and removes the OOS markers by it; the report tells it ahead."""
    got = assign(state, side)
    return got, {uid: uid not in got and not in_supply_now(state, uid) for uid in sorted(state["units"])
                 if side_of(uid) == side and board.is_ground(uid) and not state["units"][uid].get("aboard")}


def update_supply(state: dict[str, Any], dice: Any) -> list[dict[str, Any]]:
    """3.4: OOS markers placed and removed; each OOS combat unit rolls its troop competency or
    loses a step (town or fort -1, city -2).  Support units, HQs, boats and aircraft never roll."""
    events: list[dict[str, Any]] = []
    for side in board.SIDES:
        got, found = check(state, side)
        if any(s.startswith("major:") for s in got.values()) and side == "british":
            state["supply"]["british"] -= 1  # 12.2: the point Basra's supply costs (once a turn; ours)
            events.append({"text": "the British expend a stockpiled supply point to draw on Basra (12.2)"})
        for uid, oos in found.items():
            v = state["units"][uid]
            if oos != v["oos"]:
                v["oos"] = oos
                events.append({"text": f"{counters.name(uid)} is {'out of' if oos else 'back in'} supply (3.4)"})
        for uid in sorted(state["units"]):
            v = state["units"].get(uid)
            if v is None or side_of(uid) != side or kind(uid) != "combat" or not v["oos"] or v.get("aboard"):
                continue
            drm = SURVIVAL_DRM.get(hexmap.terrain(v["at"]), 0)
            if v["at"] in state.get("forts", []):
                drm = min(drm, -1) if drm else -1  # 9.3 (a fort in a town: ours, the better one)
            die = dice.roll(6, f"supply survival of {counters.name(uid)} (3.4)")
            tc = UNITS[uid]["tc"]
            if die + drm <= tc:
                events.append({"text": f"{counters.name(uid)} survives: {die}{drm:+d} against {tc} (3.4)"})
            else:
                events.append({"text": f"{counters.name(uid)} loses a step: {die}{drm:+d} against {tc} (3.4)"})
                lose_step(state, uid, events)
    return events


def lose_step(state: dict[str, Any], uid: str, events: list[dict[str, Any]]) -> None:
    v = state["units"][uid]
    v["steps"] -= 1
    if v["steps"] > 0:
        events.append({"text": f"{counters.name(uid)} loses a step"})
    if v["steps"] <= 0:
        del state["units"][uid]
        state["lost"].append(uid)
        events.append({"text": f"{counters.name(uid)} is eliminated"})


# -- 12.1 depots, 13.2 replacements ----------------------------------------------------------

def depot_sites(state: dict[str, Any], side: str, loc: AbstractSet[str] | None = None) -> list[str]:
    """12.1 and its errata: British depots appear in Basra (ours: Fao while Basra is not
    British, as 13.1 does for reinforcements), Turkish ones in Baghdad, or in any city, grove or
    marsh hex the side controls; the site needs a line home free of enemy units and ZOC (12.1
    added; a friendly ZOC negates, 5.1) and room for a depot (5 a hex, 12.3).  ``loc``: the
    side's ``loc_hexes`` for this position, if the caller has them."""
    loc = loc_hexes(state, side) if loc is None else loc
    own = [h for h, who in sorted(state["control"].items())
           if who == side and hexmap.terrain(h) in ("city", "grove", "marsh")]
    held = board.occupants(state)
    count: dict[str, int] = {}
    for d in state["depots"].values():
        count[d["hex"]] = count.get(d["hex"], 0) + 1
    out: list[str] = []
    for h in dict.fromkeys(home(state, side) + own):  # each once, in this order
        if held.get(h) != enemy(side) and count.get(h, 0) < DEPOTS_A_HEX and h in loc:
            out.append(h)
    return out


def depot_site(state: dict[str, Any], side: str, h: Any, loc: AbstractSet[str] | None = None) -> bool:
    """``h in depot_sites(state, side, loc)``, asked of one hex."""
    if not isinstance(h, str) or not (h in home(state, side) or (
            state["control"].get(h) == side and hexmap.terrain(h) in ("city", "grove", "marsh"))):
        return False
    if board.occupied_by(state, h) == enemy(side) or len(board.depots_at(state, h)) >= DEPOTS_A_HEX:
        return False
    return h in (loc_hexes(state, side) if loc is None else loc)


def can_replace(state: dict[str, Any], uid: str, loc: AbstractSet[str] | None = None) -> bool:
    """13.2: a reduced unit stacked with a divisional, corps or army HQ that has a line home,
    at least 3 hexes from any enemy combat unit.  Not aeroplanes or ships.  ``loc``: the unit's
    side's ``loc_hexes`` for this position, if the caller has them."""
    v = state["units"][uid]
    if kind(uid) not in ("combat", "support") or v["steps"] >= UNITS[uid]["steps"]:
        return False
    side = side_of(uid)
    at = v["at"]
    if not any(kind(h) == "hq" and hq_ok(state, h, loc) for h in board.units_at(state, at, side)):
        return False
    for u, w in state["units"].items():
        if side_of(u) != side and kind(u) == "combat" and w["at"] in hexmap.ALL_HEXES_SET \
                and hexmap.distance(w["at"], at) < 3:
            return False
    return True


def combat_source(state: dict[str, Any], units: list[str], got: dict[str, str] | None = None) -> str | None:
    """7.2, 12.4: the depot the units draw supply from (the first unit's, by the assignment),
    "major:HEX" for a major source, or None if they have none to expend (``got``: the units'
    side's ``assign`` in this position, when the caller has it)."""
    if not units:
        return None
    got = assign(state, side_of(units[0])) if got is None else got
    for u in sorted(units):
        if u in got:
            return got[u]
    return None


def expend(state: dict[str, Any], source: str, side: str) -> str:
    """12.4: the depot is used up; a major source costs a stockpiled point instead (ours)."""
    if source.startswith("major:"):
        state["supply"][side] -= 1
        return f"a stockpiled supply point is expended ({side}, 7.2)"
    d = state["depots"].pop(source)
    return f"the depot at {hexmap.label(d['hex'])} is expended (12.4)"


def can_expend(state: dict[str, Any], source: str | None, side: str) -> bool:
    if source is None:
        return False
    if source.startswith("major:"):
        return state["supply"][side] > 0
    return source in state["depots"]
