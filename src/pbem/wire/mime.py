"""A plain message written without the ``email`` package: the cold ``pbem play`` writes its turn
file's mail, and importing ``email`` cost it about 8 ms.

``plain`` writes only what it can write exactly as ``email`` does (``pbem.mailbox.mail.by_email``: an
``EmailMessage`` under ``pbem.mailbox.mail.email_policy``, its text set, text files attached):
headers of printable ASCII with bare addresses and message ids, text of printable ASCII in
lines short enough to travel as they are (7bit), file names of letters, digits and ``._-``.
For anything else it returns None and the caller composes with ``email``, as before.
``tests/test_mime.py`` holds it to ``email``'s bytes over random messages.
"""

from __future__ import annotations

import os
import re
import sys

MAX_LINE = 998  # pbem.mailbox.mail.email_policy's max_line_length
_ADDRESS = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_ID = re.compile(r"<[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>")
_WORDS = re.compile(r"[!-~]+(?: [!-~]+)*")  # printable ASCII, one space between words
_TEXT = re.compile(r"[ -~\n]*")
_FILE = re.compile(r"[A-Za-z0-9._-]+")
_FORMS = {"from": _ADDRESS, "to": _ADDRESS, "message-id": _ID, "references": _ID}  # parsed by email: kept simple
_WIDTH = len(repr(sys.maxsize - 1))  # email.generator's boundary: its digits


def is_address(value: str) -> bool:
    """A bare address (``a@b.c``, no name): one this writer writes as it is."""
    return bool(_ADDRESS.fullmatch(value))


def message_id(idstring: str, domain: str) -> str:
    """A message id of ``email.utils.make_msgid``'s form (hundredths of a second, process id, 64
    random bits), without importing it (it brings ``socket`` and ``random``)."""
    import time

    return f"<{int(time.time() * 100)}.{os.getpid()}.{int.from_bytes(os.urandom(8), 'big')}.{idstring}@{domain}>"


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date(when=None) -> str:
    """A Date header's value (RFC 5322 requires one), as ``email.utils.format_datetime`` writes it:
    ``when`` (an aware datetime), by default now in the local time zone."""
    from datetime import datetime

    when = when or datetime.now().astimezone()
    zone = when.strftime("%z") if when.tzinfo is not None else "-0000"
    return (f"{_DAYS[when.weekday()]}, {when.day:02d} {_MONTHS[when.month - 1]} {when.year:04d} "
            f"{when.hour:02d}:{when.minute:02d}:{when.second:02d} {zone}")


def _text(text: str) -> str | None:
    """What ``set_content`` keeps of ``text`` as 7bit: its lines, each ended by a newline."""
    if not _TEXT.fullmatch(text):
        return None
    lines = text.split("\n")
    if lines[-1] == "":  # as str.splitlines: a final newline ends the last line, it adds none
        lines.pop()
    if any(len(line) > MAX_LINE for line in lines):
        return None
    return "\n".join(lines) + "\n"


def _boundary(texts: list[str]) -> str:
    """A boundary of ``email.generator``'s form that no text holds."""
    while True:
        token = int.from_bytes(os.urandom(8), "big") % sys.maxsize
        boundary = "=" * 15 + f"{token:0{_WIDTH}d}" + "=="
        if not any("--" + boundary in text for text in texts):
            return boundary


def plain(headers: list[tuple[str, str]], body: str, attachments: list[tuple[str, str]]) -> bytes | None:
    """The message ``email`` would write for ``headers`` (in order), the text ``body`` and the text
    files ``attachments`` ((file name, text) pairs, one at least), or None where this writer
    cannot be sure to write the same."""
    lines = []
    for name, value in headers:
        form = _FORMS.get(name.lower(), _WORDS)
        if not (re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", name) and form.fullmatch(value)
                and "=?" not in value and len(name) + 2 + len(value) <= MAX_LINE):
            return None
        lines.append(f"{name}: {value}\n")
    content = _text(body)
    files = [(name, _text(text)) for name, text in attachments]
    if content is None or any(text is None or not _FILE.fullmatch(name) for name, text in files):
        return None
    if not files:  # a turn file's mail has one at least
        return None
    part = 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 7bit\n'
    boundary = _boundary([content] + [text for _, text in files])
    out = lines + ["MIME-Version: 1.0\n", f'Content-Type: multipart/mixed; boundary="{boundary}"\n', "\n",
                   f"--{boundary}\n", part, "\n", content]
    for name, text in files:
        out += [f"\n--{boundary}\n", part, f'Content-Disposition: attachment; filename="{name}"\n',
                "MIME-Version: 1.0\n", "\n", text]
    out.append(f"\n--{boundary}--\n")
    return "".join(out).encode("ascii")
