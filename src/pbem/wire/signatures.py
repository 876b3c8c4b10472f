"""Ed25519 checks of a history on a second core, while this process replays it.

``pbem verify`` spends about a third of its time in signature checks.  They need
nothing from the replay, so a forked worker process checks the envelopes of a long
history ahead while the replay goes on here; a short one, which would not repay the
fork, is checked ahead by a thread (``Ahead``: libsodium releases the GIL while it checks).
Both take only libsodium's word (``envelope.sodium_accepts``).
What the worker says is only ever used one way:
a payload it found well signed is not checked a second time.  Anything else (a bad
signature, a payload too short, a worker that died or was never started) is
checked here as if there were no worker, so every refusal is the one it was, with
the same reason, for the same first bad envelope.

The worker keeps no descriptor but its two pipes: it holds neither the campaign's
lock nor its database, and when this process ends, however it ends, the worker
reads the end of its input and exits.  It is started only where it can help and
cannot harm: a history long enough to repay the fork, a second core, ``os.fork``,
and no other thread in this process (a thread holding a lock at the fork would
leave the child stuck).  ``PBEM_VERIFY_WORKER=0`` turns it off (the benchmark
measures both ways).
"""

from __future__ import annotations

import os
import queue
import signal
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from .envelope import sodium_accepts

BATCH = 128  # envelopes per message to the worker: a few ms of work
AHEAD = 3  # batches in flight while the oldest is replayed: memory stays flat in the history
MIN_ENVELOPES = 400  # below this the fork and the messages cost more than they save
_NONE = 0xFFFFFFFF  # the length that stands for "no payload to check"


def well_signed(payloads: list[bytes | None]) -> list[bool]:
    """Which payloads carry a signature libsodium accepts (False for anything else, which the
    replay checks again and pyca decides)."""
    return [payload is not None and sodium_accepts(payload) for payload in payloads]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def wanted(total: int) -> bool:
    """Whether a history of ``total`` envelopes is checked with a worker on this machine now."""
    if os.environ.get("PBEM_VERIFY_WORKER", "").strip() == "0" or total < MIN_ENVELOPES:
        return False
    return cores() >= 2 and hasattr(os, "fork") and threading.active_count() == 1


class Ahead:
    """Signature checks on a thread of this process, for a history too short to repay a fork
    (or where there is no fork): libsodium releases the GIL while it checks, so on a second core
    the thread checks while the replay goes on here.  The replay never waits for it: an envelope
    the thread has not found well signed by the time the replay takes it (not reached, or its
    check still under way) is checked here, as without the thread, and the thread skips the
    envelopes the replay has taken.

    With a second core free, the thread keeps well ahead.  If the replay catches up with it all
    the same (past the first ``HEAD_START`` envelopes, taken while it starts), that core is busy
    with other work: the thread then only takes turns with the replay on this one, holding the
    GIL as it goes (on a shared machine that cost up to a third more than no thread), so it stops
    and the replay checks the rest of the window itself.  Envelopes are read ``WINDOW`` at a
    time (memory stays flat), each window with a thread of its own."""

    WINDOW = 256
    HEAD_START = 2

    def checked(self, items: Iterable[tuple[Any, bytes | None]]) -> Iterator[tuple[Any, bool]]:
        """As ``Checker.checked``."""
        rows = iter(items)
        while window := list(islice(rows, self.WINDOW)):  # read here: the cursor is this thread's
            yield from self._window(window)

    @classmethod
    def _window(cls, items: list[tuple[Any, bytes | None]]) -> Iterator[tuple[Any, bool]]:
        found = [False] * len(items)  # True only ever for a payload the thread found well signed
        # One item of a list each, read and written whole (the GIL makes that atomic): how many
        # envelopes the replay has taken (the thread skips them), how many the thread has looked
        # at, and whether it is to stop.
        taken, reached, stop = [0], [0], [False]

        def run() -> None:  # as little as can be between the checks: the GIL is held there
            for i, (_, payload) in enumerate(items):
                if stop[0]:
                    return
                if i >= taken[0] and payload is not None:
                    found[i] = sodium_accepts(payload)
                reached[0] = i + 1

        thread = threading.Thread(target=run, name="pbem-signatures", daemon=True)
        thread.start()
        try:
            for i, (item, _) in enumerate(items):
                taken[0] = i + 1  # from here the thread leaves it; a verdict it gives later is not read
                if reached[0] <= i and i >= cls.HEAD_START:
                    stop[0] = True  # caught up: no second core to spare now
                yield item, found[i]
        finally:
            stop[0] = True
            thread.join()  # at most the check under way: no thread outlives its window

    def close(self) -> None:
        """Nothing to end: each window's thread is joined when the window is done or dropped."""


