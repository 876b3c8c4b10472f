"""A side's hash chain is kept with checkpoints beside its secret (secrets/chain.json), so that the
next link takes at most about the square root of the chain's length in steps, where it took the
whole length (4,096 by default; 15 ms of every cold 'pbem play' on a 10,000-link chain).
The secret alone still decides: a campaign without checkpoints, or with a damaged one, signs
the same links."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_engine.protocol import match as protocol
from tests.conftest import Duel, assert_refused, db_bytes

GID = "cd" * 16


@settings(max_examples=60, deadline=None)
@given(length=st.integers(1, 3000), data=st.data())
def test_a_link_from_the_checkpoints_is_the_link_from_the_secret(length, data):
    secret = bytes([length % 251]) * 32
    links = protocol.chain_links(GID, "red", secret, length)
    checkpoints = protocol.chain_checkpoints(GID, "red", secret, length)
    every = protocol.checkpoint_every(length)
    assert checkpoints == [links[i] for i in range(every, length, every)]
    index = data.draw(st.integers(0, length))
    assert protocol.chain_link(GID, "red", secret, length, index, checkpoints) == links[index]
    assert protocol.chain_link(GID, "red", secret, length, index) == links[index]


def _secrets(player):
    path = player.dir / "secrets" / "chain.json"
    return path, json.loads(path.read_text())


def test_checkpoints_are_kept_used_and_never_trusted_over_the_secret(tmp_path, runner):
    d = Duel(tmp_path, runner)
    path, data = _secrets(d.alice)
    assert len(data["checkpoints"]) == data["length"] // protocol.checkpoint_every(data["length"]) - 1 >= 60
    d.turn("red")  # from a checkpoint
    d.turn("blue")
    data["checkpoints"][0] = "00" * 32  # the one the next link is found from: damaged
    path.write_text(json.dumps(data))
    d.turn("red")  # the secret decides; bob accepted the link
    del data["checkpoints"]  # a campaign made by an older pbem
    path.write_text(json.dumps(data))
    d.turn("blue")
    d.turn("red")
    assert "OK:" in d.run(d.bob, "verify", d.bob.dir).output


def test_hostile_checkpoints_are_refused_and_change_nothing(tmp_path, runner):
    d = Duel(tmp_path, runner)
    path, data = _secrets(d.alice)
    for bad in ("abc", ["zz" * 32], ["00" * 31], [["00" * 32]]):
        path.write_text(json.dumps(dict(data, checkpoints=bad)))
        before = db_bytes(d.alice.dir)
        result = d.invoke(d.alice, "play", "1", "--campaign", d.alice.dir)
        assert_refused(result, "bad-secrets")
        assert "checkpoints" in result.output
        assert db_bytes(d.alice.dir) == before
