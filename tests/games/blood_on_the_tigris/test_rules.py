"""Rule cases of the playable module: each file in rules/ is a state before (the public position API,
pbem_engine.games.blood_on_the_tigris.position, whose docstring lists what [before] may hold), the
orders given (as a player types them, or actions), the scripted dice, and what must follow.

    [expect] at = {unit = where}, steps = {unit = n}, lost = [units], oos = [units], ooc = [units],
             supply = {side = n}, result = "...", blocked_until = n, depots = {hex = side},
             reach = {unit, has = [hexes], lacks = [hexes]}, refused = true (the order is illegal),
             prompt_side = side, air_used = [planes flown], forts = [hexes], choices_lack = ["words"],
             choices_include = ["words"], phase = "...", depots_left = n (depots on the map),
             events_include = ["words"] (each in some event of the orders given),
             rail_lines = {a = [hexes], b = [hexes]} (20.1)
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from pbem_engine.protocol.core import IllegalAction, step
from pbem_engine.games.blood_on_the_tigris import GAME, charts, movement
from pbem_engine.games.blood_on_the_tigris.position import position

CASES = sorted((Path(__file__).parent / "rules").glob("*.toml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case(path: Path) -> None:
    case = tomllib.loads(path.read_text())
    pos = position(case["before"])  # settle = true in [before] runs the phases no one decides
    state, dice = pos.state, pos.dice(case.get("dice", []))
    expect = case["expect"]
    said: list[str] = []
    for act in case.get("actions", []):
        side = act.get("side") or GAME.prompt(state).side
        action = act.get("action") or GAME.parse_order(state, side, act["order"])
        if expect.get("refused"):
            with pytest.raises(IllegalAction):
                step(GAME, state, side, action, dice)
            return
        state, events = step(GAME, state, side, action, dice)
        said.extend(e["text"] for e in events)
    assert dice.remaining == 0, "every scripted die must be used"
    for words in expect.get("events_include", []):
        assert any(words in t for t in said), (words, said)
    if "rail_lines" in expect:  # 20.1: each railhead's line of hexes from Basra
        assert state["rail"]["lines"] == expect["rail_lines"], state.get("rail")
    if "depots_left" in expect:
        assert len(state["depots"]) == expect["depots_left"], state["depots"]
    for uid, where in expect.get("at", {}).items():
        assert state["units"][uid]["at"] == where, uid
    for uid, n in expect.get("steps", {}).items():
        assert state["units"][uid]["steps"] == n, uid
    for uid in expect.get("lost", []):
        assert uid in state["lost"] and uid not in state["units"], uid
    for key in ("oos", "ooc"):
        for uid in expect.get(key, []):
            assert state["units"][uid][key], (key, uid)
    for side, n in expect.get("supply", {}).items():
        assert state["supply"][side] == n, side
    if "result" in expect:
        assert state["result"]["result"] == expect["result"]
    if "blocked_until" in expect:
        assert state["blocked"]["until"] == expect["blocked_until"]
    for h, side in expect.get("depots", {}).items():
        assert [d["side"] for d in state["depots"].values() if d["hex"] == h] == [side], h
    if "reach" in expect:
        r = expect["reach"]
        got = movement.reach(charts.PROVISIONAL, state, r["unit"])
        assert set(r.get("has", [])) <= set(got), sorted(got)
        assert not set(r.get("lacks", [])) & set(got)
        for h, (_, path) in got.items():  # ZOC hexes only ever end a path
            assert not set(r.get("ends_only", [])) & set(path[1:-1]), path
    if "prompt_side" in expect:
        assert GAME.prompt(state).side == expect["prompt_side"]
    for words in expect.get("choices_include", []):
        assert any(words in c.label for c in GAME.prompt(state).choices), [c.label for c in GAME.prompt(state).choices]
    if "forts" in expect:
        assert sorted(state["forts"]) == sorted(expect["forts"])
    for words in expect.get("choices_lack", []):
        assert not any(words in c.label for c in GAME.prompt(state).choices), words
    if "air_used" in expect:
        assert sorted(state["air_used"]) == sorted(expect["air_used"])
    if "phase" in expect:
        assert state["phase"] == expect["phase"]
