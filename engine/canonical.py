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

try:  # the same bytes as the stdlib encoder, about ten times faster (tests/test_canonical_orjson.py)
    import orjson
except ImportError:  # pragma: no cover - a dependency; without it the stdlib does all the work
    orjson = None

# Dataclasses and datetimes are left to the stdlib (which refuses them), as are integers past
# 64 bits, lone surrogates, non-string keys and deep nesting: orjson raises, the stdlib decides.
_ORJSON = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
           if orjson is not None else 0)


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
    return _encode(value)


def _stdlib(value: Any) -> bytes:
    """The definition of the canonical form: what every other encoder here must equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _encode(value: Any) -> bytes:
    if orjson is not None:
        try:
            return orjson.dumps(value, option=_ORJSON)
        except orjson.JSONEncodeError:
            pass  # whatever orjson will not write, the stdlib writes or refuses as it always did
    return _stdlib(value)


def _no_float(text: str) -> Any:
    raise NotCanonical(f"number {text} is not an integer")


MAX_DEPTH = 48  # arrays and objects inside one another: far beyond any game's need, far below the stack
MAX_INT = 2**63 - 1  # what SQLite and every JSON reader we care about can hold
# 2**63 has 19 digits: a shorter run is always in bounds. Runs are found with every digit made
# a '0' (in C, several times faster than a regular expression on hex-heavy content).
_LONG_NUMBER, _DIGITS_TO_0 = b"0" * 19, bytes.maketrans(b"123456789", b"000000000")
# A number with a fraction or an exponent inside canonical bytes: after ':', ',' or '[', digits,
# then '.' or 'e' (a float always encodes so). One at the very start is looked for apart.
_FLOATISH = re.compile(rb"[:,\[]-?[0-9]+[.eE]")
# The same, found first in bytes read with every digit and '-' as '0', ',' and '[' as ':' and 'E'
# as 'e' (in C, ``_NUMBERS``): such a number leaves ':0…0.' or ':0…0e' (``_FLOAT_SHAPE``). Bytes
# without one hold none; the regular expression runs only on bytes that have one (in a string,
# most often). In the same bytes a run of 19 '0' is where an integer may pass 64 bits.
_NUMBERS = bytes.maketrans(b"123456789-,[E", b"0000000000::e")
_FLOAT_SHAPE = re.compile(rb":0+[.e]")


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
    return _within_bounds(data.encode() if isinstance(data, str) else data, value, max_depth)


def _within_bounds(raw: bytes, value: Any, max_depth: int, numbers: bytes | None = None) -> Any:
    # The walk only where it could find something: fewer brackets than the depth cannot nest
    # deeper, and no run of 19 digits means no integer past 64 bits (counted in C, ~1 µs).
    # ``numbers``: ``raw`` read with ``_NUMBERS``, where the caller has it ('-' read as a digit
    # too: a run it lengthens only walks a value that did not need it).
    digits = raw.translate(_DIGITS_TO_0) if numbers is None else numbers
    if raw.count(b"[") + raw.count(b"{") > max_depth or _LONG_NUMBER in digits:
        _bounded(value, max_depth)
    return value


def _floatish(data: bytes, numbers: bytes | None = None) -> bool:
    """Whether canonical bytes hold a number with a fraction or an exponent, as ``_FLOATISH`` finds
    it (``numbers``: ``data`` read with ``_NUMBERS``, where the caller has it)."""
    numbers = data.translate(_NUMBERS) if numbers is None else numbers
    return _FLOAT_SHAPE.search(numbers) is not None and _FLOATISH.search(data) is not None


def parse_canonical(data: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON bytes and prove they are canonical (integers only, the one encoding), no deeper
    than ``max_depth`` and with integers that fit in 64 bits.

    :raises NotCanonical: a float or constant, a lone surrogate, too deep, or any other byte form than ours.
    """
    fast = orjson is not None and type(data) is bytes and data[:1] in (b"{", b"[")
    numbers = data.translate(_NUMBERS) if fast else b""  # read once for the float and integer checks
    if fast and not _floatish(data, numbers):
        # The fast way, for bytes that are canonical: parsed and re-encoded by orjson, they must
        # come back the same, and then the stdlib way below would give the same value and the same
        # bytes (orjson's output is the stdlib's: tests/test_canonical_orjson.py). Bytes that do not
        # come back the same, and anything orjson refuses, go the stdlib way for its verdict.
        # No float: _FLOATISH finds none in the bytes (an object or an array), and a float re-encodes with
        # '.' or 'e' after its digits.
        try:
            value = orjson.loads(data)
            same = orjson.dumps(value, option=_ORJSON) == data
        except (orjson.JSONDecodeError, orjson.JSONEncodeError):
            same = False
        if same:
            return _within_bounds(data, value, max_depth, numbers)
    value = parse_json(data, max_depth)  # ValueError includes UnicodeDecodeError
    try:
        again = _stdlib(value)
    except UnicodeEncodeError:  # "\ud800": a lone surrogate has no UTF-8 form
        raise NotCanonical("a string holds a lone surrogate (not valid Unicode)") from None
    if again != data:
        raise NotCanonical("not in canonical form (key order, spacing or escapes differ)")
    return value


_TAGGED: dict[str, Any] = {}  # each domain tag's hash state, copied for each digest (a few tags, fixed)


def digest(tag: str, *parts: bytes | str) -> bytes:
    """SHA-256 over a domain tag and length-prefixed parts (no ambiguity between parts)."""
    base = _TAGGED.get(tag)
    if base is None:
        base = _TAGGED[tag] = hashlib.sha256(b"pbem/v1/" + tag.encode() + b"\0")
    h = base.copy()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(4, "big") + data)
    return h.digest()


def state_hash(state: Any) -> str:
    """Hex SHA-256 of a state's canonical JSON."""
    return hashlib.sha256(canonical_json(state, strict=False)).hexdigest()
