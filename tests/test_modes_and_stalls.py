"""Unsealed dice, deadlines and signed timeout claims, through the CLI."""

import re
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

from tests.conftest import Duel, assert_refused, db_bytes


def test_unsealed_rolls_at_once_and_says_so_everywhere(tmp_path, runner):
    d = Duel(tmp_path, runner, "--dice", "unsealed")
    first = d.play("red")  # red fires and its dice are rolled in its own envelope
    rows = sqlite3.connect(d.alice.db).execute("select seq, mode from rolls").fetchall()
    assert rows == [(2, "unsealed")]
    d.deliver(first, "bob")
    report = d.run(d.bob, "report", "--campaign", d.bob.dir).output
    assert "[UNSEALED]" in report
    d.play_out()
    summary = d.run(d.alice, "verify", d.alice.dir).output
    assert summary.startswith("OK: ") and "UNSEALED" in summary


def test_sealed_is_the_default_and_nothing_is_rolled_before_the_reveal(two_campaigns):
    d = two_campaigns
    d.deliver(d.play("red"), "bob")
    assert sqlite3.connect(d.bob.db).execute("select count(*) from rolls").fetchone() == (0,)
    status = d.run(d.alice, "status", "--campaign", d.alice.dir).output
    assert "waiting for blue's reveal since envelope #2" in status and "waiting for blue: waiting" not in status
    own = d.run(d.bob, "status", "--campaign", d.bob.dir).output  # the side that owes it: "you", and what follows
    # (blue's barrage after it is the only legal choice: nothing for him to decide)
    assert "waiting for you, nothing to decide: your reveal (a roll waits for it)" in own, own
    assert "UNSEALED" not in d.run(d.alice, "verify", d.alice.dir).output


def claim_file(output: str) -> Path:
    return Path(re.search(r"\): (\S+-claim-\w+\.pbem)", output).group(1))


def _age(db, seq, hours):
    """Pretend envelope ``seq`` was stored ``hours`` ago (the clock is the only thing a test may fake)."""
    then = (datetime.now(timezone.utc) - timedelta(hours=hours)).replace(microsecond=0).isoformat()
    with sqlite3.connect(db) as c:
        c.execute("update envelopes set received_at = ? where seq = ?", (then, seq))


def test_deadline_timeout_claim_recorded_by_the_opponent(tmp_path, runner):
    d = Duel(tmp_path, runner, "--deadline", "48")
    d.deliver(d.play("red"), "bob")  # now blue owes the reveal
    early = d.invoke(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    assert_refused(early, "not-overdue")
    assert "deadline 48 h: 48 h left" in d.run(d.alice, "status", "--campaign", d.alice.dir).output
    _age(d.alice.db, 2, 50)
    assert "OVERDUE" in d.run(d.alice, "status", "--campaign", d.alice.dir).output
    out = d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir).output
    claim = claim_file(out)
    assert "signed a timeout claim against blue (50 h)" in out and claim.exists()
    recorded = d.run(d.bob, "ingest", "--campaign", d.bob.dir, claim).output
    assert "recorded a TIMEOUT CLAIM by red against blue" in recorded
    assert "TIMEOUT CLAIM by red against blue at #2" in d.run(d.bob, "status", "--campaign", d.bob.dir).output
    again = d.run(d.bob, "ingest", "--campaign", d.bob.dir, claim).output
    assert "already recorded" in again
    # the game goes on: the claim is beside the chain, not in it
    d.deliver(d.play("blue"), "alice")
    for p in (d.alice, d.bob):
        assert "1 timeout claim(s)" in d.run(p, "verify", p.dir).output


def test_the_side_that_owes_cannot_claim_and_a_forged_claim_is_refused(tmp_path, runner):
    d = Duel(tmp_path, runner, "--deadline", "1")
    refused = d.invoke(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    assert_refused(refused, "not-owed")
    d.deliver(d.play("red"), "bob")
    _age(d.alice.db, 2, 5)
    claim = claim_file(d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir).output)
    text = claim.read_text()
    forged = tmp_path / "forged.pbem"
    forged.write_text(text.replace("Kind: claim", "Kind: turn"))
    before = db_bytes(d.bob.dir)
    assert_refused(d.ingest("bob", forged))
    assert db_bytes(d.bob.dir) == before


def test_a_tampered_stored_claim_fails_verify(tmp_path, runner):
    d = Duel(tmp_path, runner, "--deadline", "1")
    d.deliver(d.play("red"), "bob")
    _age(d.alice.db, 2, 5)
    d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    with sqlite3.connect(d.alice.db) as c:
        raw = c.execute("select raw from claims").fetchone()[0]
        lines = raw.splitlines()
        lines[-2] = lines[-2][:-3] + ("A" if lines[-2][-3] != "A" else "B") + lines[-2][-2:]
        c.execute("update claims set raw = ?", ("\n".join(lines) + "\n",))
    result = d.invoke(d.alice, "verify", d.alice.dir)
    assert result.exit_code == 1 and "timeout claim" in result.output


def test_campaign_secrets_encrypted_with_a_passphrase(tmp_path, runner):
    import stat

    from tests.conftest import invoke

    d = Duel(tmp_path, runner)
    # a third campaign for bob, encrypted, joining a fresh invitation from alice
    d.run(d.alice, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", d.bob.pub,
          "--campaign", tmp_path / "alice2")
    invitation = max((tmp_path / "alice2" / "sent").glob("*.pbem"))
    env = dict(d.bob.env, PBEM_PASSPHRASE="trench coat")
    r = invoke(runner, "join", invitation, "--key", "bob", "--encrypt-secrets", "--campaign", tmp_path / "bob2", env=env)
    assert r.exit_code == 0, r.output
    secrets_file = tmp_path / "bob2" / "secrets" / "chain.json"
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
    stored = secrets_file.read_text()
    assert "encrypted" in stored and '"secret"' not in stored
    d.run(d.alice, "ingest", "--campaign", tmp_path / "alice2", max((tmp_path / "bob2" / "sent").glob("*.pbem")))
    d.run(d.alice, "play", "1", "--campaign", tmp_path / "alice2")
    turn = max((tmp_path / "alice2" / "sent").glob("*turn.pbem"))
    assert invoke(runner, "ingest", "--campaign", tmp_path / "bob2", turn, env=d.bob.env).exit_code == 0
    locked = invoke(runner, "play", "--campaign", tmp_path / "bob2", env=d.bob.env)
    assert_refused(locked, "locked")
    wrong = invoke(runner, "play", "--campaign", tmp_path / "bob2", env=dict(d.bob.env, PBEM_PASSPHRASE="nope"))
    assert_refused(wrong, "locked")
    ok = invoke(runner, "play", "1", "--campaign", tmp_path / "bob2", env=env)
    assert ok.exit_code == 0 and "signed turn file" in ok.output, ok.output