def checker(total: int, worker: bool | str | None) -> Checker | Ahead | None:
    """What checks the signatures of a history of ``total`` envelopes ahead of the replay: a
    worker process (``wanted``), else a thread where a second core may run it, else nothing.
    ``worker``: True, "thread" or False for the process, the thread or nothing, whatever the
    machine."""
    if worker == "thread":
        return Ahead()
    if worker is not None:
        return Checker() if worker else None
    if wanted(total):
        return Checker()
    off = os.environ.get("PBEM_VERIFY_WORKER", "").strip() == "0"
    return Ahead() if cores() >= 2 and not off else None


# --- the pipes: a batch is a count, then each payload's length and bytes; an answer is a count
# and one byte per payload (1: well signed).

def _read(fd: int, n: int) -> bytes:
    """Exactly ``n`` bytes, or fewer at the end of the pipe."""
    chunks, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _encode(payloads: list[bytes | None]) -> bytes:
    parts = [len(payloads).to_bytes(4, "big")]
    for payload in payloads:
        if payload is None:
            parts.append(_NONE.to_bytes(4, "big"))
        else:
            parts += (len(payload).to_bytes(4, "big"), payload)
    return b"".join(parts)


def _serve(requests: int, answers: int) -> None:
    """The worker's loop: a batch in, its answers out, until the end of the input."""
    while True:
        head = _read(requests, 4)
        if len(head) < 4:
            return
        payloads: list[bytes | None] = []
        for _ in range(int.from_bytes(head, "big")):
            size = int.from_bytes(_read(requests, 4), "big")
            payloads.append(None if size == _NONE else _read(requests, size))
        found = well_signed(payloads)
        _write(answers, len(found).to_bytes(4, "big") + bytes(found))


class Checker:
    """A worker process with batches of payloads to check; ``checked(items)`` yields each item
    with whether its payload was found well signed, in order, keeping ``AHEAD`` batches out."""

    def __init__(self) -> None:
        to_worker, self._requests = os.pipe()
        self._answers, from_worker = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the worker: nothing of this process's but its two pipes and stderr
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
                start = 0
                for keep in sorted({2, to_worker, from_worker}):
                    os.closerange(start, keep)
                    start = keep + 1
                os.closerange(start, max(1 << 16, os.sysconf("SC_OPEN_MAX")))
                _serve(to_worker, from_worker)
                code = 0
            finally:
                os._exit(code)
        os.close(to_worker)
        os.close(from_worker)
        self.alive = True
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._sender = threading.Thread(target=self._send, name="pbem-signatures", daemon=True)
        self._sender.start()

    def _send(self) -> None:
        """Writes each batch in the background: the replay never waits on a full pipe."""
        while (data := self._outbox.get()) is not None:
            try:
                _write(self._requests, data)
            except OSError:  # the worker is gone: its batches are checked in the parent
                return

    def checked(self, items: Iterable[tuple[Any, bytes | None]]) -> Iterator[tuple[Any, bool]]:
        """``items``: (anything, payload or None); yields (anything, found well signed)."""
        out: deque[list[tuple[Any, bytes | None]]] = deque()
        batch: list[tuple[Any, bytes | None]] = []
        for item in items:
            batch.append(item)
            if len(batch) == BATCH:
                self._submit(batch)
                out.append(batch)
                batch = []
                if len(out) > AHEAD:
                    yield from self._results(out.popleft())
        if batch:
            self._submit(batch)
            out.append(batch)
        while out:
            yield from self._results(out.popleft())

    def _submit(self, batch: list[tuple[Any, bytes | None]]) -> None:
        if self.alive:  # else nothing would read it: the batch is checked here
            self._outbox.put(_encode([payload for _, payload in batch]))

    def _results(self, batch: list[tuple[Any, bytes | None]]) -> Iterator[tuple[Any, bool]]:
        found = b""
        if self.alive:
            head = _read(self._answers, 4)
            found = _read(self._answers, int.from_bytes(head, "big")) if len(head) == 4 else b""
            if len(found) != len(batch):  # the worker died: everything from here is checked here
                self.alive = False
                found = b""
        for i, (item, _) in enumerate(batch):
            yield item, found[i:i + 1] == b"\x01"

    def close(self) -> None:
        """Ends the worker (the end of its input) and waits for it."""
        if self.pid is None:
            return
        pid, self.pid = self.pid, None
        os.close(self._answers)  # a worker still busy stops at its next answer
        self._outbox.put(None)
        self._sender.join()
        os.close(self._requests)  # the end of its input: it exits
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:  # pragma: no cover - already reaped
            pass
