"""Rule cases for Gallipoli 1915: each file in cases/ plays orders on a position with scripted dice.

A case file holds:

    title, rule        what it shows, and the Game Book section RULES.md maps (e.g. "103.14")
    [before]           the position (pbem_engine.games.gallipoli_1915.position)
    [[actions]]        side = ..., order = "words as typed" (or action = {...}), in order
    dice = [...]       the die faces the actions roll, all of which must be used
    [[draws]]          the Entente's private draws, {side, pool, cards = {token = item}}, all used
    illegal = true     the last action must be refused (IllegalAction), changing nothing;
    error = "..."      ... with this in its message
    [after]            expected state values: tables are compared key by key, others exactly
    [expect]           side ("none" once over), events (substrings of event texts), result,
                       returned (the items put back into a cup), opened (tokens revealed)
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem_engine.games import gallipoli_1915
from pbem_engine.games.gallipoli_1915 import GAME
from pbem_engine.games.gallipoli_1915.position import position
from pbem_engine.protocol.core import IllegalAction, copy_state, step

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*.toml"))
RULES = (Path(gallipoli_1915.__file__).parent / "RULES.md").read_text()
RULE_NUMBERS = set(re.findall(r"\*\*(\d+\.\d+)\*\*", RULES))


def assert_matches(expected: Any, actual: Any, path: str = "state") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a table, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} is missing"
            assert_matches(value, actual[key], f"{path}.{key}")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def play(case: dict[str, Any]):
    pos = position(case.get("before", {}))
    state, dice = pos.state, pos.dice(case.get("dice", []), case.get("draws", []))
    actions = case.get("actions", [])
    events: list[str] = []
    for i, act in enumerate(actions):
        last = i == len(actions) - 1
        if case.get("illegal") and last:
            untouched = copy_state(state)
            with pytest.raises(IllegalAction) as refused:
                action = act.get("action") or GAME.parse_order(state, act["side"], act["order"])
                step(GAME, state, act["side"], action, dice)
            assert state == untouched
            assert case.get("error", "") in str(refused.value), str(refused.value)
        else:
            action = act.get("action") or GAME.parse_order(state, act["side"], act["order"])
            state, new = step(GAME, state, act["side"], action, dice)
            events += [e["text"] for e in new]
    return state, dice, events


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = tomllib.loads(path.read_text())
    assert case["rule"] in RULE_NUMBERS, f"{path.name} cites {case['rule']}, which RULES.md does not map"
    state, dice, events = play(case)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice were not rolled"
    assert dice.draws == [], f"scripted private draws not made: {dice.draws}"
    assert_matches(case.get("after", {}), state)
    expect = case.get("expect", {})
    prompt = GAME.prompt(state)
    if "side" in expect:
        assert prompt.side == (None if expect["side"] == "none" else expect["side"]), prompt.text
    for text in expect.get("events", []):
        assert any(text in e for e in events), f"no event contains {text!r}: {events}"
    for text in expect.get("no_events", []):
        assert not any(text in e for e in events), f"an event contains {text!r}: {events}"
    if "returned" in expect:
        assert dice.added == expect["returned"]
    if "opened" in expect:
        assert dice.opened == expect["opened"]
    if "result" in expect:
        result = GAME.outcome(state)
        assert result is not None and result.result == expect["result"], result
        assert prompt.side is None


def test_every_enforced_procedure_has_a_case() -> None:
    cited = {tomllib.loads(p.read_text())["rule"] for p in CASES}
    assert RULE_NUMBERS and RULE_NUMBERS <= cited, f"procedures without a case: {sorted(RULE_NUMBERS - cited)}"
