"""A position of Blood on the Tigris set up by hand (rule cases): ``position(description) ->
Position``, a full valid state (pbem_engine.protocol.position) from a compact description.

The description (every key optional; a TOML table reads as one):

    start = "setup"                begin from GAME.setup(scenario, options) (then no other key but these)
    scenario = "turning-point"     (default "campaign": the scenario whose rules apply, e.g. its victory)
    options = {...}                the game's options (GAME.options)
    turn = 3                       (default 3, a dry turn)
    units = {"1314" = ["br-16-6", "br-17-6 oos ooc steps=1 moved"]}
                                   every unit on the map: hex (or hexside "1314|1414", the lower hex
                                   first) -> units, each an id and flags: oos, ooc, moved, aground,
                                   escaped, displaced, entrenched, or NAME=N for steps, entrenched,
                                   entered, rail_turn, landed_turn, normal_turn, crossed (a turn)
    air = ["br-30-sqn-a-1"]        aeroplanes available (11.5); air_used = [...] those flown this turn (11.1)
    lost = ["br-16-6"]             units eliminated so far (18.1 counts the British brigades among them)
    control = {"1345" = "british"} (default: the Turks control every place, 12.1 added)
    supply = {british = 2, turkish = 0}
    forts = ["1518"]
    depots = [{side, hex, mode, aboard}]   depots on the map (mode "static" by default; aboard: a
                                   steamer, and hex its hexside)
    phase, active                  where in the sequence (default the British movement phase:
                                   "move", "british"); fired = [...] units that have attacked this
                                   combat phase (7.4); pending = [...] decisions waiting
    arrived, blocked, released_35, captured, mutual_done, rail   set as given
    settle = true                  run the phases no one decides until someone must (as a game
                                   does after each action), e.g. from a survival phase into the next turn

The dice (``Position.dice``) take the die faces only: this game has no sealed items.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem_engine.chance.dice import ScriptedDice, ScriptExhausted
from pbem_engine.protocol.core import RulesError
from pbem_engine.protocol.position import Position, unknown_keys, whole

from . import GAME, counters, hexmap, rules, sequence
from .board import SIDES

KEYS = ("start", "scenario", "options", "turn", "units", "air", "air_used", "lost", "control", "supply", "forts",
        "depots", "phase", "active", "fired", "pending", "arrived", "blocked", "released_35", "captured",
        "mutual_done", "rail", "settle")
SWITCHES = ("oos", "ooc", "moved", "aground", "escaped", "displaced", "entrenched")  # a flag alone: true
NUMBERS = ("steps", "entrenched", "entered", "rail_turn", "landed_turn", "normal_turn", "crossed")  # NAME=N
PHASES = ("mutual", "move", "combat", "survival")
SET_AS_GIVEN = ("blocked", "released_35", "captured", "mutual_done", "rail")


def position(description: dict[str, Any]) -> Position:
    """The state ``description`` sets up (see the module's docstring)."""
    unknown_keys("position", description, KEYS)
    before = description
    scenario = before.get("scenario", "campaign")
    if scenario not in GAME.scenarios:
        raise ValueError(f"scenario = {scenario!r}: no such scenario; the scenarios: {', '.join(GAME.scenarios)}")
    options = dict(table_of("options", before.get("options", {})))
    unknown_keys("options", options, tuple(GAME.options))
    if before.get("start", "setup") != "setup":
        raise ValueError(f"start = {before['start']!r}: the only start is 'setup'")
    if before.get("start") == "setup":
        unknown_keys("position (start = 'setup')", before, ("start", "scenario", "options"))
        try:
            return Position(GAME.setup(scenario, options))
        except RulesError as e:
            raise ValueError(f"options = {options!r}: {e}") from None
    state = sequence.new_state(scenario, options)
    state["units"] = {}
    state["turn"] = whole("turn", before.get("turn", 3), 1, state["last"])
    for where, specs in table_of("units", before.get("units", {})).items():
        place("units", where)
        for spec in list_of(f"units.{where}", specs):
            uid, v = parse_unit(spec, where)
            if uid in state["units"]:
                raise ValueError(f"units.{where}: {uid!r} is on the map twice")
            state["units"][uid] = v
    for uid in list_of("air", before.get("air", [])):
        unit("air", uid)
        state["units"][uid] = sequence.fresh(uid, "air")
    depots = list_of("depots", before.get("depots", []))
    for i, d in enumerate(depots):
        unknown_keys(f"depots[{i}]", d, ("side", "hex", "mode", "aboard"))
        side_of(f"depots[{i}].side", d.get("side"))
        place(f"depots[{i}].hex", d.get("hex"))
        if d.get("mode", "static") not in ("static", "mobile"):
            raise ValueError(f"depots[{i}].mode = {d['mode']!r}: a depot is 'static' or 'mobile'")
        if "aboard" in d:
            unit(f"depots[{i}].aboard", d["aboard"])
    state["depots"] = {f"d{i + 1}": {"side": d["side"], "hex": d["hex"], "mode": d.get("mode", "static"),
                                     "flipped": False, "moved": False, **({"aboard": d["aboard"]} if "aboard" in d else {})}
                       for i, d in enumerate(depots)}
    state["next_depot"] = len(state["depots"]) + 1
    for h, side in table_of("control", before.get("control", {})).items():
        place("control", h)
        side_of(f"control.{h}", side)
    state["control"].update(before.get("control", {}))
    for side, points in table_of("supply", before.get("supply", {})).items():
        side_of("supply", side)
        state["supply"][side] = whole(f"supply.{side}", points, 0)
    state["forts"] = [place("forts", h) for h in list_of("forts", before.get("forts", []))]
    for key in ("lost", "air_used", "fired"):
        for uid in list_of(key, before.get(key, [])):
            unit(key, uid)
    state["lost"] = list(before.get("lost", []))
    state["phase"] = before.get("phase", "move")
    if state["phase"] not in PHASES:
        raise ValueError(f"phase = {state['phase']!r}: the phases are {', '.join(PHASES)}")
    state["active"] = side_of("active", before.get("active", "british"))
    state["pending"] = [dict(p) for p in list_of("pending", before.get("pending", []))]
    state["arrived"] = whole("arrived", before.get("arrived", state["turn"]), 0)
    for key in ("air_used", "fired") + SET_AS_GIVEN:
        if key in before:
            state[key] = copy.deepcopy(before[key])
    if before.get("settle", False) is True:
        try:
            rules.settle(state, ScriptedDice([]), [], GAME.charts_of(state))
        except ScriptExhausted:
            raise ValueError("settle = true: the phases run on roll dice; describe the position after them") from None
    elif before.get("settle", False) is not False:
        raise ValueError(f"settle = {before['settle']!r} is not true or false")
    return Position(state)


def parse_unit(spec: Any, where: str) -> tuple[str, dict[str, Any]]:
    """'br-17-6 oos steps=1' at ``where`` -> (id, the unit's record)."""
    if not isinstance(spec, str) or not spec.split():
        raise ValueError(f"units.{where}: {spec!r} is not 'id flags...'")
    uid, *flags = spec.split()
    unit(f"units.{where}", uid)
    v = sequence.fresh(uid, where)
    for flag in flags:
        name, eq, value = flag.partition("=")
        if eq and name in NUMBERS:
            v[name] = whole(f"units.{where}: {uid}'s {name}", value, 0)
        elif not eq and name in SWITCHES:
            v[name] = True
        else:
            raise ValueError(f"units.{where}: unknown flag {flag!r} in {spec!r}; flags: "
                             f"{', '.join(SWITCHES)}, or {'=N, '.join(NUMBERS)}=N")
    if not 1 <= v["steps"] <= counters.UNITS[uid].get("steps", 1):
        raise ValueError(f"units.{where}: {uid} has {counters.UNITS[uid].get('steps', 1)} step(s) at most, "
                         f"not {v['steps']}: {spec!r}")
    return uid, v


def place(where: str, h: Any) -> str:
    """A hex on the map, or a hexside between two adjacent hexes written as hexmap.hexside does."""
    if isinstance(h, str) and h in hexmap.ALL_HEXES_SET:
        return h
    if isinstance(h, str) and h.count("|") == 1:
        a, b = h.split("|")
        if a in hexmap.ALL_HEXES_SET and b in hexmap.ALL_HEXES_SET and hexmap.adjacent(a, b) \
                and hexmap.hexside(a, b) == h:
            return h
    raise ValueError(f"{where}: no hex or hexside {h!r} on the map")


def unit(where: str, uid: Any) -> None:
    if uid not in counters.UNITS:
        raise ValueError(f"{where}: no unit {uid!r}")


def side_of(where: str, side: Any) -> str:
    if side not in SIDES:
        raise ValueError(f"{where}: no side {side!r}; the sides are {', '.join(SIDES)}")
    return side


def table_of(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} = {value!r} is not a table")
    return value


def list_of(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where} = {value!r} is not a list")
    return value
