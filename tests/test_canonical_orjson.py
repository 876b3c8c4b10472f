"""orjson writes the canonical form faster; these properties are why it may.

The canonical form is defined by the stdlib encoder (``canonical._stdlib``: sorted keys, no
whitespace, UTF-8, non-ASCII unescaped). ``canonical_json`` hands the work to orjson and falls
back to the stdlib for whatever orjson refuses; ``parse_canonical`` accepts bytes the fast way
only when orjson's re-encoding gives them back. Both must give exactly what the stdlib gives:
the same bytes, the same values, the same refusals with the same reasons.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbem_engine import canonical
from pbem_engine.canonical import NotCanonical, canonical_json, parse_canonical

pytestmark = pytest.mark.skipif(canonical.orjson is None, reason="orjson is not installed")

# Text over all of Unicode but lone surrogates (no UTF-8 form: tested apart), with the characters
# JSON escapes (quotes, backslashes, controls) and the ones it leaves alone (DEL, U+2028) often.
TEXT = st.text(st.characters(exclude_categories=("Cs",)) | st.sampled_from('"\\/\x00\x1f\x7f\b\f\n\r\t\u2028\u2029é😀'),
               max_size=12)
INTS = st.integers() | st.integers(-(2**64), 2**64) | st.sampled_from([2**63 - 1, 2**63, -(2**63), 2**64 - 1, 2**64])
LEAVES = st.none() | st.booleans() | INTS | TEXT
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                      max_leaves=40)


def stdlib_parse(data: bytes):
    """parse_canonical as it was before orjson: the stdlib parse, the bounds, the re-encode."""
    value = canonical.parse_json(data)
    try:
        again = canonical._stdlib(value)
    except UnicodeEncodeError:
        raise NotCanonical("a string holds a lone surrogate (not valid Unicode)") from None
    if again != data:
        raise NotCanonical("not in canonical form (key order, spacing or escapes differ)")
    return value


def verdict(f, *args):
    try:
        return "ok", f(*args)
    except (NotCanonical, TypeError, ValueError, RecursionError) as e:
        return type(e).__name__, str(e)


@settings(max_examples=1500, deadline=None)
@given(VALUES)
@example({"b": 1, "a": [True, None, "é"], "é": "\x00", "e": 2**70})
@example({"\U0001f600": 1, "\uffff": 2, "\ue000": 3, "z": 4})
def test_canonical_json_writes_the_stdlib_bytes(value):
    assert canonical_json(value) == canonical._stdlib(value)
    assert canonical_json(value, strict=False) == canonical._stdlib(value)


@settings(max_examples=1500, deadline=None)
@given(VALUES)
def test_orjson_alone_writes_the_stdlib_bytes_or_refuses(value):
    """Where orjson writes at all (integers within 64 bits), its bytes are the stdlib's."""
    try:
        fast = canonical.orjson.dumps(value, option=canonical._ORJSON)
    except canonical.orjson.JSONEncodeError:
        assert _has_wide_int(value)  # the only thing VALUES holds that orjson refuses
        return
    assert fast == canonical._stdlib(value)


def _has_wide_int(value) -> bool:
    if isinstance(value, dict):
        return any(_has_wide_int(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_wide_int(v) for v in value)
    return type(value) is int and not -(2**63) <= value < 2**64


@settings(max_examples=1500, deadline=None)
@given(VALUES)
def test_canonical_bytes_parse_to_the_same_value_either_way(value):
    for outer in (value, {"v": value}, [value]):  # an envelope is an object: the fast way reads only those and arrays
        data = canonical._stdlib(outer)
        assert verdict(parse_canonical, data) == verdict(stdlib_parse, data)


def _variants(data: bytes) -> list[bytes]:
    """Byte forms near the canonical one: spaces, escapes, floats, reordered, cut."""
    text = data.decode()
    return [
        data + b" ", b" " + data, data[:-1], data.replace(b",", b", ", 1), data.replace(b":", b": ", 1),
        json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")).encode(),  # ASCII escapes
        data.replace(b"1", b"1.0", 1), data.replace(b"1", b"1e0", 1), data.replace(b"0", b"-0", 1),
        data.replace(b"null", b"NaN", 1), data.replace(b'"', b"'", 1), data.replace(b"\\n", b"\\u000a", 1),
        data.replace(b"[", b"[[", 1), data + data, b"\xef\xbb\xbf" + data,
    ]


@settings(max_examples=800, deadline=None)
@given(VALUES)
def test_bytes_near_the_canonical_form_get_the_stdlib_verdict(value):
    for data in _variants(canonical._stdlib(value)) + _variants(canonical._stdlib({"v": value})):
        assert verdict(parse_canonical, data) == verdict(stdlib_parse, data), data


@pytest.mark.parametrize("data", [b'"\\ud800"', b'["\\udfff",1]', b'{"a":18446744073709551616}',
                                  b'{"a":9223372036854775808}', b"[" * 49 + b"]" * 49, b"[" * 300 + b"]" * 300,
                                  b'{"a":1,"a":2}', b'{"a":1.5}', b"1e5", b"-0", b"\xff", b'"\xed\xa0\x80"',
                                  b'{"a":"x:1.5"}', b'{"a":"9e9"}', b"[1e5]", b'{"a":[-1E+2]}', b'{"a":-0.0}',
                                  b'{"a":' + b"1" * 19 + b"}", b'{"a":"' + b"1" * 19 + b'"}', b"[" + b"9" * 400 + b"]"])
def test_edge_bytes_get_the_stdlib_verdict(data):
    assert verdict(parse_canonical, data) == verdict(stdlib_parse, data)


@pytest.mark.parametrize("value", ["\ud800", {"a": ["\udfff"]}, {1: 2}, {"a": {True: 1}}, [2**64], -(2**63) - 1,
                                   [[[[]]]] * 3, (1, 2)])
def test_what_orjson_refuses_the_stdlib_decides(value):
    """Lone surrogates, non-string keys, integers past 64 bits: the same bytes or the same error."""
    assert verdict(lambda v: canonical_json(v, strict=False), value) == verdict(canonical._stdlib, value)


# JSON with numbers of every form among the canonical values: fractions, exponents, signs.
FLOATS = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, -0.0, 1e16, 1e-7, -2.5, 1.5e300])
WITH_FLOATS = st.recursive(LEAVES | FLOATS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(TEXT, inner, max_size=4), max_leaves=40)


@settings(max_examples=1500, deadline=None)
@given(WITH_FLOATS, st.binary(max_size=64))
@example([1.5], b"")
@example({"a": -1e16, "b": "x,1e"}, b":-0E")
def test_the_float_prefilter_never_misses_what_the_regular_expression_finds(value, noise):
    """``_floatish`` lets the fast path skip the regular expression only on bytes it cannot match."""
    for data in (json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(), noise,
                 json.dumps(value).encode() + noise):
        assert canonical._floatish(data) == (canonical._FLOATISH.search(data) is not None)


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=200), st.integers(-(2**70), 2**70))
def test_a_long_integer_is_always_looked_for_in_the_bytes_read_once(noise, number):
    """The fast path reads the bytes once with ``_NUMBERS`` ('-' and every digit as '0'): every
    run of 19 digits the digit-only reading finds is there too, so no integer past 64 bits goes
    unwalked."""
    for data in (noise, noise + str(number).encode() + noise, b'{"n":' + str(number).encode() + b"}"):
        if canonical._LONG_NUMBER in data.translate(canonical._DIGITS_TO_0):
            assert canonical._LONG_NUMBER in data.translate(canonical._NUMBERS)
