"""What the product shows of Blood on the Tigris, below the command line: the map's locations
agree with the shipped table-top pack (the same hex numbers, even columns lower), the board
carries supply states, depots, turn and weather and the units' steps, and the odds before an
attack are the CRT's own distribution for that attack."""

from __future__ import annotations

import re
from fractions import Fraction

from pbem import datapack, mapsvg
from pbem_engine.core import SEP
from pbem_engine.games.blood_on_the_tigris import GAME, charts, combat, fight, hexmap, view


def pack():
    return datapack.load(datapack.shipped()["blood-on-the-tigris"])


def test_the_pack_numbers_the_hexes_as_the_rules_module_does_even_columns_lower():
    p = pack()
    assert p["pack"]["offset"] == "even" and not datapack.check(p)
    by_name = {place["name"].lower(): place["hex"] for place in hexmap.PLACES.values()}
    placed = [loc for loc in p["location"] if isinstance(loc.get("coords"), list)]
    assert placed
    for loc in placed:
        c, r = loc["coords"]
        h = hexmap.hex_id(c, r)
        assert hexmap.on_map(h), loc["id"]
        name = loc["name"].split(" (")[0].lower()
        if name in by_name:  # a place both name: at the same hex
            assert by_name[name] == h, (loc["id"], h, by_name[name])
    # the three adjacencies the text attests hold on the rules' grid, as the pack's offset says
    for a, b in (("1345", "1445"), ("1344", "1444"), ("1207", "1308")):
        assert hexmap.adjacent(a, b)


def test_the_drawn_grid_puts_neighbours_one_apart_only_with_the_even_offset():
    """On the SVG's grid, every pair of hexes the rules call adjacent is exactly one hex apart with
    offset "even"; with the default (odd columns lower) some are not."""
    locs = [loc for loc in GAME.map_locations(pack()["location"]) if loc.get("coords")]
    for offset, ok in (("even", True), ("odd", False)):
        points = mapsvg._points(locs, None, offset)
        far = [(a, b) for a in ("1207", "1345", "1344", "0830", "2643") for b in hexmap.neighbours(a)
               if abs(((points[a][0] - points[b][0]) ** 2 + (points[a][1] - points[b][1]) ** 2) - 1) > 1e-3]
        assert (not far) == ok, (offset, far)


def test_a_bad_offset_in_a_pack_is_a_problem():
    p = pack()
    p["pack"]["offset"] = "sideways"
    assert any("offset 'sideways'" in str(problem) for problem in datapack.check(p))


def test_the_board_shows_steps_supply_depots_turn_and_weather():
    state = GAME.setup("turning-point", {"turns": 14})
    some = min(u for u in state["units"] if state["units"][u]["at"] in hexmap.ALL_HEXES_SET)
    state["units"][some]["oos"] = True
    state["units"][some]["steps"] = 1
    board = GAME.board(state)
    piece = next(p for p in board["pieces"] if p["label"].startswith(view.counters.name(some)))
    assert piece["status"] == ["OOS"] and piece["badge"] == "1" and "OUT OF SUPPLY" in piece["label"]
    assert len(board["markers"]) == len(state["depots"]) and all(m["badge"] in "MS" for m in board["markers"])
    tracks = dict(board["tracks"])
    assert tracks["Turn"] == "13 of 14 (Nov 1915)" and tracks["Weather"] == "dry" and board["offset"] == "even"
    state["turn"] = 17  # March 1916: rain (14.0)
    assert dict(GAME.board(state)["tracks"])["Weather"].startswith("rain")
    svg = mapsvg.draw(GAME.map_locations([]), GAME.board(state), GAME.sides, GAME.title)
    assert svg.count('class="marker"') == len(state["depots"]) and 'data-status="OOS"' in svg
    assert "orange bar: OOS" in svg and "diamond: depot" in svg
    assert svg.count('<g class="loc"') < 120  # plain hexes only where something stands


def test_the_odds_shown_are_the_crts_distribution_for_that_very_attack():
    state = GAME.setup("turning-point", {"turns": 14})
    prompt = GAME.prompt(state)
    shown = GAME.playable(state, prompt, {})
    assert [c.action for c in shown.choices] == [c.action for c in prompt.choices]  # display only
    for c in shown.choices:
        if c.action.get("do") != "attack":
            assert SEP not in c.label
            continue
        f = fight.declare(state, "british", c.action)
        attack = fight.build(state, charts.PROVISIONAL, f, c.action["depot"], False, list(f["planes"]))
        setup = combat.prepare(charts.PROVISIONAL, attack)
        dist = combat.outcome_distribution(charts.PROVISIONAL, attack)
        first = c.label.split(SEP, 1)[1].split("; if the defender")[0]
        assert first.startswith(f"{setup.attack} against {setup.defence}, column {setup.column_label}, DRM {setup.drm:+d}: ")
        listed = dict(re.findall(r"(\S+) (\d+)%", first.split(": ", 1)[1]))
        assert listed.keys() == dist.keys()
        assert all(abs(Fraction(int(v), 100) - dist[k]) < Fraction(1, 100) for k, v in listed.items())
