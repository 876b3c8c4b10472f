"""Rule cases for the Gallipoli block game: each file in cases/ is one rule situation, played
with scripted dice and a table of hidden items: the public position API
(pbem_engine.games.gallipoli_blocks.position, whose docstring lists what [before] may hold).

A case file holds:

    title, rule        what it shows, and the rule number of the rules text (sections 6-10)
    [before]           the starting state, described compactly (see position.position)
    draws, seals       the private draws the actions make, and the tokens new seals get
    [[actions]]        side = ..., action = {...}, applied in order through pbem_engine.protocol.core.step
                       (which refuses an action a non-free prompt does not list; a free prompt's
                       action goes to the rules module, which checks it itself); raw = true
                       applies it with GAME.apply, skipping the prompt's list
    dice = [...]       the die faces the actions roll, all of which must be used
    illegal = true     the last action must be refused (IllegalAction), changing nothing;
    error = "..."      ... with this in its message (both may sit in the last [[actions]] table)
    [after]            expected state values: tables are compared key by key, others exactly
    [expect]           blocks = {T1 = "krithia" | "gone" | {at=..., steps=..., concealed=true}}; top = {...} (the top
                       frame, key by key); frames = [...] (the top frames, bottom first); events /
                       no_events (substrings of event texts); rolls (["6d6>=4 -> 3"]); added (what
                       was shuffled back into private pools); side (who decides now, "none");
                       has_choices / lacks_choices (labels); result (the outcome's result)
    known_failure = "..."   the case shows an engine behaviour still contradicting the rules: it is
                            run all the same and must fail (strict xfail), so a fix that makes it
                            pass shows up as XPASS, and the mark is removed
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem_engine.protocol.core import IllegalAction, copy_state, step
from pbem_engine.games.gallipoli_blocks import GAME
from pbem_engine.games.gallipoli_blocks.position import position
from pbem_engine.protocol.position import CaseDice

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*.toml"))
# the rule numbers of the rules text's sections 6-10
RULES = {"6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "7.1", "7.1.1", "7.1.2", "7.1.3", "7.1.4", "8.1", "8.1.1",
         "8.1.2", "8.2", "8.2.1", "9.1", "10.1", "10.2", "10.3"}


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


def play(case: dict[str, Any]) -> tuple[dict[str, Any], list[str], CaseDice]:
    pos = position(case.get("before", {}))
    state = pos.state
    dice = pos.dice(case.get("dice", []), case.get("draws", []), case.get("seals", []))
    actions = case.get("actions", [])
    events: list[str] = []
    for i, act in enumerate(actions):
        def run(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict]]:
            if act.get("raw"):
                return GAME.apply(copy_state(state), act["side"], act["action"], dice)
            return step(GAME, state, act["side"], act["action"], dice)

        if act.get("illegal") or (case.get("illegal") and i == len(actions) - 1):
            assert i == len(actions) - 1, "only the last action may be refused"
            untouched = copy_state(state)
            with pytest.raises(IllegalAction) as refused:
                run(state)
            assert state == untouched
            error = act.get("error", case.get("error", ""))
            assert error in str(refused.value), str(refused.value)
        else:
            state, new = run(state)
            events += [e["text"] for e in new]
    return state, events, dice


def where(state: dict[str, Any], tok: str) -> dict[str, Any] | None:
    return state["blocks"].get(tok)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path, request: pytest.FixtureRequest) -> None:
    case = load(path)
    assert case["rule"] in RULES, f"{path.name} cites rule {case['rule']}, which the rules text does not have"
    assert path.stem.startswith(case["rule"] + "-"), f"{path.name} should be named {case['rule']}-<name>.toml"
    if case.get("known_failure"):  # run it all the same: it must fail, and an unexpected pass fails the suite
        request.applymarker(pytest.mark.xfail(reason=case["known_failure"], strict=True))
    state, events, dice = play(case)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice were not rolled"
    assert not dice.draws, f"scripted private draws not made: {dice.draws}"

    assert_matches(case.get("after", {}), state)
    expect = case.get("expect", {})
    for tok, want in expect.get("blocks", {}).items():
        rec = state["blocks"].get(tok)
        if want == "gone":
            assert rec is None and tok in state["gone"], f"{tok} should be eliminated, is {rec!r}"
            continue
        assert rec is not None, f"{tok} should be on the board, is eliminated"
        want = {"at": want} if isinstance(want, str) else dict(want)
        if "concealed" in want:
            assert (rec["id"] is None) == want.pop("concealed"), f"{tok}: id {rec['id']!r}"
        assert_matches(want, rec, f"blocks.{tok}")
    if "top" in expect:
        assert_matches(expect["top"], state["frames"][-1], "top frame")
    if "frames" in expect:
        tops = state["frames"][-len(expect["frames"]):]
        assert len(tops) == len(expect["frames"]), f"only {len(state['frames'])} frames"
        assert_matches(dict(enumerate(expect["frames"])), dict(enumerate(tops)), "frames")
    for text in expect.get("events", []):
        assert any(text in e for e in events), f"no event contains {text!r}: {events}"
    for text in expect.get("no_events", []):
        assert not any(text in e for e in events), f"an event contains {text!r}: {events}"
    if "rolls" in expect:
        rolled = [f"{r['spec']} -> {r.get('result', r['values'])}" for r in dice.rolls]
        assert rolled == expect["rolls"]
    if "added" in expect:
        assert dice.added == expect["added"]
    prompt = GAME.prompt(state)
    labels = [c.label for c in prompt.choices]
    if "side" in expect:
        assert prompt.side == (None if expect["side"] == "none" else expect["side"]), prompt.text
    for label in expect.get("has_choices", []):
        assert label in labels, f"{label!r} not among {labels}"
    for label in expect.get("lacks_choices", []):
        assert label not in labels, f"{label!r} is among the choices"
    if "result" in expect:
        assert state["result"] is not None and state["result"]["result"] == expect["result"], state["result"]


def test_every_section_has_a_case() -> None:
    covered = {load(p)["rule"] for p in CASES}
    missing = sorted(RULES - covered)
    assert not missing, f"rules without a case: {missing}"
