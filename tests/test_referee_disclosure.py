"""A referee's disclosure must hand over the very secrets it committed to at genesis.

At genesis the referee pins its box key (the public half, to which players seal their orders)
and an anchor of its salt. A disclosure with another box key or another salt, signed by the
referee, is refused at once as ``cheating``: without the check it would be accepted and the
lie seen only later, when the orders fail to open (``bad-box``) or a commitment fails to match.
Each test fails when its check is removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import re
import shutil

import pytest

from pbem.chain import referee
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block, seal
from pbem.wire.keys import KeyStore
from tests.conftest import assert_refused, db_bytes, invoke, pbem
from tests.test_referee import Refereed


@pytest.fixture
def disclosed(tmp_path):
    """A refereed game the referee has started; its honest disclosure, made in a copy of its
    campaign (the referee's own campaign is left undisclosed). (game, content, path)."""
    g = Refereed(tmp_path)
    g.step()  # the referee starts the game: each player has ingested its first view
    copy = tmp_path / "ref-copy"
    shutil.copytree(g.ref.dir, copy)
    out = pbem(g.runner, "disclose", "--campaign", copy, env=g.ref.env).output
    path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
    [env] = [e for e in (open_block(b) for b in find_blocks(open(path).read())) if "disclose" in e.content["body"]]
    return g, env.content, path


def forged(g, content: dict, name: str, **secrets) -> str:
    """The disclosure re-signed by the referee's own key with other ``secrets`` (hex)."""
    body = dict(content["body"], disclose=dict(content["body"]["disclose"], **secrets))
    identity = KeyStore(g.ref.home).load("ref")
    path = g.root / f"{name}.pbem"
    path.write_text(seal(identity, dict(content, body=body)).raw)
    return str(path)


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_a_disclosure_with_another_box_key_is_refused_as_cheating_at_once(disclosed, who):
    g, content, honest = disclosed
    player = getattr(g, who)
    other_box, _ = referee.box_keypair()
    path = forged(g, content, "other-box", box=other_box.hex())
    before = db_bytes(player.dir)
    result = invoke(g.runner, "ingest", "--campaign", player.dir, path, env=player.env)
    assert_refused(result, "cheating")
    assert "disclosed secrets other than those it committed to at genesis" in result.stderr
    assert db_bytes(player.dir) == before
    # the honest disclosure of the same game is accepted, and the game then verifies in full
    ok = invoke(g.runner, "ingest", "--campaign", player.dir, honest, env=player.env)
    assert ok.exit_code == 0 and "accepted" in ok.output, ok.output
    verified = invoke(g.runner, "verify", player.dir, env=player.env)
    assert verified.exit_code == 0 and "referee disclosed" in verified.output, verified.output


def test_a_disclosure_with_another_salt_is_refused_as_cheating_at_once(disclosed):
    g, content, _ = disclosed
    path = forged(g, content, "other-salt", salt="5a" * 32)
    before = db_bytes(g.alice.dir)
    result = invoke(g.runner, "ingest", "--campaign", g.alice.dir, path, env=g.alice.env)
    assert_refused(result, "cheating")
    assert db_bytes(g.alice.dir) == before


def test_box_check_matches_only_the_committed_key():
    private, public = referee.box_keypair()
    other, _ = referee.box_keypair()
    game = "ab" * 16
    assert referee.box_check(game, private, public.hex())
    assert not referee.box_check(game, other, public.hex())
