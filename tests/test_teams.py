"""Team games (issue 37, point 5), through real turn files between separate homes.

Alice plays the allied side of Hill 60 with Carol on her team; Bob plays the ottoman side alone.
The invitation pins Carol's key as an allied member and says who signs for the side: any member,
or only Alice (the commander).  Carol's copy comes from ``pbem team export`` (the history, and the
side's secrets sealed to her key) and ``pbem team import``; her turn files name her as signer, and
Bob's tool, ``pbem verify`` and the independent verifier accept them exactly when the invitation
lets a member sign.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.wire.envelope import seal
from pbem.wire.keys import KeyStore, fingerprint
from tests import independent_verifier as iv
from tests.conftest import assert_refused, db_bytes, invoke, new_player, pbem, read_envelope

MOVE, END = "1", "10"  # Hill 60's allied choices at the start of a turn: an operation, then end the turn


def sent(player, seq: int) -> Path:
    [path] = sorted((player.dir / "sent").glob(f"*-{seq:04d}-*-turn.pbem"))
    return path


def team_game(runner: CliRunner, root: Path, signs: str):
    """Alice (allied, with Carol) and Bob (ottoman): the invitation, Bob's join ingested, and Carol's
    copy set up from Alice's export."""
    alice, bob = new_player(runner, root, "alice", "allied"), new_player(runner, root, "bob", "ottoman")
    carol = new_player(runner, root, "carol", "allied")
    out = pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
               "--team", f"allied={carol.pub}", "--team-signs", signs, "--campaign", alice.dir, env=alice.env).output
    assert "allied member carol pinned with fingerprint" in out
    genesis = next((alice.dir / "sent").glob("*genesis.pbem"))
    joined = pbem(runner, "join", genesis, "--key", "bob", "--campaign", bob.dir, env=bob.env).output
    # the joiner reads who is on the other team, and who signs for it, among the terms
    may = "may sign for the side" if signs == "any" else "follows; only the commander signs"
    assert f"member carol (key {_fingerprint(carol)}): {may}" in joined
    pbem(runner, "ingest", "--campaign", alice.dir, next((bob.dir / "sent").glob("*join.pbem")), env=alice.env)
    copy = root / "carol.team"
    pbem(runner, "team", "export", "--to", "carol", "--campaign", alice.dir, "-o", copy, env=alice.env)
    out = pbem(runner, "team", "import", copy, "--key", "carol", "--campaign", carol.dir, env=carol.env).output
    assert "joined allied's team" in out and "at envelope #1" in out
    return alice, bob, carol


def _fingerprint(player) -> str:
    return fingerprint(KeyStore(player.home).public(player.name))


def play(runner, player, *orders: str) -> Path:
    out = pbem(runner, "play", "--campaign", player.dir, *orders, env=player.env).output
    seq = int(out.split("signed turn file #")[1].split(":")[0])
    return sent(player, seq)


def ingest(runner, player, *files: Path):
    return pbem(runner, "ingest", "--campaign", player.dir, *files, env=player.env)


def history(*players) -> list[str]:
    """Every turn file the players hold, one copy of each number."""
    files = {}
    for p in players:
        for folder in ("sent", "received"):
            for path in (p.dir / folder).glob("*.pbem"):
                files.setdefault(path.name.split("-")[1], path.read_text())
    return [files[k] for k in sorted(files)]


