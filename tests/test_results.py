"""The end of a game (issue 37, point 4): the result record both campaigns compute, signed by each
side, exchanged as a file, and a home's finished games exported for a league; between separate
homes with real turn files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from pbem.wire.keys import KeyStore
from tests.conftest import Duel, assert_refused, invoke, pbem
from tests.test_tabletop import MINI, Table


def flipped(signature: str) -> str:
    """The signature with its last hex digit changed."""
    return signature[:-1] + ("0" if signature[-1] != "0" else "1")


def finished_duel(root: Path, runner) -> Duel:
    duel = Duel(root, runner, "--option", "rounds=1")
    duel.play_out()
    return duel


def test_both_sides_sign_one_result_and_a_league_reads_it(tmp_path: Path, runner):
    d = finished_duel(tmp_path, runner)
    a, b = d.alice, d.bob
    status = d.run(a, "status", "--campaign", a.dir).output
    over = next(line for line in status.splitlines() if line.startswith("game over: "))
    result_words = over.removeprefix("game over: ")
    ended_by = next(p for p in (a, b) if (p.dir / "result.json").exists())  # its tool signed at once
    other = d.other(ended_by)
    assert not (other.dir / "result.json").exists()
    assert list(json.loads((ended_by.dir / "result.json").read_text())["signatures"]) == [ended_by.side]

    out = d.run(other, "result", "--campaign", other.dir).output
    assert result_words.split(" (")[0] in out and "by the rules" in out
    assert f"waiting for the signature of {ended_by.side}" in out
    mine, theirs = (json.loads((p.dir / "result.json").read_text()) for p in (other, ended_by))
    assert mine["record"] == theirs["record"]  # both copies computed the same record from their histories
    out = d.run(other, "result", "--campaign", other.dir, "--add", ended_by.dir / "result.json").output
    assert "agreed by every side" in out
    d.run(ended_by, "result", "--campaign", ended_by.dir, "--add", other.dir / "result.json")
    assert (a.dir / "result.json").read_text() == (b.dir / "result.json").read_text()

    rows = list(csv.DictReader(io.StringIO(d.run(a, "results").output)))
    assert len(rows) == 1
    row = rows[0]
    assert (row["module"], row["you"], row["side"], row["opponents"]) == ("barrage", "alice", "red", "bob (blue)")
    assert row["result"] in result_words and row["agreed"] == "yes" and row["signed_by"] == "blue red"
    assert row["final_seq"] == str(len(list((a.dir / "received").glob("*.pbem"))) + len(
        list((a.dir / "sent").glob("*.pbem"))) - 1)
    d.run(b, "results", "--format", "json", "-o", tmp_path / "league.json")
    [game] = json.loads((tmp_path / "league.json").read_text())
    assert (game["record"]["winner"] or "") == row["winner"] and game["side"] == "blue" and game["agreed"] is True
    for p in (a, b):
        assert d.run(p, "verify", p.dir).output.startswith("OK: ")


def test_a_result_file_from_outside_is_checked_and_nothing_changes(tmp_path: Path, runner):
    d = finished_duel(tmp_path, runner)
    ended_by = next(p for p in (d.alice, d.bob) if (p.dir / "result.json").exists())
    other = d.other(ended_by)
    d.run(other, "result", "--campaign", other.dir)
    kept = (other.dir / "result.json").read_bytes()
    good = json.loads((ended_by.dir / "result.json").read_text())
    stranger = KeyStore(tmp_path / "stranger").create("eve")
    from pbem.play.results import DOMAIN
    from pbem_engine.canonical import canonical_json

    lied = dict(good["record"], result=good["record"]["result"] + " (as I recall it)")
    forged_sig = stranger.sign(DOMAIN + canonical_json(good["record"])).hex()
    cases = {"changed.json": dict(good, record=lied),
             "stranger.json": dict(good, signatures={ended_by.side: forged_sig}),
             "bitflip.json": dict(good, signatures={ended_by.side: flipped(good["signatures"][ended_by.side])}),
             "nobody.json": dict(good, signatures={"umpire": good["signatures"][ended_by.side]}),
             "list.json": [1, 2], "huge.json": {"record": {"x": "y" * 70_000}, "signatures": {}}}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(data))
        assert_refused(d.invoke(other, "result", "--campaign", other.dir, "--add", path), "bad-result")
        assert (other.dir / "result.json").read_bytes() == kept
    (tmp_path / "text.json").write_text("not json")
    assert_refused(d.invoke(other, "result", "--campaign", other.dir, "--add", tmp_path / "text.json"), "bad-result")


def test_no_result_before_the_end(tmp_path: Path, runner):
    d = Duel(tmp_path, runner, "--option", "rounds=1")
    assert_refused(d.invoke(d.alice, "result", "--campaign", d.alice.dir), "not-over")
    assert not (d.alice.dir / "result.json").exists()
    assert d.run(d.alice, "results").output.splitlines()[1:] == []  # a header, no game


def test_a_table_top_result_is_the_players_and_agreed_when_both_sign(tmp_path: Path):
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)
    t = Table(tmp_path, str(tmp_path / "mini"), ("red", "blue"))
    t.act(t.a, "move red guard to ford", "pass")
    t.act(t.b, "say good game", "tell red well played, sir", "end blue concedes")
    said = t.files["bob"][-1].read_text()
    assert "well played" not in said
    for _ in range(4):  # the ending: each side opens its hidden pools, its tool alone
        for p in (t.a, t.b):
            if invoke(t.runner, "status", "--campaign", p.dir, env=p.env).output.count("waiting for you"):
                t.act(p)
    report = t.run(t.a, "report", "--all", "--campaign", t.a.dir).output
    assert "blue says: good game" in report  # table-top's own say: an order of its rules, as before
    messages = t.run(t.a, "messages", "--campaign", t.a.dir).output
    assert "blue to red (sealed): well played, sir" in messages
    for p in (t.a, t.b):
        t.run(p, "result", "--campaign", p.dir)
    t.run(t.a, "result", "--campaign", t.a.dir, "--add", t.b.dir / "result.json")
    out = t.run(t.b, "result", "--campaign", t.b.dir, "--add", t.a.dir / "result.json").output
    assert "blue concedes" in out and "as a player ended it" in out and "agreed by every side" in out
    [row] = csv.DictReader(io.StringIO(t.run(t.b, "results").output))
    assert (row["how"], row["agreed"], row["result"]) == ("players", "yes", "blue concedes")
