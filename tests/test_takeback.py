"""Take-backs by agreement (issue 37, point 2), through real turn files between separate homes.

Alice (allied) and Bob (ottoman) play Hill 60, each in his own PBEM_HOME.  A take-back is
proposed in a signed file, countersigned (or declined) in another, and both copies go on from
the envelope agreed; ``pbem verify`` and ``pbem audit`` accept the history because both signed
it, and a re-sent abandoned file is never taken for equivocation.  Never past a roll: the tool
refuses to propose it, and the opponent's tool refuses a proposal or a fork that goes past one
even when it is signed with the right key.  (A refereed game's take-backs, which the referee
decides: tests/test_referee_takeback.py.)
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from pbem_engine.protocol.chain import chain_step

from pbem.chain import history
from pbem.wire.envelope import seal
from pbem.wire.keys import KeyStore
from tests import independent_verifier as iv
from tests.conftest import assert_refused, db_bytes, hill60_pair, invoke, new_player, pbem, read_envelope
from tests.test_independent_verifier import _audit_rolls, _claims

MOVE, BOMBARD, END = "1", "8", "10"  # Hill 60's allied choices at the start of turn 1


def sent(player, pattern: str) -> Path:
    [path] = sorted((player.dir / "sent").glob(pattern))
    return path


def play(runner, player, *orders: str) -> Path:
    """``pbem play`` with ``orders``; where the dice leave a decision before the file is signed
    (a hit to take), the first choice listed, until it is signed."""
    for _ in range(6):
        out = pbem(runner, "play", "--campaign", player.dir, *orders, env=player.env).output
        if "signed turn file #" in out:
            seq = int(out.split("signed turn file #")[1].split(":")[0])
            return sent(player, f"*-{seq:04d}-{player.side}-turn.pbem")
        orders = ("1",)
    raise AssertionError(out)


def ingest(runner, player, *files: Path):
    return pbem(runner, "ingest", "--campaign", player.dir, *files, env=player.env)


def status(runner, player) -> str:
    return pbem(runner, "status", "--campaign", player.dir, env=player.env).output


def verify(runner, player) -> str:
    return pbem(runner, "verify", player.dir, env=player.env).output


def moved_and_answered(runner: CliRunner, tmp_path: Path):
    """Alice moves and ends her turn (#2), Bob moves and ends his (#3): no die rolled."""
    alice, bob = hill60_pair(runner, tmp_path)
    a2 = play(runner, alice, MOVE, END)
    ingest(runner, bob, a2)
    b3 = play(runner, bob, "1", "6")
    ingest(runner, alice, b3)
    return alice, bob, a2, b3


def test_a_take_back_agreed_between_two_homes(tmp_path: Path):
    runner = CliRunner()
    alice, bob, a2, b3 = moved_and_answered(runner, tmp_path)
    out = pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env).output
    assert "taking back #2..#3" in out
    proposal = sent(alice, "*-0003-allied-takeback-*.pbem")
    mail = next((alice.dir / "outbox").glob(f"{proposal.stem}-*.eml")).read_text()
    assert "TAKE-BACK proposed by allied: back to #1" in mail  # the subject says what it asks
    assert "TAKE-BACK proposed by you (back to #1" in status(runner, alice)
    refused = invoke(runner, "play", "--campaign", alice.dir, MOVE, env=alice.env)  # the head waits for the answer
    assert_refused(refused, "takeback-pending")

    assert "TAKE-BACK proposed by allied: back to #1" in ingest(runner, bob, proposal).output
    assert "TAKE-BACK proposed by allied (back to #1, taking back #2..#3): pbem takeback accept" in status(runner, bob)
    out = pbem(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env).output
    assert "play goes on from #1" in out and "Now allied's decision" in out
    fork = sent(bob, "*-0002-ottoman-fork.pbem")
    assert "accepted #2 from ottoman (fork)" in ingest(runner, alice, fork).output
    for player in (alice, bob):
        said = status(runner, player)
        assert "3 envelopes" in said and "taken back by agreement at #2: 2 envelope(s) abandoned" in said
        assert "TAKE-BACK proposed" not in said

    a3 = play(runner, alice, "2", END)  # another move this time
    ingest(runner, bob, a3)
    new, old = read_envelope(a3).content["body"], read_envelope(a2).content["body"]
    assert new["actions"] != old["actions"]
    # the chain moved on: the new file reveals the link after the one the abandoned #2 revealed
    assert chain_step(alice_game(alice), "allied", bytes.fromhex(new["reveal"])).hex() == old["reveal"]
    results = [verify(runner, p) for p in (alice, bob)]
    assert results[0] == results[1]
    assert "OK: 4 envelopes" in results[0] and "1 take-back(s) by agreement (2 envelope(s) abandoned" in results[0]
    assert "audit OK" in pbem(runner, "audit", alice.dir, env=alice.env).output
    # the second verifier, from the spec alone, over every file Alice holds (the abandoned ones too)
    files = sorted((alice.dir / "sent").glob("*.pbem")) + sorted((alice.dir / "received").glob("*.pbem"))
    assert len(files) == 7
    report = iv.verify_files([f.read_text() for f in files])
    assert len(report.envelopes) == 4 and f"state {report.state[:16]}" in results[0]
    assert [e.kind for e in report.envelopes] == ["genesis", "join", "fork", "turn"]
    try:  # without the fork, two envelopes #2 and two #3: no agreement, no history
        iv.verify_files([f.read_text() for f in files if "fork" not in f.name])
        raise AssertionError("a history with two envelopes #2 and no fork was accepted")
    except iv.Refused as e:
        assert e.code in ("gap", "bad-prev")

    # the abandoned files again: taken back by agreement, never a second envelope for #2 or #3
    before = db_bytes(bob.dir)
    out = ingest(runner, bob, a2, b3).output
    assert "skipped #2 from allied: taken back by agreement" in out
    assert "skipped #3 from ottoman: taken back by agreement" in out
    assert db_bytes(bob.dir) == before and not (bob.dir / "evidence").exists()
    with sqlite3.connect(alice.db) as conn:  # kept, as signed, in a table of their own
        kept = conn.execute("select seq, author, kind, fork from abandoned order by seq").fetchall()
    assert kept == [(2, "allied", "turn", 2), (3, "ottoman", "turn", 2)]


