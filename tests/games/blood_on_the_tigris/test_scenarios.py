"""Scenarios 2 (18.0, The Turning Point) and 3 (19.0, Operation Lightning): set-ups, special
rules, victory, the ``fit`` option, and random and bot games of each."""

from __future__ import annotations

import pytest
from pbem_engine.protocol.core import RulesError, step
from pbem_engine.chance.dice import Dice, ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME, board, hexmap, naval, rules, scenarios, sequence

from .test_random_play import MAX_ACTIONS, invariants, play


def test_turning_point_set_up_from_18_1():
    s = GAME.setup("turning-point", {})
    at = {u: v["at"] for u, v in s["units"].items()}
    assert at["tk-german-vol-rgt"] == "1303" and at["tk-13-corps-hq"] == at["tk-german-arty-bn"] == "1304"
    assert {at["tk-1-38"], at["tk-2-38"], at["tk-3-38"]} == {"1308", "1407", "1307"}
    assert {at["tk-1-45"], at["tk-2-45"], at["tk-3-45"]} == {"1406", "1506", "1407"}
    assert all(hexmap.distance(at[u], "1206") <= 1 for u in ("tk-1-35", "tk-2-35", "tk-3-35", "tk-35-div-hq"))
    assert all(hexmap.distance(at[u], "1306") <= 1 for u in ("tk-7-51", "tk-9-51", "tk-44-51", "tk-51-cav-bn"))
    assert at["tk-6-army-hq"] in hexmap.BAGHDAD
    assert at["br-18-6"] == "1508" and {at["br-16-6"], at["br-17-6"]} == {"1408", "1508"}
    assert at["br-6-cav-bde"] == "1507" and at["br-6-div-hq"] == "1410" and at["br-ii-corps-hq"] == "1715"
    assert at["br-mef-hq"] == "2324" and at["br-30-12"] == "1518"
    assert sorted(u for u, w in at.items() if w == "1207|1308") == ["br-comet-pelly", "br-lewis-sumana", "br-mashona-shaitan"]
    assert sum(1 for u, w in at.items() if w == "air" and u.startswith("br-")) == 6  # A (4) and B (2) flights
    assert sum(1 for u, w in at.items() if w == "air" and u.startswith("tk-")) == 2  # two Albatross
    depots = sorted((d["side"], d["mode"]) for d in s["depots"].values())
    assert depots == [("british", "static")] + [("turkish", "static")] * 3
    assert (s["turn"], s["last"], s["phase"], s["active"]) == (13, 18, "combat", "british")  # 18.0
    assert s["control"]["1345"] == "british" and s["control"]["1305"] == "turkish"


def test_turning_point_has_no_schedule_and_no_campaign_special_rules():
    s = GAME.setup("turning-point", {})
    s["phase"], s["active"], s["pending"] = "survival", "turkish", []
    events: list = []
    sequence.begin_turn(s, events)  # turn 14: the campaign brings 3+3 supply points and divisions
    assert s["supply"] == {"british": 0, "turkish": 0}
    before = set(s["units"])
    sequence.reinforce(s, "british", events)
    sequence.reinforce(s, "turkish", events)
    assert set(s["units"]) == before
    assert sequence.garrison_hexes(s) == []  # 16.21 is Scenario 1's
    s["turn"] = 15
    events = []
    sequence.begin_turn(s, events)  # 16.3 would withdraw the 35th and 38th
    assert "tk-1-35" in s["units"] and "tk-1-38" in s["units"]


def test_turning_point_gunboats_not_past_1207():
    s = GAME.setup("turning-point", {})
    reach = naval.route(s, "1207|1308")
    upstream = set(hexmap.LINES["tigris"][: hexmap.LINES["tigris"].index("1207|1308")])
    assert reach and not upstream & set(reach)
    c = GAME.setup("campaign", {})
    assert upstream & set(naval.route(c, "1207|1308"))


def _end(state):
    sequence.final(state, [])
    return state["result"]


