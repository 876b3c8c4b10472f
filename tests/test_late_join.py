"""A join belongs right after the genesis: one signed later in the game is an unexpected join.

``pbem_engine.protocol.match.join`` would refuse it as well (the side is already in the game), but with a
reason about creating the game; the chain check in ``pbem.chain.history`` says what is wrong first.
The test fails when that check is removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import pytest

from pbem.wire.envelope import seal
from tests.conftest import Duel, assert_refused, db_bytes, read_envelope


@pytest.mark.parametrize("turns", [1, 2])
def test_a_join_signed_later_in_the_game_is_refused_as_an_unexpected_join(two_campaigns: Duel, turns):
    d = two_campaigns
    for _ in range(turns):
        d.turn(d.waiting_side())
    from pbem.play.campaign import Campaign

    camp = Campaign.open(d.alice.dir, readonly=True)
    try:
        head = camp.ledger.head()
        state = camp.ledger.state_hash_at(head[0])
    finally:
        camp.ledger.close()
    join = read_envelope(d.join_file).content
    assert join["kind"] == "join" and join["seq"] == 1
    late = dict(join, seq=head[0] + 1, prev=head[1], state=state)
    path = d.root / "late-join.pbem"
    path.write_text(seal(d.identity(d.bob), late).raw)
    before = db_bytes(d.alice.dir)
    result = d.ingest("alice", path)
    assert_refused(result, "bad-join")
    assert "unexpected join" in result.stderr and "joins come right after the genesis" in result.stderr, \
        result.stderr
    assert db_bytes(d.alice.dir) == before
