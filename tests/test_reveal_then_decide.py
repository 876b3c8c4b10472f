"""When a reveal is owed and a decision follows, `pbem play` without a terminal and
`pbem report` both list that decision the same way (the report said only "run pbem play")."""

from __future__ import annotations

import re

from tests.conftest import Duel


def test_play_and_report_list_the_decision_after_the_reveal(tmp_path, runner):
    d = Duel(tmp_path, runner)
    d.deliver(d.play("red"), "bob")  # red's fire waits for blue's reveal; then blue fires
    listed = d.run(d.bob, "play", "--campaign", d.bob.dir).output
    assert "your reveal is owed" in listed and "Then: round 1 of 3: fire your barrage" in listed
    report = " ".join(d.run(d.bob, "report", "--campaign", d.bob.dir).output.split())
    assert "after your reveal: round 1 of 3: fire your barrage" in report
    choice = re.search(r"1\. (fire 6 dice[^\n]*)", listed).group(1)
    assert f"1. {choice}" in report  # the same label, odds included
    assert not list((d.bob.dir / "sent").glob("*-0003-*"))  # listing signs nothing
    signed = d.run(d.bob, "play", "1", "--campaign", d.bob.dir).output
    assert "signed turn file #3" in signed
