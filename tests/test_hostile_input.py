"""Signed but malformed turn files: refused with a one-line reason, never a traceback, the
campaign byte for byte as it was.

A signature proves who sent a file, not that it is well formed: an opponent (or a damaged
tool) can sign anything. The corpus below is built from an honest table-top turn file (the
free-form game, whose actions are not a closed list of choices) by changing one thing at a
time — every field of the envelope, of the body and of every action, to every value of a
hostile palette — then re-signed with the sender's real key and ingested. Raw payloads that no
JSON encoder produces (nesting thousands deep, a lone surrogate, huge integers) are signed as
bytes. The count of cases is printed; the suite asserts at least 300 and no traceback.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from pbem.wire.armor import armor
from pbem.wire.envelope import DOMAIN, headers_for
from pbem_engine.canonical import canonical_json
from tests.conftest import assert_no_traceback, assert_refused, db_bytes, invoke, read_envelope
from tests.test_tabletop import MINI, Table

HOSTILE = [None, True, False, -1, 0, 7, 2**62, -(2**62), "", "x" * 3000, "no such thing", [], [None], {},
           {"$hide": 1}, [[[[[]]]]], {"a": {"b": {"c": {}}}}]

ORDERS = ["move red guard to ford", "step red guard -1", "flip red guard", "mark ford with smoke",
          "say hello", "note a secret plan", "draw 1 from red orders", "roll 3d6 for fire"]


def _signed(identity, body_bytes: bytes, headers: dict[str, str]) -> str:
    payload = identity.sign(DOMAIN + body_bytes) + identity.public + body_bytes
    return armor(headers, payload)


def _forge(identity, content: dict) -> str:
    return _signed(identity, canonical_json(content, strict=False), headers_for(content, identity.public))


def _mutations(value, path=()):
    """(path, new value) for every node under ``value`` and every hostile value, plus deletions."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield path + (key,), "<delete>"
            yield from _mutations(value[key], path + (key,))
        yield path + ("unexpected",), "surprise"
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _mutations(item, path + (i,))
    for hostile in HOSTILE:
        if hostile != value or type(hostile) is not type(value):
            yield path, hostile


def _changed(content: dict, path: tuple, new) -> dict:
    out = copy.deepcopy(content)
    if not path:
        return new
    node = out
    for key in path[:-1]:
        node = node[key]
    if new == "<delete>":
        del node[path[-1]]
    elif isinstance(node, list) and path[-1] == "unexpected":
        node.append(new)
    else:
        node[path[-1]] = new
    return out


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    """A table-top game where red has signed an honest turn of every kind of order, not yet delivered."""
    root = tmp_path_factory.mktemp("hostile")
    (root / "mini").mkdir()
    (root / "mini" / "pack.toml").write_text(MINI)
    t = Table(root, str(root / "mini"), ("red", "blue"))
    out = t.run(t.a, "play", *ORDERS, "--campaign", t.a.dir).output
    assert "signed turn file" in out, out
    sent = max((t.a.dir / "sent").glob("*.pbem"), key=lambda p: p.name)
    from pbem.wire.keys import KeyStore

    identity = KeyStore(t.a.home).load("alice")
    pristine = root / "bob-pristine"
    shutil.copytree(t.b.dir, pristine)
    return t, identity, read_envelope(sent).content, pristine


def _ingest(t: Table, pristine: Path, text: str, name: str):
    """Ingest ``text`` into a fresh copy of blue's campaign; (result, bytes before, copy dir)."""
    target = t.b.dir.parent / "bob-case"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(pristine, target)
    path = t.b.dir.parent / f"{name}.pbem"
    path.write_text(text)
    before = db_bytes(target)
    result = invoke(t.runner, "ingest", "--campaign", target, path, env=t.b.env)
    return result, before, target


def _check(result, before: bytes, target: Path, what: str) -> bool:
    """Refused cleanly (campaign unchanged) or accepted; never a traceback. True if refused."""
    assert_no_traceback(result)
    if result.exit_code == 0:
        assert "accepted" in result.output, (what, result.output)
        return False
    assert_refused(result)
    assert db_bytes(target) == before, f"{what}: a refused ingest changed the database"
    return True