def alice_game(alice) -> str:
    return read_envelope(sent(alice, "*-0000-allied-genesis.pbem")).game


def test_declined_the_game_goes_on_as_it_stands(tmp_path: Path):
    runner = CliRunner()
    alice, bob, _, _ = moved_and_answered(runner, tmp_path)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, sent(alice, "*-takeback-*.pbem"))
    assert_refused(invoke(runner, "takeback", "accept", "--campaign", alice.dir, env=alice.env), "no-takeback")
    out = pbem(runner, "takeback", "decline", "--campaign", bob.dir, env=bob.env).output
    assert "declined the take-back" in out
    assert "take-back declined by ottoman" in ingest(runner, alice, sent(bob, "*-takeback-*.pbem")).output
    for player in (alice, bob):
        assert "TAKE-BACK" not in status(runner, player) and "4 envelopes" in status(runner, player)
    ingest(runner, bob, play(runner, alice, MOVE, END))  # play goes on from #3
    assert "OK: 5 envelopes" in verify(runner, bob)
    assert_refused(invoke(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env), "no-takeback")


def test_never_past_a_roll_the_proposer_has_seen(tmp_path: Path):
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    a2 = play(runner, alice, BOMBARD)  # declared: the dice wait for Bob's reveal
    ingest(runner, bob, a2)
    b3 = play(runner, bob)  # Bob's reveal settles the roll
    ingest(runner, alice, b3)
    a4 = play(runner, alice, MOVE)
    ingest(runner, bob, a4)
    for to in ("1", "2"):
        before = db_bytes(alice.dir)
        refused = invoke(runner, "takeback", "propose", "--to", to, "--campaign", alice.dir, env=alice.env)
        assert_refused(refused, "past-roll")
        assert "envelope #3 (ottoman) settled a roll; go back to #3 or later" in refused.stderr
        assert db_bytes(alice.dir) == before and not list((alice.dir / "sent").glob("*takeback*"))
    for to in ("0", "4", "9"):
        assert_refused(invoke(runner, "takeback", "propose", "--to", to, "--campaign", alice.dir, env=alice.env),
                       "bad-target")
    pbem(runner, "takeback", "propose", "--to", "3", "--campaign", alice.dir, env=alice.env)  # after the roll: fine

    # A proposal past the roll signed with Alice's own key (a changed tool): Bob's tool refuses it...
    identity = KeyStore(alice.home).load("alice")
    camp_rows = _rows(alice.db)
    forged = seal(identity, {"v": 1, "game": alice_game(alice), "seq": 4, "prev": camp_rows[4][0], "author": "allied",
                             "kind": "takeback", "engine": read_envelope(a4).content["engine"],
                             "body": {"to": 2, "to_hash": camp_rows[2][0], "abandon": [camp_rows[3][1], camp_rows[4][1]]},
                             "state": read_envelope(a4).content["state"]})
    path = tmp_path / "forged.pbem"
    path.write_text(forged.raw)
    before = db_bytes(bob.dir)
    refused = invoke(runner, "ingest", "--campaign", bob.dir, path, env=bob.env)
    assert_refused(refused, "past-roll")
    assert db_bytes(bob.dir) == before
    # ...and so is a fork Bob's changed tool would countersign it with: Alice's copy refuses it whole
    bob_id = KeyStore(bob.home).load("bob")
    fork = seal(bob_id, {"v": 1, "game": alice_game(alice), "seq": 3, "prev": camp_rows[2][0], "author": "ottoman",
                         "kind": "fork", "engine": read_envelope(a4).content["engine"],
                         "body": {"proposal": forged.raw, "chains": {}}, "state": "0" * 64})
    path.write_text(fork.raw)
    before = db_bytes(alice.dir)
    assert_refused(invoke(runner, "ingest", "--campaign", alice.dir, path, env=alice.env), "past-roll")
    assert db_bytes(alice.dir) == before


