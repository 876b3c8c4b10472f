"""A kill, a full disk or a damaged file never loses what was signed, and never leaves a
campaign the next command cannot continue from.

* Secrets, drafts and turn files are replaced in one step: a write that fails half-way leaves
  the old file whole (a full disk during `pbem play` used to leave secrets/chain.json empty).
* A turn stored in the ledger whose sent/ file or outbox mail was not written is written by the
  next command that opens the campaign for writing (a retried `pbem play` finishes the
  interrupted one), or on demand by `pbem resend`.
* `pbem new`/`join` killed at any moment leave no half-made campaign.db.
* Damaged secrets are refused with a reason; a damaged draft is ignored with a warning and kept
  aside (it only holds choices not yet signed, which the player gives again).
* The kill harness: real `pbem` processes stopped by PBEM_CRASH_AT at each named point
  (pbem.store.lock) and by SIGKILL at random moments, 100+ kills, each followed by the next command
  and a verify.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import signal
import stat
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from pbem.store.lock import CRASH_EXIT
from tests.conftest import Duel, Player, assert_no_traceback, assert_refused, db_bytes, invoke, new_player, pbem

PBEM = str(Path(sys.executable).parent / "pbem")
DEPLOY = ["deploy 25th 4 krithia", "deploy dummy gully ravine", "deploy 57th 3 kilia liman", "done"]


# --- helpers ----------------------------------------------------------------------------

def run(player: Player, *args: object, crash: str | None = None, kill_after: float | None = None,
        extra: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``pbem ARGS`` as its own process: stopped at crash point ``crash``, or by SIGKILL after
    ``kill_after`` seconds (if still running).  Returns (exit code, stdout, stderr); a process
    killed by the signal gives -9."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(player.env, **(extra or {}))
    if crash:
        env["PBEM_CRASH_AT"] = crash
    proc = subprocess.Popen([PBEM, *map(str, args)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    if kill_after is not None:
        try:
            proc.wait(kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def killed(rc: int) -> bool:
    return rc in (CRASH_EXIT, -signal.SIGKILL)


def assert_clean(rc: int, out: str, err: str, *codes: str) -> None:
    """No traceback; success, or exit 1 with 'Error: CODE: reason' and a detail line."""
    assert "Traceback" not in out + err, err
    if rc != 0:
        lines = err.splitlines()
        assert rc == 1 and len(lines) >= 2, (rc, out, err)
        assert re.match(r"^Error: [a-z][a-z0-9-]*: \S", lines[0]) and lines[1].strip(), err
        assert "not a campaign database" not in err, err
        if codes:
            assert lines[0].split(":")[1].strip() in codes, err


def ledger_rows(directory: Path) -> list[tuple[int, str, str, str]]:
    """(seq, hash, author, raw) of every stored envelope."""
    import sqlite3

    con = sqlite3.connect(f"file:{directory / 'campaign.db'}?mode=ro", uri=True)
    try:
        return con.execute("select seq, hash, author, raw from envelopes order by seq").fetchall()
    finally:
        con.close()


def verified(directory: Path) -> str:
    from pbem.check.verify import verify_path

    summary = verify_path(directory).summary()
    assert summary.startswith("OK: "), summary
    return summary


def newest(folder: Path, pattern: str = "*.pbem") -> Path:
    return max(folder.glob(pattern), key=lambda p: p.name)


@pytest.fixture
def blocks(tmp_path, runner, home):
    """A block game where bob (ottoman) is to deploy his concealed blocks (hidden choices)."""
    alice = new_player(runner, tmp_path, "alice", "allied")
    bob = new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--option", "turns=2", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", newest(alice.dir / "sent"), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob.dir / "sent"), env=alice.env)
    pbem(runner, "play", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "ingest", "--campaign", bob.dir, newest(alice.dir / "sent"), env=bob.env)
    return runner, alice, bob


def draft_file(player: Player) -> Path:
    """Where the player's tool keeps its draft (with the secrets; an older pbem: the campaign folder)."""
    found = [p for p in (player.dir / "secrets" / "draft.json", player.dir / "draft.json") if p.exists()]
    assert len(found) == 1, found
    return found[0]


# --- files replaced in one step -------------------------------------------------------------

