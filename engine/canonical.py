"""Canonical JSON: the one byte form that is signed, hashed and compared.

Sorted keys, no insignificant whitespace, UTF-8, and only the JSON types whose
encoding is unambiguous everywhere: objects with string keys, arrays, strings,
integers, booleans and null.  Floats are refused because their text form is
not stable across languages and versions.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any


class NotCanonical(ValueError):
    """A value that has no canonical JSON form (a float, a non-string key...)."""


def _check(value: Any, path: str) -> None:
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonical(f"{path}: key {key!r} is not a string")
            _check(item, f"{path}.{key}")
        return
    raise NotCanonical(f"{path}: {type(value).__name__} has no canonical JSON form")


def canonical_json(value: Any, *, strict: bool = True) -> bytes:
    """Encode ``value`` canonically.

    ``strict=False`` skips the type walk, for values already known to be
    plain JSON (states the engine itself produced; tests check they are).

    >>> canonical_json({"b": 1, "a": [True, None, "é"]})
    b'{"a":[true,null,"\\xc3\\xa9"],"b":1}'
    """
    if strict:
        _check(value, "$")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _no_float(text: str) -> Any:
    raise NotCanonical(f"number {text} is not an integer")


MAX_DEPTH = 48  # arrays and objects inside one another: far beyond any game's need, far below the stack
MAX_INT = 2**63 - 1  # what SQLite and every JSON reader we care about can hold
_LONG_NUMBER = re.compile(rb"\d{19}")  # 2**63 has 19 digits: a shorter run is always in bounds


def _bounded(value: Any, max_depth: int) -> None:
    """Depth and integer bounds, walked without recursion (a hostile value cannot blow the stack)."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            items = item.values()
        elif isinstance(item, list):
            items = item
        else:
            if isinstance(item, int) and not isinstance(item, bool) and not -MAX_INT <= item <= MAX_INT:
                raise NotCanonical(f"integer out of range (more than {MAX_INT.bit_length()} bits)")
            continue
        if depth > max_depth:
            raise NotCanonical(f"nested deeper than {max_depth} levels")
        todo.extend((child, depth + 1) for child in items)


def parse_json(data: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from outside (not necessarily canonical), within the same depth and integer bounds.

    :raises NotCanonical: not JSON, a float or constant, too deep, an integer out of range.
    """
    try:
        value = json.loads(data, parse_float=_no_float, parse_constant=_no_float)
    except ValueError as e:
        raise NotCanonical(str(e)) from None
    except RecursionError:
        raise NotCanonical(f"nested deeper than {max_depth} levels") from None
    raw = data.encode() if isinstance(data, str) else data
    # The walk only where it could find something: fewer brackets than the depth cannot nest
    # deeper, and no run of 19 digits means no integer past 64 bits (counted in C, ~1 µs).
    if raw.count(b"[") + raw.count(b"{") > max_depth or _LONG_NUMBER.search(raw):
        _bounded(value, max_depth)
    return value


def parse_canonical(data: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON bytes and prove they are canonical (integers only, the one encoding), no deeper
    than ``max_depth`` and with integers that fit in 64 bits.

    :raises NotCanonical: a float or constant, a lone surrogate, too deep, or any other byte form than ours.
    """
    value = parse_json(data, max_depth)  # ValueError includes UnicodeDecodeError
    try:
        again = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError:  # "\ud800": a lone surrogate has no UTF-8 form
        raise NotCanonical("a string holds a lone surrogate (not valid Unicode)") from None
    if again != data:
        raise NotCanonical("not in canonical form (key order, spacing or escapes differ)")
    return value


def digest(tag: str, *parts: bytes | str) -> bytes:
    """SHA-256 over a domain tag and length-prefixed parts (no ambiguity between parts)."""
    h = hashlib.sha256(b"pbem/v1/" + tag.encode() + b"\0")
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(4, "big"))
        h.update(data)
    return h.digest()


def state_hash(state: Any) -> str:
    """Hex SHA-256 of a state's canonical JSON."""
    return hashlib.sha256(canonical_json(state, strict=False)).hexdigest()
