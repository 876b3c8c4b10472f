"""A player's mailbox runs itself (issue 32, points 2 and 5): ``pbem mail run`` for a player.

Over the loopback mail system of ``tests.mail_harness`` (Maildirs, and a private dovecot over
IMAP where Debian's dovecot is installed; skipped visibly without it):

* a whole block game (``gallipoli-blocks``, a few agreed turns) where both players only ever
  run ``pbem mail run`` after each delivery, and a scripted person per side acts only when his
  notify hook fired: ``pbem play`` to see the numbered list, then ``pbem play ORDER`` as the
  game's own player would choose (battles in the rules' order: no battle plans), then ``pbem
  mail send``.  The hook fires once per decision, every file the person signs holds a decision
  (but for the one-action prompts of a bug pinned below), every other file of his side was signed
  by his mailbox, and per game turn the hand-overs between the two people stay within the rules'
  own count (``handovers(battles)["rules"]``) but for what that count leaves out;
* ``pbem mail run --watch``: two real processes play a ``barrage`` game, in which every decision
  is forced, to its end with no person at all;
* a player's ``mail run`` with a damaged file in the Maildir, a notify command that fails, and
  a passphrase file readable by others.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.commands.demo import choose, game_turn
from pbem.play.campaign import Campaign
from pbem.play.turns import ahead
from pbem_engine.chance.odds import order_part
from pbem_engine.protocol.core import IllegalAction
from pbem_engine.registry import get_game
from tests.conftest import Player, assert_no_traceback, db_bytes, db_path, invoke, pbem
from tests.mail_harness import DOMAIN, Mailbox, Person, person
from tests.test_mailbox_by_mail import relay  # noqa: F401 (the fixture: the loopback SMTP relay)

PBEM = Path(sys.executable).parent / "pbem"
HOOK_KEYS = ("PBEM_EVENT", "PBEM_GAME", "PBEM_TITLE", "PBEM_SIDE", "PBEM_SEQ", "PBEM_TEXT", "PBEM_CAMPAIGN")
LATER = "decide each step"  # the block game's answer to a battle plan: the rules' order


# --- the notify hook: a tiny script that notes what it was told --------------------------------

def hook(tmp_path: Path) -> Path:
    """A script ``HOOK LOG [ARGS...]`` appending its arguments after LOG and its PBEM_* environment
    to LOG as one JSON line; it exits 3 (saying why on stderr) while the file LOG.fail exists."""
    path = tmp_path / "notify-hook"
    path.write_text(f"#!{sys.executable}\nimport json, os, sys\n"
                    "if os.path.exists(sys.argv[1] + '.fail'):\n"
                    "    print('the chat server is down', file=sys.stderr)\n    sys.exit(3)\n"
                    "with open(sys.argv[1], 'a') as f:\n"
                    "    f.write(json.dumps(dict(args=sys.argv[2:], "
                    f"**{{k: os.environ.get(k) for k in {HOOK_KEYS!r}}})) + '\\n')\n")
    path.chmod(0o755)
    return path


def told(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


# --- the people ----------------------------------------------------------------------------------

@dataclass(eq=False)
class Unattended:
    """A player whose mailbox runs itself, and the person behind it, told by his hook."""

    who: Person
    where: Path
    log: Path
    notify: str
    by_env: bool = False  # the hook given as PBEM_NOTIFY, not --notify
    runs: list[str] = field(default_factory=list)  # each mail run's last line
    answered_alone: set[int] = field(default_factory=set)  # 'answered #N (no decision in it)'
    sessions: list[dict] = field(default_factory=list)  # each answer of the person
    pending: dict | None = None  # the hook's note of a decision not yet answered
    lingered: bool = False

    def run(self, ok: int = 0):
        """``pbem mail run`` as this player (the hook by option or by environment)."""
        env, args = dict(self.who.env), ["mail", "run", *self.who.reading(), "--campaign", self.where]
        if self.by_env:
            env["PBEM_NOTIFY"] = self.notify
        else:
            args += ["--notify", self.notify]
        result = invoke(self.who.runner, *args, env=env)
        assert_no_traceback(result)
        text = result.output + result.stderr
        self.who.outputs.append(f"$ pbem {' '.join(map(str, args))}\n{text}")
        assert result.exit_code == ok, text
        self.runs.append(result.stdout.splitlines()[-1])
        self.answered_alone |= {int(n) for n in re.findall(r"^answered #(\d+) \(no decision in it\)$", result.stdout,
                                                          re.M)}
        return result


def pick(where: Path) -> tuple[list[str], bool, str, dict]:
    """What the person sees and answers, from his own campaign read only: the labels listed, whether
    orders in words are taken, his answer (a number where the list has it, else in words) and what
    the decision was (its kind, battle round, and whether it leaves one action whatever is typed).
    The game's own player chooses; a battle plan is declined (the rules' order)."""
    camp = Campaign.open(where, readonly=True)
    try:
        match, prompt, ours = ahead(camp)
        assert ours and prompt.side == camp.side, prompt
        known = camp.knowledge(match) if "private" in match else {}
        state = match["game"]
        camp.situation = (state, known)
        order = choose(prompt, camp)
        labels = [c.label for c in prompt.choices]
        one_action = False  # words that mean nothing are taken as the one choice: nothing to decide
        if prompt.free and len(labels) == 1:
            try:
                one_action = camp.game.parse_order(state, camp.side, "xyzzy plugh", known) == \
                    camp.game.parse_order(state, camp.side, labels[0], known)
            except IllegalAction:
                pass
        frame = state["frames"][-1]
        what = {"kind": frame["k"], "round": frame.get("round", 1), "one_action": one_action}
    finally:
        camp.ledger.close()
    if order.startswith("plan "):
        order = LATER
    if not order.isdigit():
        numbers = [str(i) for i, label in enumerate(labels, 1) if order in (label, order_part(label))]
        order = numbers[0] if numbers else order
    return labels, prompt.free, order, what


def answer(p: Unattended) -> dict:
    """The person's answer to the decision his hook told: list, choose, give it, until signed."""
    listings = []
    for _ in range(60):
        listing = p.who.invoke("play", "--campaign", p.where).output
        assert "signed turn file" not in listing and "nothing for you to decide" not in listing, listing
        labels, free, order, what = pick(p.where)
        assert [label for _, label in re.findall(r"^  (\d+)\. (.+)$", listing, re.M)] == labels, listing
        assert len(labels) >= 2 or free, listing  # a decision: two choices at least, or orders in words
        listings.append(what)
        out = p.who.invoke("play", order, "--campaign", p.where).output
        assert "were not used" not in out, out
        signed = re.search(r"signed turn file #(\d+)", out)
        if signed:
            p.who.invoke("mail", "send", "--campaign", p.where)
            return {"seq": int(signed.group(1)), "side": p.who.player.side, "listings": listings,
                    "needless": all(w["one_action"] for w in listings)}
    raise AssertionError(f"{p.who.name}'s decision never ended: {listings}")


