"""The text form of a turn file: a block that survives what mail does to text.

    -----BEGIN PBEM TURN-----
    Game: 9f0c...        (readable header: must agree with the signed content)
    Seq: 4
    From: allied
    Kind: turn
    Signer: ABCD-EFGH-IJKL-MNOP

    <base64 of signature + public key + canonical JSON, 64 columns>
    -----END PBEM TURN-----

Mail may re-wrap lines, quote them with "> ", turn LF into CRLF and add
trailing spaces; the reader ignores all whitespace and leading quote marks,
so those changes are harmless.  Any other change to a character is refused:
the base64 must be in its one canonical form, the header must be exactly the
five fields, and ``pbem.wire.envelope`` checks them against the signed content.

A block is never dropped silently: one begun but not ended, ended but not begun
(its BEGIN line lost or changed), or larger than ``pbem.limits.MAX_TURN_FILE_BYTES``
is damaged.  ``find_blocks`` refuses a text holding a damaged block, naming it;
``scan`` returns the good blocks and reports the damaged ones (for a mailbox,
where one message may quote other mail).  Sizes are checked before decoding.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import NamedTuple

from ..errors import ArmorError

BEGIN = "-----BEGIN PBEM TURN-----"
END = "-----END PBEM TURN-----"
HEADERS = ("Game", "Seq", "From", "Kind", "Signer")
_B64 = re.compile(r"^[A-Za-z0-9+/]*={0,2}$")
WIDTH = 64


class Block(NamedTuple):
    headers: dict[str, str]
    payload: bytes
    raw: str  # the block's lines exactly as found, markers included


def armor(headers: dict[str, str], payload: bytes) -> str:
    """The armored text of a payload, ending with a newline."""
    body = base64.b64encode(payload).decode()
    lines = [BEGIN, *(f"{key}: {headers[key]}" for key in HEADERS), ""]
    lines += [body[i:i + WIDTH] for i in range(0, len(body), WIDTH)]
    lines.append(END)
    return "\n".join(lines) + "\n"


def _clean(line: str) -> str:
    return line.lstrip(" \t>").strip()


class Damaged(NamedTuple):
    """A block that was begun (or ended) but cannot be read: where, and why."""

    line: int  # the 1-based line where the damaged block starts in the text
    error: ArmorError
    kind: str = "damaged"  # or "no-begin": an END line that closes no block


class Found(NamedTuple):
    blocks: list[Block]
    damaged: list[Damaged]


def find_blocks(text: str, bounds: tuple[int, int] | None = None) -> list[Block]:
    """Every turn-file block in ``text`` (a mail body, a file, a quoted reply).

    ``bounds``: ``pbem.limits.text_bounds()``, when the caller reads many texts.

    :raises ArmorError: a block is begun but never ended, ended but never begun (its BEGIN
        line damaged), too large (``pbem.limits.MAX_TURN_FILE_BYTES``) or malformed: the
        first such block, named in the reason.
    """
    alone = _alone_as_written(text, bounds)
    if alone is not None:
        return [alone]
    found = scan(text)
    if found.damaged:
        first = found.damaged[0]
        if not found.blocks and all(d.kind == "no-begin" for d in found.damaged):
            raise ArmorError("no turn file found", f"{first.error}: {first.error.detail}", code="no-turn-file")
        raise first.error
    return found.blocks


def scan(text: str) -> Found:
    """Every block in ``text``, and every damaged one, without refusing the whole text.

    For a mailbox, where one message may quote a mangled turn file beside a good one:
    the good blocks are read, each damaged one is reported with the reason
    ``find_blocks`` would give.  A block's text is measured before it is decoded.

    :raises LimitError: the whole text is larger than ``pbem.limits.MAX_MAIL_BYTES``.
    """
    from .. import limits

    limits.check_size(len(text), "MAX_MAIL_BYTES", "the text to read")  # a file or a message: bounded as one
    bound = limits.value("MAX_TURN_FILE_BYTES")
    lines = text.splitlines()
    n = len(lines)
    blocks: list[Block] = []
    damaged: list[Damaged] = []
    i = 0
    while i < n:
        line = lines[i]
        if "PBEM" not in line and "pbem" not in line:  # the common case, cheaply
            i += 1
            continue
        cleaned = _clean(line)
        if cleaned == END:
            damaged.append(Damaged(i + 1, _orphan_end(lines, i, bound), "no-begin"))
            i += 1
            continue
        if cleaned != BEGIN:
            if _begin_like(cleaned):
                j, closed = _skip_block(lines, i + 1)
                what = _describe(lines[i:j + 1 if closed else j])
                damaged.append(Damaged(i + 1, ArmorError(
                    f"damaged turn file{what}: its BEGIN line is damaged",
                    f"line {i + 1} reads {_show(cleaned)}, expected '{BEGIN}'")))
                i = j + 1 if closed else j
                continue
            i += 1
            continue
        size = len(line)
        j = i + 1
        stop = None
        while j < n:
            here = lines[j]
            if "PBEM" in here or "pbem" in here:  # a marker, or a damaged one (never in base64 nor header)
                cleaned = _clean(here)
                if cleaned == END:
                    stop = "end"
                    break
                if cleaned == BEGIN or _begin_like(cleaned):
                    stop = "begin"
                    break
            size += len(here) + 1
            j += 1
        if stop == "end" and size + len(lines[j]) > bound:
            size += len(lines[j])
            damaged.append(Damaged(i + 1, ArmorError(
                f"turn file{_describe(lines[i:i + 8])} too large",
                f"the block begun on line {i + 1} is {limits.size(size)}; the limit is {limits.size(bound)} "
                "(set PBEM_MAX_TURN_FILE_BYTES to allow more)", code="too-large")))
            i = j + 1
        elif stop == "end":
            try:
                blocks.append(_parse(lines[i:j + 1]))
            except ArmorError as e:
                if len(lines) > j - i + 1:  # not alone in the text: say which block
                    where = f"the block{_describe(lines[i:j + 1])} on lines {i + 1}-{j + 1}"
                    e.detail = f"{where}: {e.detail}" if e.detail else where
                damaged.append(Damaged(i + 1, e))
            i = j + 1
        elif stop == "begin":
            damaged.append(Damaged(i + 1, ArmorError(
                "truncated turn file" + _describe(lines[i:j]),
                f"a block begun on line {i + 1} has no END line before the next BEGIN", code="truncated")))
            i = j
        else:
            damaged.append(Damaged(i + 1, ArmorError(
                "truncated turn file" + _describe(lines[i:min(n, i + 8)]),
                f"the block begun on line {i + 1} has no '{END}' line", code="truncated")))
            i = n
    return Found(blocks, damaged)


# A text that is one block exactly as ``armor`` writes it: the markers, the five header fields
# (a value without whitespace), a blank line, base64 in full lines of WIDTH then the last, and a
# newline after the END marker.
_AS_WRITTEN = re.compile(
    f"{re.escape(BEGIN)}\n" + "".join(f"{key}: (\\S+)\n" for key in HEADERS)
    + f"\n((?:[A-Za-z0-9+/]{{{WIDTH}}}\n)*[A-Za-z0-9+/=]{{1,{WIDTH}}})\n{re.escape(END)}\n")


def _alone_as_written(text: str, bounds: tuple[int, int] | None = None) -> Block | None:
    """The one block of a text that holds nothing else, exactly as ``armor`` writes it (a stored
    envelope, a turn file as sent): what ``scan`` would find, found with one match instead of
    walking every line.  None for anything else, which ``scan`` reads.

    :raises LimitError: the text is larger than ``pbem.limits.MAX_MAIL_BYTES``.
    """
    from .. import limits

    mail_bound, block_bound = bounds or limits.text_bounds()
    limits.check_size(len(text), "MAX_MAIL_BYTES", "the text to read", mail_bound)
    if text.count("PBEM") != 2 or "pbem" in text:
        return None  # no other line holds a marker, or a damaged one (scan looks for these words)
    found = _AS_WRITTEN.fullmatch(text)
    if found is None or len(text) - 2 > block_bound:
        return None  # another shape, or too large (the block's size: its lines without the last newline)
    payload = _canonical_payload(found[len(HEADERS) + 1].replace("\n", ""))
    if payload is None:
        return None  # not the one canonical encoding: scan refuses it with its reason
    return Block(dict(zip(HEADERS, found.groups()[:len(HEADERS)])), payload, text)


def _canonical_payload(body: str) -> bytes | None:
    """What ``body`` decodes to, if it is exactly the one canonical base64 encoding of it; else
    None (the tolerant reading refuses it with its reason).  No character check first: the
    decoder skips what is not base64, and the re-encoding then differs."""
    try:
        payload = binascii.a2b_base64(body)
    except ValueError:  # binascii.Error (the padding), or a character outside ASCII
        return None
    return payload if binascii.b2a_base64(payload, newline=False) == body.encode("ascii") else None


def _begin_like(cleaned: str) -> bool:
    """A line meant as a BEGIN line but changed: dashes, then BEGIN PBEM, and no END marker
    on the same line (prose that names both markers is not one)."""
    squeezed = "".join(cleaned.split()).upper()
    return squeezed.startswith("---") and "BEGINPBEM" in squeezed and "ENDPBEM" not in squeezed


def _skip_block(lines: list[str], j: int) -> tuple[int, bool]:
    """From line ``j``: the index of the END line closing a block (True), or of the next BEGIN
    line or the end of the text (False)."""
    while j < len(lines):
        cleaned = _clean(lines[j])
        if cleaned == END:
            return j, True
        if cleaned == BEGIN or _begin_like(cleaned):
            return j, False
        j += 1
    return j, False


def _orphan_end(lines: list[str], j: int, bound: int) -> ArmorError:
    """The error for an END line that closes no block: its BEGIN line was lost or changed."""
    start, size = j, 0
    while start > 0 and size < bound:
        cleaned = _clean(lines[start - 1])
        if cleaned in (BEGIN, END) or _begin_like(cleaned):
            break
        start -= 1
        size += len(lines[start]) + 1
    what = _describe(lines[start:j + 1])
    return ArmorError(f"truncated turn file{what}: its BEGIN line is missing or damaged",
                      f"the END line on line {j + 1} closes no block (expected a '{BEGIN}' line above it)",
                      code="truncated")


def _describe(lines: list[str]) -> str:
    """' #4 from blue' when the readable header of a damaged block can still be read, else ''."""
    fields: dict[str, str] = {}
    for line in lines[:200]:
        parts = _clean(line).split()
        for key, val in zip(parts, parts[1:]):
            if key in ("Seq:", "From:") and key[:-1] not in fields and len(val) <= 40 and val.isprintable():
                fields[key[:-1]] = val
    if "Seq" in fields and fields["Seq"].isdigit():
        return f" #{fields['Seq']}" + (f" from {fields['From']}" if "From" in fields else "")
    return ""


def _show(line: str) -> str:
    return repr(line if len(line) <= 60 else line[:57] + "...")


def _parse_as_written(lines: list[str]) -> Block | None:
    """The block exactly as ``armor`` writes it (the common case: stored, or sent as a file):
    read it without tokenizing.  Anything else goes the tolerant way."""
    if len(lines) < 9 or lines[6] != "":
        return None
    headers = {}
    for key, line in zip(HEADERS, lines[1:6]):
        prefix = key + ": "
        if not line.startswith(prefix) or " " in line[len(prefix):] or not line[len(prefix):]:
            return None
        headers[key] = line[len(prefix):]
    body = "".join(lines[7:-1])
    if not body or not set(map(len, lines[7:-2])) <= {WIDTH}:
        return None
    payload = _canonical_payload(body)  # a stray character among them: the tolerant way
    return None if payload is None else Block(headers, payload, "\n".join(lines) + "\n")


def _parse(lines: list[str]) -> Block:
    fast = _parse_as_written(lines)
    if fast is not None:
        return fast
    tokens = " ".join(_clean(line) for line in lines[1:-1]).split()
    headers: dict[str, str] = {}
    chunks: list[str] = []
    k = 0
    while k < len(tokens):
        token = tokens[k]
        if token.endswith(":"):
            name = token[:-1]
            if name not in HEADERS:
                raise ArmorError("damaged turn file header", f"unknown header field '{name}'")
            if name in headers:
                raise ArmorError("damaged turn file header", f"header field '{name}' appears twice")
            if k + 1 >= len(tokens):
                raise ArmorError("damaged turn file header", f"header field '{name}' has no value")
            headers[name] = tokens[k + 1]
            k += 2
            continue
        chunks.append(token)
        k += 1
    missing = [h for h in HEADERS if h not in headers]
    if missing:
        raise ArmorError("damaged turn file header", f"missing header field(s): {', '.join(missing)}")
    body = "".join(chunks)
    if not body or not _B64.match(body) or len(body) % 4:
        raise ArmorError("damaged turn file", "the body is not base64 (a character was changed or lost)")
    try:
        payload = base64.b64decode(body, validate=True)
    except binascii.Error as e:
        raise ArmorError("damaged turn file", f"the body is not base64: {e}") from None
    # base64 has spare bits in its last character: insist on the one canonical
    # form so that no changed character, however small, is accepted.
    if base64.b64encode(payload).decode() != body:
        raise ArmorError("damaged turn file", "the body is not in canonical base64 (a character was changed)")
    return Block(headers, payload, "\n".join(lines) + "\n")
