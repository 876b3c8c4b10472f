"""A pack travels inside a signed genesis: ``datapack.check`` must list the problems of any
value at all, never raise, and bound what a genesis can make a joiner build."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import datapack

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
PACK = datapack.load(datapack.shipped()["gallipoli-blocks"])


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_check_lists_problems_of_any_value_and_never_raises(value):
    assert isinstance(datapack.check(value), list)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["location", "piece", "deck", "card", "scenario", "pack"]), st.integers(0, 5),
       st.sampled_from(["id", "name", "side", "start", "adjacent", "count", "deck", "owner", "size", "kind", "sides"]),
       json_values)
def test_a_shipped_pack_with_one_field_changed_never_makes_check_raise(kind, index, field, value):
    pack = copy.deepcopy(PACK)
    table = pack.get(kind)
    if isinstance(table, list) and table:
        table[index % len(table)][field] = value
    elif isinstance(table, dict):
        table[field] = value
    assert isinstance(datapack.check(pack), list)


def test_huge_counts_and_bad_side_names_are_problems():
    pack = copy.deepcopy(PACK)
    pack["piece"][0]["count"] = 10**8
    pack["pack"]["sides"] = ["allied", "../ottoman"]
    found = [str(p) for p in datapack.check(pack)]
    assert any("count 100000000" in p for p in found), found
    assert any("sides must be a list of names" in p for p in found), found


def test_every_float_is_reported_at_once():
    pack = copy.deepcopy(PACK)
    pack["location"][0]["x"] = 1.5
    pack["location"][1]["y"] = 2.5
    found = [str(p) for p in datapack.check(pack) if "whole" in str(p)]
    assert len(found) == 2, found