def over(where: Path) -> bool:
    camp = Campaign.open(where, readonly=True)
    try:
        return camp.waiting() is None and camp.outcome() is not None and not list((where / "outbox").glob("*.eml"))
    finally:
        camp.ledger.close()


def two_players(root: Path, relay, module: str, sides: tuple[str, str], options: tuple[str, ...] = (),
                alice: Person | None = None, bob_box: Mailbox | None = None,
                imap=None) -> tuple[Person, Person, Path, Path]:
    """A two-player game set up by mail: alice's invitation mailed, bob joined from the mail and
    his join mailed back (not yet read by alice)."""
    runner = CliRunner()
    alice = alice or person(runner, root, relay, "alice", sides[0])
    bob = person(runner, root, relay, "bob", sides[1], box=bob_box, imap=imap)
    for p in (alice, bob):
        p.configure(relay)
    a, b = root / "alice-game", root / "bob-game"
    alice.invoke("new", module, "--as", sides[0], "--key", "alice", "--opponent", bob.player.pub, "--campaign", a,
                 *options)
    alice.invoke("mail", "address", sides[1], bob.address, "--campaign", a)
    alice.invoke("mail", "send", "--campaign", a)
    bob.invoke("join", "-", "--key", "bob", "--campaign", b, input=bob.newest_mail("invitation"))
    return alice, bob, a, b


