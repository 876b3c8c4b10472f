"""The block game declares ``frozen_entries = ("gone",)``: copies of a state share the records of
eliminated and retired blocks (pbem_engine.protocol.core.snapshot), so no rule may change one once it is in
``gone``; and ``flat_entries = ("blocks",)``: copies copy each block's record one level deep, so
no rule may change a value inside one in place (its 'entering' list). Checked here as ``advance``
promises it: its input is never changed, over whole games (battles, eliminations, stand-ups,
supply losses, reinforcements), by the bot and by random legal choices."""

from __future__ import annotations

import random

import pytest

from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import canonical_json
from pbem_engine.protocol.core import copy_state, restore, snapshot
from pbem_engine.games.gallipoli_blocks import GAME

from .driver import Table, random_chooser


@pytest.fixture
def watched(monkeypatch):
    """Every advance checked: its input match is byte for byte the same afterwards."""
    real = protocol.advance
    seen = {"calls": 0, "gone": 0}

    def advance(game, match, *args, **kwargs):
        before = canonical_json(match)
        try:
            return real(game, match, *args, **kwargs)
        finally:
            assert canonical_json(match) == before, "advance changed its input (a frozen entry?)"
            seen["calls"] += 1
            seen["gone"] = max(seen["gone"], len(match["game"]["gone"]))

    monkeypatch.setattr(protocol, "advance", advance)
    return seen


@pytest.mark.parametrize("seed", [4, 11])
def test_no_rule_changes_a_gone_record(watched, seed):
    t = Table(options={"turns": 4}, mode="sealed", seed=seed)
    chooser = random_chooser(random.Random(seed)) if seed % 2 else None
    while t.step(chooser):
        pass
    assert t.state["result"] is not None
    assert watched["calls"] > 50 and watched["gone"] > 0  # blocks were eliminated or retired on the way


def test_a_snapshot_shares_only_the_frozen_entries():
    state = {"a": {"x": [1]}, "gone": {"t1": {"id": "b"}}, "z": 1}
    snap = snapshot(state, GAME.frozen_entries)
    state["a"]["x"].append(2)
    state["gone"]["t2"] = {"id": "c"}  # a map of frozen entries may grow
    first, second = restore(snap), restore(snap)
    assert first == second == {"a": {"x": [1]}, "gone": {"t1": {"id": "b"}}, "z": 1}
    assert list(first) == ["a", "gone", "z"]  # the keys in their order
    assert first["gone"] is not second["gone"] and first["gone"]["t1"] is state["gone"]["t1"]
    assert first["a"] is not second["a"]
    copy = copy_state(state, ("gone", "missing", "z"))  # absent keys and non-maps are simply copied
    assert copy == state and copy["gone"] is not state["gone"]


def test_a_snapshot_copies_flat_records_one_level_deep():
    state = {"blocks": {"t1": {"at": "x", "entering": ["a"]}}, "other": {"t": {"deep": [1]}}, "odd": {"t": 1}}
    snap = snapshot(state, (), GAME.flat_entries + ("odd",))  # 'odd' holds no records: copied in full
    state["blocks"]["t1"]["at"] = "y"
    state["blocks"]["t2"] = {"at": "z"}
    state["odd"]["t"] = 2
    first = restore(snap)
    assert first == {"blocks": {"t1": {"at": "x", "entering": ["a"]}}, "other": {"t": {"deep": [1]}}, "odd": {"t": 1}}
    assert first["blocks"]["t1"]["entering"] is state["blocks"]["t1"]["entering"]  # the values are shared
    assert restore(snap)["blocks"]["t1"] is not first["blocks"]["t1"]
