"""Hostile mail never jams a mailbox: each message is read once, on its own; one that cannot be
used, for whatever reason, is refused with a reason and marked read, and the mail behind it is
read.  Bounds (pbem.limits) are enforced before a message is parsed.  Maildirs as mail programs
leave them (only cur/, or empty) are read or answered with a reason."""

from __future__ import annotations

import mailbox
import os
import re
import shutil
import subprocess
import sys
import textwrap
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.wire.armor import armor
from pbem.wire.envelope import DOMAIN
from pbem.wire.keys import Identity
from tests.conftest import assert_no_traceback, assert_refused, db_bytes, invoke, new_player, pbem
from tests.imap_server import imap_server  # noqa: F401  (a fixture)
from tests.test_mail_out import invitation_went_by_hand, smtp  # noqa: F401  (a fixture)


def message(body: str, sender: str = "bob@example.org", subject: str = "my turn") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "alice@example.org"
    msg["Subject"] = subject
    msg.set_content(body)
    return msg.as_bytes()


def deep_json_turn(game: str) -> str:
    """A turn file signed by a key nobody knows, its signed JSON nested 3,000 deep."""
    someone = Identity("someone", Ed25519PrivateKey.generate())
    body = b'{"a":' * 3000 + b"1" + b"}" * 3000
    payload = someone.sign(DOMAIN + body) + someone.public + body
    return armor({"Game": game, "Seq": "3", "From": "blue", "Kind": "turn", "Signer": someone.fingerprint}, payload)


def deep_mime(depth: int = 1000) -> bytes:
    head = b"From: carol@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nhello\r\n" + closing


def deep_forwards(depth: int = 1000) -> bytes:
    """A message forwarded inside a message ... 1,000 deep (no boundaries at all)."""
    return (b"From: erin@example.org\r\nSubject: fwd\r\n" + b"Content-Type: message/rfc822\r\n\r\n" * depth
            + b"Content-Type: text/plain\r\n\r\nhello\r\n")


def many_parts(count: int) -> bytes:
    return (b'From: dave@example.org\r\nSubject: parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; '
            b'boundary="x"\r\n\r\n' + b"--x\r\n\r\n" * count + b"--x--\r\n")


CRLF_FROM = b"From: =?utf-8?q?a=0D=0Ab?= <x@y>\r\nSubject: =?utf-8?q?hi=0D=0ABcc:_x@y?=\r\n\r\n"


def truncated(text: str) -> str:
    return "\n".join(text.splitlines()[:-1]) + "\n"  # the END line lost


@pytest.fixture
def turn(two_campaigns):
    """Bob's turn #3 as text, not yet ingested by alice."""
    d = two_campaigns
    d.deliver(d.play("red"), "bob")
    return d, d.play("blue").read_text()


def hostile(d, text: str) -> list[tuple[str, bytes]]:
    """(what, message) for every kind of message that jammed the mailbox, in the order delivered."""
    game = re.search(r"^Game: (\S+)$", text, re.M).group(1)
    return [
        ("JSON 3,000 deep", message("my turn\n\n" + deep_json_turn(game))),
        ("MIME 1,000 deep", deep_mime()),
        ("forwarded 1,000 deep", deep_forwards()),
        ("20,000 MIME parts", many_parts(20_000)),
        ("an encoded CR/LF in From", CRLF_FROM + truncated(text).encode()),
        ("a damaged turn file", message("here:\n" + truncated(text))),
        ("too large", message("x" * 300_000 + "\n")),
    ]


def fill_maildir(path: Path, messages: list[bytes]) -> Path:
    box = mailbox.Maildir(path)
    for raw in messages:
        box.add(raw)
    return path


def fetch(d, player, maildir: Path, **env):
    return invoke(d.runner, "mail", "fetch", "--maildir", maildir, "--campaign", player.dir,
                  env=dict(player.env, PBEM_MAX_MAIL_BYTES="200000", **env))


# --- mail fetch from a Maildir ---------------------------------------------------------

