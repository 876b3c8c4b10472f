"""What only a team side's commander signs (spec 20): a member who may sign the side's turns is
told, by name, whose key signs a take-back, and nothing is written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tests.conftest import assert_refused, db_bytes, invoke
from tests.test_teams import END, MOVE, ingest, play, team_game


def test_a_member_who_signs_turns_is_told_a_take_back_is_the_commanders(tmp_path: Path):
    runner = CliRunner()
    alice, bob, carol = team_game(runner, tmp_path, "any")
    c2 = play(runner, carol, MOVE, END)  # Carol signs the allied turn, as the invitation lets her
    ingest(runner, bob, c2)
    before = db_bytes(carol.dir)
    result = invoke(runner, "takeback", "propose", "--to", "1", "--campaign", carol.dir, env=carol.env)
    assert_refused(result, "wrong-key")
    assert "only allied's commander signs its take-backs" in result.stderr
    assert "carol is a member of allied: ask alice" in result.stderr
    assert db_bytes(carol.dir) == before and not list((carol.dir / "sent").glob("*takeback*"))
    # the commander may, from her own copy
    ingest(runner, alice, c2)
    proposed = invoke(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    assert proposed.exit_code == 0, proposed.output
