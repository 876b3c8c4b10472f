"""Two commands on one campaign at once, as real processes (the installed ``pbem`` script).

Every command that writes takes the campaign's lock (``campaign.lock``, pbem.store.lock): the
second waits for the first, then does its work on what the first left, or says why it
cannot; a command that cannot get the lock in time is refused with ``busy``.  Each race
runs ten times, each on its own copy of the campaign taken at the same moment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import assert_refused, db_bytes, invoke, new_player, pbem

PBEM = str(Path(sys.executable).parent / "pbem")
PAIRS = 10
DEPLOYS = (
    ["deploy 25th 4 krithia", "deploy dummy gully ravine", "deploy 57th 3 kilia liman", "done"],
    ["deploy 57th 3 krithia", "deploy 25th 4 gully ravine", "deploy dummy kilia liman", "done"],
)


def spawn(player, *args: object, extra: dict[str, str] | None = None) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(player.env, **(extra or {}))
    return subprocess.Popen([PBEM, *map(str, args)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def together(*procs: subprocess.Popen) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) of processes started at once."""
    outputs = [p.communicate(timeout=120) for p in procs]
    return [(p.returncode, *o) for p, o in zip(procs, outputs)]


def assert_clean(rc: int, out: str, err: str) -> None:
    """What a user may see from a command that lost a race: success, or a reason and a detail."""
    assert "Traceback" not in out + err, err
    if rc != 0:
        assert rc == 1, (rc, out, err)
        lines = err.splitlines()
        assert len(lines) >= 2 and re.match(r"^Error: [a-z][a-z0-9-]*: \S", lines[0]) and lines[1].strip(), err


def verified(directory: Path) -> None:
    result = subprocess.run([PBEM, "verify", str(directory)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("OK: "), result.stdout + result.stderr


@pytest.fixture
def blocks(tmp_path, runner, home):
    """A block game where bob (ottoman) is to deploy his concealed blocks; alice is allied."""
    alice = new_player(runner, tmp_path, "alice", "allied")
    bob = new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--option", "turns=2", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", max((alice.dir / "sent").glob("*.pbem")), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, max((bob.dir / "sent").glob("*.pbem")), env=alice.env)
    pbem(runner, "play", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "ingest", "--campaign", bob.dir, max((alice.dir / "sent").glob("*.pbem")), env=bob.env)
    return tmp_path, alice, bob


def copy_of(player, directory: Path):
    shutil.copytree(player.dir, directory)
    return type(player)(player.name, player.side, player.home, directory)


def test_two_plays_at_once_one_signs_and_no_hidden_choice_is_lost(blocks):
    """Ten times, two `pbem play` of bob's concealed deployment at once (different orders).
    One signs; the other waits for it and is told it is not bob's turn any more.  Bob's own
    record of what he hid is the one he signed: his report names his blocks where the signed
    turn put them, and alice's campaign accepts the turn file."""
    root, alice, bob = blocks
    for i in range(PAIRS):
        mine = copy_of(bob, root / f"bob-{i}")
        theirs = copy_of(alice, root / f"alice-{i}")
        first, second = (DEPLOYS[0], DEPLOYS[1]) if i % 2 == 0 else (DEPLOYS[1], DEPLOYS[0])
        results = together(spawn(mine, "play", "--campaign", mine.dir, *first),
                           spawn(mine, "play", "--campaign", mine.dir, *second))
        for result in results:
            assert_clean(*result)
        signed = [out for rc, out, _ in results if rc == 0]
        assert len(signed) == 1, results
        loser = next(err for rc, _, err in results if rc != 0)
        assert loser.startswith(("Error: not-your-turn", "Error: busy")), loser
        deployed = re.findall(r"ottoman deploys (.+) at (.+)$", signed[0], re.M)
        assert len(deployed) == 3, signed[0]
        report = subprocess.run([PBEM, "report", "--campaign", str(mine.dir)], capture_output=True, text=True,
                                env={**os.environ, **mine.env}).stdout
        for block, space in deployed:  # bob's tool still knows each of his concealed blocks, where it is
            assert re.search(rf"^\s+{re.escape(space)} \[.*\]: .*{re.escape(block)}", report, re.M), (block, space, report)
        turn = max((mine.dir / "sent").glob("*turn.pbem"))
        rc, out, err = together(spawn(theirs, "ingest", "--campaign", theirs.dir, turn))[0]
        assert rc == 0 and "accepted #3" in out, out + err
        verified(mine.dir)
        verified(theirs.dir)


def test_two_ingests_at_once_store_the_turn_once(blocks):
    """Ten times, the same turn file ingested twice at once (a mail client and a script):
    one accepts it, the other finds it already ingested; no error, one copy in received/."""
    root, alice, bob = blocks
    pbem(CliRunner(), "play", "--campaign", bob.dir, *DEPLOYS[0], env=bob.env)
    turn = max((bob.dir / "sent").glob("*turn.pbem"))
    for i in range(PAIRS):
        mine = copy_of(alice, root / f"alice-{i}")
        results = together(spawn(mine, "ingest", "--campaign", mine.dir, turn),
                           spawn(mine, "ingest", "--campaign", mine.dir, turn))
        for result in results:
            assert_clean(*result)
            assert result[0] == 0, result
        outs = sorted(out for _, out, _ in results)
        assert sum("accepted #3" in out for out in outs) == 1, outs
        assert sum("already ingested" in out for out in outs) == 1, outs
        assert [p.name for p in (mine.dir / "received").glob("*-0003-*")] == [turn.name]
        verified(mine.dir)


def test_a_command_that_cannot_get_the_lock_says_the_campaign_is_busy(blocks, runner):
    """While another process holds the campaign's lock, `pbem play` waits PBEM_LOCK_WAIT seconds,
    then is refused with `busy` and changes nothing; reading commands still answer."""
    _, alice, bob = blocks
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, sys, time\n"
        f"f = open({str(bob.dir / 'campaign.lock')!r}, 'a')\n"
        "fcntl.flock(f, fcntl.LOCK_EX)\n"
        "print('locked', flush=True)\n"
        "time.sleep(30)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        before = db_bytes(bob.dir)
        files = sorted(p.relative_to(bob.dir) for p in bob.dir.rglob("*"))
        result = invoke(runner, "play", "--campaign", bob.dir, *DEPLOYS[0], env=dict(bob.env, PBEM_LOCK_WAIT="0.5"))
        assert_refused(result, "busy")
        assert "campaign.lock" in result.stderr
        assert db_bytes(bob.dir) == before
        assert sorted(p.relative_to(bob.dir) for p in bob.dir.rglob("*")) == files
        assert invoke(runner, "status", "--campaign", bob.dir, env=bob.env).exit_code == 0
    finally:
        holder.kill()
        holder.wait()
    ok = invoke(runner, "play", "--campaign", bob.dir, *DEPLOYS[0], env=bob.env)
    assert ok.exit_code == 0 and "signed turn file #3" in ok.output, ok.output
