"""A refereed block game by the installed ``pbem``, three homes, as the issue saw it fail
(issue 29 items 1-6): what ``pbem play`` lists after a draft is what the next number picks; a
listed choice is taken by its number at a decision given in words; ``undo`` names what it took
back; the referee's own bare file is refused with the right file named; the referee reads
every block it adjudicates; no side's name or waiting line doubles."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PBEM = str(Path(sys.executable).parent / "pbem")


class Home:
    def __init__(self, root: Path, name: str) -> None:
        self.dir = root / name
        self.dir.mkdir()
        self.name = name

    def __call__(self, *args: str, code: int = 0, campaign: bool = True) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
        env["PBEM_HOME"] = str(self.dir / "home")
        done = subprocess.run([PBEM, *args, *(["--campaign", "c"] if campaign else [])], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=120)
        out = done.stdout + done.stderr
        assert "Traceback" not in out
        assert done.returncode == code, f"pbem {' '.join(args)} exited {done.returncode}:\n{out}"
        return out

    def newest(self, folder: str) -> Path:
        return max((self.dir / "c" / "sent" / folder).glob("*.pbem"), key=lambda p: p.name)


def refereed_homes(root: Path, *new: str) -> tuple[Home, Home, Home]:
    """The referee's, allied's and ottoman's homes, each with its key (ref, alice, bob; the players'
    public keys in ``root``), and the referee's ``pbem new MODULE --referee ... *new``."""
    ref, allied, ottoman = Home(root, "ref"), Home(root, "allied"), Home(root, "ottoman")
    ref("keys", "new", "ref", campaign=False)
    for who, key in ((allied, "alice"), (ottoman, "bob")):
        who("keys", "new", key, campaign=False)
        (root / f"{key}.pub").write_text(who("keys", "export", key, campaign=False))
    ref("new", new[0], "--referee", "--key", "ref", "--player", f"allied={root / 'alice.pub'}",
        "--player", f"ottoman={root / 'bob.pub'}", *new[1:])
    return ref, allied, ottoman


def listed(out: str) -> list[str]:
    return [line.split(". ", 1)[1] for line in out.splitlines() if line.startswith("  ") and ". " in line
            and line.strip().split(".", 1)[0].isdigit()]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = tmp_path_factory.mktemp("refereed-cli")
    ref, allied, ottoman = refereed_homes(root, "gallipoli-blocks", "--option", "turns=1")
    genesis = ref.newest(".")
    allied("join", str(genesis), "--key", "alice")
    ottoman("join", str(genesis), "--key", "bob")
    ref("ingest", str(allied.newest(".")), str(ottoman.newest(".")))
    ref("play")
    return root, ref, allied, ottoman


def test_refereed_block_game_by_the_numbers_printed(game):
    root, ref, allied, ottoman = game
    # the referee's own copy of its file carries no view for a player: refused, the right file named
    bare = ref.newest(".")
    before = hashlib.sha256((allied.dir / "c" / "campaign.db").read_bytes()).digest()
    refused = allied("ingest", str(bare), code=1)
    assert "missing-view" in refused and "sent/to-allied/" in refused
    assert hashlib.sha256((allied.dir / "c" / "campaign.db").read_bytes()).digest() == before
    allied("ingest", str(ref.newest("to-allied")))
    waiting = allied("status")
    assert "waiting for ottoman" in waiting and "ottoman: waiting for" not in waiting
    ottoman("ingest", str(ref.newest("to-ottoman")))
    status = ottoman("status")
    assert "waiting for you: deploy concealed blocks" in status and "ottoman: ottoman" not in status
    ottoman("play", "deploy 25th 3 krithia", "deploy 57th 3 kilia liman")
    shown = ottoman("play")
    assert listed(shown) == ["done"] and "after your 2 drafted order(s)" in shown
    assert "signed turn file #2" in ottoman("play", "1")  # '1. done', by its number

    ref("ingest", str(ottoman.newest(".")))
    assert "#2 ottoman (turn):\n  your orders, sealed to the referee" in ottoman("report", "--all")  # not left blank
    adjudicated = ref("play")
    assert "deploys 9th Div / 25th Rgt (concealed at 3 steps) at Krithia" in adjudicated and "[[" not in adjudicated  # the referee reads it
    report = ref("report")
    assert "9th Div / 25th Rgt" in report and "a concealed block" not in report
    allied("ingest", str(ref.newest("to-allied")))
    first = allied("play")  # the Allied set-up (6.2) is the rules' alone: the tool writes it, no one is asked
    labels = listed(first)
    assert "set up" not in labels and labels[0].startswith("play ") and "for OPS" in labels[0]
    # the hand is dealt at random: a card of the most OPS, so that operations follow its play (an
    # OPS 1 card may leave none, and the decision passes at once); named as the hand names it
    ops = {i: int(re.search(r"— OPS (\d+)", label).group(1)) for i, label in enumerate(labels, 1) if " for OPS " in label}
    pick = max(ops, key=lambda i: (ops[i], -i))
    card = labels[pick - 1].removeprefix("play ").split(" for OPS")[0]
    drafted = allied("play", str(pick))  # what the orders did, said as they are drafted: the set-up, then the card
    assert "allied group A: 7 concealed blocks in ANZAC HQ" in drafted and f"plays {card}" in drafted
    assert "2 action(s) drafted" in drafted
    second = allied("play")  # the list after the draft: what the next number picks
    after = listed(second)
    assert after and after != labels and "after your 2 drafted order(s)" in second
    status = allied("status")
    [asking] = [line.removeprefix("allied: ") for line in second.splitlines() if line.startswith("allied: ")]
    assert f"waiting for you: {asking[:30]}" in status and "2 drafted action(s)" in status
    report = allied("report")
    asked = report.split("What is asked of you", 1)[1]
    assert f"1. {after[0]}" in asked and f"{len(after)}. {after[-1]}" in asked
    took = allied("undo")
    assert f"took back: allied plays {card}" in took and "1 drafted action(s) remain" in took
    assert listed(allied("play")) == labels
    back = ref("report", "--at", "1")  # the referee steps back: what was owed then, not "the game is over"
    assert "As it stood after envelope #1: waiting for ottoman: deploy concealed blocks" in back
    assert "The game is over" not in back and "ottoman: ottoman" not in back
    for line in (first + second + status + report + took).splitlines():
        assert "[[" not in line and "allied: allied" not in line


def test_demo_help_names_the_game_it_plays():
    out = subprocess.run([PBEM, "demo", "--help"], capture_output=True, text=True).stdout
    assert "default: gallipoli-blocks, refereed or not" in " ".join(out.split()) and "hill60)" not in out
