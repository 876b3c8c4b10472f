"""A whole game by files, through the CLI, between two campaigns that share nothing but turn files."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.play.campaign import Campaign
from pbem.cli import cli
from pbem.commands.demo import choose


class Player:
    def __init__(self, root: Path, name: str):
        self.name = name
        self.home = root / f"{name}-home"
        self.dir = root / name

    def __call__(self, *args, ok=True):
        result = CliRunner().invoke(cli, list(args), env={"PBEM_HOME": str(self.home)})
        assert "Traceback" not in result.output
        if ok:
            assert result.exit_code == 0, result.output
        return result

    def c(self, *args, ok=True):
        return self(*args, "--campaign", str(self.dir), ok=ok)

    def newest_sent(self) -> Path:
        return max((self.dir / "sent").iterdir(), key=lambda p: int(p.name.split("-")[1]))


@pytest.fixture
def players(tmp_path):
    alice, bob = Player(tmp_path, "alice"), Player(tmp_path, "bob")
    for p in (alice, bob):
        p("keys", "new", p.name)
        p("keys", "export", p.name, "-o", str(tmp_path / f"{p.name}.pub"))
    out = alice("new", "hill60", "--as", "allied", "--key", "alice", "--opponent", str(tmp_path / "bob.pub"),
                "--campaign", str(alice.dir)).output
    assert "you are allied" in out and "Send the invitation" in out
    invitation = alice.newest_sent()
    out = bob("join", str(invitation), "--key", "bob", "--campaign", str(bob.dir)).output
    assert "joined game" in out and "as ottoman" in out
    assert "accepted #1 from ottoman" in alice.c("ingest", str(bob.newest_sent())).output
    return alice, bob


def whose_turn(alice, bob):
    waiting = Campaign.open(alice.dir).waiting()
    if waiting is None:
        return None
    return alice if waiting["side"] == "allied" else bob


def test_a_whole_game_by_files(players):
    alice, bob = players
    files = 0
    while (player := whose_turn(alice, bob)) is not None:
        other = bob if player is alice else alice
        before = len(list((player.dir / "sent").iterdir()))
        # Orders in words, as the demo player would choose them, until a turn file is signed.
        for _ in range(20):
            camp = Campaign.open(player.dir)
            prompt = camp.game.prompt(camp.preview(camp.draft(), camp.next_link())[0]["game"])
            orders = [choose(prompt)] if prompt.side == camp.side else []  # else: a reveal-only reply
            out = player.c("play", *orders).output
            if "signed turn file" in out:
                break
            assert "drafted" in out
        assert len(list((player.dir / "sent").iterdir())) == before + 1
        assert "accepted" in other.c("ingest", str(player.newest_sent())).output
        files += 1
        assert files < 200
    summaries = [alice("verify", str(alice.dir)).output, bob("verify", str(bob.dir / "campaign.db")).output]
    assert all(s.startswith("OK: ") for s in summaries)
    states = {re.search(r"state (\w+)", s).group(1) for s in summaries}
    assert len(states) == 1, "both sides computed the same game"
    report = alice.c("report", "--all").output
    assert "RESULT:" in report and "roll:" in report and "hits on" in report
    html = alice.c("report", "--html", "--all").output
    assert html.startswith("<!doctype html>") and "RESULT" not in html and "Result:" in html
    status = bob.c("status").output
    assert "game over" in status


def test_wrong_turn_illegal_orders_and_take_back(players):
    alice, bob = players
    r = bob.c("play", "1", ok=False)
    assert r.exit_code == 1 and "not-your-turn" in r.output
    r = alice.c("play", "charge with bayonets", ok=False)
    assert r.exit_code == 1 and "illegal-order" in r.output
    r = alice.c("play", "dig in at Kabak Kuy", ok=False)  # a prefix of a legal order is fine ...
    assert r.exit_code == 0 and "drafted" in r.output
    assert "1 drafted action(s)" in alice.c("status").output
    r = alice.c("play", "assualt Hill 60 from Kabak Kuyu", ok=False)  # ... a typo gets a suggestion
    assert r.exit_code == 1 and "did you mean 'assault Hill 60 from Kabak Kuyu'" in r.output
    assert "took back" in alice.c("undo").output
    assert alice.c("undo", ok=False).exit_code == 1
    listing = alice.c("play").output  # no orders, not a terminal: list the choices
    assert "1. " in listing and "end turn" in listing
    out = alice.c("play", "assault Hill 60").output
    assert "signed turn file" in out and "reveal" in out
    assert "waiting for ottoman's reveal" in alice.c("status").output
    bob.c("ingest", str(alice.newest_sent()))
    report = bob.c("report").output
    assert "Your reveal is owed" in report


def test_report_shows_rolls_with_purpose_and_what_is_asked(players):
    alice, bob = players
    alice.c("play", "assault Hill 60")
    bob.c("ingest", str(alice.newest_sent()))
    out = bob.c("play").output  # bob owes a reveal: resolving it shows him the rolls, then his choices
    assert "assault on Hill 60" in out
    while "signed turn file" not in out:  # bob allocates any hits he took, then signs
        out = bob.c("play", "1").output
    alice.c("ingest", str(bob.newest_sent()))
    report = alice.c("report").output
    assert "roll: assault on Hill 60: allied fire (hits on 6)" in report
    assert "(declared in #2, seeded in #3)" in report
    assert "What is asked of you" in report


def test_interactive_play_asks_until_the_turn_file_is_signed(players):
    alice, bob = players
    result = CliRunner().invoke(cli, ["play", "-i", "--campaign", str(alice.dir)],
                                env={"PBEM_HOME": str(alice.home)},
                                input="dig in at Kabak\nundo\nassualt Hill 60\ndig in at Kabak Kuyu\nend turn\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1. " in out and "Choose (a number or an order" in out
    assert "did you mean 'assault Hill 60 from Kabak Kuyu'" in out  # the typo was refused, then asked again
    assert "signed turn file #2" in out
    sent = alice.newest_sent()
    from pbem.wire.envelope import read_envelopes

    (env,) = read_envelopes(sent.read_text())
    assert [a["do"] for a in env.content["body"]["actions"]] == ["dig", "end"]


def test_interactive_quit_keeps_a_draft(players):
    alice, _ = players
    result = CliRunner().invoke(cli, ["play", "-i", "--campaign", str(alice.dir)],
                                env={"PBEM_HOME": str(alice.home)}, input="dig in at Kabak Kuyu\nquit\n")
    assert result.exit_code == 0 and "1 action(s) drafted" in result.output
    assert "1 drafted action(s)" in alice.c("status").output


def test_report_steps_back_through_the_history(players):
    alice, bob = players
    alice.c("play", "dig in at Kabak Kuyu")
    alice.c("play", "end turn")
    bob.c("ingest", str(alice.newest_sent()))
    then = alice.c("report", "--at", "1").output
    assert "after envelope #1" in then and "#1 ottoman (join)" in then and "#2 allied" not in then
    assert "As it stood after envelope #1: it was your decision." in then  # as it stood then, not now
    now = alice.c("report", "--all").output
    assert "after envelope #2" in now and "#2 allied (turn)" in now
    missing = alice.c("report", "--at", "99", ok=False)
    assert missing.exit_code == 1 and "no-envelope" in missing.output


def test_several_numbers_refer_to_the_list_as_shown(players):
    alice, bob = players
    listing = alice.c("play").output
    number = {label.strip(): n for n, label in re.findall(r"^\s+(\d+)\. ([^—\n]+)", listing, re.M)}
    dig, end = number["dig in at Kabak Kuyu"], number["end turn"]
    assert int(dig) < int(end)  # after digging in, 'end turn' moves up the list: it must still be found
    out = alice.c("play", dig, end).output
    assert "signed turn file #2" in out
    from pbem.wire.envelope import read_envelopes

    (env,) = read_envelopes(alice.newest_sent().read_text())
    assert [a["do"] for a in env.content["body"]["actions"]] == ["dig", "end"]
