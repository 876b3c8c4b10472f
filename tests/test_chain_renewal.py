"""A side's hash chain is renewed before it runs out (issue 36, point 4): a table-top game with
chains of 64 links goes on past 64 files a side, with a die rolled every round; every copy,
`pbem verify`, `pbem audit` and the independent verifier accept the renewals, and the protocol
refuses a link of the old chain after a renewal and a malformed anchor (a refereed game's
renewals: tests/test_chain_renewal_referee.py)."""

from __future__ import annotations

import json

import pytest

from pbem_engine.protocol import match as protocol
from tests import independent_verifier as iv
from tests.conftest import invoke, pbem, read_envelope
from tests.test_tabletop import MINI, Table
from tests.test_tabletop_random import CHAINS, GAME, start


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> Table:
    root = tmp_path_factory.mktemp("renewal")
    (root / "mini").mkdir()
    (root / "mini" / "pack.toml").write_text(MINI)
    t = Table(root, str(root / "mini"), ("red", "blue"), "--chain", "64")
    for n in range(36):  # each round: red rolls, blue's file reveals (and resolves it), then both pass
        t.act(t.a, "roll 2d6 for fire" if n % 2 else "roll d6")
        t.act(t.b)
        t.act(t.a, "pass")
        t.act(t.b, "pass")
    return t


def _bodies(player) -> dict[int, dict]:
    out = {}
    for path in sorted((player.dir / "sent").glob("*-turn.pbem")):
        env = read_envelope(path)
        out[env.seq] = env.content["body"]
    return out


def test_the_game_goes_past_the_chain_and_each_side_renewed_once_before_it_ran_out(long_game):
    t = long_game
    for player in (t.a, t.b):
        bodies = _bodies(player)
        assert len(bodies) > 64, len(bodies)  # more turn files than links in the first chain
        renewals = [n for n, seq in enumerate(sorted(bodies), 1) if "renew" in bodies[seq]]
        assert renewals == [64 - protocol.RENEW_BEFORE + 1], renewals  # 15 links left after its reveal
        status = pbem(t.runner, "status", "--campaign", player.dir, env=player.env).output
        assert "envelopes" in status and "exhausted" not in status


def test_every_copy_verify_audit_and_the_independent_verifier_accept_the_renewed_chains(long_game):
    t = long_game
    for player in (t.a, t.b):
        verified = pbem(t.runner, "verify", player.dir, env=player.env).output
        assert verified.startswith("OK: 146 envelopes"), verified
        audited = invoke(t.runner, "audit", player.dir, env=player.env)
        assert audited.exit_code == 0, audited.output
        assert "roll 36:" in audited.output, audited.output  # every roll re-derived, those after the renewals too
    texts = [p.read_text() for folder in ("sent", "received") for p in sorted((t.a.dir / folder).glob("*.pbem"))]
    report = iv.verify_files(texts)
    assert len(report.envelopes) == 146
    assert {e.author for e in report.envelopes if e.kind == "turn" and "renew" in e.body} == {"red", "blue"}


def test_a_file_that_drops_its_renewal_breaks_the_chain_for_every_verifier(long_game, tmp_path):
    """Red's renewing file signed again without the anchor: red's next reveal, from the new chain,
    hashes to nothing red committed, and the independent verifier refuses the history."""
    from pbem.wire.envelope import seal
    from pbem.wire.keys import KeyStore

    t = long_game
    sent = {read_envelope(p).seq: p for p in (t.a.dir / "sent").glob("*-red-turn.pbem")}
    seq = next(s for s in sorted(sent) if "renew" in read_envelope(sent[s]).content["body"])
    content = dict(read_envelope(sent[seq]).content)
    content["body"] = {k: v for k, v in content["body"].items() if k != "renew"}
    forged = seal(KeyStore(t.a.home).load("alice"), content)
    texts = [p.read_text() for folder in ("sent", "received") for p in sorted((t.a.dir / folder).glob("*.pbem"))
             if p != sent[seq]]
    texts.append(forged.raw)
    # the file after it names the real one as prev: with both, the verifier stops at the first difference
    with pytest.raises(iv.Refused) as e:
        iv.verify_files(texts)
    assert e.value.code in ("bad-prev", "bad-reveal") and e.value.seq in (seq, seq + 1), (e.value.code, e.value.seq)


def test_the_protocol_checks_a_renewal_and_the_links_of_the_new_chain():
    m = start()
    act = GAME.parse_order(m["game"], "red", "pass", {})
    new = protocol.chain_links(m["game_id"], "red", b"N" * 32, 400)
    reveal = CHAINS["red"][1].hex()
    for anchor in ("zz" * 32, reveal, 7):
        with pytest.raises(protocol.ProtocolError) as e:
            protocol.advance(GAME, m, 2, "red", {"reveal": reveal, "actions": [act], "renew": anchor})
        assert e.value.code == "bad-renewal"
    m = protocol.advance(GAME, m, 2, "red", {"reveal": reveal, "actions": [act], "renew": new[0].hex()})[0]
    assert m["chains"]["red"] == {"link": reveal, "index": 1, "renewed": new[0].hex(), "seen": 0}
    m = protocol.advance(GAME, m, 3, "blue", {"reveal": CHAINS["blue"][1].hex(),
                                              "actions": [GAME.parse_order(m["game"], "blue", "pass", {})]})[0]
    with pytest.raises(protocol.ProtocolError) as e:  # the old chain's next link: no longer committed
        protocol.advance(GAME, m, 4, "red", {"reveal": CHAINS["red"][2].hex(), "actions": [act]})
    assert e.value.code == "bad-reveal" and "renewed the chain" in str(e.value)
    m = protocol.advance(GAME, m, 4, "red", {"reveal": new[1].hex(), "actions": [act]})[0]
    assert m["chains"]["red"] == {"link": new[1].hex(), "index": 2}  # as any chain state: the renewal is spent


