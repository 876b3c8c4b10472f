"""What the product shows of Blood on the Tigris, below the command line: the map's locations
agree with the shipped table-top pack (the same hex numbers, even columns lower), the board
carries supply states, depots, turn and weather and the units' steps, and the odds before an
attack are the CRT's own distribution for that attack."""

from __future__ import annotations

import re
from fractions import Fraction

from pbem.chain import datapack

from pbem.view import mapsvg
from pbem_engine.protocol.core import SEP
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


def test_mapsvg_draws_a_line_along_hexsides_and_whole_hex_areas():
    """mapsvg, for any hex board: a ``lines`` entry with ``sides`` is drawn along the edge two
    adjacent hexes share (each end one hex-side from both centres), one with ``through`` through
    the centres; ``areas`` tile whole hexes; each kind used gets its legend line."""
    locs = [{"id": h, "name": h, "kind": "hex", "coords": list(hexmap.col_row(h))} for h in ("0101", "0102", "0201")]
    board = {"pieces": [], "offset": "even", "lines": [{"kind": "river", "name": "a river", "sides": [["0101", "0102"]]},
                                                      {"kind": "rail", "name": "a railway", "through": ["0101", "0201"]}],
             "areas": [{"terrain": "marsh", "name": "a marsh", "at": ["0201", "9999"]}]}
    svg = mapsvg.draw(locs, board, ("a", "b"), "t")
    river = re.search(r'<path class="line" data-kind="river" d="M([\d.]+) ([\d.]+) L([\d.]+) ([\d.]+)"', svg)
    assert river and "<title>a river</title>" in svg and 'data-kind="rail"' in svg
    def centre(h):  # a hexagon's centre: the mean of its corners
        corners = re.search(rf'data-id="{h}"[^>]*><title>[^<]*</title><polygon class="hex" points="([^"]+)"', svg)[1]
        xy = [tuple(map(float, c.split(","))) for c in corners.split()]
        return sum(x for x, _ in xy) / 6, sum(y for _, y in xy) / 6

    centres = {h: centre(h) for h in ("0101", "0102")}
    ends = [(float(river[1]), float(river[2])), (float(river[3]), float(river[4]))]
    span = ((centres["0101"][0] - centres["0102"][0]) ** 2 + (centres["0101"][1] - centres["0102"][1]) ** 2) ** 0.5
    for end in ends:  # a corner of both hexes: one corner radius (span / sqrt 3) from each centre
        for c in centres.values():
            assert abs(((end[0] - c[0]) ** 2 + (end[1] - c[1]) ** 2) ** 0.5 - span / 3 ** 0.5) < 0.3
    area = re.search(r'<path class="area hex"[^>]* d="([^"]+)"', svg)
    assert svg.count('class="area hex"') == 1 and area[1].count("z") == 1  # one hexagon: 9999 is not on the map
    assert "blue line: river" in svg and "dotted black line: railway" in svg and "green tiles: marsh" in svg


def test_the_map_draws_the_rivers_along_their_hexsides_and_the_marsh_and_lake():
    state = GAME.setup("turning-point", {"turns": 14})
    board = GAME.board(state)
    names = {line["name"].split(" (")[0]: line for line in board["lines"]}
    assert {"Tigris", "Euphrates", "Karun", "Shatt al Arab", "Shatt al Hai"} <= set(names)
    for line in board["lines"]:
        assert line["sides"] and all(hexmap.adjacent(a, b) for a, b in line["sides"]), line["name"]
        assert all(hexmap.water(hexmap.hexside(a, b)) for a, b in line["sides"])  # the rules' own water hexsides
    assert names["Shatt al Hai"]["kind"] == "wadi" and names["Tigris"]["kind"] == "river"
    assert ["1207", "1308"] in names["Tigris"]["sides"]  # 18.1: the river hexside the gunboats stand on
    state["turn"] = 17  # rain: the Shatt al Hai is a river (14.0)
    assert next(x for x in GAME.board(state)["lines"] if x["name"].startswith("Shatt al Hai"))["kind"] == "river"
    tiles = {a["terrain"]: set(a["at"]) for a in board["areas"]}
    assert tiles["lake"] == {h for h in hexmap.ALL_HEXES if hexmap.terrain(h) == "lake"} and "1632" in tiles["marsh"]
    svg = mapsvg.draw(GAME.map_locations([]), board, GAME.sides, GAME.title)
    assert svg.count('data-kind="river"') == 4 and 'data-kind="wadi"' in svg and 'data-kind="seasonal"' in svg
    assert 'data-terrain="marsh"' in svg and 'data-terrain="lake"' in svg


def test_the_railroad_is_drawn_through_its_hexes():
    state = GAME.setup("campaign", {"railroad": "on"})
    state["rail"] = {"lines": {"a": ["1345", "1344", "1343"], "b": ["1345"]}, "rolled": 0, "left": 0}
    rail = [x for x in GAME.board(state)["lines"] if x["kind"] == "rail"]
    assert rail == [{"kind": "rail", "name": "railroad (20.1)", "through": ["1345", "1344", "1343"]}]
    assert 'data-kind="rail"' in mapsvg.draw(GAME.map_locations([]), GAME.board(state), GAME.sides, GAME.title)