def imap_or_skip(users: dict[str, str]):
    from tests.imap_server import SKIP_PREFIX, DovecotUnavailable, ImapServer

    server = ImapServer(users=users)
    try:
        server.start()
    except DovecotUnavailable as exc:
        pytest.skip(f"{SKIP_PREFIX}: {exc}")
    return server


# --- a. a whole block game, both mailboxes unattended, a person told per decision ---------------------

@pytest.mark.parametrize("bobs_mailbox", ["maildir", "imap"])
def test_a_block_game_by_unattended_mailboxes_asks_the_person_only_to_decide(tmp_path, relay, bobs_mailbox):
    started = time.monotonic()
    imap = imap_or_skip({"bob": "bob-secret"}) if bobs_mailbox == "imap" else None
    try:
        box = Mailbox(imap=imap, user="bob") if imap else None
        alice, bob, a, b = two_players(tmp_path, relay, "gallipoli-blocks", ("allied", "ottoman"),
                                       ("--option", "turns=4"), bob_box=box, imap=imap)
        bob.invoke("mail", "send", "--campaign", b)
        script = shlex.quote(str(hook(tmp_path)))
        players = [Unattended(alice, a, tmp_path / "alice.log", f"{script} {tmp_path / 'alice.log'}"),
                   Unattended(bob, b, tmp_path / "bob.log", f"{script} {tmp_path / 'bob.log'}", by_env=True)]
        for cycle in range(400):
            for p in players:
                seen = len(told(p.log))
                p.run()
                new = told(p.log)[seen:]
                assert len(new) <= 1, new
                if new and new[0]["PBEM_EVENT"] == "game-over":  # the end, told once: nothing to answer
                    assert over(p.where) and not any(n["PBEM_EVENT"] == "game-over" for n in told(p.log)[:seen]), new
                    continue
                if new:
                    assert p.pending is None, "told again before the person answered"
                    p.pending, p.lingered = new[0], False
                if p.pending is None:
                    assert "your move:" not in p.runs[-1], p.runs[-1]  # no decision waits: none is announced
                    continue
                assert p.runs[-1].endswith(f"your move: {p.pending['PBEM_TEXT']}"), p.runs[-1]
                if len(p.sessions) % 3 == 2 and not p.lingered:  # a slow person: his mailbox runs again first
                    p.lingered = True
                    continue
                session = answer(p)
                assert session["seq"] == int(p.pending["PBEM_SEQ"]) + 1  # he answered what he was told
                p.sessions.append(dict(session, told=p.pending))
                p.pending = None
            if over(a) and over(b):
                break
        else:
            raise AssertionError("the block game by unattended mailboxes did not end")
        for p in players:
            last = p.run()  # nothing is left to do, and no decision is announced
            assert last.output.startswith("nothing new in ") and "your move" not in last.output, last.output
        elapsed = time.monotonic() - started
        figures = check_block_game(players, a)
    finally:
        if imap is not None:
            imap.stop()
    print(f"\nblock game by unattended mailboxes ({bobs_mailbox}): {cycle + 1} cycles, {elapsed:.1f} s; "
          f"person's answers per game turn (floor 'rules'): {figures}")


