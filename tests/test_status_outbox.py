"""`pbem status` says what waits in the outbox and what was set aside, with the reason."""

from __future__ import annotations

from tests.conftest import Duel


def test_status_lists_mail_waiting_and_mail_set_aside(tmp_path, runner):
    d = Duel(tmp_path, runner)
    d.play("red")  # its mail waits in alice's outbox
    failed = d.alice.dir / "outbox" / "failed"
    failed.mkdir(parents=True)
    (failed / "old-turn-blue.eml").write_text("From: a@example.org\n\nbody\n")
    (failed / "old-turn-blue.reason.txt").write_text("old-turn-blue.eml to bob@example.org: 550 no such user\n")
    out = d.run(d.alice, "status", "--campaign", d.alice.dir).output
    assert "mail(s) waiting in outbox/ (pbem mail send)" in out
    assert "MAIL SET ASIDE, not sent: old-turn-blue.eml: old-turn-blue.eml to bob@example.org: 550 no such user" in out