def test_hostile_mail_is_refused_and_the_turn_behind_it_is_read(turn, tmp_path):
    d, text = turn
    bad = hostile(d, text)
    box = fill_maildir(tmp_path / "Maildir", [raw for _, raw in bad] + [message("my turn\n\n" + text)])
    first = fetch(d, d.alice, box)
    assert_no_traceback(first)
    assert first.exit_code == 0, first.output + first.stderr
    assert "accepted #3 from blue" in first.output
    refused = [line for line in first.stderr.splitlines() if line.startswith("REFUSED a message from")]
    assert len(refused) == len(bad), first.stderr
    assert "too-deep" in first.stderr and "too-many-parts" in first.stderr and "too-large" in first.stderr
    assert "REFUSED a message from a b <x@y> ('hi Bcc: x@y'" in first.stderr  # shown, not obeyed
    assert f"read {len(bad) + 1} new message(s)" in first.output and "1 accepted" in first.output
    assert f"{len(bad)} refused" in first.output
    # the campaign has the turn: alice is to play
    assert "Your move" in first.output
    # and a record of each refusal, one line each, beside the record of the messages read
    import json
    import sqlite3

    with sqlite3.connect(f"file:{d.alice.db}?mode=ro", uri=True) as db:
        [(record,)] = db.execute("select value from settings where key like 'maildir:%#refused'").fetchall()
    reasons = json.loads(record)
    assert len(reasons) == len(bad) and all("\n" not in r for r in reasons.values())
    assert any(r.startswith("too-many-parts: ") for r in reasons.values())

    before = db_bytes(d.alice.dir)
    again = fetch(d, d.alice, box)
    assert_no_traceback(again)
    assert again.exit_code == 0 and "accepted" not in again.output and "REFUSED" not in again.stderr
    assert f"nothing new in {box} ({len(bad) + 1} message(s), all read before)" in again.output
    assert db_bytes(d.alice.dir) == before  # the second run changed nothing
    assert sum(1 for _ in (box / "new").iterdir()) == len(bad) + 1  # and the mailbox is only read


def test_a_message_with_a_crlf_in_its_from_is_still_read(turn, tmp_path):
    d, text = turn
    box = fill_maildir(tmp_path / "Maildir", [CRLF_FROM + text.encode()])
    result = fetch(d, d.alice, box)
    assert_no_traceback(result)
    assert result.exit_code == 0 and "accepted #3 from blue" in result.output, result.output + result.stderr


def test_default_limit_refuses_a_large_mail_before_reading_it(turn, tmp_path):
    d, text = turn
    big = message("my turn\n\n" + text + "\n" + ("y" * 76 + "\n") * 150_000)  # 11.6 MB, over the 10 MiB default
    box = fill_maildir(tmp_path / "Maildir", [big, message(text)])
    result = invoke(d.runner, "mail", "fetch", "--maildir", box, "--campaign", d.alice.dir, env=d.alice.env)
    assert result.exit_code == 0 and "accepted #3 from blue" in result.output, result.output + result.stderr
    assert "too-large: the message is too large" in result.stderr and "PBEM_MAX_MAIL_BYTES" in result.stderr
    raised = invoke(d.runner, "ingest", "--campaign", d.alice.dir, box, env=dict(d.alice.env, PBEM_MAX_MAIL_BYTES="20000000"))
    assert raised.exit_code == 0 and "already ingested" in raised.output  # the bound can be raised


def test_peak_memory_of_a_50_mb_mail(turn, tmp_path):
    """A 50 MB message is refused on its size: pbem ingest stays small (it peaked at 685 MB)."""
    d, text = turn
    path = tmp_path / "big.eml"
    with path.open("wb") as f:
        f.write(message("my turn\n\n" + text))
        for _ in range(680):
            f.write(("z" * 76 + "\n").encode() * 1000)
    assert path.stat().st_size > 50_000_000
    script = textwrap.dedent("""
        import re, sys
        from pbem.cli import cli
        try:
            cli(["ingest", "--campaign", sys.argv[1], sys.argv[2]], prog_name="pbem")
        except SystemExit as e:
            code = e.code
        peak = re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1)
        print("PEAK", int(peak) // 1024, "EXIT", code)
    """)
    env = dict(os.environ, **d.alice.env)
    out = subprocess.run([sys.executable, "-c", script, str(d.alice.dir), str(path)], env=env,
                         capture_output=True, text=True, timeout=300)
    peak, code = map(int, re.search(r"PEAK (\d+) EXIT (\d+)", out.stdout).groups())
    assert code == 1 and "too-large" in out.stderr, out.stderr
    assert peak < 150, f"peak memory {peak} MB for a 50 MB mail"


