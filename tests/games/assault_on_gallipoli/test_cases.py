"""Rule cases for Assault on Gallipoli: each file in cases/ is one rule situation, played with
scripted dice (the public position API, pbem_engine.games.assault_on_gallipoli.position, makes the state).

A case file holds:

    title, rule        what it shows, and the Rulebook's section
    [before]           the starting state (see position.position)
    [[actions]]        side = ..., action = {...}, applied in order through pbem_engine.protocol.core.step
    dice = [...]       the die faces the actions roll, all of which must be used
    illegal = true     the last action must be refused (IllegalAction), changing nothing;
    error = "..."      ... with this in its message
    [expect]           units = {id = "area" | "gone" | {at = ..., fresh = ...}}; kt, ma, turn, passes,
                       trenches, wire, cubes, control (compared key by key); events / no_events
                       (substrings of the event texts); top = {...} (the top frame, key by key);
                       side (who decides now, "none"); has_choices / lacks_choices (labels);
                       remnants = {side = N in play}; result (the outcome's result);
                       ccdeck = {side = {hand = [...], table = [...], from = ..., kemal = ...}};
                       hands = {side = [...]}, discard = [...], ac = {key = value} (the Action Cards)
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem_engine.protocol.core import IllegalAction, copy_state, step
from pbem_engine.games.assault_on_gallipoli import GAME, board, rules
from pbem_engine.games.assault_on_gallipoli.position import position

CASES = sorted((Path(__file__).parent / "cases").glob("*.toml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = tomllib.loads(path.read_text())
    assert case.get("title") and case.get("rule"), "a case names its title and rule"
    pos = position(case.get("before", {}))
    state, dice = pos.state, pos.dice(case.get("dice", []))
    events: list[dict[str, Any]] = []
    rules.settle(state, dice, events)  # a state built mid-sequence (e.g. at the Morale phase) runs on
    actions = case.get("actions", [])
    for i, act in enumerate(actions):
        last = i == len(actions) - 1
        if last and (case.get("illegal") or act.get("illegal")):
            before = copy_state(state)
            with pytest.raises(IllegalAction) as err:
                step(GAME, state, act["side"], act["action"], dice)
            want = act.get("error") or case.get("error")
            if want:
                assert want in str(err.value)
            assert state == before
            break
        state, evs = step(GAME, state, act["side"], act["action"], dice)
        events += evs
    assert dice.remaining == 0, f"{dice.remaining} scripted die face(s) unused"
    check(state, events, case.get("expect", {}))


def check(state: dict[str, Any], events: list[dict[str, Any]], expect: dict[str, Any]) -> None:
    texts = [e["text"] for e in events]
    for uid, want in expect.get("units", {}).items():
        if want == "gone":
            assert uid not in state["units"], f"{uid} should be gone"
            continue
        assert uid in state["units"], f"{uid} should be on the board"
        want = {"at": want} if isinstance(want, str) else want
        for key, value in want.items():
            assert state["units"][uid][key] == value, f"{uid}.{key}: {state['units'][uid][key]!r} != {value!r}"
    for key in ("kt", "ma", "turn", "passes", "wire", "result"):
        if key in expect:
            assert state[key] == expect[key], f"{key}: {state[key]!r} != {expect[key]!r}"
    for key in ("trenches", "cubes", "control"):
        for k, v in expect.get(key, {}).items():
            assert state[key].get(k) == v, f"{key}[{k}]: {state[key].get(k)!r} != {v!r}"
    for text in expect.get("events", []):
        assert any(text in t for t in texts), f"no event with {text!r} in {texts}"
    for text in expect.get("no_events", []):
        assert not any(text in t for t in texts), f"unexpected event {text!r}"
    for side, want in expect.get("ccdeck", {}).items():  # a side's close combat cards (closecombat.py)
        for key, value in want.items():
            assert state["ccdeck"][side][key] == value, f"ccdeck {side}.{key}: {state['ccdeck'][side][key]!r}"
    for side, want in expect.get("hands", {}).items():  # Action Cards (cards.py)
        assert sorted(state["ac"]["hands"][side]) == sorted(want), f"{side}'s hand: {state['ac']['hands'][side]}"
    for key, value in expect.get("ac", {}).items():
        assert state["ac"][key] == value, f"ac.{key}: {state['ac'][key]!r} != {value!r}"
    if "discard" in expect:
        assert sorted(state["ac"]["discard"]) == sorted(expect["discard"]), f"discard: {state['ac']['discard']}"
    top = state["frames"][-1]
    for key, value in expect.get("top", {}).items():
        assert top.get(key) == value, f"top frame {key}: {top.get(key)!r} != {value!r}"
    prompt = GAME.prompt(state)
    if "side" in expect:
        assert (prompt.side or "none") == expect["side"], prompt.text
    labels = [c.label for c in prompt.choices]
    for text in expect.get("has_choices", []):
        assert text in labels, f"{text!r} not offered: {labels}"
    for text in expect.get("lacks_choices", []):
        assert text not in labels, f"{text!r} offered"
    for side, n in expect.get("remnants", {}).items():
        assert 5 - len(board.pool(state, side)) == n
    if "outcome" in expect:
        out = GAME.outcome(state)
        assert out is not None and out.result == expect["outcome"]
