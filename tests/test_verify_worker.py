"""Signatures checked in a worker process (``pbem.wire.signatures``): the same verdicts, in the same order.

The worker only ever spares this process a check it would pass; a bad signature, a damaged
block, a worker that dies: each is found here as without a worker, for the same first entry.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from pbem.wire import envelope, signatures
from pbem.wire.armor import find_blocks
from pbem.bench import build
from pbem.errors import VerifyError
from pbem.store.ledger import Ledger
from pbem.check.verify import verify_ledger

N = 600  # past signatures.MIN_ENVELOPES: the worker is used by default

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the worker is forked")


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db, _ = build(tmp_path_factory.mktemp("bench"), N, N)
    return db


def copy(campaign: Path, tmp_path: Path, changes: dict[int, callable] | None = None) -> Ledger:
    tmp_path.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "campaign.db"
    shutil.copy(campaign, db)
    con = sqlite3.connect(db)
    for seq, change in (changes or {}).items():
        raw = con.execute("select raw from envelopes where seq = ?", (seq,)).fetchone()[0]
        con.execute("update envelopes set raw = ? where seq = ?", (change(raw), seq))
    con.commit()
    con.close()
    return Ledger.open(db, readonly=True)


def bad_signature(raw: str) -> str:
    """One base64 character of the signature changed (the block is still well formed)."""
    lines = raw.split("\n")
    lines[7] = ("B" if lines[7][3] != "B" else "C").join((lines[7][:3], lines[7][4:]))
    return "\n".join(lines)


def not_base64(raw: str) -> str:
    lines = raw.split("\n")
    lines[9] = "!" + lines[9][1:]
    return "\n".join(lines)


def verdicts(ledger: Ledger) -> tuple[str, str]:
    """What verify says with the worker and without it (must be the same); with the thread
    that checks a short history ahead (``signatures.Ahead``) it must say the same again."""
    said = []
    for worker in (True, False, "thread"):
        try:
            said.append(verify_ledger(ledger, worker=worker).summary())
        except VerifyError as e:
            said.append(f"{e} | {e.detail}")
    assert said[2] == said[1], "the thread changed the verdict"
    return said[0], said[1]


def test_the_worker_is_wanted_for_a_long_history_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_VERIFY_WORKER", raising=False)
    assert not signatures.wanted(signatures.MIN_ENVELOPES - 1)
    if len(os.sched_getaffinity(0)) > 1 and threading.active_count() == 1:
        assert signatures.wanted(N)
    monkeypatch.setenv("PBEM_VERIFY_WORKER", "0")
    assert not signatures.wanted(N)


def test_an_honest_history_verifies_the_same_and_the_worker_spares_the_checks(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = copy(campaign, tmp_path)
    with_worker, alone = verdicts(ledger)
    assert with_worker == alone and with_worker.startswith(f"OK: {N} envelopes")
    here = []
    real = envelope.check_signature
    monkeypatch.setattr(envelope, "check_signature", lambda payload: here.append(1) or real(payload))
    verify_ledger(ledger, worker=True)
    assert len(here) == 0  # every signature was checked by the worker (forked before the count)
    verify_ledger(ledger, worker=False)
    assert len(here) == N


def test_the_thread_checks_ahead_and_the_replay_never_waits_for_it(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread checks envelopes ahead of the replay (here the replay is slowed down, so that it
    is ahead); one whose check is still under way when the replay reaches it (the thread is held
    up on envelope #5) is checked by the replay itself, at once.  Caught up with, the thread
    stops: the replay checks every envelope after it, and each envelope is checked by one or the
    other."""
    from pbem.chain import history

    ledger = copy(campaign, tmp_path)
    by: dict[str, list[int]] = {}
    real_check, real_ahead, real_apply = envelope.check_signature, signatures.sodium_accepts, history.apply
    seq_of = {find_blocks(raw)[0].payload: seq for seq, _, _, _, raw, _ in ledger.envelopes()}
    release = threading.Event()

    def ahead(payload: bytes) -> bool:
        by.setdefault("thread", []).append(seq_of[payload])
        if seq_of[payload] == 5:
            release.wait(30)  # held up until the replay has checked it itself
        return real_ahead(payload)

    def replayed(payload: bytes) -> None:
        by.setdefault("replay", []).append(seq_of[payload])
        real_check(payload)
        if seq_of[payload] == 5:
            release.set()

    def slowed(env, *args, **kwargs):
        if env.seq < 5:
            time.sleep(0.02)  # the thread gets well ahead
        return real_apply(env, *args, **kwargs)

    monkeypatch.setattr(signatures, "sodium_accepts", ahead)
    monkeypatch.setattr(envelope, "check_signature", replayed)
    monkeypatch.setattr(history, "apply", slowed)
    assert verify_ledger(ledger, worker="thread").summary().startswith(f"OK: {N} envelopes")
    assert 5 in by["replay"] and 5 in by["thread"], "the replay waited for the thread"
    assert set(by["thread"]) >= {1, 2, 3, 4}, by["thread"]  # ahead while the replay was slow
    window = signatures.Ahead.WINDOW  # the next window has a thread of its own
    assert max(s for s in by["thread"] if s < window) == 5, "the thread went on"
    assert set(range(6, window)) <= set(by["replay"])
    assert set(by["thread"]) | set(by["replay"]) == set(range(N))