def check_block_game(players: list[Unattended], a: Path) -> dict[int, str]:
    """Every check of the finished game; what the person answered per game turn, beside the floor."""
    states = set()
    for p in players:
        out = p.who.invoke("verify", p.where).output
        assert out.startswith("OK: "), out
        states.add(re.search(r"; state (\w+)", out).group(1))
    assert len(states) == 1
    camp = Campaign.open(a, readonly=True)
    try:
        game, title = camp.genesis["game"], camp.game.title
        files = [(seq, author) for seq, _, author, kind, _, _ in camp.ledger.envelopes() if kind == "turn"]
        turn_of = {seq: game_turn(camp.ledger.state(seq)[1]["game"]) for seq, _ in files}
        battles = Counter(turn_of[e["seq"]] for e in camp.ledger.events() if e["text"].startswith("battle for")
                          and e["seq"] in turn_of)
    finally:
        camp.ledger.close()
    for p in players:
        side = p.who.player.side
        notes = told(p.log)
        ends = [n for n in notes if n["PBEM_EVENT"] == "game-over"]  # the end, told once, after every decision
        assert len(ends) == 1 and notes[-1] is ends[0] and ends[0]["args"][0].startswith("pbem: the game is over: ")
        notes = notes[:-1]
        # the hook fired once per decision, each time for the decision the person then answered
        assert len(notes) == len(p.sessions) and len({n["PBEM_SEQ"] for n in notes}) == len(notes)
        for n in notes:
            assert n["PBEM_EVENT"] == "your-move" and n["PBEM_GAME"] == game and n["PBEM_SIDE"] == side
            assert n["PBEM_TITLE"] == title and Path(n["PBEM_CAMPAIGN"]).resolve() == p.where.resolve()
            [message] = n["args"]  # the message: the last argument, after the command's own
            assert message.startswith(f"pbem: your move in {title} ({side}, turn file #{n['PBEM_SEQ']}): ")
            assert message.endswith(n["PBEM_TEXT"])
        # every file of this side was signed by the person (a decision) or by his mailbox (none)
        mine = {seq for seq, author in files if author == side}
        person = {s["seq"] for s in p.sessions}
        assert person.isdisjoint(p.answered_alone) and mine == person | p.answered_alone, \
            (sorted(mine), sorted(person), sorted(p.answered_alone))
        assert p.answered_alone and len(p.sessions) >= 3
    # per game turn: the person's answers; the hand-overs among them (an answer by the other person
    # than the last answer's: two answers of one person split only by a file his opponent's mailbox
    # signed alone are the same person again, the price of sealed dice, bench/handovers_floors.py);
    # the decisions the floor leaves out by the module's own account (landing fire, response
    # windows, second rounds), each worth at most a hand-over there and one back; never a file with
    # nothing to decide (a one-action prompt, test_one_action_prompts_are_taken_for_the_person)
    floor = get_game("gallipoli-blocks").handovers
    count: dict[int, Counter] = {t: Counter() for t in turn_of.values()}
    before = None
    for s in sorted((s for p in players for s in p.sessions), key=lambda s: s["seq"]):
        c = count[turn_of[s["seq"]]]
        c["answers"] += 1
        assert not s["needless"], s  # a one-action prompt is the tool's (set-up, reinforcements, supply losses)
        c["handovers"] += s["side"] != before
        before = s["side"]
        first = s["listings"][0]
        c["left out"] += first["kind"] in ("landing", "response") or first["round"] > 1
    figures = {}
    for turn in sorted(count)[:-1]:  # the last game turn is cut short by the end (bench/handovers.py)
        c, rules = count[turn], floor(battles[turn])["rules"]
        figures[turn] = (f"{c['answers']} answers, {c['handovers']} hand-overs (floor {rules}: {battles[turn]} "
                         f"battles), {c['left out']} left out by the floor")
        assert c["handovers"] <= rules + 2 * c["left out"], figures[turn]
    return figures