def test_a_failed_secrets_write_keeps_the_old_secrets(blocks, monkeypatch):
    """The disk fills while `pbem play` records bob's concealed blocks in his secrets: the play is
    refused with a reason, secrets and database are as they were, and once there is room the
    same orders sign and bob's report names his blocks."""
    runner, alice, bob = blocks
    secrets_file = bob.dir / "secrets" / "chain.json"
    before, db_before = secrets_file.read_bytes(), db_bytes(bob.dir)
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.f, name)

    def full_disk(fd, mode="r", *args, **kwargs):
        f = real_fdopen(fd, mode, *args, **kwargs)
        return Full(f) if "w" in mode else f

    with monkeypatch.context() as m:
        m.setattr(os, "fdopen", full_disk)
        result = invoke(runner, "play", "--campaign", bob.dir, *DEPLOY, env=bob.env)
    assert_refused(result, "unwritable")
    assert secrets_file.read_bytes() == before
    assert db_bytes(bob.dir) == db_before
    ok = invoke(runner, "play", "--campaign", bob.dir, *DEPLOY, env=bob.env)
    assert ok.exit_code == 0 and "signed turn file #3" in ok.output, ok.output + ok.stderr
    report = invoke(runner, "report", "--campaign", bob.dir, env=bob.env).output
    assert re.search(r"Krithia \[.*\]: 9th Div / 25th Rgt", report), report
    verified(bob.dir)


def test_resend_writes_the_last_turn_file_again_from_the_ledger(two_campaigns):
    """Alice's turn file and its mail are gone (a crash, a deleted folder, a lost mail): `pbem
    resend` writes the file again byte for byte as signed, and a mail with it; bob accepts it."""
    d = two_campaigns
    turn = d.play("alice")
    signed = turn.read_bytes()
    turn.unlink()
    for mail in (d.alice.dir / "outbox").glob("*.eml"):
        mail.unlink()
    result = invoke(d.runner, "resend", "--campaign", d.alice.dir, env=d.alice.env)
    assert result.exit_code == 0, result.output + result.stderr
    assert f"turn file #2 written again: {turn}" in result.output
    assert turn.read_bytes() == signed
    [mail] = (d.alice.dir / "outbox").glob("*.eml")
    assert turn.name in mail.read_text()
    d.deliver(turn, "bob")
    assert ledger_rows(d.bob.dir) == ledger_rows(d.alice.dir)  # nothing was signed twice


@pytest.mark.parametrize("point", ["sign:before-store", "play:stored", "play:sent", "play:outbox"])
def test_a_play_killed_at_any_step_is_finished_by_the_next_command(two_campaigns, point):
    """`pbem play` dies (kill -9) at each step of signing.  Retrying it never says "not your
    turn" while the turn file or its mail is missing: it signs (nothing was stored) or writes
    what the stored turn still owed; the file is the one in the ledger, and bob accepts it."""
    d = two_campaigns
    rc, out, err = run(d.alice, "play", "1", "--campaign", d.alice.dir, crash=point)
    assert rc == CRASH_EXIT, (rc, out, err)
    again = invoke(d.runner, "play", "1", "--campaign", d.alice.dir, env=d.alice.env)
    assert_no_traceback(again)
    if point == "play:outbox":  # everything was written: the game has moved on
        assert_refused(again, "not-your-turn")
    else:
        assert again.exit_code == 0, again.output + again.stderr
        assert re.search(r"signed turn file #2: \S+", again.output), again.output
    turn = newest(d.alice.dir / "sent")
    seq, digest, author, raw = ledger_rows(d.alice.dir)[-1]
    assert (seq, author) == (2, "red") and turn.read_text() == raw
    [mail] = (d.alice.dir / "outbox").glob("*-turn-*.eml")  # (the invitation's mail waits there too)
    assert mail.name.startswith(turn.stem) and turn.read_text() in mail.read_text()
    d.deliver(turn, "bob")
    d.turn("bob")
    verified(d.alice.dir)
    verified(d.bob.dir)