def test_a_game_that_never_renews_keeps_its_chain_states():
    """A chain state gains a member only in a renewing envelope: the golden games' state hashes
    (tests/test_golden.py) are untouched."""
    m = start()
    act = GAME.parse_order(m["game"], "red", "pass", {})
    m = protocol.advance(GAME, m, 2, "red", {"reveal": CHAINS["red"][1].hex(), "actions": [act]})[0]
    assert set(m["chains"]["red"]) == {"link", "index"}


def test_an_unsealed_roll_cannot_use_a_new_chain_on_a_link_seen_before_it_was_chosen():
    """Unsealed dice (this game's mode) roll at once on the other side's last link: a side that
    renews and signs again before the other answers could have picked its new chain to suit that
    link, so such a roll is refused until the other side reveals again."""
    m = start()
    assert m["mode"] == "unsealed"
    new = protocol.chain_links(m["game_id"], "red", b"N" * 32, 400)
    mark = GAME.parse_order(m["game"], "red", "mark hill with smoke", {})
    m = protocol.advance(GAME, m, 2, "red", {"reveal": CHAINS["red"][1].hex(), "actions": [mark],
                                             "renew": new[0].hex()})[0]
    roll = GAME.parse_order(m["game"], "red", "roll d6", {})
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, m, 3, "red", {"reveal": new[1].hex(), "actions": [roll]})
    assert e.value.code == "too-early"
    m = protocol.advance(GAME, m, 3, "red", {"reveal": new[1].hex(),
                                             "actions": [GAME.parse_order(m["game"], "red", "pass", {})]})[0]
    m = protocol.advance(GAME, m, 4, "blue", {"reveal": CHAINS["blue"][1].hex(),
                                              "actions": [GAME.parse_order(m["game"], "blue", "pass", {})]})[0]
    rolled = protocol.advance(GAME, m, 5, "red", {"reveal": new[2].hex(), "actions": [roll]})[2]
    assert rolled and rolled[0]["links"][0]["link"] == new[2].hex()  # after blue's reveal: its new chain rolls


def test_a_kill_between_keeping_the_new_chain_and_storing_its_file_loses_nothing(tmp_path):
    """`pbem play` killed after the new chain's secret is kept but before the renewing file is
    stored: the next play renews again at the same link (the kept renewal is replaced), and the
    game goes on, both copies verifying."""
    from tests.test_crash_safety import killed, run

    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)
    t = Table(tmp_path, str(tmp_path / "mini"), ("red", "blue"), "--chain", "64")
    for _ in range(64 - protocol.RENEW_BEFORE):  # red's next reveal is the one that renews
        t.act(t.a, "pass")
        t.act(t.b, "pass")
    head = len(list((t.a.dir / "sent").glob("*-turn.pbem")))
    rc, out, err = run(t.a, "play", "pass", "--campaign", t.a.dir, crash="sign:before-store")
    assert killed(rc), (rc, out, err)
    assert len(list((t.a.dir / "sent").glob("*-turn.pbem"))) == head  # nothing signed was stored
    kept = json.loads((t.a.dir / "secrets" / "chain.json").read_text())
    assert len(kept["renewals"]) == 1
    t.act(t.a, "pass")
    again = json.loads((t.a.dir / "secrets" / "chain.json").read_text())
    assert len(again["renewals"]) == 1 and again["renewals"][0]["from"] == kept["renewals"][0]["from"]
    for _ in range(3):  # red's links now come from the new chain
        t.act(t.b, "pass")
        t.act(t.a, "pass")
    for player in (t.a, t.b):
        assert pbem(t.runner, "verify", player.dir, env=player.env).output.startswith("OK: ")


def test_the_spec_s_renewal_vector_holds_for_the_protocol_and_the_independent_verifier():
    """docs/vectors/primitives.json, chain_renewal: each reveal hashes to the link before it, or to
    the anchor revealed beside the one before; a link of the old chain after the renewal does not."""
    from pathlib import Path

    vector = json.loads((Path(__file__).parent.parent / "docs" / "vectors" / "primitives.json").read_text())
    v = vector["chain_renewal"]
    chain = {"link": v["old_links"][0], "index": 0}
    for step in v["reveals"]:
        assert protocol.reveal_problem(v["game"], v["side"], chain, step["reveal"]) is None, step
        assert iv.H("chain", v["game"], v["side"], bytes.fromhex(step["reveal"])).hex() == \
            chain.get("renewed", chain["link"])
        chain = {"link": step["reveal"], "index": step["index"]}
        if "renew" in step:
            assert protocol.renewal_problem(v["side"], chain, step["renew"], "sealed") is None
            chain["renewed"] = step["renew"]
            assert protocol.reveal_problem(v["game"], v["side"], chain, v["old_links"][3]) is not None
    assert protocol.chain_links(v["game"], v["side"], bytes.fromhex(v["new_secret"]), 3)[0].hex() == v["new_links"][0]