def test_one_action_prompts_are_taken_for_the_person(tmp_path, relay):
    """The Allied set-up (6.2, as the module reads it) has one legal action, whatever is typed: the
    tool takes it, as it takes the stand-up, and tells the person his player phase instead."""
    alice, bob, a, b = two_players(tmp_path, relay, "gallipoli-blocks", ("allied", "ottoman"), ("--option", "turns=2"))
    bob.invoke("mail", "send", "--campaign", b)
    script = hook(tmp_path)
    players = [Unattended(alice, a, tmp_path / "alice.log", f"{script} {tmp_path / 'alice.log'}"),
               Unattended(bob, b, tmp_path / "bob.log", f"{script} {tmp_path / 'bob.log'}")]
    players[0].run()  # the join; alice's opening reveal, alone
    players[1].run()  # bob's set-up is his to decide
    bob.invoke("play", "deploy 25th 4 krithia", "deploy dummy gully ravine", "deploy 57th 3 kilia liman", "done",
               "--campaign", b)
    bob.invoke("mail", "send", "--campaign", b)
    players[0].run()
    [note] = told(players[0].log)
    listing = alice.invoke("play", "--campaign", a).output
    assert "1. set up" not in listing, listing  # never shown: taken for her
    assert "player phase" in note["PBEM_TEXT"] and players[0].runs[-1].endswith(note["PBEM_TEXT"])


# --- b. two watching mailboxes play a game of forced decisions to its end, alone ------------------------

@pytest.mark.parametrize("mailboxes", ["imap", "maildir"])
def test_two_watching_mailboxes_play_a_forced_game_to_its_end(tmp_path, relay, mailboxes):
    """``pbem mail run --watch``, one real process per player (IMAP IDLE on a private dovecot, or a
    Maildir looked at every 2 s): in ``barrage`` every decision is forced, so from the join mailed
    back to the last file the game plays itself, and nobody is ever told of a decision."""
    imap = imap_or_skip({"alice": "alice-secret", "bob": "bob-secret"}) if mailboxes == "imap" else None
    procs: list[subprocess.Popen] = []
    try:
        alice = person(CliRunner(), tmp_path, relay, "alice", "red", box=Mailbox(imap=imap, user="alice") if imap
                       else None, imap=imap)
        alice, bob, a, b = two_players(tmp_path, relay, "barrage", ("red", "blue"), alice=alice,
                                       bob_box=Mailbox(imap=imap, user="bob") if imap else None, imap=imap)
        script = hook(tmp_path)  # bob's join waits in his outbox: his watcher sends it
        started = time.monotonic()
        for p, where in ((alice, a), (bob, b)):
            env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
            env.update(p.env, PBEM_NOTIFY=f"{script} {tmp_path / 'told.log'}")
            with open(tmp_path / f"{p.name}.out", "wb") as out, open(tmp_path / f"{p.name}.err", "wb") as err:
                procs.append(subprocess.Popen([str(PBEM), "mail", "run", "--watch", "--every", "30", *p.reading(),
                                               "--campaign", str(where)], stdout=out, stderr=err, env=env,
                                              stdin=subprocess.DEVNULL, cwd=tmp_path))
        deadline = started + 120
        while time.monotonic() < deadline and any(proc.poll() is None for proc in procs):
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        said = {p.name: ((tmp_path / f"{p.name}.out").read_text(), (tmp_path / f"{p.name}.err").read_text())
                for p in (alice, bob)}
        assert all(proc.returncode == 0 for proc in procs), (elapsed, [proc.returncode for proc in procs], said)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if imap is not None:
            imap.stop()
    for name, (out, err) in said.items():
        assert out.splitlines()[-1] == "The game is over." and "Traceback" not in err, (name, out, err)
        assert "your move:" not in out  # no decision ever waited for a person
    ends = told(tmp_path / "told.log")  # never a decision; the end, once to each player
    assert sorted(n["PBEM_SIDE"] for n in ends) == ["blue", "red"] and {n["PBEM_EVENT"] for n in ends} == {"game-over"}
    assert all("the game is over:" in n["args"][-1] for n in ends), ends
    answered = [len(re.findall(r"^answered #\d+", out, re.M)) for out, _ in said.values()]
    for p, where in ((alice, a), (bob, b)):
        assert p.invoke("verify", where).output.startswith("OK: ")
        assert over(where)
    print(f"\nwatching mailboxes ({mailboxes}): barrage played alone in {elapsed:.1f} s, "
          f"{sum(answered)} files answered ({answered[0]} by alice's, {answered[1]} by bob's)")