# A write killed mid-transaction: its pages spill to the database before the commit (a cache of
# one page), then kill -9.  What remains is a hot journal beside a half-written campaign.db.
HOT_WRITE = """
import os, signal, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("pragma cache_size = 1")
conn.execute("begin immediate")
for i in range(200):
    conn.execute("insert into settings (key, value) values (?, ?)", (f"half-written {i}", "x" * 3000))
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_read_only_commands_roll_back_the_hot_journal_of_a_killed_write(two_campaigns):
    """status, report and verify after a write killed mid-transaction: they roll its journal
    back (under the campaign lock) and show the campaign as it was, where they said "not a
    campaign database" until a writing command ran."""
    d = two_campaigns
    readers = (("status", "--campaign", d.alice.dir), ("report", "--campaign", d.alice.dir), ("verify", d.alice.dir))
    shown = [pbem(d.runner, *command, env=d.alice.env).output for command in readers]
    before = db_bytes(d.alice.dir)
    journal = d.alice.dir / "campaign.db-journal"
    killed_write = subprocess.run([sys.executable, "-c", HOT_WRITE, str(d.alice.db)])
    assert killed_write.returncode == -signal.SIGKILL
    assert journal.stat().st_size > 0 and db_bytes(d.alice.dir) != before  # a hot journal, half a write
    for command, output in zip(readers, shown):
        result = invoke(d.runner, *command, env=d.alice.env)
        assert_no_traceback(result)
        assert (result.exit_code, result.output) == (0, output), result.stderr
    assert not journal.exists() and db_bytes(d.alice.dir) == before
    d.turn("alice")  # and the game goes on
    verified(d.alice.dir)


