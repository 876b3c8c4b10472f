"""Canonical JSON: the one byte form that is signed, hashed and compared.

Sorted keys, no insignificant whitespace, UTF-8, and only the JSON types whose
encoding is unambiguous everywhere: objects with string keys, arrays, strings,
integers, booleans and null.  Floats are refused because their text form is
not stable across languages and versions.
"""

from __future__ import annotations

import hashlib
import json
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


def parse_canonical(data: bytes) -> Any:
    """Parse JSON bytes and prove they are canonical (integers only, the one encoding).

    :raises NotCanonical: a float or constant, or any other byte form than ours.
    """
    try:
        value = json.loads(data, parse_float=_no_float, parse_constant=_no_float)
    except ValueError as e:  # also UnicodeDecodeError
        raise NotCanonical(str(e)) from None
    if json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() != data:
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
