"""A pack travels inside a signed genesis: ``datapack.check`` must list the problems of any
value at all, never raise, and bound what a genesis can make a joiner build."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.chain import datapack
from tests.conftest import assert_refused, invoke, new_player

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


# --- a player's own files, nested a few thousand deep or too large: one line, exit 1 ---------------

DEEP = {"arrays": "x = " + "[" * 3000 + "]" * 3000 + "\n",
        "inline tables": "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
        "dotted keys": "x." + ".".join(["a"] * 3000) + " = 1\n",
        "table headers": "[" + ".".join(["a"] * 3000) + "]\n"}


@pytest.fixture
def players(tmp_path, runner, home):
    return new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")


def _refusals(tmp_path, runner, players, text: str, suffix: str = ".toml"):
    """Every command that reads a player's data file, given ``text``: (command, its result, the code it must refuse with)."""
    alice, bob = players
    mine, pack = tmp_path / "mine", tmp_path / "pack"
    mine.mkdir(exist_ok=True)
    pack.mkdir(exist_ok=True)
    (mine / "map.toml").write_text(text)
    (pack / "pack.toml").write_text(text)
    (tmp_path / f"charts{suffix}").write_text(text)
    (tmp_path / f"cards{suffix}").write_text(text)

    def new(module, side, *extra):
        return invoke(runner, "new", module, "--as", side, "--key", "alice", "--opponent", bob.pub, *extra,
                      "--campaign", alice.dir, env=alice.env)

    yield "pack check --game", invoke(runner, "pack", "check", "--game", "assault-on-gallipoli", mine), "bad-data"
    yield "new --pack DIR", new("assault-on-gallipoli", "anzac", "--pack", mine), "bad-data"
    yield "pack check", invoke(runner, "pack", "check", pack), "bad-pack"
    yield "new tabletop --pack", new("tabletop", "allied", "--pack", pack), "bad-pack"
    yield "new --charts", new("blood-on-the-tigris", "british", "--charts", tmp_path / f"charts{suffix}"), "bad-charts"
    yield "new --cards", new("gallipoli-blocks", "allied", "--cards", tmp_path / f"cards{suffix}"), "bad-cards"
    assert not alice.dir.exists()


@pytest.mark.parametrize("shape", DEEP)
def test_a_file_nested_thousands_deep_is_refused_in_one_line_by_every_command_that_reads_one(
        tmp_path, runner, players, shape):
    for command, result, code in _refusals(tmp_path, runner, players, DEEP[shape]):
        assert_refused(result, code)
        assert "nested deeper than 32 levels" in result.stderr, (command, result.stderr)


def test_json_nested_thousands_deep_is_refused_in_one_line(tmp_path, runner, players):
    for command, result, code in list(_refusals(tmp_path, runner, players, "[" * 5000 + "]" * 5000, ".json"))[4:]:
        assert_refused(result, code)
        assert "nested deeper than 32 levels" in result.stderr, (command, result.stderr)


def test_nesting_within_the_bound_is_read(tmp_path):
    from pbem.chain.gamedata import read_file

    (tmp_path / "ok.toml").write_text("x." + ".".join(["a"] * 30) + " = 1\n")
    assert read_file(tmp_path / "ok.toml")["x"]["a"]["a"]


def test_a_file_over_a_megabyte_is_refused_unread(tmp_path, runner, players):
    for command, result, code in _refusals(tmp_path, runner, players, "x = 1\n" + "# padding\n" * 110_000):
        assert_refused(result, code)
        assert "larger than 1024 KB" in result.stderr, (command, result.stderr)
