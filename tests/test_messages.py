"""Table talk (issue 37, point 1): `say` and `tell` beside the orders, between separate homes with
real turn files, in a two-player game and a refereed one.

A message is signed in the turn file but is not an action: it never counts as the decision and
never changes a state hash. A message sealed to one party is unreadable in every byte another
player gets: the searches below decode every turn file (the armor is base64) and read every
envelope and view a campaign stores, and each proves it can find what it looks for by finding a
public message in the same bytes.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from pbem.wire.armor import find_blocks
from pbem.wire.envelope import seal
from pbem.wire.keys import KeyStore
from tests.conftest import assert_refused, db_bytes, hill60_pair, invoke, new_player, pbem, read_envelope


def decoded(text: str) -> bytes:
    """The bytes of ``text`` and the signed content of every turn file in it."""
    return text.encode() + b"".join(block.payload for block in find_blocks(text))


def every_byte(folder: Path) -> bytes:
    """Everything a player holds under ``folder``: each file's bytes, the turn files in it decoded,
    and in a campaign database every envelope (decoded) and every view it opened."""
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        out.append(data)
        if path.suffix == ".db":
            conn = sqlite3.connect(path)
            for (raw,) in conn.execute("select raw from envelopes"):
                out.append(decoded(raw))
            for raw, payload in conn.execute("select raw, payload from views"):
                out += [decoded(raw), payload.encode()]
            conn.close()
        else:
            try:
                out.append(decoded(data.decode()))
            except (UnicodeDecodeError, ValueError):
                pass
    return b"\n".join(out)


def number_of(listing: str, words: str) -> str:
    """The number ``pbem play`` printed beside the first choice whose label starts with ``words``."""
    return next(line.split(".")[0].strip() for line in listing.splitlines()
                if line.startswith("  ") and line.split(". ", 1)[-1].startswith(words))


def only_file(folder: Path, pattern: str) -> Path:
    [path] = sorted(folder.glob(pattern))
    return path


def test_said_and_sealed_words_travel_between_two_homes(tmp_path: Path):
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    listing = pbem(runner, "play", "--campaign", alice.dir, env=alice.env).output
    move, end = number_of(listing, "move "), number_of(listing, "end turn")
    out = pbem(runner, "play", "--campaign", alice.dir, "say good luck", "tell ottoman: are you sure?", move, end,
               env=alice.env).output
    assert "signed turn file #2" in out
    sent = only_file(alice.dir / "sent", "*-0002-allied-turn.pbem")
    signed = decoded(sent.read_text())
    assert b"good luck" in signed  # the search finds what is there...
    assert b"are you sure" not in signed  # ...and the sealed words are not
    body = read_envelope(sent).content["body"]
    assert len(body["actions"]) == 2  # the two moves: the messages are not actions
    assert [m.get("to") for m in body["messages"]] == [None, "ottoman"]
    mail = only_file(alice.dir / "outbox", "*-0002-*.eml").read_text()
    assert "allied says: good luck" in mail and "are you sure" not in mail
    assert "allied to ottoman: a message" in mail  # the body says one waits, sealed

    pbem(runner, "ingest", "--campaign", bob.dir, sent, env=bob.env)
    shown = pbem(runner, "play", "--campaign", bob.dir, env=bob.env).output
    assert "> allied says: good luck" in shown
    assert "> allied to ottoman (sealed): are you sure?" in shown
    report = pbem(runner, "report", "--campaign", bob.dir, env=bob.env).output
    assert "> allied to ottoman (sealed): are you sure?" in report
    html = pbem(runner, "report", "--html", "--campaign", bob.dir, env=bob.env).output
    assert "are you sure?" in html and "good luck" in html
    pbem(runner, "replay", "--campaign", bob.dir, "-o", tmp_path / "replay.html", env=bob.env)
    assert "allied to ottoman (sealed): are you sure?" in (tmp_path / "replay.html").read_text()
    own = pbem(runner, "report", "--all", "--campaign", alice.dir, env=alice.env).output
    assert "> allied to ottoman (sealed): are you sure?" in own  # the author reads its own copy

    out = pbem(runner, "play", "--campaign", bob.dir, "tell allied not at all", "1", "end turn", env=bob.env).output
    reply = only_file(bob.dir / "sent", "*-0003-ottoman-turn.pbem")
    assert b"not at all" not in decoded(reply.read_text())
    pbem(runner, "ingest", "--campaign", alice.dir, reply, env=alice.env)
    listed = pbem(runner, "messages", "--campaign", alice.dir, env=alice.env).output.splitlines()
    assert listed == ["#2 allied says: good luck", "#2 allied to ottoman (sealed): are you sure?",
                      "#3 ottoman to allied (sealed): not at all"]
    for player in (alice, bob):
        assert pbem(runner, "verify", player.dir, env=player.env).output.startswith("OK: ")


def test_a_message_is_never_the_decision(tmp_path: Path):
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    out = pbem(runner, "play", "--campaign", alice.dir, "say hello", env=alice.env).output
    assert "signed turn file" not in out and "1 message(s) wait for your next turn file" in out
    assert not list((alice.dir / "sent").glob("*-turn.pbem"))
    assert "waiting for you" in pbem(runner, "status", "--campaign", alice.dir, env=alice.env).output
    pbem(runner, "say", "--campaign", alice.dir, "and", "farewell", env=alice.env)
    waiting = pbem(runner, "messages", "--campaign", alice.dir, env=alice.env).output
    assert "waiting for your next turn file: say: hello" in waiting
    assert "waiting for your next turn file: say: and farewell" in waiting
    pbem(runner, "say", "--campaign", alice.dir, "I take this back", env=alice.env)
    out = pbem(runner, "messages", "--campaign", alice.dir, "--withdraw", env=alice.env).output
    assert "3 message(s) taken back" in out
    pbem(runner, "say", "--campaign", alice.dir, "hello", env=alice.env)
    pbem(runner, "say", "--campaign", alice.dir, "and", "farewell", env=alice.env)
    # the other side may speak out of turn: it waits for his next file
    pbem(runner, "tell", "--campaign", bob.dir, "allied", "take your time", env=bob.env)
    pbem(runner, "play", "--campaign", alice.dir, "1", "end turn", env=alice.env)
    body = read_envelope(only_file(alice.dir / "sent", "*-0002-allied-turn.pbem")).content["body"]
    assert body["messages"] == [{"say": "hello"}, {"say": "and farewell"}]
    assert len(body["actions"]) == 2
    assert "waiting for your next" not in pbem(runner, "messages", "--campaign", alice.dir, env=alice.env).output
    pbem(runner, "ingest", "--campaign", bob.dir, only_file(alice.dir / "sent", "*-0002-*"), env=bob.env)
    pbem(runner, "play", "--campaign", bob.dir, "1", "end turn", env=bob.env)
    said = read_envelope(only_file(bob.dir / "sent", "*-0003-ottoman-turn.pbem")).content["body"]["messages"]
    assert [m.get("to") for m in said] == ["allied"]


def test_the_state_hash_ignores_messages_and_bad_ones_are_refused(tmp_path: Path):
    """Alice's signed turn, re-signed by her key with its messages changed: the same state hash
    holds without them (accepted), a hostile messages field is refused, the database unchanged."""
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    pbem(runner, "play", "--campaign", alice.dir, "say good luck", "tell ottoman hush", "1", "end turn", env=alice.env)
    content = read_envelope(only_file(alice.dir / "sent", "*-0002-allied-turn.pbem")).content
    key = KeyStore(alice.home).load("alice")
    sealed = content["body"]["messages"][1]
    hostile = [[], [{"say": ""}], [{"say": "x" * 1001}], [{"say": "clear\x1b[2Jscreen"}], [{"say": 3}],
               [{"say": "hi", "to": "ottoman"}], [{"say": "hi"}] * 9, [dict(sealed, to="allied")],
               [dict(sealed, to="referee")], [dict(sealed, box={"epk": "zz" * 32, "ct": "AA=="})],
               [{"to": "ottoman", "box": sealed["box"]}], "hello"]
    before = db_bytes(bob.dir)
    for i, messages in enumerate(hostile):
        forged = tmp_path / f"forged-{i}.pbem"
        forged.write_text(seal(key, dict(content, body=dict(content["body"], messages=messages))).raw)
        result = invoke(runner, "ingest", "--campaign", bob.dir, forged, env=bob.env)
        assert assert_refused(result) == "bad-messages", (messages, result.stderr)
        assert db_bytes(bob.dir) == before
    quiet = dict(content["body"])
    del quiet["messages"]
    plain = tmp_path / "plain.pbem"
    plain.write_text(seal(key, dict(content, body=quiet)).raw)  # the state field as signed with messages
    assert "accepted #2" in pbem(runner, "ingest", "--campaign", bob.dir, plain, env=bob.env).output


def test_bad_messages_are_refused_with_nothing_changed(tmp_path: Path):
    runner = CliRunner()
    alice, _ = hill60_pair(runner, tmp_path)
    before = db_bytes(alice.dir)
    secrets = sorted((p.name, p.read_bytes()) for p in (alice.dir / "secrets").iterdir())
    for args in (["play", "say " + "x" * 1001, "1", "end turn"], ["play", "tell nobody hi", "1", "end turn"],
                 ["play", "tell allied myself", "1"], ["say", "x" * 1001], ["tell", "ottoman", "a\x07b"],
                 ["tell", "referee", "no referee here"]):
        result = invoke(runner, *args[:1], "--campaign", alice.dir, *args[1:], env=alice.env)
        assert assert_refused(result) == "bad-message", args
        assert db_bytes(alice.dir) == before
        assert sorted((p.name, p.read_bytes()) for p in (alice.dir / "secrets").iterdir()) == secrets
    assert not list((alice.dir / "sent").glob("*-turn.pbem"))
    for _ in range(8):
        pbem(runner, "say", "--campaign", alice.dir, "again", env=alice.env)
    assert_refused(invoke(runner, "say", "--campaign", alice.dir, "one more", env=alice.env), "bad-message")


def test_in_a_refereed_game_sealed_words_reach_their_addressee_only(tmp_path: Path):
    runner = CliRunner()
    ref = new_player(runner, tmp_path, "ref", "referee")
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "hill60", "--referee", "--key", "ref", "--player", f"allied={alice.pub}",
         "--player", f"ottoman={bob.pub}", "--campaign", ref.dir, env=ref.env)
    genesis = only_file(ref.dir / "sent", "*genesis.pbem")
    for p in (alice, bob):
        pbem(runner, "join", genesis, "--key", p.name, "--campaign", p.dir, env=p.env)
        pbem(runner, "ingest", "--campaign", ref.dir, only_file(p.dir / "sent", "*join.pbem"), env=ref.env)
    pbem(runner, "play", "--campaign", ref.dir, "say welcome", "tell allied you attack at dawn",
         "tell ottoman hold the hill", env=ref.env)

    def deliver(seq: int) -> None:
        for p in (alice, bob):
            pbem(runner, "ingest", "--campaign", p.dir, only_file(ref.dir / "sent" / f"to-{p.side}", f"*-{seq:04d}-*"),
                 env=p.env)

    deliver(1)
    shown = pbem(runner, "play", "--campaign", alice.dir, env=alice.env).output
    assert "> referee to allied (sealed): you attack at dawn" in shown
    assert "> referee sent a sealed message to ottoman" in shown and "hold the hill" not in shown
    pbem(runner, "play", "--campaign", alice.dir, "tell referee may I look over the ridge?", "1", env=alice.env)
    pbem(runner, "ingest", "--campaign", ref.dir, only_file(alice.dir / "sent", "*-0002-allied-turn.pbem"),
         env=ref.env)
    assert "#2 allied to referee (sealed): may I look over the ridge?" in pbem(
        runner, "messages", "--campaign", ref.dir, env=ref.env).output
    pbem(runner, "play", "--campaign", ref.dir, "tell allied no", env=ref.env)
    deliver(3)
    pbem(runner, "tell", "--campaign", bob.dir, "allied", "good morning", env=bob.env)  # (not his turn: it waits)
    assert "#1 referee to ottoman (sealed): hold the hill" in pbem(runner, "messages", "--campaign", bob.dir,
                                                                     env=bob.env).output
    for p in (alice, bob):
        pbem(runner, "report", "--all", "--campaign", p.dir, env=p.env)
        pbem(runner, "replay", "--campaign", p.dir, "-o", p.dir / "replay.html", env=p.env)
    assert "referee to allied (sealed): no" in pbem(runner, "messages", "--campaign", alice.dir, env=alice.env).output

    bobs = every_byte(bob.dir) + every_byte(ref.dir / "sent" / "to-ottoman")
    assert b"welcome" in bobs and b"hold the hill" in bobs  # what is his is found...
    for words in (b"you attack at dawn", b"over the ridge", b"referee to allied (sealed): no"):
        assert words not in bobs, words  # ...and what is sealed to others is not
    alices = every_byte(alice.dir) + every_byte(ref.dir / "sent" / "to-allied")
    assert b"you attack at dawn" in alices and b"hold the hill" not in alices


def test_a_message_is_not_sent_twice_after_a_kill(tmp_path: Path):
    """Killed after the file that carried the waiting messages was stored, before the queue was
    emptied: the next file does not carry them again."""
    from pbem.store import vault

    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    pbem(runner, "say", "--campaign", alice.dir, "only once", env=alice.env)
    talk = alice.dir / "secrets" / "talk.json"
    pbem(runner, "play", "--campaign", alice.dir, "1", "end turn", env=alice.env)
    assert vault.read(talk)["queue"] == []
    vault.write(talk, dict(vault.read(talk), queue=[{"to": None, "text": "only once"}], signing=2))  # the kill
    assert "waiting for your next" not in pbem(runner, "messages", "--campaign", alice.dir, env=alice.env).output
    pbem(runner, "ingest", "--campaign", bob.dir, only_file(alice.dir / "sent", "*-0002-*"), env=bob.env)
    pbem(runner, "play", "--campaign", bob.dir, "1", "end turn", env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, only_file(bob.dir / "sent", "*-0003-*"), env=alice.env)
    pbem(runner, "play", "--campaign", alice.dir, "say a new one", "1", "end turn", env=alice.env)
    body = read_envelope(only_file(alice.dir / "sent", "*-0004-allied-turn.pbem")).content["body"]
    assert body["messages"] == [{"say": "a new one"}]