def test_turning_point_victory_levels():
    s = GAME.setup("turning-point", {})
    assert _end(s)["result"] == "British victory"  # Kut held by the 30/12 with a line to Basra
    s = GAME.setup("turning-point", {})
    ring = ("tk-1-45", "tk-2-45", "tk-3-45", "tk-7-51", "tk-9-51", "tk-44-51")
    for u, h in zip(ring, hexmap.neighbours("1518"), strict=True):  # Kut surrounded: no line to Basra
        s["units"][u]["at"] = h
    assert _end(s)["result"] == "draw"
    s = GAME.setup("turning-point", {})
    for u in ("br-16-6", "br-17-6", "br-18-6"):
        del s["units"][u]
        s["lost"].append(u)
    del s["units"]["br-30-12"]
    s["lost"].append("br-30-12")
    s["units"]["tk-1-45"]["at"] = "1518"
    assert _end(s)["result"] == "Turkish major victory"
    s = GAME.setup("turning-point", {})
    del s["units"]["br-16-6"]
    s["lost"].append("br-16-6")
    del s["units"]["br-30-12"]  # Kut empty: no British win
    s["lost"].append("br-30-12")
    assert _end(s)["result"] == "draw"  # one brigade lost, but the 6th is not surrounded
    for u in ("br-17-6", "br-18-6", "br-6-div-hq"):
        s["units"][u]["at"] = "1205"  # beside Ctesiphon, every hex around held by the Turks: no line to Basra
    for u, h in (("tk-1-45", "1105"), ("tk-2-45", "1106"), ("tk-3-45", "1204"), ("tk-44-51", "1305")):
        s["units"][u]["at"] = h
    s["result"], s["phase"] = None, "combat"
    assert _end(s)["result"] == "Turkish minor victory"


def test_turning_point_starts_with_the_british_combat_phase():
    s = GAME.setup("turning-point", {})
    p = GAME.prompt(s)
    assert p.side == "british" and "combat" in p.text
    s, _ = step(GAME, s, "british", {"do": "end"}, ScriptedDice([]))
    assert (s["phase"], s["active"], s["turn"]) == ("move", "turkish", 13)


def test_fit_option_and_its_checks():
    assert GAME.setup("lightning", {})["last"] == 30  # 2.2 errata: turn 30 for Scenario 3
    assert GAME.setup("lightning", {"fit": "add-on"})["last"] == 29
    assert GAME.setup("campaign", {})["last"] == 29
    for scenario, options in (("campaign", {"fit": "extended"}), ("lightning", {"fit": "later"}),
                              ("campaign", {"turns": 30}), ("turning-point", {"turns": 19}),
                              ("campaign", {"losses": "random"})):
        with pytest.raises(RulesError):
            GAME.setup(scenario, options)


def _turkish_move(state):
    state["phase"], state["active"] = "combat", "british"
    rules._end_combat(state, ScriptedDice([]), [])


def test_lightning_arrives_once_the_british_are_within_15_hexes_of_ctesiphon():
    s = GAME.setup("lightning", {})
    s["turn"] = 20
    s["units"]["br-16-6"] = sequence.fresh("br-16-6", "1520")
    assert hexmap.distance("1520", "1305") > scenarios.LIGHTNING_RANGE
    _turkish_move(s)
    assert not any(u in s["units"] for u in scenarios.lightning_units())
    s["units"]["br-16-6"]["at"] = "1518"
    assert hexmap.distance("1518", "1305") <= scenarios.LIGHTNING_RANGE
    depots = len(s["depots"])
    _turkish_move(s)
    assert all(u in s["units"] for u in scenarios.lightning_units())
    assert len(s["depots"]) == depots + 2 and s["lightning"] == 20
    ground = [u for u in scenarios.lightning_units() if board.is_ground(u)]
    assert all(s["units"][u]["at"] in hexmap.BAGHDAD for u in ground)
    assert s["units"]["tk-albatross-lightning"]["at"] == "air"
    del s["units"]["tk-1-3-cav"]
    s["lost"].append("tk-1-3-cav")
    _turkish_move(s)  # once only
    assert "tk-1-3-cav" not in s["units"]
    c = GAME.setup("campaign", {})
    c["turn"] = 20
    c["units"]["br-16-6"] = sequence.fresh("br-16-6", "1518")
    _turkish_move(c)
    assert not any(u in c["units"] for u in scenarios.lightning_units())  # Scenario 1: never


@pytest.mark.parametrize("scenario", ["turning-point", "lightning"])
def test_random_games_of_each_scenario(scenario):
    for seed in (1, 2):
        state = play(seed, 6 if scenario == "lightning" else 18, scenario)
        assert GAME.outcome(state) is not None


@pytest.mark.parametrize("scenario", ["turning-point", "lightning"])
def test_bots_play_each_scenario(scenario):
    state = GAME.setup(scenario, {"turns": 16 if scenario == "turning-point" else 3})
    dice = Dice(b"bot-scenario".ljust(32, b"."))
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            break
        prompt = GAME.prompt(state)
        action = GAME.parse_order(state, prompt.side, GAME.player(state, prompt.side, prompt, {}))
        state, _ = step(GAME, state, prompt.side, action, dice)
        invariants(state)
    assert GAME.outcome(state) is not None
