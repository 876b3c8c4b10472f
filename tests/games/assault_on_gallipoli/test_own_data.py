"""A player's own data (issue 15 point 2): the map, counters, Scenario Booklets and fire modifiers
he owns replace ours (option ``data``; ``pbem new --pack DIR``).

The biting test: a map and counters with every id the rules do not name renamed play the same
game, move for move, as ours: any rule still reading our tables instead of the game's would
crash or part ways.  Values a player changes are the ones the rules use; hostile data is refused
with every problem listed; a game without the option is as before (golden test)."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from pbem_engine.protocol.core import RulesError, step
from pbem_engine.chance.dice import Dice
from pbem_engine.games.assault_on_gallipoli import GAME, data, dataset

KEEP = {"anzac-cove", "mal-tepe", "north-beach", "koja-dere",  # named by the rules (1.3, 12.4, 22)
        "hms-manica", "kemal", "aus-10", "weir", "avni", "mccay", "maclagan", "hamilton", "von-sanders",
        *data.ALTERNATES.values(), *(r for rs in data.REMNANTS.values() for r in rs)}


def renamed(template: dict[str, Any]) -> dict[str, Any]:
    """Every area, unit, Leader and counter type id not named by the rules gets '-0' appended
    (which keeps their sorted order), everywhere it appears."""
    ids = (set(template["map"]["areas"]) | set(template["counters"]["units"]) | set(template["counters"]["leaders"])
           | set(template["counters"]["types"])) - KEEP - set(dataset.KINDS)
    def rename(value: Any) -> Any:
        text = json.dumps(value)
        return json.loads(re.sub(r'"([a-z0-9-]+)"', lambda m: f'"{m.group(1)}-0"' if m.group(1) in ids else m.group(0),
                                 text))

    out = {part: rename(value) for part, value in template.items() if part != "scenarios"}
    return {**out, "scenarios": {name: rename(sc) for name, sc in template["scenarios"].items()}}


def unrenamed(state: dict[str, Any]) -> str:
    plain = {k: v for k, v in state.items() if k not in ("options", "data_id")}
    return re.sub(r'"([a-z0-9-]+)-0"', r'"\1"', json.dumps(plain, sort_keys=True))


def play(scenario: str, seed: int, options: dict[str, Any], actions: int = 700) -> tuple[dict[str, Any], list[str]]:
    """The game by choices picked by their label (labels name areas and units by name, not id)."""
    state = GAME.setup(scenario, options)
    dice, rng, picked = Dice(seed.to_bytes(8, "big") * 4), random.Random(seed), []
    for _ in range(actions):
        if GAME.outcome(state) is not None:
            break
        prompt = GAME.prompt(state)
        choice = sorted(prompt.choices, key=lambda c: c.label)[rng.randrange(len(prompt.choices))]
        picked.append(choice.label)
        state, _ = step(GAME, state, prompt.side, choice.action, dice)
    return state, picked


def test_our_tables_written_as_a_template_read_back_as_ours():
    ours, back = dataset.PROVISIONAL, dataset.load(dataset.template())
    assert back.edge_dist() == ours.edge_dist() and back.edge_dist(("lone-pine",)) == ours.edge_dist(("lone-pine",))
    for table in ("areas", "adj", "dist", "landing", "types", "units", "leaders", "fire", "scenarios"):
        assert getattr(back, table) == getattr(ours, table), table
    assert back.supplied == {p: "the player's" for p in dataset.PARTS} and ours.supplied == {}


@pytest.mark.parametrize("scenario,seed", [("anzac-landing", 1), ("lone-pine", 2), ("august-offensive", 3)])
def test_a_renamed_map_and_counters_play_the_same_game_as_ours(seed, scenario):
    own = renamed(dataset.template())
    assert "baby-700-0" in own["map"]["areas"] and "tur-1-57-0" in own["counters"]["units"]
    ours, ours_picked = play(scenario, seed, {})
    theirs, their_picked = play(scenario, seed, {"data": own})
    assert their_picked == ours_picked
    assert unrenamed(theirs) == unrenamed(ours)
    assert "data_id" in theirs and "data_id" not in ours  # a game without data keeps its state as before


def test_the_values_a_player_gives_are_the_ones_the_rules_use():
    own = {"counters": {"leaders": {"kemal": {"name": "Lt Col Mustafa Kemal", "side": "turkish", "firepower": 4,
                                              "movement": 3, "rank": 2}},
                        "types": {"tur-inf": {"kind": "inf", "firepower": [3, 2], "range": 2, "strength": [3, 2],
                                              "mf": 4}}},
            "fire": {"base": 5, "deep_trench": -3}}
    sc = copy.deepcopy(dataset.template()["scenarios"]["lone-pine"])
    sc["turns"], sc["killing_time"] = 2, 7
    sc["setup"]["pine-ridge"] = ["tur-3-125", "kemal"]
    own["scenarios"] = {"lone-pine": sc}
    state = GAME.setup("lone-pine", {"data": own})
    assert state["turns"] == 2 and state["units"]["kemal"]["at"] == "pine-ridge"
    text = "\n".join(GAME.describe(state))
    assert "Lt Col Mustafa Kemal" in text and "data: counters, scenarios, fire the player's own; map ours" in text
    pieces = {p["label"] for p in GAME.board(state)["pieces"]}
    assert any(p.startswith("1/47th Rgt (fresh): Firepower 3,") for p in pieces), pieces
    assert any(p.startswith("Lt Col Mustafa Kemal (fresh): Leader, +4 Firepower, +3 movement") for p in pieces)
    ours = GAME.setup("lone-pine", {})
    assert ours["turns"] == 4 and "kemal" not in ours["units"]
    assert not any("Mustafa" in line or line.startswith("data:") for line in GAME.describe(ours))


def test_the_fire_modifiers_a_player_gives_set_the_number_to_hit():
    from pbem_engine.games.assault_on_gallipoli import fire

    state = GAME.setup("lone-pine", {"data": {"fire": {"deep_trench": -3, "woods": -2}}})
    with dataset.using(state):  # from The 400 Plateau into Lone Pine's deep trench, and into Pine Ridge's woods
        assert fire.modifiers(state, "anzac", "the-400-plateau", "lone-pine") == [("deep trench", -3)]
        assert fire.modifiers(state, "anzac", "the-400-plateau", "pine-ridge") == [("woods", -2)]
    with dataset.using({}):
        assert fire.modifiers(state, "anzac", "the-400-plateau", "lone-pine") == [("deep trench", -2)]
        assert fire.modifiers(state, "anzac", "the-400-plateau", "pine-ridge") == [("woods", -1)]


def test_hostile_data_is_refused_with_every_problem_at_once():
    bad = dataset.template()
    del bad["map"]["areas"]["mal-tepe"]  # named by 1.3
    bad["map"]["edges"].append(["anzac-cove", "atlantis"])
    bad["map"]["landing"] = [[5, "anzac-cove"], [4, "north-beach"]]
    bad["counters"]["types"]["aus-inf"]["firepower"] = [3]
    bad["counters"]["units"]["aus-1"]["side"] = "french"
    bad["fire"]["morale"] = 2
    bad["scenarios"]["lone-pine"]["killing_time"] = 9
    bad["extra"] = {}
    problems = dataset.check(bad)
    for expected in ("unknown part 'extra'", "map.edges[", "no area 'atlantis'", "map.landing[1]",
                     "counters.types.aus-inf: firepower and strength", "counters.units.aus-1.side",
                     "fire.morale: not a modifier the rules know", "scenarios.lone-pine.killing_time: 7 or 8"):
        assert any(expected in p for p in problems), (expected, problems)
    with pytest.raises(RulesError, match="problem"):
        GAME.setup("anzac-landing", {"data": bad})
    # a map without the area the rules name, with everything else right
    bad = dataset.template()
    bad["map"]["areas"]["mal-tepe-2"] = bad["map"]["areas"].pop("mal-tepe")
    bad["map"]["edges"] = [[a.replace("mal-tepe", "mal-tepe-2") if a == "mal-tepe" else a for a in e]
                           for e in bad["map"]["edges"]]
    problems = dataset.check({"map": bad["map"]})
    assert any("the rules name the area mal-tepe" in p for p in problems), problems


@pytest.mark.parametrize("hostile", [
    [], "map", {"map": []}, {"map": {"areas": {}, "edges": [], "landing": []}},
    {"counters": {"units": {f"u{i}": {"name": "x", "side": "anzac", "type": "aus-inf"} for i in range(5000)}}},
    {"scenarios": {"lone-pine": {"setup": {}}}}, {"scenarios": {"atlantis": {}}},
    {"map": {"areas": {"Bad Id": {"name": "x", "elevation": 0, "woods": False, "tags": []}}, "edges": [[1, 2]],
             "landing": [[10, "x"]]}},
    {"fire": {"base": True}}, {"counters": {"leaders": {"kemal": {"name": "x" * 500, "side": "turkish",
                                                                  "firepower": 2, "movement": 2, "rank": 9}}}},
])
def test_malformed_data_is_refused_never_crashes(hostile):
    problems = dataset.check(hostile)
    assert problems and all(isinstance(p, str) and len(p) < 400 for p in problems)