def _rows(db: Path) -> dict[int, tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return {seq: (digest, raw) for seq, digest, raw in conn.execute("select seq, hash, raw from envelopes")}


def test_a_declared_roll_not_yet_seen_may_be_taken_back_and_rolls_again_on_new_links(tmp_path: Path):
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    a2 = play(runner, alice, BOMBARD)  # declared; Bob has not revealed: nobody has seen the dice
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, a2, sent(alice, "*-takeback-*.pbem"))
    pbem(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env)
    ingest(runner, alice, sent(bob, "*-0002-ottoman-fork.pbem"))
    a3 = play(runner, alice, BOMBARD)  # the same decision, on a link never revealed before
    ingest(runner, bob, a3)
    ingest(runner, alice, play(runner, bob))
    assert read_envelope(a3).content["body"]["reveal"] != read_envelope(a2).content["body"]["reveal"]
    with sqlite3.connect(alice.db) as conn:
        [(declared_in, links)] = set(conn.execute("select declared_in, links from rolls"))
    assert declared_in == 3 and '"index": 2' in links  # Alice's link #1 went with the abandoned #2
    assert "1 take-back(s)" in verify(runner, alice) and "audit OK" in pbem(runner, "audit", bob.dir, env=bob.env).output


def test_a_proposal_the_play_has_passed_lapses(tmp_path: Path):
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    a2 = play(runner, alice, MOVE, END)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    proposal = sent(alice, "*-takeback-*.pbem")
    ingest(runner, bob, a2)
    ingest(runner, alice, play(runner, bob, "1", "6"))  # Bob answered the move before he read the proposal
    assert "the game has moved on since" in ingest(runner, bob, proposal).output
    assert "TAKE-BACK" not in status(runner, bob) and "TAKE-BACK" not in status(runner, alice)
    assert_refused(invoke(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env), "no-takeback")
    play(runner, alice, MOVE)  # no longer waiting: Alice plays on