# --- c. a player's mail run: a damaged file, a notify command that fails, a passphrase file -------------

def game_tables(where: Path) -> list[str]:
    """The campaign database as SQL, but for its settings (where the mail read is recorded)."""
    import sqlite3

    with sqlite3.connect(f"file:{db_path(where)}?mode=ro", uri=True) as db:
        return [line for line in db.iterdump() if not line.startswith('INSERT INTO "settings"')]


def test_a_damaged_file_in_a_players_maildir_is_refused_in_one_line(tmp_path, relay):
    alice, bob, a, b = two_players(tmp_path, relay, "gallipoli-blocks", ("allied", "ottoman"), ("--option", "turns=2"))
    join = next((b / "sent").glob("*-join.pbem")).read_text().splitlines()
    join[-3] = join[-3][:10] + ("A" if join[-3][10] != "A" else "B") + join[-3][11:]  # one character changed
    alice.box.deliver((f"From: {bob.address}\r\nTo: {alice.address}\r\nSubject: my join\r\n"
                       "Message-ID: <damaged@example.org>\r\n\r\n" + "\r\n".join(join) + "\r\n").encode())
    before, tables = db_bytes(a), game_tables(a)
    mailbox_a = Unattended(alice, a, tmp_path / "alice.log", f"{hook(tmp_path)} {tmp_path / 'alice.log'}")
    run = mailbox_a.run(ok=0)  # a refused message is neither a reading nor a sending failure (README)
    said = (run.stdout + run.stderr).splitlines()
    [refused] = [line for line in said if "REFUSED" in line]
    assert refused.startswith(f"REFUSED a message from {bob.address} ('my join'): bad-signature: ") and \
        "Traceback" not in run.stderr, said
    assert not mailbox_a.answered_alone and "your move" not in said[-1] and not told(mailbox_a.log)
    # nothing of the game changed: only the record of the mail read (the refusal with its reason)
    assert game_tables(a) == tables and db_bytes(a) != before
    settled = db_bytes(a)
    again = mailbox_a.run(ok=0)
    assert again.stdout.startswith("nothing new in ") and db_bytes(a) == settled  # byte for byte, read once
    bob.invoke("mail", "send", "--campaign", b)  # the real one comes: read, and answered alone
    run = mailbox_a.run(ok=0)
    assert "accepted #1 from ottoman" in run.stdout and mailbox_a.answered_alone == {2}, run.stdout


