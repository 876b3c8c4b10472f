"""Data packs: every shipped pack is valid, and the validator reports every kind of problem at once."""

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.chain.datapack import check, load, shipped

GOOD = """
[pack]
id = "mini"
title = "Mini"
sides = ["red", "blue"]
dice = "d6"

[[location]]
id = "a"
name = "A"
adjacent = ["b"]
provisional = false
source = "rules 1"

[[location]]
id = "b"
name = "B"
adjacent = ["a"]
provisional = true
source = "reconstructed"

[[piece]]
id = "red-1"
name = "Red 1"
side = "red"
start = "a"
provisional = false

[[deck]]
id = "red-deck"
name = "Red deck"
owner = "red"
size = 3
provisional = false

[[card]]
id = "charge"
deck = "red-deck"
count = 3
provisional = false
"""

BAD = (GOOD.replace('adjacent = ["a"]', 'adjacent = []').replace("count = 3", "count = 2") + """
[[location]]
id = "a"
name = "A again"
provisional = false

[[piece]]
id = "blue-1"
name = "Blue 1"
side = "green"
provisional = true

[[piece]]
id = "blue-2"
name = "Blue 2"
side = "blue"
start = "nowhere"
provisional = false

[[card]]
id = "ghost"
deck = "no-deck"
provisional = false
""")


def write(tmp_path, text):
    (tmp_path / "pack.toml").write_text(text)
    return tmp_path


def test_a_good_pack_has_no_problems(tmp_path):
    assert check(load(write(tmp_path, GOOD))) == []
    out = CliRunner().invoke(cli, ["pack", "check", str(tmp_path)])
    assert out.exit_code == 0 and out.output.startswith("OK:") and "PROVISIONAL" in out.output


def test_every_problem_is_listed_at_once(tmp_path):
    problems = [str(p) for p in check(load(write(tmp_path, BAD)))]
    expected = [
        "location a: duplicate id",
        "one-way adjacency: lists 'b'",
        "piece blue-1: side 'green'",
        "piece blue-1: set up nowhere",
        "piece blue-1: provisional but says no source",
        "piece blue-2: starts at unknown location 'nowhere'",
        "card ghost: in unknown deck 'no-deck'",
        "deck red-deck: card count mismatch: size 3, cards add up to 2",
    ]
    for text in expected:
        assert any(text in p for p in problems), (text, problems)
    out = CliRunner().invoke(cli, ["pack", "check", str(tmp_path)])
    assert out.exit_code == 1 and "Error: bad-pack:" in out.output
    assert all(any(text in line for line in out.output.splitlines()) for text in expected)


def test_not_a_pack(tmp_path):
    out = CliRunner().invoke(cli, ["pack", "check", str(tmp_path)])
    assert out.exit_code == 1 and "not a pack" in out.output
    (tmp_path / "pack.toml").write_text("[pack\n")
    out = CliRunner().invoke(cli, ["pack", "check", str(tmp_path)])
    assert out.exit_code == 1 and "not TOML" in out.output


SHIPPED = sorted(shipped())


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_pack_is_valid_and_marks_what_it_reconstructed(name):
    pack = load(shipped()[name])
    assert check(pack) == []
    entries = [e for kind in ("location", "piece", "deck", "card", "scenario") for e in pack.get(kind, [])]
    assert entries and all("source" in e for e in entries if e.get("provisional"))