def test_a_take_back_checks_what_it_carries(tmp_path: Path):
    runner = CliRunner()
    alice, bob, a2, b3 = moved_and_answered(runner, tmp_path)
    genesis = read_envelope(sent(alice, "*-0000-allied-genesis.pbem")).content
    rows = _rows(alice.db)
    identity = KeyStore(alice.home).load("alice")
    base = {"v": 1, "game": genesis["game"], "seq": 3, "prev": rows[3][0], "author": "allied", "kind": "takeback",
            "engine": read_envelope(b3).content["engine"], "state": read_envelope(b3).content["state"]}
    # envelopes that are not those after #1 in this history
    odd = seal(identity, dict(base, body={"to": 1, "to_hash": rows[1][0], "abandon": [rows[3][1], rows[2][1]]}))
    path = tmp_path / "odd.pbem"
    path.write_text(odd.raw)
    before = db_bytes(bob.dir)
    assert_refused(invoke(runner, "ingest", "--campaign", bob.dir, path, env=bob.env), {"gap", "bad-prev",
                                                                                          "bad-takeback"})
    assert db_bytes(bob.dir) == before
    # a fork signed by its proposer alone is no agreement
    good = seal(identity, dict(base, body={"to": 1, "to_hash": rows[1][0], "abandon": [rows[2][1], rows[3][1]]}))
    self_fork = seal(identity, {**base, "seq": 2, "prev": rows[1][0], "kind": "fork",
                                "body": {"proposal": good.raw, "chains": {}}, "state": "0" * 64})
    path.write_text(self_fork.raw)
    before = db_bytes(bob.dir)
    refused = invoke(runner, "ingest", "--campaign", bob.dir, path, env=bob.env)
    assert_refused(refused, "bad-takeback")
    assert "countersigned by the opponent" in refused.stderr
    assert db_bytes(bob.dir) == before
    assert history.TAKEBACK_MOST >= 2


def test_a_fork_that_sets_a_chain_back_is_refused_by_both_verifiers(tmp_path: Path):
    """Bob's changed tool countersigns with Alice's chain set back to her anchor: her next link would
    then be one Bob has already seen, and he could choose his rolls' declarations knowing it."""
    runner = CliRunner()
    alice, bob, a2, b3 = moved_and_answered(runner, tmp_path)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    proposal = sent(alice, "*-takeback-*.pbem")
    genesis = read_envelope(sent(alice, "*-0000-allied-genesis.pbem")).content
    rows = _rows(alice.db)
    honest = {"allied": {"index": 1, "link": read_envelope(a2).content["body"]["reveal"]},
              "ottoman": {"index": 1, "link": read_envelope(b3).content["body"]["reveal"]}}
    chains, code = dict(honest, allied={"index": 0, "link": genesis["body"]["anchor"]}), "bad-takeback"
    fork = seal(KeyStore(bob.home).load("bob"), {
        "v": 1, "game": genesis["game"], "seq": 2, "prev": rows[1][0], "author": "ottoman", "kind": "fork",
        "engine": genesis["engine"], "body": {"proposal": proposal.read_text(), "chains": chains},
        "state": read_envelope(a2).content["state"]})
    path = tmp_path / "fork.pbem"
    path.write_text(fork.raw)
    before = db_bytes(alice.dir)
    refused = invoke(runner, "ingest", "--campaign", alice.dir, path, env=alice.env)
    assert_refused(refused, code)
    assert "the chains must go on from the last link each side revealed" in refused.stderr
    assert db_bytes(alice.dir) == before
    files = [sent(alice, "*-0000-*"), next((alice.dir / "received").glob("*-0001-*")), path]
    try:
        iv.verify_files([f.read_text() for f in files])
        raise AssertionError("the independent verifier accepted a fork that sets a chain back")
    except iv.Refused as e:
        assert (e.code, e.seq) == (code, 2)


