"""A team side's hash chain renewed by a member (issue 37, point 5, with issue 36 point 4): a table-top
game with chains of 64 links, red played by Alice and Carol (any member signs), blue by Bob.  Carol
signs every red file until her tool renews the side's chain; Alice's copy does not hold the new
chain's secret, so her tool refuses to sign (nothing written, nothing to refuse elsewhere) until
she imports Carol's team copy into her campaign; then she plays on, and every copy, ``pbem
verify`` and the independent verifier accept the whole history.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from pbem_engine.protocol import match as protocol

from tests import independent_verifier as iv
from tests.conftest import assert_no_traceback, db_bytes, invoke, new_player, pbem, read_envelope
from tests.test_tabletop import MINI


def signed(runner, player, *orders: str) -> Path:
    out = pbem(runner, "play", *orders, "--campaign", player.dir, env=player.env).output
    return Path(re.search(r"signed turn file #\d+: (\S+)", out).group(1))


def test_a_chain_a_member_renewed_reaches_the_commander_through_the_team_copy(tmp_path: Path):
    runner = CliRunner()
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)
    alice, bob = new_player(runner, tmp_path, "alice", "red"), new_player(runner, tmp_path, "bob", "blue")
    carol = new_player(runner, tmp_path, "carol", "red")
    pbem(runner, "new", "tabletop", "--pack", tmp_path / "mini", "--as", "red", "--key", "alice", "--opponent",
         bob.pub, "--team", f"red={carol.pub}", "--team-signs", "any", "--chain", "64", "--campaign", alice.dir,
         env=alice.env)
    pbem(runner, "join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, next((bob.dir / "sent").glob("*join.pbem")), env=alice.env)
    copy = tmp_path / "carol.team"
    pbem(runner, "team", "export", "--to", "carol", "--campaign", alice.dir, "-o", copy, env=alice.env)
    pbem(runner, "team", "import", copy, "--key", "carol", "--campaign", carol.dir, env=carol.env)
    files = []
    renewed_at = None
    for n in range(1, 64):
        red = signed(runner, carol, "pass")
        files.append(red)
        for p in (alice, bob):
            pbem(runner, "ingest", "--campaign", p.dir, red, env=p.env)
        blue = signed(runner, bob, "pass")
        files.append(blue)
        for p in (alice, carol):
            pbem(runner, "ingest", "--campaign", p.dir, blue, env=p.env)
        if "renew" in read_envelope(red).content["body"]:
            renewed_at = n
            break
    assert renewed_at == 64 - protocol.RENEW_BEFORE + 1  # Carol's tool renewed the side's chain
    before = db_bytes(alice.dir)
    refused = invoke(runner, "play", "pass", "--campaign", alice.dir, env=alice.env)
    assert_no_traceback(refused)
    assert refused.exit_code == 1 and "signed turn file" not in refused.output
    assert "renewed the chain" in refused.stderr  # her copy holds the old chain only
    assert db_bytes(alice.dir) == before
    back = tmp_path / "alice.team"
    pbem(runner, "team", "export", "--to", "alice", "--campaign", carol.dir, "-o", back, env=carol.env)
    out = pbem(runner, "team", "import", back, "--key", "alice", "--campaign", alice.dir, env=alice.env).output
    assert "0 turn file(s) added, the side's secrets merged" in out
    red = signed(runner, alice, "pass")  # the new chain's first link, from the secret Carol handed back
    files.append(red)
    assert "accepted" in pbem(runner, "ingest", "--campaign", bob.dir, red, env=bob.env).output
    pbem(runner, "ingest", "--campaign", carol.dir, red, env=carol.env)
    for p in (alice, bob, carol):
        assert pbem(runner, "verify", p.dir, env=p.env).output.startswith("OK: ")
    genesis_and_join = [next((alice.dir / "sent").glob("*genesis.pbem")), next((bob.dir / "sent").glob("*join.pbem"))]
    report = iv.verify_files([p.read_text() for p in genesis_and_join + files])
    assert len(report.envelopes) == 2 + len(files)