def test_any_member_signs_for_the_side_and_every_copy_agrees(tmp_path: Path):
    runner = CliRunner()
    alice, bob, carol = team_game(runner, tmp_path, "any")
    c2 = play(runner, carol, MOVE, END)  # Carol, not Alice, plays the allied turn
    assert f"Signer: {_fingerprint(carol)}" in c2.read_text()  # the file names its signer
    assert read_envelope(c2).author == "allied"
    assert "accepted #2 from allied" in ingest(runner, bob, c2).output
    assert "accepted #2 from allied" in ingest(runner, alice, c2).output  # her teammate's file
    b3 = play(runner, bob, "1", "6")
    ingest(runner, alice, b3)
    ingest(runner, carol, b3)
    a4 = play(runner, alice, MOVE, END)  # the side's chain goes on from the link Carol revealed
    assert f"Signer: {_fingerprint(alice)}" in a4.read_text()
    ingest(runner, bob, a4)
    ingest(runner, carol, a4)
    for p in (alice, bob, carol):
        assert pbem(runner, "verify", p.dir, env=p.env).output.startswith("OK: 5 envelopes")
    report = iv.verify_files(history(alice, bob))  # the independent verifier learns the rule too
    assert [e.seq for e in report.envelopes] == [0, 1, 2, 3, 4]
    shown = pbem(runner, "team", "show", "--campaign", bob.dir, env=bob.env).output
    assert f"allied: alice ({_fingerprint(alice)}), any member signs; 2 files signed" in shown  # #0 and #4
    assert f"member carol ({_fingerprint(carol)}); 1 file signed" in shown  # #2
    assert "ottoman: bob" in shown and "only its player signs; 2 files signed  (you)" in shown


def test_only_the_commander_signs_when_the_invitation_says_so(tmp_path: Path):
    runner = CliRunner()
    alice, bob, carol = team_game(runner, tmp_path, "commander")
    before = db_bytes(carol.dir)
    refused = invoke(runner, "play", "--campaign", carol.dir, MOVE, END, env=carol.env)
    assert_refused(refused, "wrong-key")
    assert "only allied's commander signs" in refused.stderr
    assert db_bytes(carol.dir) == before and not list((carol.dir / "sent").glob("*turn.pbem"))
    a2 = play(runner, alice, MOVE, END)
    # Alice's very turn, signed by Carol: the right content, a key the invitation pins, but not one
    # that may sign for allied here
    forged = tmp_path / "forged.pbem"
    forged.write_text(seal(KeyStore(carol.home).load("carol"), read_envelope(a2).content).raw)
    before = db_bytes(bob.dir)
    refused = invoke(runner, "ingest", "--campaign", bob.dir, forged, env=bob.env)
    assert_refused(refused, "wrong-key")
    assert db_bytes(bob.dir) == before
    with pytest.raises(iv.Refused) as by_verifier:
        iv.verify_files([*history(alice, bob)[:2], forged.read_text()])
    assert by_verifier.value.code == "wrong-key"
    ingest(runner, bob, a2)
    ingest(runner, carol, a2)  # Carol's copy follows the game and verifies it
    assert pbem(runner, "verify", carol.dir, env=carol.env).output.startswith("OK: 3 envelopes")


def test_a_key_no_one_pinned_never_signs_for_a_team_side(tmp_path: Path):
    runner = CliRunner()
    alice, bob, carol = team_game(runner, tmp_path, "any")
    dave = new_player(runner, tmp_path, "dave", "allied")
    c2 = play(runner, carol, MOVE, END)
    forged = tmp_path / "dave.pbem"
    forged.write_text(seal(KeyStore(dave.home).load("dave"), read_envelope(c2).content).raw)
    before = db_bytes(bob.dir)
    assert_refused(invoke(runner, "ingest", "--campaign", bob.dir, forged, env=bob.env), "wrong-key")
    assert db_bytes(bob.dir) == before
    # and a copy of the side is only for a member: Alice cannot export one to Dave, and Dave cannot
    # open Carol's
    assert_refused(invoke(runner, "team", "export", "--to", "dave", "--campaign", alice.dir, env=alice.env),
                   "not-member")
    copy = tmp_path / "carol.team"
    refused = invoke(runner, "team", "import", copy, "--key", "dave", "--campaign", dave.dir, env=dave.env)
    assert_refused(refused, "not-member")
    assert not (dave.dir / "campaign.db").exists()


