"""One writer at a time per campaign, and the named points where the crash tests kill pbem.

**The lock.**  Every command that writes to a campaign (``Campaign.open`` without ``readonly``,
``pbem new``, ``pbem join``) first takes an exclusive ``fcntl.flock`` on ``campaign.lock`` in the
campaign directory and keeps it until the command ends (``Campaign.close``; the operating system
drops it if the process dies, even by kill -9).  Another command that wants it waits up to
``PBEM_LOCK_WAIT`` seconds (default 5), then is refused with ``busy``.  Reading commands
(status, report, verify, audit) take no lock: every file is replaced in one rename and the
database in one transaction, so they see the campaign before or after a change, never half of it.
(One that finds a write's journal takes it for a moment, to let SQLite roll back a killed write's
hot journal, which a read-only connection cannot: ``Ledger.open``.)

Inside one process the lock is counted, not taken twice: a process that already holds it (the
demo, the test suite running commands in-process) may open the same campaign again.

**Crash points.**  ``crash_point(name)`` does nothing unless the environment variable
``PBEM_CRASH_AT`` names that point; then the process ends at once with ``os._exit(CRASH_EXIT)``,
as a kill -9 would (no cleanup, no flush, no ``finally``).  The crash-safety tests use it to stop
``pbem play`` and ``pbem ingest`` between two steps; nothing else sets it.  The points:

    sign:before-store      a turn is signed (its hidden choices remembered), not yet stored
    play:stored            the turn is in the ledger; its sent/ file is not written
    play:sent              the sent/ file is written; the outbox mail is not
    play:outbox            the outbox mail is written; the ledger still says it is owed
    ingest:stored          accepted envelopes are in the ledger; no received/ file is written
    ingest:received        the first received/ file is written, not the others
    secrets:write          half of a new secrets file (or draft) is in its temporary file
    create:secrets         pbem new/join: the secrets are in place, the database is not
    create:files           pbem new/join: the turn files are written, the database is not in place
    mail:answered          pbem mail run: an answer is written to the outbox, its message not yet marked read
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from ..errors import PbemError

LOCK_NAME = "campaign.lock"
CRASH_EXIT = 197  # what a crash point exits with (the tests tell it from a refusal, 1, or a usage error, 2)
_held: dict[str, list] = {}  # lock file (resolved) -> [file descriptor, count of holders in this process]


def crash_point(name: str) -> None:
    """End the process here, like kill -9, if ``PBEM_CRASH_AT`` names this point (tests only)."""
    if os.environ.get("PBEM_CRASH_AT") == name:
        os._exit(CRASH_EXIT)


def wait_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("PBEM_LOCK_WAIT", "5")))
    except ValueError:
        return 5.0


class CampaignLock:
    """The exclusive write lock of one campaign directory (release it once: ``release``)."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / LOCK_NAME
        self.key = ""

    def acquire(self, wait: float | None = None) -> CampaignLock:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        key = str(self.path.resolve())
        if key in _held:
            _held[key][1] += 1
            self.key = key
            return self
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise PbemError("cannot lock the campaign", f"{self.path}: {e.strerror or e}", code="unwritable") from None
        wait = wait_seconds() if wait is None else wait
        deadline = time.monotonic() + wait
        delay = 0.01
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise PbemError("the campaign is busy",
                                    f"another pbem command is changing {self.path.parent} (waited {wait:g} s for "
                                    f"{LOCK_NAME}); run this again when it has finished", code="busy") from None
                time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
                delay = min(delay * 2, 0.1)
            except OSError as e:
                os.close(fd)
                raise PbemError("cannot lock the campaign", f"{self.path}: {e.strerror or e}",
                                code="unwritable") from None
        _held[key] = [fd, 1]
        self.key = key
        return self

    def release(self) -> None:
        key, self.key = self.key, ""
        entry = _held.get(key)
        if not entry:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _held[key]
            os.close(entry[0])  # closing the descriptor drops the flock