# Writes killed half-way through, in every folder a campaign writes to: each temporary file made as
# pbem.store.files.atomic_write makes it, half its bytes written, then kill -9 before the rename.
HALF_WRITES = """
import os, signal, sys
from pathlib import Path
from pbem.store.files import temporary
for target in sys.argv[1:]:
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    fd, _ = temporary(Path(target))
    os.write(fd, b"-----BEGIN PBEM TURN-----\\nGame: half")
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_next_writing_command_removes_the_temporary_files_of_killed_writes(two_campaigns):
    """Killed writes leave ``.NAME.RANDOM.tmp`` files in sent/, received/, outbox/, evidence/,
    secrets/ and their sub-folders.  A reading command leaves them (it holds no lock: a write may
    be under way); the next command that takes the campaign lock removes them, and nothing else."""
    d = two_campaigns
    folders = ["sent", "sent/to-blue", "received", "outbox", "outbox/sent", "evidence", "secrets"]
    targets = [d.alice.dir / f / "x.pbem" for f in folders]
    killed_writes = subprocess.run([sys.executable, "-c", HALF_WRITES, *map(str, targets)])
    assert killed_writes.returncode == -signal.SIGKILL
    stray = sorted(p for f in folders for p in (d.alice.dir / f).glob(".x.pbem.*.tmp"))
    assert len(stray) == len(folders)
    kept = [d.alice.dir / "sent" / ".notes.tmp", d.alice.dir / ".campaign.db.0123456789ab.tmp",
            d.alice.dir / "outbox" / ".x.eml.not-hex-here.tmp"]  # not pbem's own, or not where it writes
    for path in kept:
        path.write_text("mine")
    files = {p: p.read_bytes() for p in d.alice.dir.rglob("*") if p.is_file() and p not in stray}
    pbem(d.runner, "status", "--campaign", d.alice.dir, env=d.alice.env)
    assert all(p.exists() for p in stray)
    d.play("alice")
    assert not any(p.exists() for p in stray)
    assert all(p.read_bytes() == data for p, data in files.items() if p.parent.name != "secrets"
               and p.name != "campaign.db")  # the others as they were (play writes secrets and the db)
    verified(d.alice.dir)


def test_new_and_join_killed_at_any_moment_leave_no_half_made_campaign(tmp_path, runner, home):
    """`pbem new` and `pbem join` are killed at spaced moments through their run.  After each
    kill, `pbem status` never calls the folder "not a campaign database" (there is no campaign,
    or a whole one), and running the same command again makes the game."""
    alice = new_player(runner, tmp_path, "alice", "red")
    bob = new_player(runner, tmp_path, "bob", "blue")
    start = time.monotonic()
    rc, _, err = run(alice, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub,
                     "--campaign", tmp_path / "probe")
    assert rc == 0, err
    span = time.monotonic() - start
    steps = 14
    for i in range(steps):
        delay = span * (i + 0.5) / steps
        a = Player("alice", "red", alice.home, tmp_path / f"a{i}")
        b = Player("bob", "blue", bob.home, tmp_path / f"b{i}")
        new = ("new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub, "--campaign", a.dir)
        run(alice, *new, kill_after=delay)
        status = run(alice, "status", "--campaign", a.dir)
        assert_clean(*status, "no-campaign")
        again = run(alice, *new)
        assert_clean(*again, "exists")
        if again[0] != 0:
            assert status[0] == 0 and "exists" in again[2]
        invitation = newest(a.dir / "sent")
        join = ("join", invitation, "--key", "bob", "--campaign", b.dir)
        run(bob, *join, kill_after=delay * 0.8)
        assert_clean(*run(bob, "status", "--campaign", b.dir), "no-campaign")
        assert_clean(*run(bob, *join), "exists")
        rc, out, err = run(alice, "ingest", "--campaign", a.dir, newest(b.dir / "sent"))
        assert rc == 0 and "accepted #1" in out, out + err
        verified(a.dir)
        verified(b.dir)


# --- damaged secrets and drafts ---------------------------------------------------------------

def _encrypted_field(field: str, value):
    def damage(data: dict) -> dict:
        if value is None:
            del data[field]
        else:
            data[field] = value
        return data
    return damage


DAMAGED_SECRETS = {
    "empty file": lambda text: "",
    "cut in half": lambda text: text[: len(text) // 2],
    "not JSON": lambda text: "secret = 42\n",
    "a JSON list": lambda text: "[1, 2, 3]",
    "no chain secret": lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "secret"}),
    "chain secret not hex": lambda text: json.dumps(dict(json.loads(text), secret="zz" * 32)),
    "length a string": lambda text: json.dumps(dict(json.loads(text), length="4096")),
    "another game's": lambda text: json.dumps(dict(json.loads(text), game="0" * 32)),
}

DAMAGED_ENCRYPTED = {
    "salt not hex": _encrypted_field("salt", "not hex"),
    "nonce cut short": _encrypted_field("nonce", "00" * 5),
    "data not base64": _encrypted_field("data", "***"),
    "no data field": _encrypted_field("data", None),
    "nonce a number": _encrypted_field("nonce", 12),
}


@pytest.mark.parametrize("damage", DAMAGED_SECRETS, ids=list(DAMAGED_SECRETS))
def test_damaged_secrets_are_refused_with_a_reason(two_campaigns, damage):
    d = two_campaigns
    path = d.alice.dir / "secrets" / "chain.json"
    path.write_text(DAMAGED_SECRETS[damage](path.read_text()))
    before = db_bytes(d.alice.dir)
    result = invoke(d.runner, "play", "1", "--campaign", d.alice.dir, env=d.alice.env)
    assert_refused(result, "bad-secrets")
    assert str(path) in result.stderr
    assert db_bytes(d.alice.dir) == before


@pytest.mark.parametrize("damage", DAMAGED_ENCRYPTED, ids=list(DAMAGED_ENCRYPTED))
def test_damaged_encrypted_secrets_are_refused_with_a_reason(tmp_path, runner, home, monkeypatch, damage):
    monkeypatch.setenv("PBEM_PASSPHRASE", "trench coat")
    d = Duel(tmp_path, runner, "--encrypt-secrets")
    path = d.alice.dir / "secrets" / "chain.json"
    assert "encrypted" in path.read_text()
    path.write_text(json.dumps(DAMAGED_ENCRYPTED[damage](json.loads(path.read_text()))))
    before = db_bytes(d.alice.dir)
    result = invoke(runner, "play", "1", "--campaign", d.alice.dir, env=d.alice.env)
    assert_refused(result, "bad-secrets")
    assert db_bytes(d.alice.dir) == before


def test_the_draft_is_kept_with_the_secrets(tmp_path, runner, home, monkeypatch):
    """Choices not yet signed are hidden choices too: the draft sits in secrets/ (mode 0600)
    and, when the secrets are encrypted, is encrypted with them."""
    monkeypatch.setenv("PBEM_PASSPHRASE", "trench coat")
    alice = new_player(runner, tmp_path, "alice", "allied")
    bob = new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--option", "turns=2", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", newest(alice.dir / "sent"), "--key", "bob", "--encrypt-secrets", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob.dir / "sent"), env=alice.env)
    pbem(runner, "play", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "ingest", "--campaign", bob.dir, newest(alice.dir / "sent"), env=bob.env)
    out = pbem(runner, "play", "--campaign", bob.dir, *DEPLOY[:2], env=bob.env).output
    assert "2 action(s) drafted" in out
    path = draft_file(bob)
    assert path.parent.name == "secrets" and stat.S_IMODE(path.stat().st_mode) == 0o600
    for leak in (b"krithia", b"gully", b"25-rgt", b"dummy"):
        assert leak not in path.read_bytes().lower(), leak
    status = pbem(runner, "status", "--campaign", bob.dir, env={**bob.env, "PBEM_PASSPHRASE": ""}).output
    assert "a draft of unsigned actions is kept" in status
    signed = pbem(runner, "play", "--campaign", bob.dir, *DEPLOY[2:], env=bob.env).output
    assert "signed turn file #3" in signed and "at Krithia" in signed
    assert not path.exists()


DAMAGED_DRAFTS = {
    "cut in half": lambda text, head: text[: len(text) // 2],
    "empty": lambda text, head: "",
    "not an object": lambda text, head: "[]",
    "actions not a list": lambda text, head: json.dumps({"after": head, "actions": "deploy everything"}),
    "after not a number": lambda text, head: json.dumps({"after": str(head), "actions": []}),
    "binary": lambda text, head: "\udcff\x00".encode("utf-8", "surrogateescape").decode("latin-1"),
}


@pytest.mark.parametrize("damage", DAMAGED_DRAFTS, ids=list(DAMAGED_DRAFTS))
def test_a_damaged_draft_is_ignored_with_a_warning_and_kept_aside(blocks, damage):
    """A draft that is damaged, of the wrong shape or that the rules refuse is never trusted:
    status, play and undo warn and go on as if there were none (undo has nothing to take back);
    the next play that signs keeps the damaged file aside, and the game goes on."""
    runner, alice, bob = blocks
    pbem(runner, "play", "--campaign", bob.dir, DEPLOY[0], env=bob.env)
    path = draft_file(bob)
    bad = DAMAGED_DRAFTS[damage](path.read_text(errors="replace"), 2)
    path.write_bytes(bad.encode("latin-1") if damage == "binary" else bad.encode())
    damaged = path.read_bytes()
    status = invoke(runner, "status", "--campaign", bob.dir, env=bob.env)
    assert_no_traceback(status)
    assert status.exit_code == 0 and "damaged" in status.output and "drafted" not in status.output
    undo = invoke(runner, "undo", "--campaign", bob.dir, env=bob.env)
    assert_refused(undo, "no-draft")
    assert path.read_bytes() == damaged
    listing = invoke(runner, "play", "--campaign", bob.dir, env=bob.env)
    assert_no_traceback(listing)
    assert listing.exit_code == 0 and "deploy concealed blocks" in listing.output, listing.output + listing.stderr
    signed = invoke(runner, "play", "--campaign", bob.dir, *DEPLOY, env=bob.env)
    assert signed.exit_code == 0 and "signed turn file #3" in signed.output, signed.output + signed.stderr
    assert "damaged" in signed.output
    [aside] = path.parent.glob("draft.damaged.json")
    assert aside.read_bytes() == damaged and not path.exists()
    verified(bob.dir)


def test_a_draft_the_rules_refuse_is_ignored_with_a_warning(blocks):
    """A well-formed draft holding an action the rules refuse (edited by hand, or planted):
    play lists the choices as if there were no draft, and signs the orders given."""
    runner, alice, bob = blocks
    pbem(runner, "play", "--campaign", bob.dir, DEPLOY[0], env=bob.env)
    path = draft_file(bob)
    path.write_text(json.dumps({"after": 2, "actions": [{"do": "conquer", "what": "constantinople"}]}))
    listing = invoke(runner, "play", "--campaign", bob.dir, env=bob.env)
    assert_no_traceback(listing)
    assert listing.exit_code == 0 and "deploy concealed blocks" in listing.output, listing.output
    assert "the rules refuse it" in listing.output
    signed = invoke(runner, "play", "--campaign", bob.dir, *DEPLOY, env=bob.env)
    assert signed.exit_code == 0 and "signed turn file #3" in signed.output, signed.output
    assert "constantinople" in (path.parent / "draft.damaged.json").read_text()
    verified(bob.dir)


# --- the kill harness -------------------------------------------------------------------------

PLAY_POINTS = ("sign:before-store", "play:stored", "play:sent", "play:outbox", "random")
INGEST_POINTS = ("ingest:stored", "ingest:received", "random")
CREATE_POINTS = ("secrets:write", "create:secrets", "create:files", "random")


class Harness:
    """Plays barrage games between alice and bob with real `pbem` processes, killing each
    command once (a named crash point in turn, or SIGKILL at a random moment), then running
    the next command as a player would and checking the campaign."""

    def __init__(self, root: Path, alice: Player, bob: Player, rng: random.Random, runner) -> None:
        self.root, self.alice, self.bob, self.rng, self.runner = root, alice, bob, rng, runner
        self.kills: Counter[str] = Counter()
        self.survived = 0  # random kills that came after the command had finished
        self.steps = {"play": 0, "ingest": 0, "create": 0}
        self.reach: dict[str, float] = {}  # how long a command of each kind takes to reach its named points

    def kill(self, kind: str, player: Player, args: tuple, points: tuple[str, ...]) -> bool:
        """Run ``args`` once with a kill; True if it was killed before it finished."""
        point = points[self.steps[kind] % len(points)]
        self.steps[kind] += 1
        start = time.monotonic()
        if point == "random":  # SIGKILL at a moment spread over the command's working part
            rc, out, err = run(player, *args, kill_after=self.rng.uniform(0.3, 1.0) * self.reach.get(kind, 0.2))
        else:
            rc, out, err = run(player, *args, crash=point)
            self.reach[kind] = max(self.reach.get(kind, 0.0), time.monotonic() - start)
        if not killed(rc):
            assert_clean(rc, out, err)
            assert point == "random" and rc == 0, (point, rc, out, err)
            self.survived += 1
            return False
        self.kills[f"{kind} {point}"] += 1
        return True

    def next(self, player: Player, *args: object) -> tuple[int, str, str]:
        """The next command, as the player runs it after the kill (in this process: it is quicker)."""
        result = invoke(self.runner, *args, env=player.env)
        assert_no_traceback(result)
        return result.exit_code, result.stdout, result.stderr

    def check(self, *players: Player) -> None:
        for p in players:
            verified(p.dir)

    def create(self, n: int) -> tuple[Player, Player]:
        a = Player("alice", "red", self.alice.home, self.root / f"game{n}-alice")
        b = Player("bob", "blue", self.bob.home, self.root / f"game{n}-bob")
        new = ("new", "barrage", "--as", "red", "--key", "alice", "--opponent", self.bob.pub, "--campaign", a.dir)
        if self.kill("create", a, new, CREATE_POINTS):
            assert_clean(*self.next(a, "status", "--campaign", a.dir), "no-campaign")
            assert_clean(*self.next(a, *new), "exists")
        join = ("join", newest(a.dir / "sent"), "--key", "bob", "--campaign", b.dir)
        if self.kill("create", b, join, CREATE_POINTS):
            assert_clean(*self.next(b, "status", "--campaign", b.dir), "no-campaign")
            assert_clean(*self.next(b, *join), "exists")
        self.deliver(newest(b.dir / "sent"), a, b)
        return a, b

    def deliver(self, turn: Path, to: Player, sender: Player) -> None:
        args = ("ingest", "--campaign", to.dir, turn)
        if self.kill("ingest", to, args, INGEST_POINTS):
            rc, out, err = self.next(to, *args)
            assert_clean(rc, out, err)
            assert rc == 0 and ("accepted" in out or "already ingested" in out), out + err
        mine, theirs = ledger_rows(to.dir), ledger_rows(sender.dir)
        assert mine == theirs, "the two campaigns differ after a delivery"
        received = to.dir / "received" / turn.name
        assert received.read_text() == turn.read_text() == theirs[-1][3]
        self.check(to)

    def play(self, player: Player) -> Path:
        args = ("play", "1", "--campaign", player.dir)
        head = ledger_rows(player.dir)[-1][0]
        if self.kill("play", player, args, PLAY_POINTS):
            rc, out, err = self.next(player, *args)  # the player tries again
            assert_clean(rc, out, err, "not-your-turn", "game-over")
            if rc == 0:
                assert re.search(r"signed turn file #\d+: \S+", out), out
        rows = ledger_rows(player.dir)
        seq, _, author, raw = rows[-1]
        assert seq == head + 1 and author == player.side, "the turn was not signed, or signed twice"
        turn = newest(player.dir / "sent")
        assert turn.read_text() == raw, "the sent/ file is not the signed turn"
        mails = [p for p in (player.dir / "outbox").glob(f"{turn.stem}-*.eml")]
        assert len(mails) == 1, mails
        self.check(player)
        return turn

    def game(self, n: int) -> int:
        a, b = self.create(n)
        sides = {"red": a, "blue": b}
        envelopes = 0
        while True:
            from pbem.play.campaign import Campaign

            camp = Campaign.open(a.dir, readonly=True)
            try:
                waiting = camp.waiting()
            finally:
                camp.ledger.close()
            if waiting is None:
                break
            player = sides[waiting["side"]]
            other = b if player is a else a
            self.deliver(self.play(player), other, player)
            envelopes += 1
            assert envelopes < 60, "the game does not end"
        for p, q in ((a, b), (b, a)):  # nothing signed is lost: every envelope, sent and received
            for seq, digest, author, raw in ledger_rows(p.dir):
                folder = "sent" if author == p.side else "received"
                assert any(f.read_text() == raw for f in (p.dir / folder).glob(f"*-{seq:04d}-*.pbem")), (p.name, seq)
        return envelopes


def test_kill_harness(tmp_path, runner, home, capsys):
    """At least 100 kills of real `pbem new`, `join`, `play` and `ingest` processes: after each,
    the next command runs without a traceback, the campaign opens, the game goes on to its end,
    both copies verify, and every signed envelope is in both ledgers and in sent/ and received/."""
    alice = new_player(runner, tmp_path, "alice", "red")
    bob = new_player(runner, tmp_path, "bob", "blue")
    harness = Harness(tmp_path, alice, bob, random.Random(20240601), runner)
    games = envelopes = 0
    start = time.monotonic()
    while sum(harness.kills.values()) < 104:
        envelopes += harness.game(games)
        games += 1
        assert games <= 10, harness.kills
    total = sum(harness.kills.values())
    with capsys.disabled():
        print(f"\nkill harness: {total} kills in {games} games ({envelopes} envelopes, "
              f"{time.monotonic() - start:.0f} s); {harness.survived} random kills came after the command had ended")
        for point, count in sorted(harness.kills.items()):
            print(f"  {point}: {count}")
    assert total >= 100
    named = {k for k in harness.kills if not k.endswith("random")}
    assert len(named) == 9, named  # every named point was hit


def test_resend_in_a_referee_game_writes_each_players_file(tmp_path):
    """The referee's last turn goes out again with each player's own file; if those files are
    gone, resend says they cannot be made again (their sealed views used fresh randomness)
    rather than send the players a turn without their views."""
    from tests.test_referee import Refereed

    game = Refereed(tmp_path)
    assert game.step() == "referee"  # the referee starts the game: one file per player
    ref = game.ref
    for mail in (ref.dir / "outbox").glob("*.eml"):
        mail.unlink()
    result = invoke(game.runner, "resend", "--campaign", ref.dir, env=ref.env)
    assert result.exit_code == 0, result.output + result.stderr
    assert re.search(r"for allied \(alice\): \S+to-allied", result.output), result.output
    assert len(list((ref.dir / "outbox").glob("*.eml"))) == 2
    [view] = (ref.dir / "sent" / "to-ottoman").glob("*.pbem")
    view.unlink()
    before = db_bytes(ref.dir)
    assert_refused(invoke(game.runner, "resend", "--campaign", ref.dir, env=ref.env), "views-lost")
    assert db_bytes(ref.dir) == before


def test_status_after_a_kill_says_the_stored_turn_never_went_out_and_how_to_finish(two_campaigns):
    """Killed between storing its turn and writing the file: `pbem status` does not say it waits
    for the opponent as if the file had gone out; it names what is unwritten and the command that
    writes it. A new order given to the retry is named as not read, never dropped in silence."""
    d = two_campaigns
    rc, out, err = run(d.alice, "play", "1", "--campaign", d.alice.dir, crash="play:stored")
    assert rc == CRASH_EXIT, (rc, out, err)
    rc, out, err = run(d.alice, "status", "--campaign", d.alice.dir)
    assert rc == 0 and "NOT YET WRITTEN" in out and "0002-red-turn.pbem" in out and "pbem resend" in out, out
    rc, out, err = run(d.alice, "play", "2", "--campaign", d.alice.dir)
    assert rc == 0 and "signed turn file #2" in out and "your order(s) '2' were not read now" in out, out + err
    rc, out, err = run(d.alice, "status", "--campaign", d.alice.dir)
    assert rc == 0 and "NOT YET WRITTEN" not in out, out
