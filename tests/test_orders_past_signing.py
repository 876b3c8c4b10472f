"""Orders given past the point where a turn file is signed are refused before anything is
signed (they were silently dropped): the output says so, nothing is written."""

from __future__ import annotations

from tests.conftest import assert_refused, db_bytes, hill60_pair, invoke, pbem


def test_orders_after_a_roll_are_refused_and_nothing_is_signed(tmp_path, runner):
    alice, bob = hill60_pair(runner, tmp_path)
    before, sent = db_bytes(alice.dir), sorted((alice.dir / "sent").iterdir())
    # the assault is a roll that waits for the Ottoman reveal: 'end turn' would follow the signing
    result = invoke(runner, "play", "assault Hill 60 from Kabak Kuyu", "end turn", "--campaign", alice.dir,
                    env=alice.env)
    assert_refused(result, "too-many-orders")
    assert "nothing was signed" in result.stderr and "'end turn' would follow" in result.stderr
    assert db_bytes(alice.dir) == before and sorted((alice.dir / "sent").iterdir()) == sent
    ok = pbem(runner, "play", "assault Hill 60 from Kabak Kuyu", "--campaign", alice.dir, env=alice.env)
    assert "signed turn file #2" in ok.output  # the orders up to the roll: signed


def test_orders_when_there_is_only_a_reveal_to_send_are_named_as_unused(tmp_path, runner):
    from tests.test_private import RaidDuel

    d = RaidDuel.__new__(RaidDuel)  # ottoman creates, allied joins and draws first: ottoman owes its opening
    d.root, d.runner = tmp_path, runner
    d.alice, d.bob = d.new_identity("alice", "ottoman"), d.new_identity("bob", "allied")
    d.run(d.alice, "new", "raid", "--as", "ottoman", "--key", "alice", "--opponent", d.bob.pub, "--campaign", d.alice.dir)
    d.run(d.bob, "join", d.newest_sent(d.alice), "--key", "bob", "--campaign", d.bob.dir)
    d.run(d.alice, "ingest", "--campaign", d.alice.dir, d.newest_sent(d.bob))
    out = d.run(d.alice, "play", "1", "--campaign", d.alice.dir).output
    assert "signed turn file #2" in out
    assert "your order(s) '1' were not used: there was nothing for you to decide" in out
