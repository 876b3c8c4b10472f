"""The mail body written for the opponent is his view, and never lists choices from the sender's
side of the table ("1. play a concealed card for OPS")."""

from __future__ import annotations

from tests.conftest import pbem
from tests.games.gallipoli_blocks.test_cli import game  # noqa: F401  (the fixture)


def test_the_mail_for_the_opponent_lists_no_choices_our_tool_cannot_see(game):  # noqa: F811
    runner, alice, bob = game
    pbem(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", "deploy dummy gully ravine", "done",
         env=bob.env)
    mails = sorted((bob.dir / "outbox").glob("*-allied.eml"))
    body = mails[-1].read_text()
    assert "a concealed card" not in body.split("What is asked of you")[-1]
    assert "then 'pbem play' lists your" in " ".join(body.split())