@pytest.mark.parametrize("changes, entry, reason", [
    ({300: bad_signature}, 300, "bad signature"),
    ({450: not_base64, 300: bad_signature}, 300, "bad signature"),  # the first bad entry, whatever comes after
    ({300: not_base64, 450: bad_signature}, 300, "damaged turn file"),
    ({599: bad_signature}, 599, "bad signature"),  # in the last, short batch
    ({0: bad_signature}, 0, "bad signature"),
])
def test_a_bad_entry_is_named_the_same_with_the_worker(campaign: Path, tmp_path: Path, changes, entry, reason) -> None:
    with_worker, alone = verdicts(copy(campaign, tmp_path, changes))
    assert with_worker == alone
    assert f"entry #{entry} " in with_worker and reason in with_worker, with_worker


PARENT = os.getpid()
_well_signed = signatures.well_signed


def _die(payloads):
    """The forked worker dies at its first batch (a thread of this process checks as usual)."""
    if os.getpid() != PARENT:
        os._exit(3)
    return _well_signed(payloads)


def test_a_worker_that_dies_leaves_the_checks_to_this_process(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signatures, "well_signed", _die)
    ledger = copy(campaign, tmp_path)
    assert verify_ledger(ledger, worker=True).summary() == verify_ledger(ledger, worker=False).summary()
    bad = copy(campaign, tmp_path / "bad", {500: bad_signature})
    with_worker, alone = verdicts(bad)
    assert with_worker == alone and "entry #500 " in with_worker and "bad signature" in with_worker


def _state(pid: int) -> str:
    """'' when the process is gone, else its state letter (Z: exited, not yet reaped)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return ""
    return next(line.split()[1] for line in status.splitlines() if line.startswith("State:"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc")
def test_the_worker_holds_nothing_of_ours_and_ends_with_us(tmp_path: Path) -> None:
    """It holds only its two pipes and stderr (not the campaign's lock nor its database), and a
    verify killed outright (SIGKILL, out of memory) leaves no worker behind."""
    import subprocess
    import sys

    script = (
        "import json, os, signal, sys\n"
        "from pbem.wire import signatures\n"
        f"lock = os.open({str(tmp_path / 'campaign.lock')!r}, os.O_CREAT | os.O_RDWR)\n"
        "checker = signatures.Checker()\n"
        "assert list(checker.checked([(1, None)])) == [(1, False)]\n"
        "print(checker.pid, json.dumps(os.listdir(f'/proc/{checker.pid}/fd')), flush=True)\n"
        "sys.stdin.readline()\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pid, fds = proc.stdout.readline().split(" ", 1)
    assert len(json.loads(fds)) == 3 and "2" in json.loads(fds), fds  # stderr and its two pipes
    proc.stdin.write("\n")
    proc.stdin.flush()
    proc.wait(timeout=30)
    for _ in range(100):
        if _state(int(pid)) in ("", "Z"):
            break
        time.sleep(0.05)
    assert _state(int(pid)) in ("", "Z"), "the worker outlived the verify that started it"
