"""Waiting for mail, for ``pbem mail run --watch``: IMAP IDLE where the server has it.

Between two runs the mailbox is watched without holding the campaign (a person may play
meanwhile): the IMAP folder with IDLE (RFC 2177), so a turn file is read within seconds of its
arrival; a server without IDLE, or a Maildir, is looked at every few seconds.  The wait also
ends when the outbox holds a message to send (the person signed a turn meanwhile) or after
``seconds`` (IDLE is renewed well inside the 29 minutes a server may allow it).  In a game with
a clock the watcher wakes in time for the next reminder (``until_reminder``).
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import PbemError
from ..play import timebank
from .mail import MailConfig
from .mail_fetch import imap_folder

STEP = 2.0  # seconds between two looks at the outbox (and at a Maildir or a server without IDLE)
LONGEST = 20 * 60  # one IDLE at most this long (RFC 2177: a server may end it after 29 minutes)


def wait_for_mail(config: MailConfig, password: str | None, maildir: Path | None, seconds: float, total: int,
                  outbox: Callable[[], bool]) -> str:
    """Wait until new mail may be there (``"mail"``), the outbox holds a message (``"outbox"``)
    or ``seconds`` have passed (``"time"``).  ``total``: the messages the folder held at the last
    read, so mail that came between that read and this wait is seen at once.

    :raises PbemError: the server cannot be reached (the caller waits, then tries again)."""
    deadline = time.monotonic() + max(0.0, seconds)
    if maildir is not None:
        return _poll(lambda: _count(Path(maildir)) != total, deadline, outbox)
    with imap_folder(config, password, "pbem mail run --maildir FOLDER") as client:
        exists = _exists(client)
        if exists is not None and exists != total:
            return "mail"
        if b"IDLE" not in {c.encode() if isinstance(c, str) else c for c in client.capabilities}:
            client.logout()
            return _poll(lambda: False, deadline, outbox)
        return _idle(client, min(deadline, time.monotonic() + LONGEST), outbox)


def until_reminder(campaign) -> float | None:
    """Seconds until the time left to the side that owes falls to its next reminder level (a
    fraction of what its move began with, or zero), or None without a clock or once at zero.
    Leave is not counted: waking early only finds nothing to say."""
    clock = timebank.read(campaign)
    if clock is None or clock.owed_by is None or clock.left <= 0:
        return None
    marks = [clock.began_with * p // 100 for p in timebank.REMIND] + [0]
    return float(max(1, min(clock.left - m for m in marks if m < clock.left)))


def _exists(client) -> int | None:
    data = client.untagged_responses.get("EXISTS") or [b""]
    try:
        return int(data[-1])
    except ValueError:
        return None


def _count(folder: Path) -> int:
    from .mailbox_in import maildir_messages  # as pbem mail fetch counts them

    return len(maildir_messages(folder)) if folder.is_dir() else 0


def _poll(changed: Callable[[], bool], deadline: float, outbox: Callable[[], bool]) -> str:
    while time.monotonic() < deadline:
        if changed():
            return "mail"
        if outbox():
            return "outbox"
        time.sleep(min(STEP, max(0.0, deadline - time.monotonic())))
    return "mail" if changed() else "time"


def _idle(client, deadline: float, outbox: Callable[[], bool]) -> str:
    """One IDLE command: wait for the server to say the folder grew."""
    import imaplib

    tag = b"PBEMW%d" % time.monotonic_ns()  # imaplib before Python 3.14 has no idle(): sent by hand, own tag
    why = "time"
    try:
        client.send(tag + b" IDLE\r\n")
        if not client.readline().startswith(b"+"):
            raise PbemError("reading mail failed", "the server refused IDLE", code="imap")
        sock = client.socket()
        while time.monotonic() < deadline:
            ready = getattr(sock, "pending", lambda: 0)() or \
                select.select([sock], [], [], min(STEP, max(0.0, deadline - time.monotonic())))[0]
            if ready:
                line = client.readline()
                if not line:
                    raise PbemError("reading mail failed", "the server closed the connection", code="imap")
                if b"EXISTS" in line.upper() or b"RECENT" in line.upper():
                    why = "mail"
                    break
            elif outbox():
                why = "outbox"
                break
        client.send(b"DONE\r\n")
        for _ in range(1000):  # the server's answer to IDLE ends it; anything before it is read past
            line = client.readline()
            if not line or line.startswith(tag):
                break
    except (OSError, imaplib.IMAP4.error) as e:
        raise PbemError("reading mail failed", f"while waiting for mail: {e}", code="imap") from None
    return why
