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
five fields, and ``pbem.envelope`` checks them against the signed content.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import NamedTuple

from .errors import ArmorError

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


def find_blocks(text: str) -> list[Block]:
    """Every turn-file block in ``text`` (a mail body, a file, a quoted reply).

    :raises ArmorError: a block is begun but never ended, or is malformed.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if _clean(lines[i]) != BEGIN:
            i += 1
            continue
        for j in range(i + 1, len(lines)):
            cleaned = _clean(lines[j])
            if cleaned == END:
                blocks.append(_parse(lines[i:j + 1]))
                i = j + 1
                break
            if cleaned == BEGIN:
                raise ArmorError("truncated turn file", f"a block begun on line {i + 1} has no END line before the next BEGIN", code="truncated")
        else:
            raise ArmorError("truncated turn file", f"the block begun on line {i + 1} has no '{END}' line", code="truncated")
    return blocks


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
    if not body or not _B64.match(body) or len(body) % 4 or any(len(x) != WIDTH for x in lines[7:-2]):
        return None
    try:
        payload = base64.b64decode(body, validate=True)
    except binascii.Error:
        return None
    if base64.b64encode(payload).decode() != body:
        return None
    return Block(headers, payload, "\n".join(lines) + "\n")


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
