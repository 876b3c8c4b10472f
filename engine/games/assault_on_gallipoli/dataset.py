"""The tables the rules read, and whose they are: ours (data.py, PROVISIONAL) or a player's own.

The Rulebook lacks the map, the counters' values, the Scenario Booklets and the Fire Combat
Table's full list (DIGEST 001 §4).  A player who owns the game supplies his with ``pbem new
assault-on-gallipoli --pack DIR`` (the product reads the files; the engine reads none): the parsed
files travel in the signed invitation as the option ``data``, in four parts, each optional:

* ``map``: every area (name, elevation, woods, tags, coords for the report's map), every edge
  with its flags, and the landing table (20.3).  Replaces ours whole.
* ``counters``: ``types``, ``units`` and ``leaders``, each merged by id over ours (a player who
  only knows Kemal's bonus gives only Kemal).
* ``scenarios``: any of the five scenarios, each replacing ours whole.
* ``fire``: the to-hit number and the values of the modifiers the rules know (8.5-8.6, 13.1),
  merged by name over ours; a modifier the rules do not know cannot be added by data.

``check`` lists every problem of such data at once (the rules ids it must keep, sizes bounded:
it is hostile until checked).  ``using(state)`` puts a game's tables in force for the length of
one call into the rules, as ``decimal.localcontext`` does for a precision: the rules read them
through ``current()``, and a call on another game, in another thread, is not disturbed.  A game
without the option keeps exactly the state it had before this module (no key is added).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import deque
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from . import data
from .data import SIDES

PARTS = ("map", "counters", "scenarios", "fire")
# 8.5.2 and 8.6/13.1: the to-hit number and the modifiers the rules apply (fire.modifiers)
# (base: 8.5.2, a die at or under it hits; woods, higher: 8.6; trenches: 13.1; night_open: 17.9
# Night Attack, a target in the open; long_range: 8.2, at the greatest range)
FIRE = {"base": 4, "woods": -1, "higher": -1, "shallow_trench": -1, "deep_trench": -2, "night_open": -1,
        "long_range": -1}
# What the rules name and the data must keep (the rule that names it)
NAMED_AREAS = {"anzac-cove": "1.3, 12.4, 20.5", "mal-tepe": "1.3 and the Field Hospital card"}
NAMED_TAGS = {"boats": "20.2: the sea area the boats wait in", "khetia": "16.2: the Turkish ships' sea area",
              "aegean": "16.2: the ANZAC ships' sea areas", "edge-anzac": "12.4: the ANZAC edge",
              "edge-turkish": "12.4: the Turkish edge"}
KINDS = ("inf", "mg", "art", "ship", "remnant")
FLAGS = ("road", "river", "red")
LIMITS = {"areas": 300, "edges": 1500, "types": 60, "units": 600, "leaders": 120, "list": 600, "text": 120}
ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}\Z")


class DataError(ValueError):
    """A player's data with problems: ``problems`` lists every one."""

    def __init__(self, problems: list[str]):
        super().__init__(f"{len(problems)} problem(s) in the game data: " + "; ".join(problems[:3]))
        self.problems = problems


