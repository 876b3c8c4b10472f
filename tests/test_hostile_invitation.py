"""``pbem join`` checks every field of an invitation before anything is written, and shows the
joiner what he agrees to."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import assert_refused, forge, invoke, new_player, pbem, read_envelope
from tests.test_tabletop import MINI


@pytest.fixture
def invite(tmp_path, runner):
    alice, bob = new_player(runner, tmp_path, "alice", "red"), new_player(runner, tmp_path, "bob", "blue")
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)

    def make(*new_args):
        camp = tmp_path / f"alice-{len(list(tmp_path.glob('alice-*')))}"
        pbem(runner, *new_args, "--as", "red", "--key", "alice", "--opponent", bob.pub, "--campaign", camp, env=alice.env)
        genesis = next((camp / "sent").glob("*genesis.pbem"))
        return read_envelope(genesis).content

    from pbem.wire.keys import KeyStore

    return make, KeyStore(alice.home).load("alice"), bob, tmp_path


BAD_BODIES = {
    "a chain of 10^8 links": ("chain", 10**8),
    "a chain of 0 links": ("chain", 0),
    "a chain of 1 link": ("chain", 1),
    "a chain of -1 links": ("chain", -1),
    "a chain of true": ("chain", True),
    "a deadline of -5 hours": ("deadline_hours", -5),
    "an anchor that is not hex": ("anchor", "zz" * 32),
    "an unknown field": ("surprise", 1),
}


@pytest.mark.parametrize("what", sorted(BAD_BODIES))
def test_a_hostile_genesis_is_refused_before_anything_is_written(invite, runner, what):
    make, alice_id, bob, root = invite
    content = make("new", "barrage")
    field, value = BAD_BODIES[what]
    content["body"][field] = value
    path = forge(alice_id, content, root / "hostile.pbem")
    target = root / "bob-campaign"
    result = invoke(runner, "join", path, "--key", "bob", "--campaign", target, env=bob.env)
    assert_refused(result, "bad-genesis")
    assert not (target / "campaign.db").exists(), f"{what}: a refused invitation left a campaign behind"


def test_a_side_name_with_a_slash_is_refused(invite, runner):
    make, alice_id, bob, root = invite
    content = make("new", "barrage")
    sides = content["body"]["sides"]
    sides["../blue"] = sides.pop("blue")
    path = forge(alice_id, content, root / "slash.pbem")
    result = invoke(runner, "join", path, "--key", "bob", "--campaign", root / "b2", env=bob.env)
    assert_refused(result, "bad-genesis")
    assert not (root / "b2" / "campaign.db").exists()


@pytest.mark.parametrize("field,value", [("count", 10**8), ("count", -3), ("count", "many")])
def test_a_table_top_pack_with_a_huge_piece_count_is_refused(invite, runner, field, value):
    make, alice_id, bob, root = invite
    content = make("new", "tabletop", "--pack", root / "mini")
    pack = copy.deepcopy(content["body"]["options"]["pack"])
    pack["piece"][0][field] = value
    content["body"]["options"]["pack"] = pack
    path = forge(alice_id, content, root / "pack.pbem")
    result = invoke(runner, "join", path, "--key", "bob", "--campaign", root / "b3", env=bob.env)
    assert_refused(result, "bad-genesis")
    assert "count" in result.stderr
    assert not (root / "b3" / "campaign.db").exists()


def test_join_shows_what_the_joiner_agrees_to(invite, runner):
    make, alice_id, bob, root = invite
    make("new", "barrage", "--deadline", "48")
    genesis = next((root / "alice-0" / "sent").glob("*genesis.pbem"))
    shown = pbem(runner, "join", genesis, "--show", env=bob.env).output
    assert "Barrage" in shown and "sealed dice" in shown and "48 hours" in shown
    assert "alice (key" in shown and "bob (key" in shown
    assert not (root / "campaign.db").exists()
    joined = pbem(runner, "join", genesis, "--key", "bob", "--campaign", root / "bob-ok", env=bob.env).output
    assert joined.startswith("The invitation asks you to agree to:") and "joined game" in joined
