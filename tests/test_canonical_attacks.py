"""One content, one byte form: what the canonical JSON checks stop.

A signature covers bytes, and an envelope's hash is the hash of those bytes. If a signed
content could be written in two byte forms (spaces, key order, escapes), one turn would have
two hashes, and the chain of ``prev`` hashes would name a turn without pinning it. Each test
below is named for the forgery it stops and fails when its check is removed (see
``tools/mutate.py``): the re-encode comparison, the refusal of floats and NaN, the refusal of
non-string keys, and the exact set of envelope fields.
"""

from __future__ import annotations

import json
import math

import pytest

from pbem.wire.armor import armor, find_blocks
from pbem.wire.envelope import DOMAIN, FIELDS, headers_for, open_block, seal
from pbem.errors import ArmorError
from pbem_engine.canonical import MAX_DEPTH, MAX_INT, NotCanonical, canonical_json, parse_canonical, parse_json
from tests.conftest import Duel, assert_refused, db_bytes, read_envelope


def signed_bytes(identity, body: bytes, content: dict) -> str:
    """A turn file whose signed payload is exactly ``body`` (any bytes, canonical or not)."""
    return armor(headers_for(content, identity.public), identity.sign(DOMAIN + body) + identity.public + body)


# --- the re-encode comparison -----------------------------------------------------------

def _escaped(content: dict) -> bytes:
    """The canonical bytes with one letter of the kind written as a JSON escape ("\\u0074urn")."""
    canonical = canonical_json(content)
    assert b'"kind":"turn"' in canonical
    return canonical.replace(b'"kind":"turn"', b'"kind":"\\u0074urn"', 1)


def _reordered(content: dict) -> bytes:
    return json.dumps(dict(sorted(content.items(), reverse=True)), separators=(",", ":"),
                      ensure_ascii=False).encode()


NON_CANONICAL = {
    "extra spaces": lambda c: json.dumps(c, sort_keys=True, ensure_ascii=False).encode(),
    "a trailing newline": lambda c: canonical_json(c) + b"\n",
    "unsorted keys": _reordered,
    "an escaped letter": _escaped,
    "non-ASCII written as \\u escapes": lambda c: json.dumps(c, sort_keys=True, separators=(",", ":"),
                                                             ensure_ascii=True).encode(),
}


@pytest.mark.parametrize("form", sorted(NON_CANONICAL))
def test_one_content_cannot_be_signed_in_a_second_byte_form(form):
    content = {"a": [1, "é"], "b": {"y": None, "x": True}, "kind": "turn"}
    other = NON_CANONICAL[form](content)
    assert other != canonical_json(content) and json.loads(other) == content
    with pytest.raises(NotCanonical, match="not in canonical form"):
        parse_canonical(other)
    assert parse_canonical(canonical_json(content)) == content


@pytest.mark.parametrize("form", ["extra spaces", "unsorted keys", "an escaped letter"])
def test_a_signed_turn_in_a_second_byte_form_is_refused_at_ingest(two_campaigns: Duel, form):
    """Alice signs her honest turn re-encoded: same content, another hash. Bob refuses it, so a
    turn has one hash only (his ``prev`` pins exactly what alice signed)."""
    d = two_campaigns
    honest = d.play("alice")
    content = read_envelope(honest).content
    body = NON_CANONICAL[form](content)
    assert json.loads(body) == content and body != canonical_json(content)
    forged = d.root / "forged.pbem"
    forged.write_text(signed_bytes(d.identity(d.alice), body, content))
    with pytest.raises(ArmorError, match="malformed envelope") as refused:
        open_block(find_blocks(forged.read_text())[0])
    assert "not canonical JSON" in refused.value.detail
    before = db_bytes(d.bob.dir)
    result = d.ingest("bob", forged)
    assert_refused(result, "bad-armor")
    assert "not canonical JSON" in result.stderr and "not in canonical form" in result.stderr
    assert db_bytes(d.bob.dir) == before
    d.deliver(honest, "bob")  # the canonical form of the same turn is accepted


# --- floats and NaN ---------------------------------------------------------------------

@pytest.mark.parametrize("number", [b"1.5", b"1e3", b"-0.0", b"NaN", b"Infinity", b"-Infinity"])
def test_a_float_or_nan_is_refused_where_it_would_re_encode_to_itself(number):
    """``{"a":1.5}`` re-encodes byte for byte (so does NaN, in Python's JSON): only the float check
    refuses it. A float has no one text form across languages, so it has no canonical form."""
    data = b'{"a":' + number + b"}"
    with pytest.raises(NotCanonical, match="is not an integer"):
        parse_canonical(data)
    with pytest.raises(NotCanonical, match="is not an integer"):
        parse_json(data)


@pytest.mark.parametrize("value", [1.5, 0.0, math.nan, math.inf])
def test_canonical_json_has_no_form_for_a_float(value):
    with pytest.raises(NotCanonical, match="float has no canonical JSON form"):
        canonical_json({"a": [value]})


def test_a_signed_envelope_carrying_a_float_is_refused_by_its_content_check(two_campaigns: Duel):
    """A float in a field nothing reads (an action's extra number) would pass every later check."""
    d = two_campaigns
    content = read_envelope(d.play("alice")).content
    body = canonical_json(content).replace(b'"engine":{', b'"engine":{"a":1.5,', 1)  # "a" sorts first: still canonical otherwise
    forged = d.root / "float.pbem"
    forged.write_text(signed_bytes(d.identity(d.alice), body, content))
    with pytest.raises(ArmorError) as refused:
        open_block(find_blocks(forged.read_text())[0])
    assert "number 1.5 is not an integer" in refused.value.detail