def test_a_damaged_or_foreign_team_copy_is_refused_and_writes_nothing(tmp_path: Path):
    runner = CliRunner()
    alice, bob, carol = team_game(runner, tmp_path, "any")
    doc = json.loads((tmp_path / "carol.team").read_text())
    bad = tmp_path / "bad.team"
    where = tmp_path / "carol-again"

    def refused(changed: dict, code: str) -> None:
        bad.write_text(json.dumps(changed))
        assert_refused(invoke(runner, "team", "import", bad, "--key", "carol", "--campaign", where, env=carol.env),
                       code)
        assert not (where / "campaign.db").exists()

    box = dict(doc["secrets"], ct=base64.b64encode(b"\0" * 300).decode())
    refused(dict(doc, secrets=box), "bad-box")  # changed after sealing
    refused(dict(doc, history=doc["history"][::-1]), "bad-team-copy")  # not in the order of the chain
    refused(dict(doc, kind="something"), "bad-team-copy")
    # the secrets of another side, sealed to Carol's key: they do not give allied's next link
    from pbem.chain import teams
    from pbem.store import vault
    from pbem_engine.canonical import canonical_json

    ottoman = vault.read(bob.dir / "secrets" / "chain.json")
    carol_key = KeyStore(carol.home).public("carol")
    sealed = teams.seal_secrets(doc["game"], "allied", carol_key, canonical_json(dict(ottoman, side="allied")))
    refused(dict(doc, secrets=sealed), "bad-team-copy")


def test_the_invitation_refuses_a_key_pinned_twice(tmp_path: Path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    refused = invoke(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
                     "--team", f"allied={bob.pub}", "--campaign", alice.dir, env=alice.env)
    assert_refused(refused, "bad-genesis")
    assert "pinned twice" in refused.stderr
    assert not (alice.dir / "campaign.db").exists() and not (alice.dir / "secrets").exists()
    assert_refused(invoke(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
                          "--team", f"turks={new_player(runner, tmp_path, 'carol', 'allied').pub}", "--campaign",
                          alice.dir, env=alice.env),
                   "bad-side")


def test_a_genesis_with_a_malformed_team_is_refused_by_the_joiner_and_both_verifiers(tmp_path: Path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    carol = new_player(runner, tmp_path, "carol", "allied")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--team", f"allied={carol.pub}", "--campaign", alice.dir, env=alice.env)
    content = read_envelope(next((alice.dir / "sent").glob("*genesis.pbem"))).content
    entry = content["body"]["sides"]["allied"]
    member = entry["members"][0]
    for bad in ({"signs": "everyone"}, {"signs": None}, {"members": []},
                {"members": [member, member]},  # a key pinned twice
                {"members": [dict(member, name="alice")]},  # the commander's own name
                {"members": [dict(member, key=content["body"]["sides"]["ottoman"]["key"])]},
                {"members": [dict(member, extra=1)]}):
        changed = dict(entry, **bad)
        if changed.get("signs") is None:
            del changed["signs"]
        body = dict(content["body"], sides=dict(content["body"]["sides"], allied=changed))
        forged = tmp_path / "forged.pbem"
        forged.write_text(seal(KeyStore(alice.home).load("alice"), dict(content, body=body)).raw)
        where = tmp_path / "bob-game"
        assert_refused(invoke(runner, "join", forged, "--key", "bob", "--campaign", where, env=bob.env),
                       "bad-genesis")
        assert not (where / "campaign.db").exists()
        with pytest.raises(iv.Refused) as refused:
            iv.verify_files([forged.read_text()])
        assert refused.value.code == "bad-genesis", (bad, refused.value.reason)


def test_a_member_is_told_to_import_not_to_join(tmp_path: Path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    carol = new_player(runner, tmp_path, "carol", "allied")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--team", f"allied={carol.pub}", "--campaign", alice.dir, env=alice.env)
    genesis = next((alice.dir / "sent").glob("*genesis.pbem"))
    refused = invoke(runner, "join", genesis, "--key", "carol", "--campaign", carol.dir, env=carol.env)
    assert_refused(refused, "wrong-key")
    assert "pbem team export --to carol" in refused.stderr
    assert not (carol.dir / "campaign.db").exists()