def test_too_many_parts_is_refused_quickly(turn, tmp_path):
    d, text = turn
    path = tmp_path / "parts.eml"
    path.write_bytes(many_parts(200_000))
    import time

    started = time.monotonic()
    result = d.ingest("alice", path)
    assert_refused(result, "too-many-parts")
    assert time.monotonic() - started < 20


# --- Maildirs as they are found ----------------------------------------------------------

def test_a_maildir_with_only_cur(turn, tmp_path):
    d, text = turn
    box = fill_maildir(tmp_path / "Maildir", [message(text)])
    for name in os.listdir(box / "new"):
        os.rename(box / "new" / name, box / "cur" / f"{name}:2,S")  # read in a mail program
    shutil.rmtree(box / "new")
    shutil.rmtree(box / "tmp")
    result = d.ingest("alice", box)
    assert_no_traceback(result)
    assert result.exit_code == 0 and "accepted #3 from blue" in result.output, result.output + result.stderr
    fetched = fetch(d, d.alice, box)
    assert fetched.exit_code == 0 and "already had #3 from blue" in fetched.output, fetched.output + fetched.stderr


def test_an_empty_maildir_says_there_is_nothing_to_read(turn, tmp_path):
    d, _ = turn
    box = fill_maildir(tmp_path / "Maildir", [])
    before = db_bytes(d.alice.dir)
    result = d.ingest("alice", box)
    assert_refused(result, "no-mail")
    assert "nothing to read" in result.stderr
    fetched = fetch(d, d.alice, box)
    assert fetched.exit_code == 0 and f"nothing to read: {box} holds no messages" in fetched.output
    assert db_bytes(d.alice.dir) == before


def test_a_maildir_of_messages_without_turn_files_says_so(turn, tmp_path):
    d, _ = turn
    box = fill_maildir(tmp_path / "Maildir", [message("just chatting")])
    assert_refused(d.ingest("alice", box), "no-turn-file")


# --- over IMAP (a real dovecot; skipped without it) ------------------------------------------

def test_hostile_mail_over_imap(turn, imap_server):
    d, text = turn
    d.run(d.alice, "mail", "config", "--imap", f"{imap_server.host}:{imap_server.port}", "--imap-security", "none",
          "--imap-user", imap_server.user)
    bad = hostile(d, text)
    for _, raw in bad:
        imap_server.deliver(raw)
    imap_server.deliver(message("my turn\n\n" + text))
    env = dict(d.alice.env, PBEM_IMAP_PASSWORD=imap_server.password, PBEM_MAX_MAIL_BYTES="200000")

    first = invoke(d.runner, "mail", "fetch", "--campaign", d.alice.dir, env=env)
    assert_no_traceback(first)
    assert first.exit_code == 0 and "accepted #3 from blue" in first.output, first.output + first.stderr
    assert first.stderr.count("REFUSED a message from") == len(bad)
    before = db_bytes(d.alice.dir)
    again = invoke(d.runner, "mail", "fetch", "--campaign", d.alice.dir, env=env)
    assert_no_traceback(again)
    assert again.exit_code == 0 and "accepted" not in again.output and "nothing new" in again.output
    assert db_bytes(d.alice.dir) == before
    assert len(imap_server.messages()) == len(bad) + 1


# --- a referee's unattended mailbox ---------------------------------------------------------

