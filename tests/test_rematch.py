"""``pbem rematch`` (issue 37, point 4): the return match of a finished game, founded from the
old campaign with the same keys, game, scenario and options, each player on the other side; then
played out with real turn files between separate homes."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.conftest import Duel, assert_refused, read_envelope


def test_a_rematch_swaps_the_sides_and_keeps_everything_else(tmp_path: Path, runner):
    d = Duel(tmp_path, runner, "--option", "rounds=1", "--deadline", "48")
    d.play_out()
    a, b = d.alice, d.bob
    old = read_envelope(d.invitation).content
    out = d.run(a, "rematch", "--campaign", a.dir, "--into", tmp_path / "return").output
    assert "you are blue (you were red)" in out and "bob is red" in out
    [invitation] = (tmp_path / "return" / "sent").glob("*genesis.pbem")
    new = read_envelope(invitation).content
    assert new["game"] != old["game"] and new["author"] == "blue"
    for field in ("scenario", "options", "mode", "deadline_hours"):
        assert new["body"][field] == old["body"][field], field
    assert new["body"]["options"] == {"rounds": 1}
    assert new["body"]["sides"]["red"]["key"] == old["body"]["sides"]["blue"]["key"]  # bob's key, now red
    assert new["body"]["sides"]["blue"]["key"] == old["body"]["sides"]["red"]["key"]

    # bob joins with his own key as he joined the first game, and they play it out
    d.run(b, "join", invitation, "--key", "bob", "--campaign", tmp_path / "bob-return")
    [join] = (tmp_path / "bob-return" / "sent").glob("*join.pbem")
    d.run(a, "ingest", "--campaign", tmp_path / "return", join)
    alice2, bob2 = (type(a)(a.name, "blue", a.home, tmp_path / "return"),
                    type(b)(b.name, "red", b.home, tmp_path / "bob-return"))
    d.alice, d.bob = alice2, bob2
    assert "you are red" in d.run(bob2, "status", "--campaign", bob2.dir).output
    d.play_out()
    rows = list(csv.DictReader(io.StringIO(d.run(a, "results").output)))
    assert [(r["side"], r["module"]) for r in rows] == [("red", "barrage"), ("blue", "barrage")]
    assert rows[0]["game"] == old["game"] and rows[1]["game"] == new["game"]


def test_no_rematch_before_the_end_and_nothing_written(tmp_path: Path, runner):
    d = Duel(tmp_path, runner, "--option", "rounds=1")
    assert_refused(d.invoke(d.alice, "rematch", "--campaign", d.alice.dir, "--into", tmp_path / "early"), "not-over")
    assert not (tmp_path / "early").exists()
    d.play_out()
    d.run(d.alice, "rematch", "--campaign", d.alice.dir, "--into", tmp_path / "again")
    again = d.invoke(d.alice, "rematch", "--campaign", d.alice.dir, "--into", tmp_path / "again")
    assert_refused(again, "exists")  # a folder that holds a game already is never overwritten
