"""When a reveal is owed and a decision follows, `pbem play` without a terminal and
`pbem report` both list that decision the same way (the report said only "run pbem play");
when nothing follows but forced choices, `pbem play` signs at once and shows nothing."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import Duel, hill60_pair, pbem


def hill60(root: Path, runner):
    """A Hill 60 game whose Allied player has assaulted Hill 60 (a roll that waits for the
    Ottoman reveal), delivered to the Ottoman player."""
    alice, bob = hill60_pair(runner, root)
    out = pbem(runner, "play", "assault Hill 60 from Kabak Kuyu", "--campaign", alice.dir, env=alice.env).output
    signed = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
    pbem(runner, "ingest", "--campaign", bob.dir, signed, env=bob.env)
    return bob


def test_play_and_report_list_the_decision_after_the_reveal(tmp_path, runner):
    for attempt in range(12):  # the assault must hit for the Ottoman to allocate hits: try new games until it does
        bob = hill60(tmp_path / str(attempt), runner)
        listed = pbem(runner, "play", "--campaign", bob.dir, env=bob.env).output
        if "your reveal is owed" in listed:
            break
    else:
        raise AssertionError("twelve Allied assaults without a hit")
    assert "Then: Ottoman player: allocate" in listed, listed
    report = " ".join(pbem(runner, "report", "--campaign", bob.dir, env=bob.env).output.split())
    assert "after your reveal: Ottoman player: allocate" in report
    choice = re.search(r"  1\. ([^\n]+)", listed).group(1)
    assert f"1. {choice}" in report  # the same label
    assert not list((bob.dir / "sent").glob("*-0003-*"))  # listing signs nothing
    for _ in range(8):  # one hit allocated a time: as many as the assault scored
        signed = pbem(runner, "play", "1", "--campaign", bob.dir, env=bob.env).output
        if "signed turn file #" in signed:
            break
    assert "signed turn file #" in signed


def test_a_reveal_followed_by_forced_choices_only_is_signed_without_a_question(tmp_path, runner):
    d = Duel(tmp_path, runner)  # barrage: every barrage is the only legal choice
    d.deliver(d.play("red"), "bob")
    status = d.run(d.bob, "status", "--campaign", d.bob.dir).output
    assert "waiting for you, nothing to decide: your reveal" in status, status
    out = d.run(d.bob, "play", "--campaign", d.bob.dir).output  # no orders, no terminal: signs, lists nothing
    assert "signed turn file #3" in out and "taken for you, as the only legal choice: fire 6 dice" in out, out
    assert "  1. " not in out
