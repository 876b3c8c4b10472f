"""The sequence of play (3.0): Mutual Operations (3.1, 12.1, 13.2), each player turn's movement
(3.21, 4.0, 13.1, 15.0, 16.24) and combat (3.22, fight.py), supply survival (3.4), the turn
marker (3.5); Scenario 1's set-up (16.1), special rules (16.2x) and victory (17.0).

Hand-overs: the Turks decide their Mutual Operations right after their own turn's supply
survival (no hand-over), the British theirs just before moving; within combat the defender is
asked only for a real choice (depot, interception, a retreat, a counterattack)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from . import board, counters, hexmap, naval, railroad, scenarios, supply
from .board import enemy, kind, side_of
from .counters import UNITS

VP = {"basra": 1, "ahwaz": 1, "amara": 1, "nasirya": 1, "kut": 3, "ctesiphon": 1}  # 17.0
LEVELS = [(12, "British decisive victory", "british"), (10, "British victory", "british"),
          (8, "British tactical victory", "british"), (6, "draw", None), (0, "Turkish victory", "turkish")]
EXTRA_SUPPLY = ("qurna", "amara", "kut")  # 16.25
GARRISONS = ("nasirya", "basra", "ahwaz")  # 16.21
DEPOT_MA = 6  # ours: a mobile depot moves like 12.6's free movement of up to 6 MPs


def fresh(uid: str, at: str) -> dict[str, Any]:
    return {"at": at, "steps": UNITS[uid].get("steps", 1), "oos": False, "ooc": False, "moved": False}


def new_state(scenario: str, options: dict[str, Any]) -> dict[str, Any]:
    # 12.1 added: control of places, and of the city, grove and marsh hexes a depot may be made in
    places = sorted({p["hex"] for p in hexmap.PLACES.values()} | set(hexmap.DEPOT_TERRAIN_HEXES))
    return {
        "scenario": scenario, "options": options, "turn": 1,
        "last": min(options.get("turns") or scenarios.last_turn(scenario, options), scenarios.last_turn(scenario, options)),
        "phase": "mutual", "active": "turkish", "units": {}, "lost": [], "depots": {}, "next_depot": 1,
        "control": {h: "turkish" for h in places},  # 12.1 added: the Turks control everything at first
        "captured": {}, "supply": {"british": 0, "turkish": 0}, "forts": [], "blocked": None,
        "released_35": False, "arrived": 0, "air_used": [], "attacked": [], "fired": [], "pending": [],
        "result": None, "vp": 0,
    }


def setup(scenario: str, options: dict[str, Any]) -> dict[str, Any]:
    """16.1: only Turkish units begin on the map (Scenarios 1 and 3); 18.1 for Scenario 2."""
    state = new_state(scenario, options)
    if scenario == "turning-point":
        scenarios.setup_turning_point(state, fresh, new_depot)
        return state
    for uid, u in sorted(UNITS.items()):
        if "setup" in u:
            state["units"][uid] = fresh(uid, u["setup"])
    for d in counters.DEPOT_SETUP:
        new_depot(state, d["side"], d["hex"], d.get("mode", "static"))
    state["turn"] = 0
    state["phase"] = "survival"  # the first settle opens turn 1's Mutual Operations
    return state


def new_depot(state: dict[str, Any], side: str, h: str, mode: str = "mobile") -> str:
    did = f"d{state['next_depot']}"
    state["next_depot"] += 1
    state["depots"][did] = {"side": side, "hex": h, "mode": mode, "flipped": False, "moved": False}
    return did


# -- 3.1 Mutual Operations --------------------------------------------------------------------

def begin_turn(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """3.5 then 3.1: the marker advances; supply points arrive (16.3, 16.25); units leave (16.3);
    OOC markers are set."""
    state["turn"] += 1
    t = state["turn"]
    events.append({"text": f"turn {t} begins{' (rain)' if board.rain(state) else ''}"})
    state["air_used"] = []
    schedule = scenarios.campaign_rules(state)  # 16.3, 16.25: Scenarios 1 and 3 only
    for side in board.SIDES:
        n = counters.SUPPLY[side].get(t, 0) if schedule else 0
        if n:
            state["supply"][side] += n
            events.append({"text": f"{side}: {n} supply point(s) arrive (16.3)"})
    if t % 2 == 0 and schedule:  # 16.25: one point per objective held, from the next even turn after capture
        for p in EXTRA_SUPPLY:
            since = state["captured"].get(p)
            if since is not None and since < t and state["control"].get(hexmap.PLACE_HEX[p]) == "british":
                state["supply"]["british"] += 1
                events.append({"text": f"the British draw an extra supply point for {hexmap.PLACES[p]['name']} (16.25)"})
    for uid in sorted(state["units"]):
        if UNITS[uid].get("removed") == t and schedule:
            del state["units"][uid]
            events.append({"text": f"{counters.name(uid)} is withdrawn (16.3)"})
    for v in state["units"].values():
        v["moved"] = False
        v.pop("escaped", None)
        v.pop("displaced", None)
        v.pop("aground", None)  # 15.1: freed by the next movement phase
    for d in state["depots"].values():
        d["flipped"] = d["moved"] = False
    events.extend(supply.update_command(state))
    railroad.begin_turn(state, events)  # 20.1 (optional)
    state["phase"] = "mutual"
    state["active"] = "turkish"


def mutual_choices(state: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    loc = supply.loc_hexes(state, side) if state["supply"][side] >= 1 else frozenset()  # one search for them all
    if state["supply"][side] >= supply.DEPOT_COST[side]:
        for site in supply.depot_sites(state, side, loc):
            out.append((f"create a depot at {hexmap.label(site)} for {supply.DEPOT_COST[side]} supply point(s) (12.1)",
                        {"do": "depot", "hex": site}))
    if state["supply"][side] >= 1:
        for uid in sorted(state["units"]):
            if side_of(uid) == side and supply.can_replace(state, uid, loc):
                out.append((f"replace {counters.name(uid)} to full strength for 1 supply point (13.2)",
                            {"do": "replace", "unit": uid}))
    return out


def mutual_allowed(state: dict[str, Any], side: str, action: dict[str, Any],
                   lines: dict[Any, AbstractSet[str]] | None = None) -> bool:
    """Whether ``action`` equals one of ``mutual_choices`` now (a depot or a replacement), without
    listing them all (``lines``: a memo for ``supply.loc_kept``, over a series of orders)."""
    if action.get("do") == "depot" and set(action) == {"do", "hex"}:
        if state["supply"][side] < supply.DEPOT_COST[side]:
            return False
        loc = None if lines is None else supply.loc_kept(state, side, lines)
        return supply.depot_site(state, side, action["hex"], loc)
    if action.get("do") == "replace" and set(action) == {"do", "unit"} and isinstance(action["unit"], str):
        uid = action["unit"]
        return state["supply"][side] >= 1 and uid in state["units"] and side_of(uid) == side \
            and supply.can_replace(state, uid)
    return False


# -- 3.21 movement: reinforcements ------------------------------------------------------------

def _entry_hex(state: dict[str, Any], side: str, where: str) -> str:
    """13.1, 16.23: where a reinforcement enters; a friendly map edge if the place is held."""
    foe = enemy(side)
    if where == "baghdad":
        options = list(hexmap.BAGHDAD)
    elif where == "basra" and side == "british" and state["control"].get(hexmap.PLACE_HEX["basra"]) != "british":
        options = [hexmap.PLACE_HEX["fao"]]  # 13.1: Fao until Basra is British
    elif where == "basra":
        b = hexmap.PLACE_HEX["basra"]
        options = [b, *hexmap.neighbours(b)]
    else:
        options = [hexmap.PLACE_HEX[where]]
    for h in options:
        if board.occupied_by(state, h) != foe and hexmap.terrain(h) != "lake":
            return h
    row = hexmap.ROWS[1] if hexmap.DATA["map"]["edges"][side] == "bottom" else hexmap.ROWS[0]
    edge = [hexmap.hex_id(c, row) for c in range(hexmap.COLS[0], hexmap.COLS[1] + 1)]
    free = [h for h in edge if board.occupied_by(state, h) != foe]
    return min(free, key=lambda h: (hexmap.distance(h, options[0]), h))


def reinforce(state: dict[str, Any], side: str, events: list[dict[str, Any]]) -> None:
    """13.1: reinforcements enter at the start of their side's movement phase, full MA, free
    of cost, possibly over-stacked (6.0) or in an enemy ZOC."""
    t = state["turn"]
    if not scenarios.campaign_rules(state):
        return  # 18.0 gives Scenario 2 no reinforcements (ours)
    arriving = [uid for uid, u in sorted(UNITS.items()) if u.get("turn") == t]
    if side == "turkish" and scenarios.lightning_due(state):  # 19.0: Operation Lightning
        state["lightning"] = t
        arriving += scenarios.lightning_units()
        for _ in range(scenarios.LIGHTNING_DEPOTS):
            h = _entry_hex(state, side, "baghdad")
            new_depot(state, side, h)
            events.append({"text": f"Operation Lightning: a Turkish depot arrives at {hexmap.label(h)} (19.0)"})
    for uid in arriving:
        u = UNITS[uid]
        if u["side"] != side or uid in state["units"] or uid in state["lost"]:
            continue
        if u["kind"] == "air":
            at = "air"  # 11.5: aeroplanes have no place on the map
        else:
            h = _entry_hex(state, side, u.get("enters", "baghdad"))
            if u["kind"] in ("gunboat", "steamer"):
                at = next((s for s in hexmap.sides_of(h) if not naval.blocked(state, s)), None) or \
                    hexmap.LINES["shatt"][-1]
            else:
                at = h
        v = fresh(uid, at)
        if at in hexmap.ALL_HEXES_SET:
            v["entered"] = t  # 13.1: it may be placed elsewhere in its arrival area (entry.py)
        if state.get("rail") and u.get("enters") == "basra" and at in hexmap.ALL_HEXES_SET \
                and state["control"].get(hexmap.PLACE_HEX["basra"]) == "british":
            v["rail_turn"] = t  # 20.1: due to arrive in Basra, it may be placed on a railhead instead
        if u.get("normal_on_entry"):
            v["normal_turn"] = t  # 16.3: in supply and communication on the turn of entry
        state["units"][uid] = v
        events.append({"text": f"{counters.name(uid)} arrives at {hexmap.label(at) if '|' not in at else at} (13.1)"})
    for d in counters.DEPOT_ARRIVALS:
        if d["side"] == side and d["turn"] == t:
            h = _entry_hex(state, side, d["enters"])
            new_depot(state, side, h)
            events.append({"text": f"a {side} depot arrives at {hexmap.label(h)} (16.3)"})


# -- control, garrisons, victory -------------------------------------------------------------

def update_control(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """12.1 added: places change hands when the enemy occupies them; 12.0: a Turkish recapture
    of Basra gives the Turks a quarter of the British stockpile, the rest is lost; 16.25 notes
    the capture of Qurna, Amara and Kut."""
    held = board.occupants(state)  # the units stay put below
    for h in sorted(state["control"]):
        occ = held.get(h)
        if occ and state["control"][h] != occ:
            state["control"][h] = occ
            events.append({"text": f"{occ} take {hexmap.label(h)}"})
            for p in EXTRA_SUPPLY:
                if hexmap.PLACE_HEX[p] == h:
                    if occ == "british":
                        state["captured"][p] = state["turn"]
                    else:
                        state["captured"].pop(p, None)
            if h == hexmap.PLACE_HEX["basra"] and occ == "turkish":
                gain = state["supply"]["british"] // 4
                state["supply"]["turkish"] += gain
                state["supply"]["british"] = 0
                events.append({"text": f"the Turks take {gain} of the British stockpile; the rest is lost (12.0)"})


def garrison_hexes(state: dict[str, Any]) -> list[str]:
    """16.21: Nasirya, Basra and Ahwaz, once captured, keep a British combat unit (Scenarios 1
    and 3)."""
    if not scenarios.campaign_rules(state):
        return []
    return [hexmap.PLACE_HEX[p] for p in GARRISONS if state["control"].get(hexmap.PLACE_HEX[p]) == "british"]


def leaves_garrison(state: dict[str, Any], uid: str) -> bool:
    at = state["units"][uid]["at"]
    if side_of(uid) != "british" or kind(uid) != "combat" or at not in garrison_hexes(state):
        return False
    return [u for u in board.ground_at(state, at, "british") if kind(u) == "combat"] == [uid]


def victory_points(state: dict[str, Any]) -> int:
    """17.0: the hexes must be occupied (by a British ground unit)."""
    held = {h for h, who in board.occupants(state).items() if who == "british" and h in hexmap.ALL_HEXES_SET}
    vp = sum(n for p, n in VP.items() if hexmap.PLACE_HEX[p] in held)
    baghdad = sum(1 for h in hexmap.BAGHDAD if h in held)
    return vp + (5 if baghdad == 4 else baghdad)


def final(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    if state["scenario"] == "turning-point":  # 18.1
        state["result"] = scenarios.turning_point_result(state)
        state["phase"] = "over"
        events.append({"text": f"the game ends: {state['result']['result']}: {state['result']['reason']}"})
        return
    vp = victory_points(state)
    state["vp"] = vp
    for floor, text, winner in LEVELS:
        if vp >= floor:
            state["result"] = {"winner": winner, "result": text, "reason": f"the British hold {vp} VP after turn "
                                                                           f"{state['turn']} (17.0)"}
            break
    state["phase"] = "over"
    events.append({"text": f"the game ends: {state['result']['result']} ({vp} VP, 17.0)"})


def end_of_turn(state: dict[str, Any], dice: Any, events: list[dict[str, Any]]) -> None:
    """3.4 supply survival; 16.3 turn 4: Ahwaz unoccupied costs the British a point a turn; 3.5."""
    events.extend(supply.update_supply(state, dice))
    if state["turn"] >= 4 and scenarios.campaign_rules(state) \
            and board.occupied_by(state, hexmap.PLACE_HEX["ahwaz"]) != "british" \
            and state["supply"]["british"] > 0:
        state["supply"]["british"] -= 1
        events.append({"text": "Ahwaz is not British-occupied: the British lose a supply point (16.3 turn 4)"})
    update_control(state, events)
    if state["turn"] >= state["last"]:
        final(state, events)
    else:
        state["phase"] = "survival"
