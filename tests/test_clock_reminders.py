"""The mailbox's reminders of the clock and the notify hook on each event (issue 36, points 2, 3
and 5): a fake clock, each player's `pbem mail run` with a hook that posts to a local HTTP server
standing in for a chat webhook, and the reminder mail written for the side that owes."""

from __future__ import annotations

import json
import sys
import threading
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from tests.conftest import assert_no_traceback, invoke, new_player, pbem
from tests.test_clock import FakeClock


@pytest.fixture
def webhook():
    posted: list[dict] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the standard library's name)
            posted.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/hook", posted
    server.shutdown()


def hook_script(tmp_path):
    """The README's chat hook: the message and the event as JSON to the URL in PBEM_WEBHOOK_URL."""
    hook = tmp_path / "pbem-chat"
    hook.write_text(f"#!{sys.executable}\nimport json, os, sys, urllib.request\n"
                    "body = json.dumps({'event': os.environ['PBEM_EVENT'], 'side': os.environ['PBEM_SIDE'], "
                    "'text': sys.argv[-1]}).encode()\n"
                    "urllib.request.urlopen(urllib.request.Request(os.environ['PBEM_WEBHOOK_URL'], body, "
                    "{'Content-Type': 'application/json'}), timeout=10)\n")
    hook.chmod(0o755)
    return hook


