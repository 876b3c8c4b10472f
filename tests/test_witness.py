"""Witnesses (issue 37, point 3): a key named in the invitation receives every turn file and reads
the game as no side does, between separate homes with real turn files.

Alice (allied) and Bob (ottoman) play Trench Raid, a card duel whose hands are private draws;
Carol watches with her own home and a witness copy (``pbem watch``) that ingests every file either
player sends.  The byte search reads everything Carol's copy holds and every report, replay and
status she can ask for: no card a side holds unopened, no sealed message, ever; and it proves it
can find what it looks for by finding the cards the rules opened and a public message in the same
bytes.  Once the game is over and both secrets are out, Carol sees everything.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.play.campaign import Campaign
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import seal
from pbem.wire.keys import KeyStore
from tests.conftest import (
    Duel,
    assert_no_traceback,
    assert_refused,
    db_bytes,
    invoke,
    new_player,
    pbem,
    read_envelope,
)

def every_byte(folder: Path) -> bytes:
    """Every file under ``folder``, the turn files in it decoded (the armor is base64), and every
    envelope of a campaign database decoded."""
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        out.append(data)
        if path.suffix == ".db":
            conn = sqlite3.connect(path)
            out += [b"".join(b.payload for b in find_blocks(raw)) for (raw,) in conn.execute("select raw from envelopes")]
            conn.close()
        else:
            try:
                out += [b.payload for b in find_blocks(data.decode())]
            except (UnicodeDecodeError, ValueError):
                pass
    return b"\n".join(out)


class Watched(Duel):
    """Alice and Bob at Trench Raid, Carol named as witness and watching from her own home."""

    def __init__(self, root: Path, runner: CliRunner) -> None:
        self.root, self.runner = root, runner
        self.alice = self.new_identity("alice", "allied")
        self.bob = self.new_identity("bob", "ottoman")
        self.carol = new_player(runner, root, "carol", "")
        a, b, c = self.alice, self.bob, self.carol
        self.run(a, "new", "raid", "--as", "allied", "--key", "alice", "--opponent", b.pub, "--witness", c.pub,
                 "--campaign", a.dir)
        self.invitation = self.newest_sent(a)
        self.shown = self.run(b, "join", "--show", self.invitation).output
        self.watched = self.run(c, "watch", self.invitation, "--key", "carol", "--campaign", c.dir).output
        self.run(b, "join", self.invitation, "--key", "bob", "--campaign", b.dir)
        self.deliver(self.newest_sent(b), "alice")
        self.witness(self.newest_sent(b))

    def witness(self, path: Path) -> None:
        out = self.run(self.carol, "ingest", "--campaign", self.carol.dir, path).output
        assert "accepted" in out, out

    def play(self, who):
        p = self.player(who)
        for _ in range(5):  # the first choice until the turn file is signed
            out = self.run(p, "play", "1", "--campaign", p.dir).output
            m = re.search(r"signed turn file #(\d+): (\S+)", out)
            if m:
                return Path(m.group(2))
            assert "drafted" in out, out
        raise AssertionError(out)

    def turn(self, who):
        path = super().turn(who)
        self.witness(path)  # each player's tool sends its file to the witness too
        return path

    def seen(self, tmp: Path) -> bytes:
        """Everything Carol holds or can ask her copy for: its files, report, HTML report, replay, status."""
        c = self.carol
        replay = tmp / "carol-replay.html"
        self.run(c, "replay", "--campaign", c.dir, "-o", replay)
        outputs = [self.run(c, *args, "--campaign", c.dir).output.encode()
                   for args in (("report", "--all"), ("report", "--html", "--all"), ("status",), ("messages",))]
        outputs.append(self.run(c, "audit", c.dir).output.encode())
        return every_byte(c.dir) + b"".join(outputs) + replay.read_bytes()


@pytest.fixture
def game(tmp_path):
    return Watched(tmp_path, CliRunner())


def hidden(player_dir: Path) -> tuple[set[str], set[str]]:
    """What a side's own tool knows that no one else may yet: its secrets (chain seed, private
    secret) and the nonce of every card it holds unopened (a nonce with its item opens a token);
    and the nonces of the cards the rules opened, which every file after carries."""
    from pbem.chain.hidden import public_knowledge
    from pbem_engine.hidden.private import simulate

    camp = Campaign.open(player_dir, readonly=True)
    try:
        match, side = camp.match(), camp.side
        public = set(public_knowledge(camp.genesis["game"], match))
        _, openings = simulate(camp.genesis["game"], side, match["private"][side],
                               bytes.fromhex(camp.private_secret()))
        kept = {o["nonce"] for tok, o in openings.items() if tok not in public}
        shown = {o["nonce"] for tok, o in openings.items() if tok in public}
        return {camp.private_secret(), camp.chain_secrets()["secret"], *kept}, shown
    finally:
        camp.ledger.close()


def test_the_invitation_names_the_witness_and_her_copy_signs_nothing(game):
    assert re.search(r"witness  carol \(key [A-Z0-9-]+\): receives every turn file", game.shown)
    assert "watching game" in game.watched and "as witness carol" in game.watched
    c = game.carol
    assert not (c.dir / "secrets").exists() and not (c.dir / "sent").exists()
    status = game.run(c, "status", "--campaign", c.dir).output
    assert "you are witness" in status and "waiting for allied" in status
    listed = game.run(game.alice, "witnesses", "--campaign", game.alice.dir).output
    assert listed.startswith("carol\tkey ") and "no address" in listed
    before = db_bytes(c.dir)
    for args in (("play", "1"), ("claim-timeout",), ("say", "hello"), ("tell", "allied", "hello")):
        result = invoke(game.runner, *args, "--campaign", c.dir, env=c.env)
        assert_refused(result)
    assert db_bytes(c.dir) == before and not (c.dir / "sent").exists() and not (c.dir / "secrets").exists()
    join = read_envelope(game.newest_sent(game.bob))  # a file signed by the witness's key is no party's
    content = dict(json.loads(json.dumps(join.content)), author="witness")
    forged = c.dir.parent / "by-the-witness.pbem"
    forged.write_text(seal(KeyStore(c.home).load("carol"), content).raw)
    held = db_bytes(game.alice.dir)
    assert_refused(invoke(game.runner, "ingest", "--campaign", game.alice.dir, forged, env=game.alice.env),
                   "unknown-author")
    assert db_bytes(game.alice.dir) == held


def test_the_witness_sees_only_what_is_public_until_the_end(game, tmp_path):
    a, b, c = game.alice, game.bob, game.carol
    game.run(a, "say", "--campaign", a.dir, "good", "luck")
    game.run(a, "tell", "--campaign", a.dir, "ottoman", "the xyzzy plan")
    game.turn("allied")
    game.turn("ottoman")
    game.turn("allied")
    (kept_a, shown_a), (kept_b, shown_b) = hidden(a.dir), hidden(b.dir)
    kept, shown = kept_a | kept_b, shown_a | shown_b
    assert len(kept) >= 2 + 2 + 4 and shown  # both hands hold unopened cards; the cards played are opened
    seen = game.seen(tmp_path)
    assert b"allied says: good luck" in seen  # the search finds what is public...
    assert all(nonce.encode() in seen for nonce in shown)  # ...the openings of the cards played...
    assert not {secret for secret in kept if secret.encode() in seen}  # ...and nothing a side still hides
    assert b"xyzzy" not in seen and b"allied sent a sealed message to ottoman" in seen
    report = game.run(c, "report", "--campaign", c.dir).output
    assert report.startswith("Trench Raid (a card duel) -- report for witness (witness carol)")
    for line in report.splitlines():
        if line.startswith(("allied hand:", "ottoman hand:")) and "(none)" not in line:
            assert "raid card" not in line and "a concealed item" in line, line
    mine = game.run(a, "report", "--campaign", a.dir).output
    assert re.search(r"allied hand: raid card \d", mine)  # the player's own view names them
    hashes = {re.search(r"state (\w+)", game.run(p, "verify", p.dir).output).group(1) for p in (a, b, c)}
    assert len(hashes) == 1  # the witness's copy is the same game, checked the same way

    files = game.play_out()  # every file to the opponent and the witness, to the end (secrets revealed)
    assert files
    verified = game.run(c, "verify", c.dir).output
    assert "allied's" in verified and "hidden draws checked against its secret" in verified
    replay = tmp_path / "end.html"
    game.run(c, "replay", "--campaign", c.dir, "-o", replay)
    assert "every side has revealed its secret" in replay.read_text()
    final = game.run(c, "report", "--all", "--campaign", c.dir).output
    assert "a concealed item" not in final.split("The situation")[1]  # the end opened every card
    ended = every_byte(c.dir)
    assert b"xyzzy" not in ended  # a sealed message stays sealed to its addressee
    secret = Campaign.open(a.dir, readonly=True).private_secret()
    assert secret in kept_a and secret.encode() in ended  # the end reveals what was searched for before


def test_a_witness_whose_key_is_not_named_is_refused(game, tmp_path):
    dave = new_player(game.runner, tmp_path, "dave", "")
    result = invoke(game.runner, "watch", game.invitation, "--key", "dave", "--campaign", dave.dir, env=dave.env)
    assert_refused(result, "wrong-key")
    assert "carol" in result.stderr and not (dave.dir / "campaign.db").exists()
    again = invoke(game.runner, "watch", game.invitation, "--key", "carol", "--campaign", game.carol.dir,
                   env=game.carol.env)
    before = db_bytes(game.carol.dir)
    assert_refused(again, "exists")
    assert db_bytes(game.carol.dir) == before


def test_witnesses_are_checked_in_the_genesis_refereed_or_not(tmp_path):
    """A refereed game may name witnesses (tests/test_referee_witness.py), but not a player's key
    nor the referee's own; a two-player genesis naming a bad one is refused by the joiner."""
    runner = CliRunner()
    ref = new_player(runner, tmp_path, "ref", "referee")
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    for witness in (bob.pub, ref.pub):
        result = invoke(runner, "new", "hill60", "--referee", "--key", "ref", "--player", f"allied={alice.pub}",
                        "--player", f"ottoman={bob.pub}", "--witness", witness, "--campaign", ref.dir, env=ref.env)
        assert_refused(result, "bad-genesis")
        assert "a name or key given twice (or a player's or the referee's key)" in result.stderr
        assert not (ref.dir / "campaign.db").exists()

    invoke(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
           "--campaign", alice.dir, env=alice.env)
    genesis = read_envelope(next((alice.dir / "sent").glob("*genesis.pbem")))
    identity = KeyStore(alice.home).load("alice")
    carol = {"name": "carol", "key": genesis.content["body"]["sides"]["allied"]["key"]}
    for witnesses, why in (([carol], "a name or key given twice (or a player's or the referee's key)"),
                           ([{"name": "Carol!", "key": carol["key"]}], "witness name"),
                           ([], "must list 1 to 8 witnesses")):
        content = json.loads(json.dumps(genesis.content))
        content["body"]["witnesses"] = witnesses
        forged = tmp_path / "forged.pbem"
        forged.write_text(seal(identity, content).raw)
        result = invoke(runner, "join", forged, "--key", "bob", "--campaign", bob.dir, env=bob.env)
        assert_refused(result, "bad-genesis")
        assert why in result.stderr
        assert not (bob.dir / "campaign.db").exists()


