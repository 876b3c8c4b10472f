"""Ed25519 checks of a long history on a second core, while this process replays it.

``pbem verify`` spends about a third of its time in signature checks.  They need
nothing from the replay, so a forked worker process checks the envelopes ahead
while the replay goes on here.  What the worker says is only ever used one way:
a payload it found well signed is not checked a second time.  Anything else (a bad
signature, a payload too short, a worker that died or was never started) is
checked here as if there were no worker, so every refusal is the one it was, with
the same reason, for the same first bad envelope.

The worker is started only where it can help and cannot harm: a history long
enough to repay the fork, a second core, fork available, and no other thread in
this process (a thread holding a lock at the fork would leave the child stuck).
``PBEM_VERIFY_WORKER=0`` turns it off (the benchmark measures both ways).
"""

from __future__ import annotations

import os
import signal
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from .envelope import check_signature
from .errors import PbemError

BATCH = 128  # envelopes per message to the worker: a few ms of work, a few hundred kB at most
AHEAD = 3  # batches in flight while the oldest is replayed: memory stays flat in the history
MIN_ENVELOPES = 400  # below this the fork and the messages cost more than they save


def well_signed(payloads: list[bytes | None]) -> list[bool]:
    """In the worker: which payloads carry a good signature (False for anything else)."""
    out = []
    for payload in payloads:
        if payload is None:
            out.append(False)
            continue
        try:
            check_signature(payload)
        except PbemError:
            out.append(False)
        else:
            out.append(True)
    return out


def _quiet() -> None:
    """The worker leaves Ctrl-C to the parent, which stops it (no second traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wanted(total: int) -> bool:
    """Whether a history of ``total`` envelopes is checked with a worker on this machine now."""
    if os.environ.get("PBEM_VERIFY_WORKER", "").strip() == "0" or total < MIN_ENVELOPES:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    if cores < 2 or threading.active_count() > 1:
        return False
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


class Checker:
    """A worker process with batches of payloads to check; ``checked(items)`` yields each item
    with whether its payload was found well signed, in order, keeping ``AHEAD`` batches out."""

    def __init__(self) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.pool: Any = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=_quiet)

    def checked(self, items: Iterable[tuple[Any, bytes | None]]) -> Iterator[tuple[Any, bool]]:
        """``items``: (anything, payload or None); yields (anything, found well signed)."""
        out: deque = deque()
        batch: list[tuple[Any, bytes | None]] = []
        for item in items:
            batch.append(item)
            if len(batch) == BATCH:
                out.append((batch, self._submit(batch)))
                batch = []
                if len(out) > AHEAD:
                    yield from self._results(*out.popleft())
        if batch:
            out.append((batch, self._submit(batch)))
        while out:
            yield from self._results(*out.popleft())

    def _submit(self, batch: list[tuple[Any, bytes | None]]) -> Any:
        if self.pool is None:
            return None
        try:
            return self.pool.submit(well_signed, [payload for _, payload in batch])
        except Exception:  # the worker is gone (killed, out of memory): the rest is checked here
            self.close()
            return None

    def _results(self, batch: list[tuple[Any, bytes | None]], future: Any) -> Iterator[tuple[Any, bool]]:
        try:
            found = future.result() if future is not None else None
        except Exception:
            self.close()
            found = None
        if found is None or len(found) != len(batch):
            found = [False] * len(batch)
        for (item, _), ok in zip(batch, found):
            yield item, ok is True

    def close(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            pool.shutdown(wait=True, cancel_futures=True)