def test_the_honest_turn_is_accepted(honest):
    t, identity, content, pristine = honest
    result, _, _ = _ingest(t, pristine, _forge(identity, content), "honest")
    assert result.exit_code == 0 and "accepted" in result.output, result.output


def test_every_field_changed_to_every_hostile_value_is_refused_cleanly(honest):
    t, identity, content, pristine = honest
    cases = refused = 0
    accepted = []
    for path, new in _mutations(content):
        if path and path[0] in ("v", "game", "prev", "author", "kind", "engine") and len(path) > 1:
            continue  # inside a scalar: nothing to change
        try:
            forged = _changed(content, path, new)
        except (KeyError, IndexError, TypeError):
            continue
        try:
            text = _forge(identity, forged)
        except (KeyError, TypeError, AttributeError):  # the header needs game/seq/author/kind: sign raw
            text = _signed(identity, json.dumps(forged, sort_keys=True, separators=(",", ":")).encode(),
                           headers_for(content, identity.public))
        result, before, target = _ingest(t, pristine, text, "case")
        cases += 1
        if _check(result, before, target, f"{path} = {new!r}"):
            refused += 1
        else:
            accepted.append((path, new))
    print(f"\nhostile turn files: {cases} cases, {refused} refused cleanly, {len(accepted)} accepted, 0 tracebacks")
    assert cases >= 300
    # What may be accepted: a change that leaves a legal turn (another phrase to say, another count
    # to draw); never a change of who signed, which game, which number or which link.
    for path, new in accepted:
        assert path[0] == "body" and path[1] == "actions", (path, new)


RAW = {
    "JSON nested 3,000 deep in the body": lambda c: canonical_json(c).replace(b'"actions":[', b'"actions":[' + b"[" * 3000 + b"]" * 3000 + b",", 1),
    "JSON nested 2,000 deep as the whole content": lambda c: b"[" * 2000 + b"]" * 2000,
    "a lone surrogate in a string": lambda c: canonical_json(c).replace(b'"hello"', b'"\\ud800"', 1),
    "seq of 2**63": lambda c: canonical_json(dict(c, seq=2**63)),
    "seq of 2**64 + 1": lambda c: canonical_json(dict(c, seq=2**64 + 1)),
    "a 400-digit integer": lambda c: canonical_json(c).replace(b'"hello"', b"1" + b"0" * 400, 1),
    "a float": lambda c: canonical_json(c).replace(b'"hello"', b"1.5", 1),
    "NaN": lambda c: canonical_json(c).replace(b'"hello"', b"NaN", 1),
    "not UTF-8": lambda c: canonical_json(c).replace(b'"hello"', b'"\xff\xfe"', 1),
    "not JSON at all": lambda c: b"\x00" * 64,
    "an empty content": lambda c: b"",
}


@pytest.mark.parametrize("what", sorted(RAW))
def test_raw_signed_payloads_no_encoder_makes_are_refused(honest, what):
    t, identity, content, pristine = honest
    text = _signed(identity, RAW[what](content), headers_for(content, identity.public))
    result, before, target = _ingest(t, pristine, text, "raw")
    assert _check(result, before, target, what), f"{what} was accepted"


# --- from the wire inwards: any text at all ----------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _decode(text: str) -> None:
    """What ingest does first with any text: find the blocks, check each signature and content."""
    from pbem.wire.armor import find_blocks
    from pbem.wire.envelope import open_block
    from pbem.errors import PbemError

    try:
        for block in find_blocks(text):
            try:
                open_block(block)
            except PbemError:
                pass
    except PbemError:
        pass


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from("-BEGINPBEMTURNDabc:=+/ \n\r>\t0123456789\x00é\ud7ff"), max_size=400))
def test_any_text_decodes_to_blocks_or_a_refusal(text):
    _decode("-----BEGIN PBEM TURN-----\n" + text + "\n-----END PBEM TURN-----\n")
    _decode(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_honest_file_with_random_edits_decodes_to_blocks_or_a_refusal(honest, data):
    _, identity, content, _ = honest
    text = _forge(identity, content)
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(text)))
        text = text[:i] + data.draw(st.text(max_size=3)) + text[i + data.draw(st.integers(0, 3)):]
    _decode(text)