def _run(player, *args, crash: str | None = None) -> subprocess.CompletedProcess:
    """The installed ``pbem`` as its own process, stopped at crash point ``crash`` (pbem.store.lock)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(player.env, **({"PBEM_CRASH_AT": crash} if crash else {}))
    return subprocess.run([str(Path(sys.executable).parent / "pbem"), *map(str, args)], env=env, text=True,
                          capture_output=True, timeout=120)


def test_killed_while_answering_nothing_signed_is_lost(tmp_path: Path):
    runner = CliRunner()
    alice, bob, _, _ = moved_and_answered(runner, tmp_path)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, sent(alice, "*-takeback-*.pbem"))
    # the fork is stored, its file not yet written: the next command writes it
    assert _run(bob, "takeback", "accept", "--campaign", bob.dir, crash="takeback:forked").returncode == 197
    assert not list((bob.dir / "sent").glob("*fork*"))
    assert "NOT YET WRITTEN" in status(runner, bob)
    pbem(runner, "resend", "--campaign", bob.dir, env=bob.env)
    ingest(runner, alice, sent(bob, "*-0002-ottoman-fork.pbem"))
    assert verify(runner, alice) == verify(runner, bob)
    assert "1 take-back(s)" in verify(runner, alice)


def test_killed_while_declining_the_decline_is_signed_again_byte_for_byte(tmp_path: Path):
    runner = CliRunner()
    alice, bob, _, _ = moved_and_answered(runner, tmp_path)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, sent(alice, "*-takeback-*.pbem"))
    assert _run(bob, "takeback", "decline", "--campaign", bob.dir, crash="takeback:declined").returncode == 197
    written = sent(bob, "*-takeback-*.pbem").read_bytes()
    assert "TAKE-BACK proposed by allied" in status(runner, bob)  # not yet forgotten: decline again
    pbem(runner, "takeback", "decline", "--campaign", bob.dir, env=bob.env)
    assert sent(bob, "*-takeback-*.pbem").read_bytes() == written and "TAKE-BACK" not in status(runner, bob)
    assert "take-back declined" in ingest(runner, alice, sent(bob, "*-takeback-*.pbem")).output
    play(runner, alice, MOVE)


def test_proposals_crossed_in_the_post_both_copies_keep_the_same_one(tmp_path: Path):
    runner = CliRunner()
    alice, bob, _, _ = moved_and_answered(runner, tmp_path)
    pbem(runner, "takeback", "propose", "--to", "2", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", bob.dir, env=bob.env)
    assert "crossed your own take-back proposal" in ingest(runner, bob, sent(alice, "*-takeback-*.pbem")).output
    assert "TAKE-BACK proposed by ottoman" in ingest(runner, alice, sent(bob, "*-takeback-*.pbem")).output
    assert "TAKE-BACK proposed by you (back to #1" in status(runner, bob)
    assert "TAKE-BACK proposed by ottoman (back to #1" in status(runner, alice)
    assert_refused(invoke(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env), "no-takeback")
    pbem(runner, "takeback", "accept", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, sent(alice, "*-0002-allied-fork.pbem"))
    assert verify(runner, alice) == verify(runner, bob)


def test_unsealed_dice_after_a_take_back_are_audited_from_the_links_it_carries(tmp_path: Path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub, "--dice", "unsealed",
         "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", sent(alice, "*genesis.pbem"), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    ingest(runner, alice, sent(bob, "*join.pbem"))
    ingest(runner, bob, play(runner, alice, MOVE, END))
    b3 = play(runner, bob, "1", "6")
    ingest(runner, alice, b3)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, sent(alice, "*-takeback-*.pbem"))
    pbem(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env)
    ingest(runner, alice, sent(bob, "*-0002-ottoman-fork.pbem"))
    a3 = play(runner, alice, BOMBARD)  # rolled at once, on Bob's link from the abandoned #3
    ingest(runner, bob, a3)
    with sqlite3.connect(bob.db) as conn:
        links = {row[0] for row in conn.execute("select links from rolls where seq = 3")}
    assert links and all(read_envelope(b3).content["body"]["reveal"] in text for text in links)
    for player in (alice, bob):
        assert "UNSEALED" in verify(runner, player)
        assert "audit OK" in pbem(runner, "audit", player.dir, env=player.env).output
    # the second verifier re-derives the same dice from Bob's files, the fork's links among them
    rolls = _audit_rolls(pbem(runner, "audit", bob.dir, env=bob.env).output)
    files = [*(bob.dir / "sent").rglob("*.pbem"), *(bob.dir / "received").rglob("*.pbem")]
    derived = iv.derive_rolls(iv.verify_files([f.read_text() for f in files]), _claims(rolls))
    assert rolls and [d["seed"][:16] for d in derived] == [r["seed"] for r in rolls]


def test_verify_refuses_an_abandoned_row_no_take_back_abandoned(tmp_path: Path):
    runner = CliRunner()
    alice, bob, _, _ = moved_and_answered(runner, tmp_path)
    pbem(runner, "takeback", "propose", "--to", "1", "--campaign", alice.dir, env=alice.env)
    ingest(runner, bob, sent(alice, "*-takeback-*.pbem"))
    pbem(runner, "takeback", "accept", "--campaign", bob.dir, env=bob.env)
    ingest(runner, alice, sent(bob, "*-0002-ottoman-fork.pbem"))
    a3 = play(runner, alice, MOVE, END)
    env = read_envelope(a3)
    with sqlite3.connect(alice.db) as conn:  # Alice's own #3, slipped in among what was taken back
        conn.execute("insert into abandoned (hash, seq, author, kind, raw, fork) values (?, 3, 'allied', 'turn', ?, 2)",
                     (env.hash, a3.read_text()))
    refused = invoke(runner, "verify", alice.dir, env=alice.env)
    assert refused.exit_code == 1 and "an abandoned envelope no take-back abandoned" in refused.output + refused.stderr


def test_a_fork_carrying_a_damaged_envelope_is_refused_without_a_traceback(tmp_path: Path):
    runner = CliRunner()
    alice, bob, _, b3 = moved_and_answered(runner, tmp_path)
    genesis = read_envelope(sent(alice, "*-0000-allied-genesis.pbem")).content
    rows = _rows(alice.db)
    base = {"v": 1, "game": genesis["game"], "engine": genesis["engine"]}
    prop = seal(KeyStore(alice.home).load("alice"), dict(
        base, seq=3, prev=rows[3][0], author="allied", kind="takeback", state=read_envelope(b3).content["state"],
        body={"to": 1, "to_hash": rows[1][0], "abandon": [rows[2][1], "not a turn file"]}))
    fork = seal(KeyStore(bob.home).load("bob"), dict(base, seq=2, prev=rows[1][0], author="ottoman", kind="fork",
                                                     state="0" * 64, body={"proposal": prop.raw, "chains": {}}))
    for who, text in ((bob, prop.raw), (alice, fork.raw)):
        path = tmp_path / f"to-{who.name}.pbem"
        path.write_text(text)
        before = db_bytes(who.dir)
        assert_refused(invoke(runner, "ingest", "--campaign", who.dir, path, env=who.env), "bad-takeback")
        assert db_bytes(who.dir) == before