def test_a_referees_mailbox_run_survives_hostile_mail(tmp_path, smtp):
    runner = CliRunner()
    ref, alice, bob = (new_player(runner, tmp_path, n, s) for n, s in
                       (("ref", "referee"), ("alice", "allied"), ("bob", "ottoman")))
    pbem(runner, "new", "hill60", "--referee", "--key", "ref", "--player", f"allied={alice.pub}",
         "--player", f"ottoman={bob.pub}", "--campaign", ref.dir, env=ref.env)
    pbem(runner, "mail", "config", "--smtp", f"127.0.0.1:{smtp.port}", "--smtp-security", "none",
         "--from", "ref@example.org", env=ref.env)
    invitation_went_by_hand(ref.dir)
    invitation = next((ref.dir / "sent").glob("*genesis.pbem"))
    joins = []
    for p in (alice, bob):
        pbem(runner, "mail", "address", p.side, f"{p.name}@example.org", "--campaign", ref.dir, env=ref.env)
        pbem(runner, "join", invitation, "--key", p.name, "--campaign", p.dir, env=p.env)
        joins.append(message(next((p.dir / "sent").glob("*join.pbem")).read_text(), f"{p.name}@example.org"))
    join_text = next((alice.dir / "sent").glob("*join.pbem")).read_text()
    box = fill_maildir(tmp_path / "Maildir", [
        deep_mime(),
        CRLF_FROM + truncated(join_text).encode(),
        message("my orders:\n" + truncated(join_text), "carol@example.org", "orders"),
        message("my orders:\n" + truncated(join_text), "bob@example.org", "my orders"),
        message(truncated(join_text), "ref@example.org", "Re: orders"),
        message("a photo of my map\n" + "x" * 300_000, "dave@example.org", "my map"),
        *joins])
    env = dict(ref.env, PBEM_MAX_MAIL_BYTES="200000")

    first = invoke(runner, "mail", "run", "--maildir", box, "--campaign", ref.dir, env=env)
    assert_no_traceback(first)
    assert first.exit_code == 0, first.output + first.stderr
    assert "accepted the join of allied" in first.output and "accepted the join of ottoman" in first.output
    assert "adjudicated #1" in first.output
    out = first.output.splitlines()
    assert len(out) == 13, first.output  # a line per message, the adjudication, each mail sent, and the count
    # a player of this game whose mail could not be used: answered, with the reason
    assert any(line.startswith("REFUSED a message from bob@example.org ('my orders'") and "truncated" in line
               and line.endswith("; answered") for line in out), first.output
    # nobody else: the CR/LF one has no usable address, carol is no player, one is our own, dave's names no game
    assert "not answered: no usable sender address" in first.output
    assert "not answered: carol@example.org is not the address of a player of this game" in first.output
    assert "not answered: it came from this mailbox's own address" in first.output  # no mail loop
    assert re.search(r"from dave@example\.org \('my map'.*too-large.*not answered: nothing in it names this game",
                     first.output)
    assert "2 accepted, 6 refused, 1 answered; adjudicated #1; 3 sent" in first.output
    replies = [m for m in smtp.messages if b"Auto-Submitted: auto-replied" in m[2]]
    assert [r[1] for r in replies] == [["bob@example.org"]]
    reply = __import__("email").message_from_bytes(replies[0][2], policy=default_policy)
    assert reply["Subject"] == "Re: my orders" and "<pbem-" in reply["References"]  # in the game's thread
    assert "BEGIN PBEM TURN-----" not in reply.get_content() and str(ref.dir) not in reply.get_content()

    sent = len(smtp.messages)
    again = invoke(runner, "mail", "run", "--maildir", box, "--campaign", ref.dir, env=env)
    assert_no_traceback(again)
    assert again.exit_code == 0 and "accepted" not in again.output and "answered" not in again.output
    assert "nothing new" in again.output and len(smtp.messages) == sent
    assert len(again.output.splitlines()) == 1  # nothing changed: one line


@pytest.mark.parametrize("text", ["x = " + "[" * 3000 + "]" * 3000, "smtp = 3\n", "[smtp]\nport = 25\n",
                                  "a = 'unterminated\n", "[smtp]\nhost = 'h'\nport = 'twenty-five'\n"])
def test_hostile_mail_settings_are_refused_in_one_line(tmp_path, text):
    """A mail.toml nested thousands deep, or of the wrong shape: one line, exit 1, no traceback."""
    runner = CliRunner()
    home = tmp_path / "home"
    home.mkdir()
    (home / "mail.toml").write_text(text)
    result = invoke(runner, "mail", "config", env={"PBEM_HOME": str(home)})
    assert_refused(result, "bad-config")