def test_a_game_without_witnesses_reads_as_before(tmp_path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    invoke(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
           "--campaign", alice.dir, env=alice.env)
    genesis = read_envelope(next((alice.dir / "sent").glob("*genesis.pbem")))
    assert "witnesses" not in genesis.content["body"]
    listed = invoke(runner, "witnesses", "--campaign", alice.dir, env=alice.env).output
    assert "this game names no witness" in listed
    result = invoke(runner, "witnesses", "--campaign", alice.dir, "--address", "carol", "carol@example.org",
                    env=alice.env)
    assert_refused(result, "bad-witness")


def test_a_shared_deck_hand_stays_concealed_from_the_witness(tmp_path):
    """Assault on Gallipoli deals Action Cards from a shared deck (commutative encryption): the
    witness sees every draw as concealed cards, never one a side holds, in any report or file."""
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "anzac"), new_player(runner, tmp_path, "bob", "turkish")
    carol = new_player(runner, tmp_path, "carol", "")

    def run(who, *args):  # pbem ARGS as ``who``, insisting on success
        return pbem(runner, *args, env=who.env)

    run(alice, "new", "assault-on-gallipoli", "--as", "anzac", "--key", "alice", "--opponent", bob.pub,
        "--witness", carol.pub, "--campaign", alice.dir)
    invitation = next((alice.dir / "sent").glob("*genesis.pbem"))
    run(carol, "watch", invitation, "--key", "carol", "--campaign", carol.dir)
    run(bob, "join", invitation, "--key", "bob", "--campaign", bob.dir)
    join = next((bob.dir / "sent").glob("*join.pbem"))
    for who in (alice, carol):
        run(who, "ingest", "--campaign", who.dir, join)
    signed = 0
    for _ in range(8):  # whoever can sign plays its first choice; the file goes to the other and the witness
        for player, other in ((alice, bob), (bob, alice)):
            result = invoke(runner, "play", "1", "--campaign", player.dir, env=player.env)
            found = re.search(r"signed turn file #\d+: (\S+)", result.output)
            if found:
                signed += 1
                for who in (other, carol):
                    run(who, "ingest", "--campaign", who.dir, found.group(1))
    assert signed >= 4
    own = run(alice, "report", "--campaign", alice.dir).output
    held = re.search(r"anzac Action Cards in hand \(\d+\): (.*?)\n\S", own, re.S).group(1)
    names = {" ".join(n.split()) for n in held.split(",")}
    assert names and not any("concealed" in n for n in names)  # alice's own tool names her cards
    report = run(carol, "report", "--all", "--campaign", carol.dir).output
    html = run(carol, "report", "--html", "--all", "--campaign", carol.dir).output
    run(carol, "replay", "--campaign", carol.dir, "-o", tmp_path / "deck-replay.html")
    seen = " ".join((report + html + (tmp_path / "deck-replay.html").read_text()).split())
    assert "a concealed Action Card" in report and "anzac draws" in report
    assert not {name for name in names if name in seen}
    secrets_of = [json.loads((p.dir / "secrets" / "chain.json").read_text()) for p in (alice, bob)]
    held_bytes = every_byte(carol.dir)
    for data in secrets_of:
        assert data["private"].encode() not in held_bytes and data["secret"].encode() not in held_bytes
    assert "OK: " in run(carol, "verify", carol.dir).output
