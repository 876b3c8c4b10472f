"""Team games with hidden blocks (issue 37, point 5): the block game, Bob's ottoman side played by
Bob and Dave, any member signing.  Dave deploys a concealed block from his own copy; only his copy
knows what it is until he hands the side's secrets back with ``pbem team export --to bob``, and
Bob's ``pbem team import`` into his existing campaign merges them: his report then names the block.
The opponent's copy never learns it.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tests.conftest import assert_refused, db_bytes, invoke, new_player, pbem


def newest(player) -> Path:
    return max((player.dir / "sent").glob("*.pbem"), key=lambda p: p.name)


def report(runner, player) -> str:
    return pbem(runner, "report", "--campaign", player.dir, env=player.env).output


def test_a_members_hidden_block_reaches_its_commander_only_through_the_team_copy(tmp_path: Path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    dave = new_player(runner, tmp_path, "dave", "ottoman")
    pbem(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--team", f"ottoman={dave.pub}", "--team-signs", "any", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob), env=alice.env)
    copy = tmp_path / "dave.team"
    pbem(runner, "team", "export", "--to", "dave", "--campaign", bob.dir, "-o", copy, env=bob.env)
    pbem(runner, "team", "import", copy, "--key", "dave", "--campaign", dave.dir, env=dave.env)
    a2 = (pbem(runner, "play", "--campaign", alice.dir, env=alice.env), newest(alice))[1]  # alice's reveal
    for p in (bob, dave):
        pbem(runner, "ingest", "--campaign", p.dir, a2, env=p.env)
    pbem(runner, "play", "--campaign", dave.dir, "deploy dummy Maidos", "done", env=dave.env)
    d3 = newest(dave)
    for p in (alice, bob):
        pbem(runner, "ingest", "--campaign", p.dir, d3, env=p.env)
    assert "Ottoman dummy block 1" in report(runner, dave)
    assert "Ottoman dummy block 1" not in report(runner, bob)  # Dave alone chose it
    assert "Ottoman dummy block 1" not in report(runner, alice)
    back = tmp_path / "bob.team"
    pbem(runner, "team", "export", "--to", "bob", "--campaign", dave.dir, "-o", back, env=dave.env)
    # Alice cannot take Bob's place: the copy is sealed to Bob, and she is not on his team
    before = db_bytes(alice.dir)
    assert_refused(invoke(runner, "team", "import", back, "--key", "alice", "--campaign", alice.dir, env=alice.env),
                   ("not-member", "bad-team-copy"))
    assert db_bytes(alice.dir) == before
    out = pbem(runner, "team", "import", back, "--key", "bob", "--campaign", bob.dir, env=bob.env).output
    assert "0 turn file(s) added, the side's secrets merged" in out
    assert "Ottoman dummy block 1" in report(runner, bob)
    assert "Ottoman dummy block 1" not in report(runner, alice)
    for p in (alice, bob, dave):
        assert pbem(runner, "verify", p.dir, env=p.env).output.startswith("OK: 4 envelopes")
