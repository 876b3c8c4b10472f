"""Long replays show progress on a terminal (verify, audit, rebuild), and nothing in a script."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.bench import build
from pbem.store.ledger import Ledger
from pbem.check.verify import verify_ledger

PBEM = str(Path(sys.executable).with_name("pbem"))


@pytest.fixture(scope="module")
def long_history(tmp_path_factory) -> Path:
    db, _ = build(tmp_path_factory.mktemp("long"), 400, 2000)
    return db


def test_verify_reports_each_envelope_to_its_progress_callback(long_history):
    seen = []
    ledger = Ledger.open(long_history, readonly=True)
    try:
        verify_ledger(ledger, progress=lambda done, total: seen.append((done, total)))
    finally:
        ledger.close()
    total = seen[0][1]
    assert total >= 400 and [d for d, _ in seen] == list(range(1, total + 1)) and {t for _, t in seen} == {total}


def _on_a_terminal(*args: str) -> str:
    main, child = pty.openpty()
    proc = subprocess.Popen([PBEM, *args], stdin=child, stdout=child, stderr=child)
    os.close(child)
    out = b""
    while True:  # read as it writes: a full pty would block it
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    assert proc.wait(timeout=300) == 0, out[-2000:]
    return out.decode(errors="replace")


@pytest.mark.parametrize("command", ["verify", "audit"])
def test_a_long_replay_shows_a_bar_on_a_terminal_and_nothing_in_a_script(long_history, command):
    shown = _on_a_terminal(command, str(long_history))
    assert f"{'verifying' if command == 'verify' else 'auditing'}" in shown and "100%" in shown
    quiet = subprocess.run([PBEM, command, str(long_history)], capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and "100%" not in quiet.stderr and "verifying" not in quiet.stderr
