"""Rule cases for Hill 60: each file in cases/ plays actions with scripted dice.

A case file holds:

    title, rule        what it shows, and the RULES.md section (e.g. "5.3")
    [before]           the position (pbem_engine.games.hill60.position): merged over
                       setup("standard", {}); tables merge, other values replace
    [[actions]]        side = ..., action = {...}, applied in order through pbem_engine.protocol.core.step
    dice = [...]       the face values the actions roll, all of which must be used
    illegal = true     the last action must be refused (IllegalAction), changing nothing;
    error = "..."      ... with this in its message
    [after]            expected state values: tables are compared key by key, others exactly
    null = [...]       state fields that must be null (TOML has no null)
    [expect]           side ("none" once the game is over), choices (all labels, in order),
                       has_choices / lacks_choices, events (substrings of event texts), result
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem_engine.protocol.core import IllegalAction, copy_state, step
from pbem_engine.games import hill60
from pbem_engine.games.hill60 import GAME
from pbem_engine.games.hill60.position import position

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*.toml"))
RULES = (Path(hill60.__file__).parent / "RULES.md").read_text()
RULE_NUMBERS = set(re.findall(r"\*\*(\d+\.\d+)", RULES))
SECTIONS = set(re.findall(r"^## (\d+)\.", RULES, re.MULTILINE))


def assert_matches(expected: Any, actual: Any, path: str = "state") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a table, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} is missing"
            assert_matches(value, actual[key], f"{path}.{key}")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def load(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text())


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = load(path)
    assert case["rule"] in RULE_NUMBERS, f"{path.name} cites rule {case['rule']}, which RULES.md does not have"
    pos = position(case.get("before", {}))
    state, dice = pos.state, pos.dice(case.get("dice", []))
    actions = case.get("actions", [])
    events: list[str] = []
    for i, act in enumerate(actions):
        if case.get("illegal") and i == len(actions) - 1:
            untouched = copy_state(state)
            with pytest.raises(IllegalAction) as refused:
                step(GAME, state, act["side"], act["action"], dice)
            assert state == untouched
            assert case.get("error", "") in str(refused.value)
        else:
            state, new = step(GAME, state, act["side"], act["action"], dice)
            events += [e["text"] for e in new]
    assert dice.remaining == 0, f"{dice.remaining} scripted dice were not rolled"

    assert_matches(case.get("after", {}), state)
    for key in case.get("null", []):
        assert state[key] is None, f"state.{key}: expected null, got {state[key]!r}"
    expect = case.get("expect", {})
    prompt = GAME.prompt(state)
    labels = [c.label for c in prompt.choices]
    if "side" in expect:
        assert prompt.side == (None if expect["side"] == "none" else expect["side"]), prompt.text
    if "choices" in expect:
        assert labels == expect["choices"]
    for label in expect.get("has_choices", []):
        assert label in labels
    for label in expect.get("lacks_choices", []):
        assert label not in labels
    for text in expect.get("events", []):
        assert any(text in e for e in events), f"no event contains {text!r}: {events}"
    if "result" in expect:
        result = GAME.outcome(state)
        assert result is not None and result.result == expect["result"]
        assert prompt.side is None and prompt.choices == ()


def test_every_section_has_a_case() -> None:
    covered = {load(p)["rule"].split(".")[0] for p in CASES}
    assert SECTIONS and SECTIONS <= covered, f"sections without a case: {sorted(SECTIONS - covered)}"
