"""Bounds on everything pbem reads from outside: mail, turn files, decoded content.

Anything that arrives by mail or as a file is hostile until checked.  Before it is
parsed, decoded or stored it is held to the bounds below, so that no input can make
pbem use unbounded memory, time or stack.  Past a bound the input is refused with a
one-line reason (a mailbox run records the message as refused and goes on with the
next one).

The sizes a player may legitimately need more of can be raised with an environment
variable named ``PBEM_`` + the constant's name (``PBEM_MAX_MAIL_BYTES=50000000``);
the depth bounds protect the program itself and are fixed.  ``value(NAME)`` is the
bound in force.
"""

from __future__ import annotations

import os

from .errors import PbemError

MAX_MAIL_BYTES = 10 * 1024 * 1024
"""The largest message (a mail, a saved .eml, one message of an mbox, piped input) read, and
the largest text searched for turn files (a file given to ``pbem ingest``), in bytes: 10 MiB.

A turn file is a few kilobytes; a message with a turn file and a photo of the map fits
easily.  Larger messages are refused before they are parsed (over IMAP, before they are
downloaded).  Override: ``PBEM_MAX_MAIL_BYTES``."""

MAX_MIME_PARTS = 500
"""The most MIME parts one message may have (counting those of forwarded messages): 500.
Override: ``PBEM_MAX_MIME_PARTS``."""

MAX_MIME_DEPTH = 20
"""The deepest nesting of MIME parts and forwarded messages inside one message: 20
(a message forwarded five times is about 10 deep).  Fixed."""

MAX_TURN_FILE_BYTES = 1024 * 1024
"""The largest armored block (one turn file, from its BEGIN line to its END line) read,
in characters: 1 MiB.  Checked where blocks are found, before anything is decoded.  The
largest honest turn file, a genesis carrying a data pack, is a few tens of kilobytes.
Override: ``PBEM_MAX_TURN_FILE_BYTES``."""

MAX_JSON_DEPTH = 64
"""The deepest nesting of arrays and objects in JSON decoded from outside (the signed
content of a turn file): 64.  Honest content is under 10 deep.  Fixed."""

OVERRIDABLE = ("MAX_MAIL_BYTES", "MAX_MIME_PARTS", "MAX_TURN_FILE_BYTES")


class LimitError(PbemError):
    """An input past one of the bounds above."""

    code = "too-large"


def value(name: str) -> int:
    """The bound ``name`` in force: the environment's ``PBEM_<name>`` if set, else the default.

    :raises PbemError: the environment variable is not a positive whole number.
    """
    default = globals()[name]
    if name not in OVERRIDABLE:
        return default
    text = os.environ.get(f"PBEM_{name}", "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise PbemError(f"PBEM_{name} is not a positive whole number", f"it is {text[:40]!r}; the default is {default}",
                        code="bad-config")
    return int(text)


def size(n: int) -> str:
    """A byte count as a person reads it (``12.5 MB``)."""
    if n < 10_000:
        return f"{n} bytes"
    if n < 1_000_000:
        return f"{n / 1000:.0f} kB"
    return f"{n / 1_000_000:.1f} MB"


def text_bounds() -> tuple[int, int]:
    """``MAX_MAIL_BYTES`` and ``MAX_TURN_FILE_BYTES`` in force: what a text of turn files is read
    within, read once by a caller that reads many texts (verify, every stored envelope)."""
    return value("MAX_MAIL_BYTES"), value("MAX_TURN_FILE_BYTES")


def check_size(n: int, name: str, what: str, bound: int | None = None) -> None:
    """Refuse ``what`` (e.g. "the message") of ``n`` bytes if it is past bound ``name`` (``bound``:
    its value in force, when the caller has read it already).

    :raises LimitError: too large; the detail names the bound and how to raise it.
    """
    bound = value(name) if bound is None else bound
    if n > bound:
        raise LimitError(f"{what} is too large", f"{size(n)}; the limit is {size(bound)} "
                         f"(set PBEM_{name} to allow more)", code="too-large")