# --- depth and integer bounds (_bounded) --------------------------------------------------

def nested(depth: int, open_: bytes = b"[", close: bytes = b"]") -> bytes:
    return open_ * depth + close * depth


@pytest.mark.parametrize("data", [nested(MAX_DEPTH + 1), nested(200), nested(900),
                                  b'{"a":' * (MAX_DEPTH + 1) + b"0" + b"}" * (MAX_DEPTH + 1)],
                         ids=["arrays 49 deep", "arrays 200 deep", "arrays 900 deep", "objects 49 deep"])
def test_json_nested_past_the_bound_is_refused_well_before_the_stack_limit(data):
    """Python's parser stops near 1,000 levels (RecursionError); the bound of 48 is ours, checked
    by a walk without recursion, so that nothing later recurses into hostile depth."""
    with pytest.raises(NotCanonical, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse_canonical(data)
    with pytest.raises(NotCanonical, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse_json(data)


def test_json_nested_to_the_bound_is_read():
    assert parse_canonical(nested(MAX_DEPTH)) is not None


@pytest.mark.parametrize("number", [MAX_INT + 1, -MAX_INT - 1, 2**64, 10**400])
def test_an_integer_past_64_bits_is_refused(number):
    data = b'{"a":' + str(number).encode() + b"}"
    with pytest.raises(NotCanonical, match="integer out of range"):
        parse_canonical(data)
    with pytest.raises(NotCanonical, match="integer out of range"):
        parse_json(b"[" + str(number).encode() + b"]")
    assert parse_canonical(b'{"a":' + str(MAX_INT).encode() + b"}") == {"a": MAX_INT}


# --- non-string keys --------------------------------------------------------------------

@pytest.mark.parametrize("value", [{1: 2}, {"a": {True: 1}}, {"a": [{None: 1}]}, {(1, 2): 3}])
def test_a_non_string_key_has_no_canonical_form(value):
    """``json.dumps({1: 2})`` writes ``{"1":2}``: signing it would sign another content than the one
    given (and {1: 2} and {"1": 2} would share a hash)."""
    with pytest.raises(NotCanonical, match="is not a string"):
        canonical_json(value)


def test_seal_refuses_content_with_a_non_string_key(home):
    from pbem.wire.keys import KeyStore

    store = KeyStore(home)
    store.create("alice")
    identity = store.load("alice")
    content = {"v": 1, "game": "0" * 32, "seq": 2, "prev": "0" * 64, "author": "red", "kind": "turn",
               "engine": {}, "body": {"actions": [{1: "fire"}]}, "state": "0" * 64}
    with pytest.raises(NotCanonical, match="key 1 is not a string"):
        seal(identity, content)


# --- the exact set of envelope fields -----------------------------------------------------

@pytest.mark.parametrize("extra", [{"note": "hello"}, {"z": None}, {"a": 1}])
def test_an_envelope_with_an_extra_top_level_field_is_refused(two_campaigns: Duel, extra):
    """Fields nobody checks would travel signed and stored: a side channel, and a second meaning
    for the same turn. The envelope's fields are exactly FIELDS."""
    d = two_campaigns
    honest = d.play("alice")
    content = dict(read_envelope(honest).content, **extra)
    assert set(content) == FIELDS | set(extra)
    forged = d.root / "extra.pbem"
    forged.write_text(seal(d.identity(d.alice), content).raw)
    with pytest.raises(ArmorError, match="malformed envelope") as refused:
        open_block(find_blocks(forged.read_text())[0])
    assert "expected fields" in refused.value.detail
    before = db_bytes(d.bob.dir)
    result = d.ingest("bob", forged)
    assert_refused(result, "bad-armor")
    assert f"'{next(iter(extra))}'" in result.stderr and "expected fields" in result.stderr
    assert db_bytes(d.bob.dir) == before
    d.deliver(honest, "bob")


def test_an_envelope_missing_a_field_is_refused(two_campaigns: Duel):
    d = two_campaigns
    content = read_envelope(d.play("alice")).content
    del content["engine"]
    body = canonical_json(content)
    forged = d.root / "missing.pbem"
    forged.write_text(signed_bytes(d.identity(d.alice), body, content))
    assert_refused(d.ingest("bob", forged), "bad-armor")


def test_the_fast_path_refuses_exactly_what_the_walk_refuses():
    """parse_json skips the walk when the bytes cannot break the bounds: never a different verdict."""
    import json as _json

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from pbem_engine import canonical

    values = st.recursive(st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=6),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                          max_leaves=60)

    @settings(max_examples=400, deadline=None)
    @given(values, st.integers(1, 8))
    def check(value, depth):
        text = _json.dumps(value)
        try:
            canonical._bounded(value, depth)
            walked = None
        except canonical.NotCanonical as e:
            walked = str(e)
        try:
            canonical.parse_json(text, depth)
            fast = None
        except canonical.NotCanonical as e:
            fast = str(e)
        assert (walked is None) == (fast is None), (text, walked, fast)

    check()