def test_reminders_at_fractions_of_the_time_left_then_the_claim_each_told_once(tmp_path, runner, monkeypatch, webhook):
    clock = FakeClock(monkeypatch)
    url, posted = webhook
    hook = hook_script(tmp_path)
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub, "--campaign", alice.dir,
         "--clock", "10+2/12", env=alice.env)
    pbem(runner, "join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, next((bob.dir / "sent").glob("*join.pbem")), env=alice.env)
    maildirs = {}
    for who in (alice, bob):
        maildirs[who.name] = tmp_path / f"Maildir-{who.name}"
        for sub in ("cur", "new", "tmp"):
            (maildirs[who.name] / sub).mkdir(parents=True)

    def run(who):
        before = len(posted)
        result = invoke(runner, "mail", "run", "--maildir", maildirs[who.name], "--notify", str(hook), "--campaign",
                        who.dir, env=dict(who.env, PBEM_WEBHOOK_URL=url))
        assert_no_traceback(result)
        return result, [(p["side"], p["event"], p["text"]) for p in posted[before:]]

    _, told = run(alice)
    assert [(s, e) for s, e, _ in told] == [("allied", "your-move")], told
    assert run(bob)[1] == []  # bob owes nothing, and the clock is far from any reminder
    clock.advance(hours=4, minutes=59)
    assert run(alice)[1] == [] and run(bob)[1] == []
    clock.advance(minutes=1)  # half of alice's 10 h used
    _, told = run(alice)
    assert told == [("allied", "reminder", "pbem: reminder for Hill 60, August 1915 (allied, turn file #1): 5 h left on your "
                                           "clock for turn file #2")], told
    result, told = run(bob)
    assert told == [("ottoman", "reminder", "pbem: reminder for Hill 60, August 1915 (ottoman, turn file #1): alice (allied) has "
                                            "5 h left on the clock for turn file #2")], told
    assert "reminder to allied: 5 h left on your clock for turn file #2" in result.output
    mails = sorted((bob.dir / "outbox").glob("*reminder*.eml"))  # no SMTP here: it waits in the outbox
    assert len(mails) == 1, mails
    mail = message_from_bytes(mails[0].read_bytes())
    assert mail["X-Pbem-To-Side"] == "allied" and "reminder: 5 h left on your clock" in mail["Subject"]
    assert mail["Auto-Submitted"] == "auto-generated"
    assert run(alice)[1] == [] and run(bob)[1] == []  # each level once
    assert len(list((bob.dir / "outbox").glob("*reminder*.eml"))) == 1
    clock.advance(hours=4)  # 1 h left: the quarter and the tenth passed at once; one reminder, the lowest
    assert [t for _, _, t in run(alice)[1]] == ["pbem: reminder for Hill 60, August 1915 (allied, turn file #1): 1 h left on your "
                                                "clock for turn file #2"]
    assert len(run(bob)[1]) == 1
    clock.advance(hours=1)
    _, told = run(bob)
    assert told == [("ottoman", "reminder", "pbem: reminder for Hill 60, August 1915 (ottoman, turn file #1): alice (allied) is "
                                            "out of time for turn file #2: you may claim the game (pbem "
                                            "claim-timeout)")], told
    assert len(list((bob.dir / "outbox").glob("*reminder*.eml"))) == 3
    pbem(runner, "claim-timeout", "--campaign", bob.dir, env=bob.env)
    _, told = run(bob)
    assert told == [("ottoman", "claim", "pbem: a claim in Hill 60, August 1915 (ottoman, turn file #1): bob (ottoman) wins on time: "
                                         "alice (allied) ran out of time (claimed by ottoman at #1, "
                                         f"{clock.at.isoformat()})")], told
    claim = next((bob.dir / "sent").glob("*-claim-*.pbem"))
    assert "recorded a TIMEOUT CLAIM" in pbem(runner, "ingest", "--campaign", alice.dir, claim, env=alice.env).output
    _, told = run(alice)
    assert [(s, e) for s, e, _ in told] == [("allied", "claim")], told  # not "your move": the game is lost on time
    assert "bob (ottoman) wins on time" in told[0][2]
    assert run(alice)[1] == [] and run(bob)[1] == []


def test_the_readme_s_chat_hook_posts_each_event_to_a_webhook(tmp_path, runner, monkeypatch, webhook):
    """The README's chat script, as printed there (curl and python3), run as the hook: each event's
    message reaches the webhook in the JSON shape Slack and Discord read."""
    import re
    import shutil
    from pathlib import Path

    if not (shutil.which("curl") and shutil.which("python3")):
        pytest.skip("the README's script needs curl and python3")
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    script = re.search(r"```\n(#!/bin/sh\n# ~/bin/pbem-chat.*?)```", readme, re.S)
    assert script, "the README's chat hook example is gone"
    hook = tmp_path / "pbem-chat"
    hook.write_text(script.group(1))
    hook.chmod(0o755)
    clock = FakeClock(monkeypatch)
    url, posted = webhook
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub, "--campaign", alice.dir,
         "--clock", "8+1/8", env=alice.env)
    pbem(runner, "join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, next((bob.dir / "sent").glob("*join.pbem")), env=alice.env)
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    env = dict(alice.env, PBEM_WEBHOOK_URL=url)
    for hours in (0, 4, 0):
        clock.advance(hours=hours)
        result = invoke(runner, "mail", "run", "--maildir", maildir, "--notify", str(hook), "--campaign", alice.dir,
                        env=env)
        assert_no_traceback(result)
    texts = [p["text"] for p in posted]
    assert all(p["content"] == p["text"] for p in posted)
    assert len(texts) == 2 and texts[0].startswith("pbem: your move in Hill 60") and "Choose" in texts[0], texts
    assert texts[1] == "pbem: reminder for Hill 60, August 1915 (allied, turn file #1): 4 h left on your clock for " \
                       "turn file #2", texts


def test_a_watching_mailbox_wakes_in_time_for_the_next_reminder(tmp_path, runner, monkeypatch):
    from pbem.mailbox.mail_watch import until_reminder
    from pbem.play.campaign import Campaign

    clock = FakeClock(monkeypatch)
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub, "--campaign", alice.dir,
         "--clock", "10+2/12", env=alice.env)
    pbem(runner, "join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, next((bob.dir / "sent").glob("*join.pbem")), env=alice.env)

    def wake():
        camp = Campaign.open(alice.dir, readonly=True)
        try:
            return until_reminder(camp)
        finally:
            camp.ledger.close()

    assert wake() == 5 * 3600  # at half of the 10 h
    clock.advance(hours=6)
    assert wake() == 1.5 * 3600  # 4 h left: the quarter, at 2 h 30 min
    clock.advance(hours=3, minutes=30)
    assert wake() == 30 * 60  # 30 min left: zero next
    clock.advance(hours=1)
    assert wake() is None  # out of time: nothing more to remind
