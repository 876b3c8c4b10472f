"""Many games under one home (issue 36, point 1): `pbem new` and `pbem join` record each
campaign under the player's home; `pbem status --all` lists them one line each, his decisions
first; `pbem mail run --all` runs every one with the one mailbox configuration."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import assert_no_traceback, assert_refused, invoke, new_player, pbem


def games(tmp_path, runner):
    """Alice's three games: Hill 60 (her decision), barrage (a file her tool owes: every barrage
    is the only legal choice) and Blood on the Tigris (waiting for Bob to join)."""
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    where = {name: tmp_path / "far" / name for name in ("hill60", "barrage", "tigris")}
    for module, name, side in (("hill60", "hill60", "allied"), ("barrage", "barrage", "red"),
                               ("blood-on-the-tigris", "tigris", "british")):
        pbem(runner, "new", module, "--as", side, "--key", "alice", "--opponent", bob.pub, "--campaign", where[name],
             env=alice.env)
    for name in ("hill60", "barrage"):
        mine = tmp_path / f"bob-{name}"
        pbem(runner, "join", next((where[name] / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", mine,
             env=bob.env)
        pbem(runner, "ingest", "--campaign", where[name], next((mine / "sent").glob("*join.pbem")), env=alice.env)
    return alice, bob, where


def test_status_all_lists_every_game_of_the_home_with_the_player_s_moves_first(tmp_path, runner):
    alice, bob, where = games(tmp_path, runner)
    lines = pbem(runner, "status", "--all", env=alice.env).output.splitlines()
    assert len(lines) == 3, lines
    assert lines[0].startswith("Hill 60") and "YOUR MOVE" in lines[0] and str(where["hill60"]) in lines[0]
    assert lines[1].startswith("Barrage") and "Your tool owes a file, nothing to decide" in lines[1]
    assert lines[2].startswith("Blood on the Tigris") and "Waiting for bob (turkish" in lines[2]
    assert all("you are" in line and "against bob" in line for line in lines)
    theirs = pbem(runner, "status", "--all", env=bob.env).output.splitlines()
    assert len(theirs) == 2 and all("against alice" in line for line in theirs), theirs


def test_a_moved_game_is_said_and_a_damaged_list_is_refused_in_one_line(tmp_path, runner):
    alice, _, where = games(tmp_path, runner)
    where["tigris"].rename(tmp_path / "moved")
    lines = pbem(runner, "status", "--all", env=alice.env).output.splitlines()
    assert len(lines) == 3 and str(where["tigris"]) in lines[-1] and "cannot be read" in lines[-1], lines
    listed = alice.home / "games.json"
    assert [Path(p) for p in json.loads(listed.read_text())] == [where[n].resolve() for n in ("hill60", "barrage",
                                                                                                "tigris")]
    listed.write_text('{"not": "a list"}')
    result = invoke(runner, "status", "--all", env=alice.env)
    assert_refused(result, "unreadable")
    misuse = invoke(runner, "status", "--all", "--campaign", where["hill60"], env=alice.env)
    assert misuse.exit_code == 2
    assert_no_traceback(misuse)


def test_mail_run_all_answers_what_needs_no_person_in_every_game(tmp_path, runner):
    alice, _, where = games(tmp_path, runner)
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    result = invoke(runner, "mail", "run", "--all", "--maildir", maildir, env=alice.env)
    assert_no_traceback(result)
    assert result.exit_code == 1  # no SMTP server configured: each game's mail waits in its outbox, said
    out = result.output
    assert f"{where['barrage']}:" in out and "answered #2" in out  # red's barrage, signed by the tool alone
    assert "no-config: no SMTP server configured" in result.stderr
    assert "your move:" in out  # Hill 60: a decision waits for alice
    assert list((where["barrage"] / "sent").glob("*-0002-red-turn.pbem"))
    assert not list((where["hill60"] / "sent").glob("*-0002-*"))  # a decision is never taken for her


def test_the_notify_hook_posts_to_a_chat_webhook_once_per_decision(tmp_path, runner):
    """The README's chat notification: a command that posts the message as JSON to a webhook URL
    (here a local HTTP server standing in for Discord, Matrix or Slack)."""
    import sys
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    posted: list[dict] = []

    class Webhook(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the standard library's name)
            posted.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):  # quiet
            pass

    server = HTTPServer(("127.0.0.1", 0), Webhook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    hook = tmp_path / "pbem-chat"
    hook.write_text(f"#!{sys.executable}\nimport json, os, sys, urllib.request\n"
                    "body = json.dumps({'text': sys.argv[-1], 'content': sys.argv[-1]}).encode()\n"
                    "urllib.request.urlopen(urllib.request.Request(os.environ['PBEM_WEBHOOK_URL'], body, "
                    "{'Content-Type': 'application/json'}), timeout=10)\n")
    hook.chmod(0o755)
    try:
        alice, _, where = games(tmp_path, runner)
        maildir = tmp_path / "Maildir"
        for sub in ("cur", "new", "tmp"):
            (maildir / sub).mkdir(parents=True)
        env = dict(alice.env, PBEM_WEBHOOK_URL=f"http://127.0.0.1:{server.server_port}/hook")
        for _ in range(2):  # the second run tells nothing new
            result = invoke(runner, "mail", "run", "--maildir", maildir, "--notify", str(hook), "--campaign",
                            where["hill60"], env=env)
            assert_no_traceback(result)
    finally:
        server.shutdown()
    assert len(posted) == 1, posted
    text = posted[0]["text"]
    assert text.startswith("pbem: your move in Hill 60") and "Choose an operation" in text and posted[0]["content"] == text


def test_status_all_shows_each_clock_and_a_game_lost_on_time(tmp_path, runner, monkeypatch):
    """Games of different modules under one home, one with a clock: its line says the time left,
    and once claimed at zero the game is over (issue 36, points 1, 2 and 5)."""
    from tests.test_clock import FakeClock

    clock = FakeClock(monkeypatch)
    alice, bob, where = games(tmp_path, runner)
    timed, theirs = tmp_path / "far" / "timed", tmp_path / "bob-timed"
    pbem(runner, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub, "--campaign", timed,
         "--clock", "24+6/48", env=alice.env)
    pbem(runner, "join", next((timed / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", theirs, env=bob.env)
    pbem(runner, "ingest", "--campaign", timed, next((theirs / "sent").glob("*join.pbem")), env=alice.env)
    pbem(runner, "play", "1", "--campaign", timed, env=alice.env)
    pbem(runner, "ingest", "--campaign", theirs, max((timed / "sent").glob("*-0002-red-turn.pbem")), env=bob.env)
    clock.advance(hours=20)
    lines = pbem(runner, "status", "--all", env=alice.env).output.splitlines()
    assert len(lines) == 4, lines
    line = next(x for x in lines if str(timed) in x)
    assert line.startswith("Barrage") and "Waiting for bob (blue, since #2, 20 h, clock: 4 h left)" in line, line
    clock.advance(hours=4)
    pbem(runner, "claim-timeout", "--campaign", timed, env=alice.env)
    lines = pbem(runner, "status", "--all", env=alice.env).output.splitlines()
    assert lines[-1].startswith("Barrage") and "alice (red) wins on time: bob (blue) ran out of time" in lines[-1], lines
    assert str(where["hill60"]) in lines[0] and "YOUR MOVE" in lines[0]


def test_status_all_shows_new_messages_and_all_that_waits_to_be_sent(tmp_path, runner):
    """Issue 36, point 1: each line says what came for him unread (messages of the others since his
    last turn file, as `pbem messages --new`) and what waits to go out (the outbox, messages held
    for his next turn file); both go when he has read and sent them."""
    alice, bob, where = games(tmp_path, runner)
    bob_barrage = tmp_path / "bob-barrage"
    out = pbem(runner, "play", "1", "say good luck", "tell blue: you will need it", "--campaign", where["barrage"],
               env=alice.env).output
    turn = max((where["barrage"] / "sent").glob("*-0002-red-turn.pbem"))
    pbem(runner, "ingest", "--campaign", bob_barrage, turn, env=bob.env)
    line = next(x for x in pbem(runner, "status", "--all", env=bob.env).output.splitlines() if "Barrage" in x)
    assert "; 2 new message(s) (pbem messages --new)" in line, line
    mine = next(x for x in pbem(runner, "status", "--all", env=alice.env).output.splitlines() if "Barrage" in x)
    assert "new message" not in mine, mine  # her own messages are not news to her
    pbem(runner, "say", "--campaign", where["barrage"], "and", "farewell", env=alice.env)  # waits for her next file
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    invoke(runner, "mail", "run", "--all", "--maildir", maildir, env=alice.env)  # no SMTP: the mail waits
    lines = pbem(runner, "status", "--all", env=alice.env).output.splitlines()
    mine = next(x for x in lines if "Barrage" in x)
    assert "1 message(s) waiting for your next turn file" in mine, mine
    hill = next(x for x in lines if "Hill 60" in x)
    assert "message(s) waiting" not in hill and "new message" not in hill, hill
    outbox = sorted((where["barrage"] / "outbox").glob("*.eml"))
    assert outbox and f"; {len(outbox)} mail(s) to send" in mine, (outbox, mine)
    pbem(runner, "play", "--campaign", bob_barrage, env=bob.env)  # bob answers: the messages are old news
    line = next(x for x in pbem(runner, "status", "--all", env=bob.env).output.splitlines() if "Barrage" in x)
    assert "new message" not in line, line


def test_mail_fetch_all_reads_every_game_s_mail_from_one_maildir(tmp_path, runner):
    """Issue 36, point 1: `pbem mail fetch --all` over every recorded game from one mailbox: each
    game takes its own turn files and passes over the others'; a second run reads nothing new."""
    import mailbox
    from email.message import EmailMessage

    alice, bob, where = games(tmp_path, runner)
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    theirs = {}
    for name, side in (("hill60", "allied"), ("barrage", "red")):  # alice plays; bob's copies get it by mail
        for _ in range(12):  # the first choice each time, until the file is signed
            if "signed turn file" in pbem(runner, "play", "1", "--campaign", where[name], env=alice.env).output:
                break
        theirs[name] = max((where[name] / "sent").glob(f"*-0002-{side}-turn.pbem"))
    # bob's mailbox: one message from alice in each game
    box = mailbox.Maildir(maildir)
    for name, path in theirs.items():
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "alice@example.org", "bob@example.org", f"pbem {name}"
        msg.set_content(path.read_text())
        box.add(msg)
    before = {name: (tmp_path / f"bob-{name}" / "campaign.db").read_bytes() for name in theirs}
    result = invoke(runner, "mail", "fetch", "--all", "--maildir", maildir, env=bob.env)
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output + result.stderr
    out = result.output
    for name in theirs:
        assert f"{tmp_path / f'bob-{name}'}:" in out or f"{(tmp_path / f'bob-{name}').resolve()}:" in out, out
        assert (tmp_path / f"bob-{name}" / "campaign.db").read_bytes() != before[name]
    assert out.count("accepted #2 from") == 2, out
    again = invoke(runner, "mail", "fetch", "--all", "--maildir", maildir, env=bob.env)
    assert again.exit_code == 0 and "accepted" not in again.output, again.output
    misuse = invoke(runner, "mail", "fetch", "--all", "--campaign", tmp_path / "bob-hill60", "--maildir", maildir,
                    env=bob.env)
    assert misuse.exit_code == 2
    assert_no_traceback(misuse)