def test_a_notify_command_that_fails_is_reported_and_tried_again(tmp_path, relay):
    alice, bob, a, b = two_players(tmp_path, relay, "gallipoli-blocks", ("allied", "ottoman"), ("--option", "turns=2"))
    bob.invoke("mail", "send", "--campaign", b)
    script, log = hook(tmp_path), tmp_path / "bob.log"
    mailbox_a = Unattended(alice, a, tmp_path / "alice.log", f"{script} {tmp_path / 'alice.log'}")
    mailbox_b = Unattended(bob, b, log, f"{script} {log}", by_env=True)
    mailbox_a.run()  # the join; her opening reveal, alone, mailed to bob
    Path(f"{log}.fail").write_text("")  # the chat server is down
    failed = mailbox_b.run(ok=1)
    assert "accepted #2 from allied" in failed.stdout and failed.stdout.splitlines()[-1].endswith(
        "your move: " + decision_text(b))  # the rest was done: read, recorded, and the decision said
    errors = failed.stderr.splitlines()
    assert errors[0].startswith("Error: notify-failed: the notify command failed"), errors
    assert "exited 3" in failed.stderr and "the chat server is down" in failed.stderr and len(errors) <= 2, errors
    assert not told(log)
    Path(f"{log}.fail").unlink()
    mailbox_b.run(ok=0)  # nothing new, but the decision was never told: it is now
    [note] = told(log)
    assert note["PBEM_SEQ"] == "2" and note["PBEM_SIDE"] == "ottoman" and note["PBEM_TEXT"] == decision_text(b)
    mailbox_b.run(ok=0)
    assert len(told(log)) == 1  # once per decision


def decision_text(where: Path) -> str:
    from pbem.play.unattended import decision

    camp = Campaign.open(where, readonly=True)
    try:
        return decision(camp)
    finally:
        camp.ledger.close()


@dataclass(eq=False)
class Locked(Person):
    """A person whose identity is encrypted; ``extra``: more of his environment (the passphrase)."""

    extra: dict = field(default_factory=dict)

    @property
    def env(self) -> dict[str, str]:
        return {**super().env, **self.extra}


def test_a_passphrase_file_others_may_read_is_refused(tmp_path, relay):
    runner = CliRunner()
    player = Player("alice", "allied", tmp_path / "homes" / "alice", tmp_path / "alice")
    player.home.mkdir(parents=True)
    pbem(runner, "keys", "new", "alice", "--passphrase", env={**player.env, "PBEM_PASSPHRASE": "correct horse"})
    pbem(runner, "keys", "export", "alice", "-o", player.pub, env=player.env)
    box = relay.add(f"alice@{DOMAIN}", Mailbox(tmp_path / "mail" / "alice"))
    alice = Locked(runner, player, f"alice@{DOMAIN}", box, extra={"PBEM_PASSPHRASE": "correct horse"})
    alice, bob, a, b = two_players(tmp_path, relay, "gallipoli-blocks", ("allied", "ottoman"), ("--option", "turns=2"),
                                   alice=alice)
    bob.invoke("mail", "send", "--campaign", b)
    secret = tmp_path / "passphrase"
    secret.write_text("correct horse\nthe rest is not read\n")
    secret.chmod(0o644)
    alice.extra = {"PBEM_PASSPHRASE_FILE": str(secret), "PBEM_PASSPHRASE": None}  # a timer's: no PBEM_PASSPHRASE
    mailbox_a = Unattended(alice, a, tmp_path / "alice.log", f"{hook(tmp_path)} {tmp_path / 'alice.log'}")
    before = db_bytes(a)
    refused = invoke(runner, "mail", "run", "--maildir", alice.box.maildir, "--campaign", a, env=alice.env)
    assert_no_traceback(refused)
    assert refused.exit_code == 1 and refused.stdout == "", refused.output
    first, *rest = refused.stderr.splitlines()
    assert first == f"Error: no-passphrase: {secret} may be read by others" and len(rest) <= 1, refused.stderr
    assert "chmod 600" in refused.stderr and db_bytes(a) == before  # nothing read, nothing signed
    secret.chmod(0o600)
    secret.write_text("wrong horse\n")  # the file is what is read: a wrong passphrase in it is refused
    wrong = invoke(runner, "mail", "run", "--maildir", alice.box.maildir, "--campaign", a, env=alice.env)
    assert wrong.exit_code == 1 and "cannot unlock identity 'alice'" in wrong.stderr and db_bytes(a) == before
    secret.write_text("correct horse\nthe rest is not read\n")
    run = mailbox_a.run(ok=0)
    assert "accepted #1 from ottoman" in run.stdout and mailbox_a.answered_alone == {2}, run.stdout
