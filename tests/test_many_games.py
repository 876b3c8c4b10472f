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
