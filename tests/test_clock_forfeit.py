"""After a claim at zero the game is over in both copies (issue 36, point 2): a later turn file
from the side that ran out is refused with the campaign unchanged, neither side may sign more,
and status says the game was lost on time or awaits adjudication, as the invitation agreed."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import assert_refused, db_bytes, invoke
from tests.test_clock import clock, duel, status  # noqa: F401  (the fake clock fixture)


def files_of(d, who: str) -> dict[str, bytes]:
    folder = d.player(who).dir
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
            and p.name != "campaign.lock"}


def race(d, clock) -> tuple[Path, Path]:
    """Red's #2 reaches blue; blue's clock runs out; red claims, and blue, not yet holding the
    claim, plays #3 all the same: (the claim, blue's late file)."""
    d.turn("red")
    clock.advance(hours=48, minutes=5)
    d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    claim = next((d.alice.dir / "sent").glob("*-red-claim-*.pbem"))
    late = d.play("blue")
    return claim, late


def test_a_file_after_a_claim_at_zero_is_refused_and_the_game_is_lost_on_time_in_both_copies(tmp_path, runner, clock):
    d = duel(tmp_path, runner)
    claim, late = race(d, clock)
    before = files_of(d, "alice")
    refused = d.ingest("alice", late)
    assert_refused(refused, "game-over")
    assert refused.stderr.splitlines()[0] == "Error: game-over: the game was lost on time", refused.stderr
    assert "envelope #3 from blue came after the claim at zero" in refused.stderr, refused.stderr
    assert files_of(d, "alice") == before  # the campaign byte for byte as it was
    # blue's copy takes the claim (it came first, whatever blue's own file says)
    taken = d.ingest("bob", claim)
    assert taken.exit_code == 0, taken.output
    for who in ("alice", "bob"):
        out = status(d, who)
        assert "OUT OF TIME: alice (red) wins on time: bob (blue) ran out of time" in out, out
        assert "GAME OVER: the game was lost on time; nothing more is signed or accepted" in out, out
        p = d.player(who)
        again = d.invoke(p, "play", "1", "--campaign", p.dir)
        assert_refused(again, "game-over")
        assert again.stderr.startswith("Error: game-over: the game was lost on time\n"), again.stderr
        assert "alice (red) wins on time" in again.stderr
        assert "1 timeout claim(s)" in d.run(p, "verify", p.dir).output
    assert_refused(d.invoke(d.alice, "claim-timeout", "--campaign", d.alice.dir), "game-over")  # claimed once
    # the late file offered again: refused all the same
    assert_refused(d.ingest("alice", late), "game-over")
    assert files_of(d, "alice") == before
    # one result in both copies, though blue's holds its late file: the game ended at the claim's #2
    for who in ("alice", "bob"):
        p = d.player(who)
        d.run(p, "result", "--campaign", p.dir)
    added = d.invoke(d.alice, "result", "--add", d.bob.dir / "result.json", "--campaign", d.alice.dir)
    assert added.exit_code == 0, added.output + added.stderr
    import json

    record = json.loads((d.alice.dir / "result.json").read_text())
    assert sorted(record["signatures"]) == ["blue", "red"] and record["record"]["final"]["seq"] == 2, record
    assert record["record"]["winner"] == "red" and record["record"]["how"] == "time"


def test_after_a_claim_sent_to_adjudication_nothing_more_is_accepted_either(tmp_path, runner, clock):
    d = duel(tmp_path, runner, "--at-zero", "adjudication")
    claim, late = race(d, clock)
    before = db_bytes(d.alice.dir)
    refused = d.ingest("alice", late)
    assert_refused(refused, "game-over")
    assert refused.stderr.startswith("Error: game-over: the game awaits adjudication\n"), refused.stderr
    assert db_bytes(d.alice.dir) == before
    assert d.ingest("bob", claim).exit_code == 0
    out = status(d, "bob")
    assert "bob (blue) ran out of time: the game goes to adjudication" in out, out
    assert "GAME OVER: the game awaits adjudication" in out, out
    assert_refused(d.invoke(d.bob, "play", "1", "--campaign", d.bob.dir), "game-over")


def test_a_file_in_time_is_accepted_and_no_claim_can_follow_it(tmp_path, runner, clock):
    """The rule bites only after a claim: blue's file in time goes in, and red cannot claim after."""
    d = duel(tmp_path, runner)
    d.turn("red")
    clock.advance(hours=47)
    d.turn("blue")
    clock.advance(hours=2)
    assert_refused(d.invoke(d.alice, "claim-timeout", "--campaign", d.alice.dir), "not-owed")
    assert "GAME OVER" not in status(d, "alice")
    assert invoke(runner, "play", "1", "--campaign", d.alice.dir, env=d.alice.env).exit_code == 0


def test_a_refereed_game_is_refused_a_clock_saying_why(tmp_path, runner):
    d = duel(tmp_path, runner)
    ref = d.new_identity("ref", "referee")
    result = d.invoke(ref, "new", "barrage", "--referee", "--key", "ref", "--player", f"red={d.alice.pub}",
                      "--player", f"blue={d.bob.pub}", "--clock", "48+12/60", "--campaign", tmp_path / "refd")
    assert result.exit_code == 2, result.output
    assert "--clock is for two-player games: in a refereed game only the referee's copy sees" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "refd").exists()


def test_the_late_side_s_mailbox_signs_nothing_after_the_claim(tmp_path, runner, clock):
    """Blue's next file needs no person (barrage's only choice), so its mailbox would sign it
    alone; once blue's copy holds the claim at zero, `pbem mail run` signs nothing and says no
    move is blue's."""
    d = duel(tmp_path, runner)
    d.turn("red")
    clock.advance(hours=49)
    d.run(d.alice, "claim-timeout", "--campaign", d.alice.dir)
    assert d.ingest("bob", next((d.alice.dir / "sent").glob("*-red-claim-*.pbem"))).exit_code == 0
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    result = d.invoke(d.bob, "mail", "run", "--maildir", maildir, "--campaign", d.bob.dir)
    assert "Traceback" not in result.output + result.stderr
    assert "game-over" not in result.stderr and "answered" not in result.output, result.output + result.stderr
    assert "your move" not in result.output
    assert not list((d.bob.dir / "sent").glob("*-0003-*"))
