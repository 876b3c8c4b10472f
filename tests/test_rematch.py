"""``pbem rematch`` (issue 37, point 4): the return match of a finished game, founded from the
old campaign with the same keys, game, scenario and options, each player on the other side; then
played out with real turn files between separate homes."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.conftest import Duel, assert_refused, invoke, new_player, pbem, read_envelope


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


def test_a_referee_rematches_its_players_on_the_other_sides(tmp_path: Path, runner):
    """Barrage refereed, one round: it ends in the referee's first file; the referee discloses,
    every party signs the result (agreed by the three), and the referee founds the rematch."""
    ref = new_player(runner, tmp_path, "ref", "referee")
    alice, bob = new_player(runner, tmp_path, "alice", "red"), new_player(runner, tmp_path, "bob", "blue")
    pbem(runner, "new", "barrage", "--referee", "--key", "ref", "--player", f"red={alice.pub}",
         "--player", f"blue={bob.pub}", "--option", "rounds=1", "--campaign", ref.dir, env=ref.env)
    [genesis] = (ref.dir / "sent").glob("*genesis.pbem")
    for p in (alice, bob):
        pbem(runner, "join", genesis, "--key", p.name, "--campaign", p.dir, env=p.env)
        [join] = (p.dir / "sent").glob("*join.pbem")
        pbem(runner, "ingest", "--campaign", ref.dir, join, env=ref.env)
    pbem(runner, "play", "--campaign", ref.dir, env=ref.env)  # starts it: every barrage is forced, the game ends
    early = invoke(runner, "rematch", "--campaign", ref.dir, "--into", tmp_path / "early", env=ref.env)
    assert_refused(early, "not-over")  # not disclosed yet: something is still owed
    assert not (tmp_path / "early").exists()
    pbem(runner, "play", "--campaign", ref.dir, env=ref.env)  # the disclosure
    for p in (alice, bob):
        files = sorted((ref.dir / "sent" / f"to-{p.side}").glob("*.pbem")) + sorted((ref.dir / "sent").glob("*-0002-*"))
        pbem(runner, "ingest", "--campaign", p.dir, *files, env=p.env)
    for p in (ref, alice, bob):
        pbem(runner, "result", "--campaign", p.dir, env=p.env)
    for p in (alice, bob):
        pbem(runner, "result", "--campaign", ref.dir, "--add", p.dir / "result.json", env=ref.env)
    [row] = csv.DictReader(io.StringIO(pbem(runner, "results", env=ref.env).output))
    assert row["agreed"] == "yes" and row["signed_by"] == "blue red referee"

    out = pbem(runner, "rematch", "--campaign", ref.dir, "--into", tmp_path / "again", env=ref.env).output
    assert "you referee it" in out
    [invitation] = (tmp_path / "again" / "sent").glob("*genesis.pbem")
    old, new = read_envelope(genesis).content["body"], read_envelope(invitation).content["body"]
    assert new["sides"]["red"] == old["sides"]["blue"] and new["sides"]["blue"] == old["sides"]["red"]
    assert new["options"] == {"rounds": 1} and new["referee"]["key"] == old["referee"]["key"]
    pbem(runner, "join", invitation, "--key", "bob", "--campaign", tmp_path / "bob-again", env=bob.env)
    assert len(list((tmp_path / "bob-again" / "sent").glob("*-red-join.pbem"))) == 1  # bob plays red now
