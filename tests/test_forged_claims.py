"""Forged timeout claims — under no agreed deadline, or against a side that owed nothing — are
refused at ingest and caught by verify when planted in a database."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from tests.conftest import Duel, assert_refused, db_bytes, forge, read_envelope


def _claim(d: Duel, owed_by: str, since: int) -> dict:
    """A claim by red (alice) at her head, as her tool would sign it, naming ``owed_by`` since ``since``."""
    from pbem.play.campaign import Campaign
    from pbem.chain import history

    camp = Campaign.open(d.alice.dir, readonly=True)
    try:
        head = camp.ledger.head()
        return {"v": 1, "game": camp.genesis["game"], "seq": head[0], "prev": head[1], "author": "red",
                "kind": "claim", "engine": history.engine_stamp(camp.game),
                "body": {"owed_by": owed_by, "since": since, "hours": 99, "deadline_hours": 1,
                         "claimed_at": datetime.now(timezone.utc).replace(microsecond=0).isoformat()},
                "state": camp.ledger.state_hash_at(head[0])}
    finally:
        camp.ledger.close()


def _refused(d: Duel, content: dict, code: str) -> None:
    path = forge(d.identity(d.alice), content, d.root / "claim.pbem")
    before = db_bytes(d.bob.dir)
    assert_refused(d.ingest("bob", path), code)
    assert db_bytes(d.bob.dir) == before


def _planted_fails_verify(d: Duel, content: dict, words: str) -> None:
    path = forge(d.identity(d.alice), content, d.root / "planted.pbem")
    env = read_envelope(path)
    with sqlite3.connect(d.bob.db) as c:
        c.execute("insert into claims (hash, seq, author, raw, received_at) values (?, ?, ?, ?, ?)",
                  (env.hash, env.seq, env.author, env.raw, "2026-01-01T00:00:00+00:00"))
    result = d.invoke(d.bob, "verify", d.bob.dir)
    assert result.exit_code == 1 and words in result.output, result.output


def test_a_claim_with_no_agreed_deadline_is_refused_and_caught_by_verify(tmp_path, runner):
    d = Duel(tmp_path, runner)  # no --deadline
    d.deliver(d.play("red"), "bob")  # blue owes its reveal: only the deadline is missing
    content = _claim(d, "blue", 2)
    _refused(d, content, "no-deadline")
    _planted_fails_verify(d, content, "no agreed deadline")


def test_a_claim_against_a_side_that_owes_nothing_is_refused_and_caught_by_verify(tmp_path, runner):
    d = Duel(tmp_path, runner, "--deadline", "1")
    # red is to play #2: blue owes nothing, yet red claims blue is late
    content = _claim(d, "blue", 1)
    _refused(d, content, "not-owed")
    _planted_fails_verify(d, content, "owed nothing")


def test_a_claim_naming_the_wrong_since_is_refused(tmp_path, runner):
    d = Duel(tmp_path, runner, "--deadline", "1")
    d.deliver(d.play("red"), "bob")  # blue owes since #2
    _refused(d, _claim(d, "blue", 0), "not-owed")
    _refused(d, _claim(d, "red", 2), "not-owed")  # against oneself


def test_a_claim_is_checked_against_the_match_it_names_after_the_game_goes_on(tmp_path, runner):
    """verify replays each envelope's state in place (pbem_engine.protocol.match.advance own=True); the match a
    claim names is kept as it was then, however the game goes on after it."""
    d = Duel(tmp_path, runner, "--deadline", "1")
    d.deliver(d.play("red"), "bob")  # blue owes its reveal since #2
    content = _claim(d, "blue", 2)
    path = forge(d.identity(d.alice), content, d.root / "claim.pbem")
    env = read_envelope(path)
    with sqlite3.connect(d.bob.db) as c:
        c.execute("insert into claims (hash, seq, author, raw, received_at) values (?, ?, ?, ?, ?)",
                  (env.hash, env.seq, env.author, env.raw, "2026-01-01T00:00:00+00:00"))
    assert "1 timeout claim(s)" in d.run(d.bob, "verify", d.bob.dir).output
    d.play_out()  # the game goes on to its end: reveals, fire, rolls resolved
    result = d.run(d.bob, "verify", d.bob.dir)
    assert "OK:" in result.output and "1 timeout claim(s)" in result.output, result.output
