"""The clock agreed in the invitation (issue 36, points 2 and 3): a time bank per side, an
increment per turn file and a cap, leave in a signed notice, and the claim at zero, with a fake
clock (``pbem.play.timebank.now`` and the receipt times ``pbem.play.campaign.now``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from tests.conftest import Duel, assert_no_traceback, assert_refused, db_bytes, invoke, read_envelope

START = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


class FakeClock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.at = START
        monkeypatch.setattr("pbem.play.timebank.now", lambda: self.at)
        monkeypatch.setattr("pbem.play.campaign.now", lambda: self.at.isoformat())

    def advance(self, **kw) -> None:
        self.at += timedelta(**kw)


@pytest.fixture
def clock(monkeypatch):
    return FakeClock(monkeypatch)


def duel(tmp_path, runner, *args: str) -> Duel:
    return Duel(tmp_path, runner, "--clock", "48+12/60", *args)


def status(d: Duel, who: str) -> str:
    p = d.player(who)
    return d.run(p, "status", "--campaign", p.dir).output


def test_the_invitation_states_the_clock_and_both_copies_run_it(tmp_path, runner, clock):
    d = duel(tmp_path, runner, "--leave-days", "5")
    shown = d.run(d.bob, "join", d.invitation, "--show").output
    assert ("clock    48 h bank, +12 h a turn file up to 60 h; leave up to 5 day(s); at zero the opponent may "
            "claim: the game is lost on time") in shown, shown
    out = status(d, "alice")
    assert "clock: 48 h bank, +12 h a turn file, cap 60 h; at zero: a loss; leave up to 5 day(s)" in out, out
    assert "clock red: 48 h left, owes #2" in out, out
    clock.advance(hours=10)
    out = status(d, "alice")
    assert "clock red: 38 h left, owes #2" in out and "clock blue: 48 h in the bank" in out, out
    d.turn("red")  # 10 h used, +12: 50, capped at 60 -> 50
    out = status(d, "bob")
    assert "clock red: 50 h in the bank" in out and "clock blue: 48 h left, owes #3" in out, out
    clock.advance(hours=30, minutes=15)
    assert "clock blue: 17 h 45 min left, owes #3" in status(d, "bob")
    assert "clock blue: 17 h 45 min left" in status(d, "alice")  # alice stored #2 when bob did (one fake clock)


def test_the_cap_bounds_the_bank_and_a_clockless_game_says_nothing_of_a_clock(tmp_path, runner, clock):
    d = duel(tmp_path, runner)
    d.turn("red")  # 0 h used: 48 + 12 = 60, the cap
    d.turn("blue")
    clock.advance(hours=1)
    d.turn("red")  # 60 - 1 + 12 = 71 -> 60
    assert "clock red: 60 h in the bank" in status(d, "bob")
    plain = Duel(tmp_path / "plain", runner)
    out = status(plain, "alice")
    assert "clock" not in out.replace("clocks", ""), out


def test_leave_stops_the_clock_of_the_side_that_declared_it(tmp_path, runner, clock):
    d = duel(tmp_path, runner, "--leave-days", "3")
    d.turn("red")
    day = (clock.at + timedelta(days=1)).date().isoformat()  # from tomorrow, 00:00 UTC
    result = d.run(d.bob, "leave", "--from", day, "--days", "2", "--campaign", d.bob.dir)
    notice = next((d.bob.dir / "sent").glob("*-blue-leave-*.pbem"))
    assert str(notice) in result.output
    d.deliver_notice = d.ingest("alice", notice)
    assert d.deliver_notice.exit_code == 0, d.deliver_notice.output
    clock.advance(days=3)  # 3 days since #2: 15 h today, then 48 h of leave, then 9 h
    for who in ("alice", "bob"):
        out = status(d, who)
        assert f"LEAVE declared by blue: 2 day(s) from {day}" in out, out
        assert "clock blue: 24 h left, owes #3" in out and "clock red: 60 h in the bank" in out, out
        p = d.player(who)
        assert "1 leave notice(s)" in d.run(p, "verify", p.dir).output
    # more leave than the invitation allows, and leave in the past, are refused with nothing changed
    before = db_bytes(d.bob.dir)
    too_much = d.invoke(d.bob, "leave", "--from", clock.at.date().isoformat(), "--days", "2", "--campaign", d.bob.dir)
    assert_refused(too_much, "bad-leave")
    past = d.invoke(d.bob, "leave", "--from", "2020-01-01", "--days", "1", "--campaign", d.bob.dir)
    assert_refused(past, "bad-leave")
    bad = d.invoke(d.bob, "leave", "--from", "tomorrow", "--days", "1", "--campaign", d.bob.dir)
    assert bad.exit_code == 2
    assert_no_traceback(bad)
    assert db_bytes(d.bob.dir) == before
    plain = Duel(tmp_path / "plain", runner)
    assert_refused(plain.invoke(plain.alice, "leave", "--from", day, "--days", "1", "--campaign", plain.alice.dir),
                   "no-clock")


def test_the_claim_at_zero_ends_the_game_as_the_invitation_agreed(tmp_path, runner, clock):
    d = duel(tmp_path, runner)
    d.turn("red")
    early = d.invoke(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    assert_refused(early, "not-overdue")
    assert "blue has 48 h left on its clock" in early.output + early.stderr
    mine = d.invoke(d.bob, "claim-timeout", "--campaign", d.bob.dir)
    assert_refused(mine, "not-owed")
    clock.advance(hours=47, minutes=59)
    assert "clock blue: 1 min left" in status(d, "alice")
    clock.advance(minutes=1)
    out = status(d, "alice")
    assert "clock blue: OUT OF TIME: you may claim the game (pbem claim-timeout)" in out, out
    claimed = d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    assert "his clock is at zero: the invitation makes this a loss on time" in claimed.output
    claim = next((d.alice.dir / "sent").glob("*-red-claim-*.pbem"))
    for who in ("alice", "bob"):
        if who == "bob":
            result = d.ingest("bob", claim)
            assert result.exit_code == 0 and "recorded a TIMEOUT CLAIM by red against blue" in result.output, result.output
        out = status(d, who)
        assert "OUT OF TIME: alice (red) wins on time: bob (blue) ran out of time (claimed by red at #2" in out, out
        assert "CLOCK CLAIM by red against blue at #2" in out and "DISPUTED" not in out, out
    for who in ("alice", "bob"):
        p = d.player(who)
        assert "1 timeout claim(s)" in d.run(p, "verify", p.dir).output


def test_a_claim_the_receiving_copy_s_clock_does_not_support_is_shown_disputed(tmp_path, runner, clock):
    d = duel(tmp_path, runner, "--at-zero", "adjudication")
    path = d.play("red")
    clock.advance(hours=49)
    claim_side = d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    assert "an adjudication" in claim_side.output
    d.deliver(path, d.bob)  # bob got #2 only now, 49 h late (the mail was slow): by his clock he has 48 h
    assert d.ingest("bob", next((d.alice.dir / "sent").glob("*-claim-*.pbem"))).exit_code == 0
    out = status(d, "bob")
    assert "bob (blue) ran out of time: the game goes to adjudication" in out, out
    assert "DISPUTED: by this copy's clock blue still had 48 h when the claim was signed" in out, out


def test_clock_options_are_checked_before_anything_is_made(tmp_path, runner):
    d = Duel(tmp_path, runner)
    for args in (["--clock", "72"], ["--clock", "100+1/50"], ["--clock", "10+1/20", "--deadline", "5"],
                 ["--clock", "0+1/20"]):
        result = d.invoke(d.alice, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", d.bob.pub,
                          "--campaign", tmp_path / "x", *args)
        assert result.exit_code == 2, (args, result.output)
        assert_no_traceback(result)
        assert not (tmp_path / "x").exists()


def test_a_leave_notice_travels_by_mail_and_is_ingested_once(tmp_path, runner, clock):
    d = duel(tmp_path, runner)
    day = (clock.at + timedelta(days=2)).date().isoformat()
    out = d.run(d.bob, "leave", "--from", day, "--days", "3", "--campaign", d.bob.dir).output
    mail = next((d.bob.dir / "outbox").glob("*-blue-leave-*-red.eml"))
    assert f"ready to send: {mail}" in out
    assert f"blue on leave: 3 day(s) from {day}" in mail.read_text()
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (maildir / "new" / "1.eml").write_bytes(mail.read_bytes())
    for _ in range(2):  # the second fetch finds it held already
        result = invoke(d.runner, "mail", "fetch", "--maildir", maildir, "--campaign", d.alice.dir, env=d.alice.env)
        assert_no_traceback(result)
        assert result.exit_code == 0, result.output
    assert f"LEAVE declared by blue: 3 day(s) from {day}" in status(d, "alice")
    assert "1 leave notice(s)" in d.run(d.alice, "verify", d.alice.dir).output


def test_forged_clock_claims_and_leave_notices_are_refused_with_nothing_changed(tmp_path, runner, clock):
    from tests.conftest import forge

    d = duel(tmp_path, runner)
    d.turn("red")
    clock.advance(hours=49)
    d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    honest = read_envelope(next((d.alice.dir / "sent").glob("*-claim-*.pbem")))
    leave = {"from": (clock.at + timedelta(days=1)).date().isoformat(), "days": 1, "declared_at": clock.at.isoformat()}
    forged = {
        "time left": dict(honest.content, body=dict(honest.content["body"], clock={"left_minutes": 30, "at_zero": "loss"})),
        "other terms": dict(honest.content, body=dict(honest.content["body"],
                                                      clock={"left_minutes": -60, "at_zero": "adjudication"})),
        "no clock said": dict(honest.content, body={k: v for k, v in honest.content["body"].items() if k != "clock"}),
        "leave too long": dict(honest.content, kind="leave", body=dict(leave, days=15)),
        "leave no date": dict(honest.content, kind="leave", body=dict(leave, **{"from": "soon"})),
        "leave extra": dict(honest.content, kind="leave", body=dict(leave, hours=3)),
    }
    before = db_bytes(d.bob.dir)
    for name, content in forged.items():
        path = forge(d.identity(d.alice), content, tmp_path / f"{name}.pbem")
        result = d.ingest("bob", path)
        assert_refused(result, "bad-leave" if name.startswith("leave") else "bad-claim")
        assert db_bytes(d.bob.dir) == before, name


GOOD = {"bank_hours": 48, "increment_hours": 12, "cap_hours": 60, "at_zero": "loss", "leave_days": 14}
BAD_CLOCKS = {
    "not an object": 72,
    "a field missing": {k: v for k, v in GOOD.items() if k != "cap_hours"},
    "an unknown field": dict(GOOD, grace_hours=3),
    "a bank of 0": dict(GOOD, bank_hours=0),
    "a cap below the bank": dict(GOOD, cap_hours=24),
    "a cap of 10^9 hours": dict(GOOD, cap_hours=10**9),
    "hours as text": dict(GOOD, bank_hours="48"),
    "hours as true": dict(GOOD, increment_hours=True),
    "a negative increment": dict(GOOD, increment_hours=-1),
    "leave of 10^6 days": dict(GOOD, leave_days=10**6),
    "an unknown meaning at zero": dict(GOOD, at_zero="a duel at dawn"),
    "and a deadline": "deadline",
}


@pytest.mark.parametrize("what", sorted(BAD_CLOCKS))
def test_a_hostile_clock_in_an_invitation_is_refused_before_anything_is_written(tmp_path, runner, what):
    from pbem.wire.keys import KeyStore
    from tests.conftest import forge, new_player, pbem

    alice, bob = new_player(runner, tmp_path, "alice", "red"), new_player(runner, tmp_path, "bob", "blue")
    pbem(runner, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub, "--campaign",
         tmp_path / "a", "--clock", "48+12/60", env=alice.env)
    content = read_envelope(next((tmp_path / "a" / "sent").glob("*genesis.pbem"))).content
    if BAD_CLOCKS[what] == "deadline":
        content["body"]["deadline_hours"] = 24
    else:
        content["body"]["clock"] = BAD_CLOCKS[what]
    path = forge(KeyStore(alice.home).load("alice"), content, tmp_path / "hostile.pbem")
    result = invoke(runner, "join", path, "--key", "bob", "--campaign", tmp_path / "b", env=bob.env)
    assert_refused(result, "bad-genesis")
    assert not (tmp_path / "b" / "campaign.db").exists()


def test_two_leave_notices_over_the_same_days_stop_the_clock_once(tmp_path, runner, clock):
    d = duel(tmp_path, runner, "--leave-days", "6")
    d.turn("red")
    day = (clock.at + timedelta(days=1)).date().isoformat()
    for days in ("2", "3"):  # the second covers the first's two days and one more
        d.run(d.bob, "leave", "--from", day, "--days", days, "--campaign", d.bob.dir)
    clock.advance(days=4)  # 15 h, 72 h of leave (not 120), then 9 h: 24 h charged of 48
    assert "clock blue: 24 h left, owes #3" in status(d, "bob")