class Dataset:
    """Every table the rules read, with the derived geometry (adjacency, range, edge distance)."""

    def __init__(self, areas: dict, edges: list, landing: tuple, types: dict, units: dict, leaders: dict,
                 scenarios: dict, fire: dict, coords: dict, supplied: dict[str, str]):
        self.areas, self.landing, self.types, self.units, self.leaders = areas, landing, types, units, leaders
        self.scenarios, self.fire, self.coords, self.supplied = scenarios, fire, coords, supplied
        self.adj: dict[str, dict[str, set[str]]] = {a: {} for a in areas}
        for a, b, *flags in edges:
            self.adj[a][b] = self.adj[b][a] = set(flags)
        # 8.2.3: range counts areas through any edge (red lines do not stop fire, 6.1.4), sea included
        self.dist = {a: self.reach(a, lambda x, y: True) for a in areas}
        self._edge: dict[tuple[str, ...], dict[str, dict[str, int]]] = {}
        self.tagged = {t: [a for a, v in areas.items() if t in v[3]] for t in ("vp", "aegean", "khetia", "boats")}

    def reach(self, start: str, passable) -> dict[str, int]:
        dist, todo = {start: 0}, deque([start])
        while todo:
            a = todo.popleft()
            for b in self.adj[a]:
                if b not in dist and passable(a, b):
                    dist[b] = dist[a] + 1
                    todo.append(b)
        return dist

    def edge_dist(self, off: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
        """12.4: each side's walking distance to its friendly edge, on the areas in play (a
        half-board scenario's retreat is measured on its half: 1.3), computed once per board."""
        if off not in self._edge:
            out: dict[str, dict[str, int]] = {s: {} for s in SIDES}
            gone = set(off)

            def step(a: str, b: str) -> bool:
                return b not in gone and self.walkable(a, b)

            for side in SIDES:
                for a in (a for a in self.areas if f"edge-{side}" in self.areas[a][3] and a not in gone):
                    for b, d in self.reach(a, step).items():
                        out[side][b] = min(d, out[side].get(b, 99))
            self._edge[off] = out
        return self._edge[off]

    def is_sea(self, area: str) -> bool:
        return "sea" in self.areas[area][3]

    def walkable(self, a: str, b: str) -> bool:
        return not self.is_sea(a) and not self.is_sea(b) and "red" not in self.adj[a][b]


def _ours() -> Dataset:
    edges = [line.split() for line in data.EDGES.strip().splitlines()]
    return Dataset(dict(data.AREAS), edges, data.LANDING, dict(data.TYPES), dict(data.UNITS), dict(data.LEADERS),
                   data.SCENARIOS, dict(FIRE), {}, {})


PROVISIONAL = _ours()
_IN_FORCE: ContextVar[Dataset] = ContextVar("assault_on_gallipoli_data", default=PROVISIONAL)
_LOADED: dict[str, Dataset] = {}


def current() -> Dataset:
    """The tables of the game whose call is under way (ours outside any ``using``)."""
    return _IN_FORCE.get()


def digest(supplied: Any) -> str:
    return hashlib.sha256(json.dumps(supplied, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:32]


def of(state: dict[str, Any]) -> Dataset:
    """A game's tables: its option ``data`` built once per process (keyed by the digest setup
    stored in the state), else ours."""
    key = state.get("data_id")
    if key is None:
        return PROVISIONAL
    if key not in _LOADED:
        adopt(state["options"]["data"])
    return _LOADED[key]


def adopt(supplied: Any) -> dict[str, Any]:
    """A player's data checked (DataError) and built once: what ``using`` takes to put it in force
    while the game is set up (the state then carries its ``data_id``)."""
    key = digest(supplied)
    if key not in _LOADED:
        if len(_LOADED) >= 8:
            _LOADED.clear()
        _LOADED[key] = load(supplied)
    return {"data_id": key, "options": {"data": supplied}}


@contextmanager
def using(state: dict[str, Any]) -> Iterator[Dataset]:
    token = _IN_FORCE.set(of(state))
    try:
        yield _IN_FORCE.get()
    finally:
        _IN_FORCE.reset(token)


# ------------------------------------------------------------------ a player's data
def template() -> dict[str, Any]:
    """Our tables in the shape a player's data takes (``pbem pack template``): the file he edits."""
    ours = PROVISIONAL
    return {
        "map": {"areas": {a: {"name": n, "elevation": e, "woods": w, "tags": list(t)}
                          for a, (n, e, w, t) in ours.areas.items()},
                "edges": [line.split() for line in data.EDGES.strip().splitlines()],
                "landing": [[top, beach] for top, beach in ours.landing]},
        "counters": {"types": {k: {"kind": v[0], "firepower": list(v[1]), "range": v[2], "strength": list(v[3]),
                                   "mf": v[4]} for k, v in ours.types.items()},
                     "units": {k: {"name": v[0], "side": v[1], "type": v[2]} for k, v in ours.units.items()
                               if v[2] != "remnant"},
                     "leaders": {k: {"name": v[0], "side": v[1], "firepower": v[2], "movement": v[3], "rank": v[4]}
                                 for k, v in ours.leaders.items()}},
        "scenarios": {k: _scenario_out(v) for k, v in ours.scenarios.items()},
        "fire": dict(ours.fire),
    }


def _scenario_out(sc: dict[str, Any]) -> dict[str, Any]:
    out = {k: sc[k] for k in ("title", "turns", "killing_time", "morale", "landing", "sudden_death_vp", "off", "vp",
                              "anzac_cubes", "wire", "setup", "trenches", "ships", "waves")}
    out["reinforcements"] = {str(t): {s: {g: {"entry": e, "units": list(us)} for g, (e, us) in groups.items()}
                                      for s, groups in sides.items()} for t, sides in sc["reinforcements"].items()}
    return json.loads(json.dumps(out))


def check(supplied: Any) -> list[str]:
    """Every problem of a player's data (the option ``data``), or []."""
    try:
        load(supplied)
    except DataError as e:
        return e.problems
    return []


def load(supplied: Any) -> Dataset:
    """A player's data checked whole and built over ours; DataError lists every problem."""
    p: list[str] = []
    if not isinstance(supplied, dict) or not supplied:
        raise DataError([f"the data is a table with any of the parts {', '.join(PARTS)}"])
    p += [f"unknown part {k!r} (the parts are {', '.join(PARTS)})" for k in sorted(supplied) if k not in PARTS]
    ours = PROVISIONAL
    areas, edges, landing, coords = ours.areas, [line.split() for line in data.EDGES.strip().splitlines()], \
        ours.landing, {}
    if "map" in supplied:
        areas, edges, landing, coords = _map(supplied["map"], p)
    types, units, leaders = dict(ours.types), dict(ours.units), dict(ours.leaders)
    if "counters" in supplied:
        _counters(supplied["counters"], types, units, leaders, p)
    fire = dict(ours.fire)
    if "fire" in supplied:
        _fire(supplied["fire"], fire, p)
    scenarios = dict(ours.scenarios)
    for name, sc in _table(supplied.get("scenarios", {}), "scenarios", p).items():
        if name not in ours.scenarios:
            p.append(f"scenarios.{name}: no such scenario (the five are {', '.join(ours.scenarios)})")
        else:
            scenarios[name] = _scenario(f"scenarios.{name}", sc, p)
    if p:  # the scenarios' ids are checked against a map and counters that hold together
        raise DataError(p)
    supplied_parts = {k: "the player's" for k in PARTS if k in supplied}
    built = Dataset(areas, edges, landing, types, units, leaders, scenarios, fire, coords, supplied_parts)
    _fits(built, p)
    if p:
        raise DataError(p)
    return built


def _table(value: Any, where: str, p: list[str], limit: int = LIMITS["list"]) -> dict[str, Any]:
    if not isinstance(value, dict):
        p.append(f"{where}: a table")
        return {}
    if len(value) > limit:
        p.append(f"{where}: {len(value)} entries, at most {limit}")
        return {}
    return value


def _list(value: Any, where: str, p: list[str], limit: int = LIMITS["list"]) -> list[Any]:
    if not isinstance(value, list):
        p.append(f"{where}: a list")
        return []
    if len(value) > limit:
        p.append(f"{where}: {len(value)} entries, at most {limit}")
        return []
    return value


def _int(value: Any, where: str, p: list[str], lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        p.append(f"{where}: a whole number from {lo} to {hi}, not {value!r}"[:200])
        return lo
    return value


def _text(value: Any, where: str, p: list[str]) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > LIMITS["text"]:
        p.append(f"{where}: a name of 1 to {LIMITS['text']} characters")
        return "?"
    return value


def _id(value: Any, where: str, p: list[str]) -> bool:
    if not isinstance(value, str) or not ID.match(value):
        p.append(f"{where}: {str(value)[:50]!r} is not an id (lower-case letters, digits and '-')")
        return False
    return True


def _keys(entry: Any, where: str, need: tuple[str, ...], p: list[str], maybe: tuple[str, ...] = ()) -> dict:
    if not isinstance(entry, dict):
        p.append(f"{where}: a table with {', '.join(need)}")
        return {}
    p += [f"{where}: missing {k}" for k in need if k not in entry]
    p += [f"{where}: unknown key {str(k)[:40]!r}" for k in entry if k not in need + maybe]
    return entry if all(k in entry for k in need) else {}


def _map(m: Any, p: list[str]) -> tuple[dict, list, tuple, dict]:
    m = _keys(m, "map", ("areas", "edges", "landing"), p)
    areas: dict[str, tuple[str, int, bool, tuple[str, ...]]] = {}
    coords: dict[str, list[int]] = {}
    for a, v in _table(m.get("areas", {}), "map.areas", p, LIMITS["areas"]).items():
        w = f"map.areas.{a}"
        v = _keys(v, w, ("name", "elevation", "woods", "tags"), p, ("coords",))
        if not _id(a, w, p) or not v:
            continue
        tags = [t for t in _list(v["tags"], f"{w}.tags", p, 20) if _id(t, f"{w}.tags", p)]
        if not isinstance(v["woods"], bool):
            p.append(f"{w}.woods: true or false")
        if "coords" in v:
            c = _list(v["coords"], f"{w}.coords", p, 2)
            coords[a] = [_int(x, f"{w}.coords", p, -1000, 1000) for x in c]
        areas[a] = (_text(v["name"], f"{w}.name", p), _int(v["elevation"], f"{w}.elevation", p, 0, 9),
                    v["woods"] is True, tuple(tags))
    edges, seen = [], set()
    for i, e in enumerate(_list(m.get("edges", []), "map.edges", p, LIMITS["edges"])):
        w = f"map.edges[{i}]"
        if not isinstance(e, list) or len(e) < 2 or not all(isinstance(x, str) for x in e):
            p.append(f"{w}: [area, area, flags...]")
            continue
        a, b, *flags = e
        p += [f"{w}: no area {x!r}" for x in (a, b) if x not in areas][:2]
        p += [f"{w}: unknown flag {f!r} (flags are {', '.join(FLAGS)})" for f in flags if f not in FLAGS]
        if a == b or frozenset((a, b)) in seen:
            p.append(f"{w}: {a} - {b} twice or to itself")
        seen.add(frozenset((a, b)))
        edges.append([a, b, *flags])
    landing = []
    last = 0
    for i, row in enumerate(_list(m.get("landing", []), "map.landing", p, 10)):
        w = f"map.landing[{i}]"
        if not (isinstance(row, list) and len(row) == 2 and isinstance(row[1], str)):
            p.append(f"{w}: [highest die, beach]")
            continue
        top = _int(row[0], w, p, last + 1, 10)
        last = top
        if row[1] not in areas:
            p.append(f"{w}: no area {row[1]!r}")
        landing.append((top, row[1]))
    if m and (not landing or landing[-1][0] != 10):
        p.append("map.landing: the rows must reach a die of 10 (20.3)")
    return areas, edges, tuple(landing), coords


def _counters(c: Any, types: dict, units: dict, leaders: dict, p: list[str]) -> None:
    c = _table(c, "counters", p)
    p += [f"counters: unknown table {k!r} (types, units, leaders)" for k in c if k not in ("types", "units", "leaders")]
    for k, w, v in _entries(c, "types", ("kind", "firepower", "range", "strength", "mf"), p):
        if v["kind"] not in KINDS:
            p.append(f"{w}.kind: one of {', '.join(KINDS)}")
        pair = [[_int(x, f"{w}.{n}", p, 0, 20) for x in _list(v[n], f"{w}.{n}", p, 2)] for n in ("firepower", "strength")]
        if any(len(x) != 2 for x in pair):
            p.append(f"{w}: firepower and strength are [fresh, exhausted]")
            continue
        types[k] = (v["kind"], tuple(pair[0]), _int(v["range"], f"{w}.range", p, 0, 20), tuple(pair[1]),
                    _int(v["mf"], f"{w}.mf", p, 0, 20))
    for k, w, v in _entries(c, "units", ("name", "side", "type"), p):
        if v["side"] not in SIDES:
            p.append(f"{w}.side: one of {', '.join(SIDES)}")
        if v["type"] not in types or v["type"] == "remnant":
            p.append(f"{w}.type: no counter type {str(v['type'])[:40]!r}")
        if k in leaders:
            p.append(f"{w}: {k} is a Leader")
        units[k] = (_text(v["name"], f"{w}.name", p), v["side"], v["type"])
    for k, w, v in _entries(c, "leaders", ("name", "side", "firepower", "movement", "rank"), p):
        if v["side"] not in SIDES:
            p.append(f"{w}.side: one of {', '.join(SIDES)}")
        if k in units:
            p.append(f"{w}: {k} is a unit")
        leaders[k] = (_text(v["name"], f"{w}.name", p), v["side"], _int(v["firepower"], f"{w}.firepower", p, 0, 9),
                      _int(v["movement"], f"{w}.movement", p, 0, 9), _int(v["rank"], f"{w}.rank", p, 1, 4))


def _entries(c: dict[str, Any], table: str, need: tuple[str, ...], p: list[str]):
    """The well-formed entries of ``counters.TABLE`` as (id, where, entry); the others noted in ``p``."""
    for k, v in _table(c.get(table, {}), f"counters.{table}", p, LIMITS[table]).items():
        w = f"counters.{table}.{k}"
        v = _keys(v, w, need, p)
        if _id(k, w, p) and v:
            yield k, w, v


def _fire(f: Any, fire: dict, p: list[str]) -> None:
    for k, v in _table(f, "fire", p).items():
        if k not in FIRE:
            p.append(f"fire.{k}: not a modifier the rules know ({', '.join(FIRE)}); a new one needs code")
        else:
            fire[k] = _int(v, f"fire.{k}", p, 1, 10) if k == "base" else _int(v, f"fire.{k}", p, -9, 9)


def _scenario(w: str, sc: Any, p: list[str]) -> dict[str, Any]:
    need = ("title", "turns", "killing_time", "morale", "landing", "sudden_death_vp", "off", "vp", "anzac_cubes",
            "setup", "trenches", "wire", "ships", "waves", "reinforcements")
    sc = _keys(sc, w, need, p)
    if not sc:
        return {}
    out = dict(sc)
    out["title"] = _text(sc["title"], f"{w}.title", p)
    out["turns"] = _int(sc["turns"], f"{w}.turns", p, 1, 30)
    if sc["killing_time"] not in (7, 8):
        p.append(f"{w}.killing_time: 7 or 8 (19.2)")
    if sc["morale"] not in SIDES:
        p.append(f"{w}.morale: one of {', '.join(SIDES)} (18.2)")
    p += [f"{w}.{k}: true or false" for k in ("landing", "sudden_death_vp") if not isinstance(sc[k], bool)]
    for k in ("off", "vp", "anzac_cubes", "wire"):
        out[k] = [x for x in _list(sc[k], f"{w}.{k}", p) if isinstance(x, str)]
    out["setup"] = {a: _strings(us, f"{w}.setup.{a}", p) for a, us in _table(sc["setup"], f"{w}.setup", p).items()}
    out["trenches"] = {a: _int(d, f"{w}.trenches.{a}", p, 1, 2) for a, d in _table(sc["trenches"], f"{w}.trenches", p).items()}
    ships = _table(sc["ships"], f"{w}.ships", p)
    out["ships"] = {s: _strings(ships.get(s, []), f"{w}.ships.{s}", p) for s in SIDES}
    out["waves"] = [[_strings(boat, f"{w}.waves[{i}]", p) for boat in _list(wave, f"{w}.waves[{i}]", p)]
                    for i, wave in enumerate(_list(sc["waves"], f"{w}.waves", p, 20))]
    reinf: dict[int, dict[str, dict[str, tuple[str, list[str]]]]] = {}
    for t, sides in _table(sc["reinforcements"], f"{w}.reinforcements", p, 30).items():
        if not (isinstance(t, str) and t.isdigit() and 1 <= int(t) <= 30):
            p.append(f"{w}.reinforcements: {str(t)[:20]!r} is not a turn")
            continue
        for s, groups in _table(sides, f"{w}.reinforcements.{t}", p).items():
            if s not in SIDES:
                p.append(f"{w}.reinforcements.{t}: no side {str(s)[:20]!r}")
                continue
            for g, grp in _table(groups, f"{w}.reinforcements.{t}.{s}", p, 40).items():
                gw = f"{w}.reinforcements.{t}.{s}.{str(g)[:40]}"
                grp = _keys(grp, gw, ("entry", "units"), p)
                if grp and isinstance(grp["entry"], str):
                    reinf.setdefault(int(t), {}).setdefault(s, {})[_text(g, gw, p)] = (grp["entry"],
                                                                                      _strings(grp["units"], gw, p))
    out["reinforcements"] = reinf
    return out


def _strings(value: Any, where: str, p: list[str]) -> list[str]:
    items = _list(value, where, p, 40)
    if not all(isinstance(x, str) for x in items):
        p.append(f"{where}: a list of ids")
        return []
    return list(items)


def _fits(ds: Dataset, p: list[str]) -> None:
    """What the rules need of the whole: the areas and tags they name, every scenario's ids."""
    p += [f"map: the rules name the area {a} ({why}); keep its id" for a, why in NAMED_AREAS.items() if a not in ds.areas]
    p += [f"map: no area tagged {t} ({why})" for t, why in NAMED_TAGS.items()
          if not any(t in v[3] for v in ds.areas.values())]
    if len(ds.tagged["khetia"]) > 1 or len(ds.tagged["boats"]) > 1:
        p.append("map: one area tagged khetia and one tagged boats")
    for name, sc in ds.scenarios.items():
        p += scenario_problems(ds, f"scenarios.{name}", sc)


def scenario_problems(ds: Dataset, w: str, sc: dict[str, Any], twice_ok: tuple[str, ...] = ()) -> list[str]:
    """Everything wrong with one scenario on these tables (``twice_ok``: the optional C-in-Cs,
    one group for each entry area)."""
    p: list[str] = []
    off = set(sc["off"])
    p += [f"{w}.off: no area {a}" for a in sc["off"] if a not in ds.areas]
    for k in ("vp", "anzac_cubes", "wire"):
        p += [f"{w}.{k}: no area {a}" for a in sc[k] if a not in ds.areas]
    p += [f"{w}.vp: {a} is not in play" for a in sc["vp"] if a in off]
    p += [f"{w}.anzac_cubes: {a} is not a VP area" for a in sc["anzac_cubes"] if a not in sc["vp"]]
    if len(sc["vp"]) != 11 or len(set(sc["vp"])) != 11:  # 1.2: 11 VP in every scenario
        p.append(f"{w}.vp: {len(set(sc['vp']))} VP areas, not 11 (1.2)")
    for area in list(sc["setup"]) + list(sc["trenches"]):
        if area not in ds.areas:
            p.append(f"{w}: no area {area}")
        elif area in off:
            p.append(f"{w}: {area} is set up but not in play")
    for turn, sides in sc["reinforcements"].items():
        for side, groups in sides.items():
            p += [f"{w}.reinforcements.{turn}.{side}.{g}: entry {e} is not an area in play"
                  for g, (e, _) in groups.items() if e not in ds.areas or e in off]
    placed = [(u, s) for s, us in sc["ships"].items() for u in us]
    placed += [(u, None) for us in list(sc["setup"].values()) + [b for wave in sc["waves"] for b in wave] for u in us]
    placed += [(u, side) for sides in sc["reinforcements"].values() for side, groups in sides.items()
               for _, us in groups.values() for u in us]
    seen: set[str] = set()
    for u, side in placed:
        owner = ds.leaders[u][1] if u in ds.leaders else ds.units[u][1] if u in ds.units else None
        if owner is None:
            p.append(f"{w}: no counter {u[:48]}")
        elif side is not None and owner != side:
            p.append(f"{w}: {u} is not {side}'s")
        if u in seen and u not in twice_ok:
            p.append(f"{w}: {u} is placed twice")
        seen.add(u)
    for area, units in sc["setup"].items():
        for side in SIDES:
            mine = [u for u in units if (ds.leaders.get(u) or ds.units.get(u) or ("", ""))[1] == side]
            if len(mine) > 6:
                p.append(f"{w}: {len(mine)} {side} units at {area} (5.1: at most 6)")
    return p
