"""The envelope's own checks of its signed content, before anything dispatches on it.

An unknown kind or a sequence number out of bounds would be refused later too (as an unexpected
envelope, as a gap), but by code that trusts the field's range or its short list of values on
the way (which table to store it in, arithmetic on seq). The envelope refuses them first, as a
malformed envelope naming the field. Each test fails when its check in ``pbem.wire.envelope`` is
removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import pytest

from pbem.wire.armor import find_blocks
from pbem.wire.envelope import KINDS, MAX_SEQ, open_block, seal
from pbem.errors import ArmorError
from tests.conftest import Duel, assert_refused, db_bytes, read_envelope


def forged(d: Duel, **changes) -> tuple:
    """Alice's next turn re-signed by her with ``changes``: (path, the honest path)."""
    honest = d.play("alice")
    content = dict(read_envelope(honest).content, **changes)
    path = d.root / "forged.pbem"
    path.write_text(seal(d.identity(d.alice), content).raw)
    return path, honest


def refused_by_the_envelope(d: Duel, path, says: str) -> None:
    with pytest.raises(ArmorError, match="malformed envelope") as refused:
        open_block(find_blocks(path.read_text())[0])
    assert says in refused.value.detail, refused.value.detail
    before = db_bytes(d.bob.dir)
    result = d.ingest("bob", path)
    assert_refused(result, "bad-armor")
    assert "malformed envelope" in result.stderr and says in result.stderr, result.stderr
    assert db_bytes(d.bob.dir) == before


@pytest.mark.parametrize("kind", ["bogus", "Turn", "evidence"])
def test_an_envelope_of_an_unknown_kind_is_refused_as_malformed(two_campaigns: Duel, kind):
    assert kind not in KINDS
    path, honest = forged(two_campaigns, kind=kind)
    refused_by_the_envelope(two_campaigns, path, f"unknown kind {kind!r}")
    two_campaigns.deliver(honest, "bob")


@pytest.mark.parametrize("seq", [-1, MAX_SEQ + 1, 2**62])
def test_an_envelope_numbered_outside_the_bounds_is_refused_as_malformed(two_campaigns: Duel, seq):
    path, honest = forged(two_campaigns, seq=seq)
    refused_by_the_envelope(two_campaigns, path, f"sequence number {seq} is outside 0..{MAX_SEQ}")
    two_campaigns.deliver(honest, "bob")


@pytest.mark.parametrize("v, says", [(2, "format 2"), (True, "format True")])
def test_an_envelope_of_another_format_is_refused(two_campaigns: Duel, v, says):
    d = two_campaigns
    path, _ = forged(d, v=v)
    with pytest.raises(ArmorError, match="unsupported turn file format") as refused:
        open_block(find_blocks(path.read_text())[0])
    assert says in refused.value.detail
    assert_refused(d.ingest("bob", path), "bad-armor")


@pytest.mark.parametrize("field, value", [("seq", "3"), ("seq", True), ("body", []), ("engine", "barrage"),
                                          ("prev", None), ("state", 0)])
def test_an_envelope_field_of_the_wrong_type_is_refused(two_campaigns: Duel, field, value):
    path, _ = forged(two_campaigns, **{field: value})
    with pytest.raises(ArmorError, match="malformed envelope") as refused:
        open_block(find_blocks(path.read_text())[0])
    assert f"field '{field}' must be" in refused.value.detail
