"""The provisional map and counters (map_data.py, counters_data.py): the geometry agrees with every
adjacency the rules text attests, rivers are unbroken lines of hexsides, the places the rules
put on a river touch it, and the counters agree with the pack and the order of battle."""

from __future__ import annotations

import tomllib
from collections import deque
from pathlib import Path

import pytest
from pbem_engine.games.blood_on_the_tigris import counters, hexmap

PACK = Path(__file__).parents[3] / "packs" / "blood-on-the-tigris" / "pack.toml"


@pytest.mark.parametrize("a,b", [("1345", "1445"), ("1344", "1444"), ("1207", "1308")])
def test_the_adjacencies_the_text_attests(a, b):  # 16.1, 16.24, 18.1
    assert hexmap.adjacent(a, b) and hexmap.adjacent(b, a)
    assert hexmap.distance(a, b) == 1


def test_distance_is_the_shortest_count_of_steps():
    for src in ("1518", "0101", "1345", "3054"):
        seen = {src: 0}
        queue = deque([src])
        while queue:
            h = queue.popleft()
            for n in hexmap.neighbours(h):
                if n not in seen:
                    seen[n] = seen[h] + 1
                    queue.append(n)
        assert len(seen) == len(hexmap.ALL_HEXES)
        assert all(hexmap.distance(src, h) == d for h, d in seen.items())


def test_rivers_are_unbroken_lines_of_hexsides():
    for name, line in hexmap.LINES.items():
        assert len(line) >= 2, name
        for s, t in zip(line, line[1:]):
            assert t in hexmap.boat_links(s, rain=True), f"{name}: {s} does not meet {t}"
            a, b = hexmap.side_hexes(s)
            assert hexmap.adjacent(a, b)


@pytest.mark.parametrize("place", ["basra", "kut", "ali-garbi", "aziziya", "mohammerah", "fao", "qurna", "amara",
                                   "nasirya", "ahwaz", "ctesiphon", "baghdad-1", "baghdad-3"])
def test_river_places_are_on_the_water(place):
    assert hexmap.sides_of(hexmap.PLACE_HEX[place]), place


def test_the_channel_and_the_scenario_2_hexside_are_river():
    assert hexmap.water("1344|1444") == "river"  # 16.24
    assert hexmap.water("1345|1445") == "river"  # 16.1: the steamers start beside Basra
    assert hexmap.water("1207|1308") == "river"  # 18.1
    assert hexmap.crossing("1223", "1323", rain=False) == "wadi"  # 2.2 errata: Shatt al Hai near 1223
    assert hexmap.crossing("1223", "1323", rain=True) == "river"  # 14.0


def test_places_terrain_and_baghdad():
    assert hexmap.terrain("1345") == "city" and hexmap.terrain("1518") == "town"
    assert len(hexmap.BAGHDAD) == 4 and all(hexmap.terrain(h) == "city" for h in hexmap.BAGHDAD)  # 17.0
    assert "2324" in hexmap.AERODROMES  # 2.2
    assert all(hexmap.on_map(p["hex"]) for p in hexmap.PLACES.values())
    assert hexmap.terrain("2035") == "marsh"


def test_counters_agree_with_the_pack_and_the_rules():
    pack = tomllib.loads(PACK.read_text())
    ids = {p["id"] for p in pack["piece"]}
    for uid, u in counters.UNITS.items():
        if uid.startswith(counters.CAPTURED):  # 15.5: the captor's twin of a steamer
            assert counters.captured_twin(uid) in counters.UNITS and u["side"] != counters.UNITS[counters.captured_twin(uid)]["side"]
            continue
        if u.get("not_in_oob"):  # 18.1 and 19.0 name units 21.0 (and so the pack) lacks
            assert u["off_map"] and u["not_in_oob"] in ("18.1", "19.0"), uid
            continue
        base = uid.rsplit("-", 1)[0] if uid not in ids else uid
        assert uid in ids or base in ids, uid
        assert ("setup" in u) + ("turn" in u) + u.get("off_map", False) == 1, uid
        if "setup" in u:
            where = u["setup"].split("|")
            assert all(hexmap.on_map(h) for h in where), uid
        elif "turn" in u:
            assert u["enters"] in hexmap.PLACES or u["enters"] == "baghdad", uid
        assert u["kind"] in ("combat", "support", "hq", "gunboat", "steamer", "air")
    assert counters.UNITS["br-odin-espiegle"]["steps"] == 2  # 15.6: two ships a counter
    assert counters.UNITS["br-steamer-1"]["carry"] == 3 and counters.UNITS["br-steamer-1"]["ma"] == 30  # 15.2-15.3
    assert counters.UNITS["br-short-1"]["air"] == [1, 2]  # 2.1
    assert counters.stack_size("tk-14-cav-bn") * 3 == counters.stack_size("tk-3-14")  # 6.0
    assert counters.parent_hq("br-16-6") == "br-6-div-hq"
    assert sum(counters.SUPPLY["british"].values()) == 30 and sum(counters.SUPPLY["turkish"].values()) == 23
