"""The public way to set up a position (issue 31, item 4): each enforced game's
``pbem_engine.games.<game>.position.position(description)`` gives a state and scripted dice for it
(``pbem_engine.protocol.position``); one legal action played on it shows a rule a player notices;
a description naming what the game lacks is refused with a one-line ValueError naming it; and the
example of docs/positions.md runs as written, outside the checkout, against the installed package."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pbem_engine.games.assault_on_gallipoli import GAME as ASSAULT
from pbem_engine.games.assault_on_gallipoli.position import position as assault_position
from pbem_engine.games.blood_on_the_tigris import GAME as TIGRIS
from pbem_engine.games.blood_on_the_tigris.position import position as tigris_position
from pbem_engine.games.gallipoli_blocks import GAME as BLOCKS
from pbem_engine.games.gallipoli_blocks.position import position as blocks_position
from pbem_engine.games.hill60 import GAME as HILL60
from pbem_engine.games.hill60.position import position as hill60_position
from pbem_engine.protocol.core import IllegalAction, step
from pbem_engine.protocol.position import CaseDice, Position, ScriptMismatch

DOC = Path(__file__).resolve().parent.parent / "docs" / "positions.md"


def block(language: str) -> str:
    """The one fenced ``language`` block of docs/positions.md."""
    found = re.findall(rf"^```{language}\n(.*?)^```$", DOC.read_text(), re.MULTILINE | re.DOTALL)
    assert len(found) == 1, f"docs/positions.md should have one {language} block, has {len(found)}"
    return found[0]


# ------------------------------------------------------------------ one rule of each game
def test_blocks_a_battle_the_defenders_win_three_hits_on_the_leading_attacker():
    pos = blocks_position({
        "frames": [{"k": "ops", "army": "allied", "left": 0},
                   {"k": "battle", "att": "allied", "from": "alexi", "to": "krithia", "step": "reveal-att",
                    "entrenched": False, "lead": {"att": "L1", "def": ["T1", "T2", "T3"]}}],
        "sealed": {"L1": "A1"},  # the attacker's sealed choice of leading blocks
        "blocks": {"alexi": ["A1=ceo-1-div-2-bde-4-rgt:4 open"],
                   "krithia": ["T1=ott-9-div-25-rgt:2 open", "T2=ott-9-div-26-rgt:2 open",
                               "T3=ott-9-div-27-rgt:2 open"]}})
    assert isinstance(pos, Position) and pos.table["L1"] == ("allied", "A1")
    dice = pos.dice([1, 2, 5, 2, 6, 1, 2, 4])  # 2 dice at 4+: none; 6 dice at 4+: 5, 6, 4
    assert isinstance(dice, CaseDice)
    state, events = step(BLOCKS, pos.state, "allied", {"do": "reveal"}, dice)
    texts = [e["text"] for e in events]
    assert "ottoman fires 6 dice at Alexi needing 4+: 3 hit(s)" in texts
    assert state["blocks"]["A1"]["steps"] == 1 and "the battle for Krithia ends" in texts
    assert dice.opened == ["L1"] and dice.remaining == 0
    assert pos.state["blocks"]["A1"]["steps"] == 4  # the position itself is untouched


def test_blocks_scripted_draws_are_checked_against_the_cards():
    pos = blocks_position({})
    with pytest.raises(ValueError, match="ottoman-card-01.*not an allied card"):
        pos.dice(draws=[{"side": "allied", "pool": "allied-early", "cards": {"C1": "ottoman-card-01"}}])
    with pytest.raises(ValueError, match="draws\\[0\\]"):
        pos.dice(draws=[{"side": "allied", "cards": {"C1": "allied-card-01"}}])
    dice = pos.dice(draws=[{"side": "allied", "pool": "allied-early", "cards": {"C1": "allied-card-01"}}])
    with pytest.raises(ScriptMismatch):  # the rules drew otherwise than scripted: never a ValueError
        dice.draw_private("allied", "allied-early", 2)


@pytest.mark.parametrize("face, beach", [(5, "anzac-cove"), (1, "brighton-beach")])
def test_assault_the_landing_roll_decides_the_beach(face, beach):
    pos = assault_position({"waves": [[["maclagan", "aus-9", "aus-10"]]],
                            "frames": [{"k": "round", "side": "anzac", "acted": False}],
                            "units": {"koja-plain": ["tur-1-27"]}})
    dice = pos.dice([face])
    state, events = step(ASSAULT, pos.state, "anzac", {"do": "land", "boat": 0}, dice)
    assert {u: state["units"][u]["at"] for u in ("maclagan", "aus-9", "aus-10")} == dict.fromkeys(
        ("maclagan", "aus-9", "aus-10"), beach)
    assert f"landing roll {face}" in events[0]["text"] and state["waves"] == [] and dice.remaining == 0


def test_tigris_a_gunboat_runs_aground_on_a_two():
    pos = tigris_position({"units": {"1639|1739": ["br-comet-pelly"]}})  # a dry turn: the seasonal channel
    dice = pos.dice([2])
    order = TIGRIS.parse_order(pos.state, "british", "sail br-comet-pelly to 0831|0932")
    state, events = step(TIGRIS, pos.state, "british", order, dice)
    assert state["units"]["br-comet-pelly"]["at"] == "1236|1336" and state["units"]["br-comet-pelly"]["aground"]
    assert any("runs aground" in e["text"] for e in events) and dice.remaining == 0


def test_hill60_an_assault_eliminates_the_last_defender_and_the_attacker_may_advance():
    pos = hill60_position({"entrenched": [], "units": {"1-33": {"space": "eliminated", "steps": 0},
                                                       "2-33": {"steps": 1}}})
    dice = pos.dice([6, 2, 2, 3])  # three Allied dice hit on 5+: one hit; one die of return fire misses
    state, events = step(HILL60, pos.state, "allied", {"do": "assault", "space": "Hill 60", "from": "Kabak Kuyu"},
                         dice)
    assert state["units"]["2-33"] == {"space": "eliminated", "steps": 0}
    assert "2/33rd Regiment takes 1 hit and is eliminated." in [e["text"] for e in events]
    assert [c.label for c in HILL60.prompt(state).choices] == ["advance into Hill 60", "stay"]
    with pytest.raises(IllegalAction):  # and only what the prompt offers is legal
        step(HILL60, state, "allied", {"do": "end"}, pos.dice())


# ------------------------------------------------------------------ bad descriptions
BAD = [
    (blocks_position, {"blocks": {"atlantis": ["T1=ott-9-div-25-rgt:2"]}}, "atlantis"),
    (blocks_position, {"blocks": {"krithia": ["T1=ott-99-div-1-rgt:2"]}}, "ott-99-div-1-rgt"),
    (blocks_position, {"hands": {"allied": {"C1": "allied-card-99"}}}, "allied-card-99"),
    (blocks_position, {"blocks": {"krithia": ["T1=ott-9-div-25-rgt:2 opne"]}}, "opne"),
    (blocks_position, {"block": {}}, "block"),
    (assault_position, {"units": {"atlantis": ["aus-9"]}}, "atlantis"),
    (assault_position, {"units": {"anzac-cove": ["aus-99"]}}, "aus-99"),
    (assault_position, {"hands": {"anzac": ["no-such-card#1"]}}, "no-such-card#1"),
    (assault_position, {"unit": {}}, "unit"),
    (tigris_position, {"units": {"9999": ["br-16-6"]}}, "9999"),
    (tigris_position, {"units": {"2010": ["br-99-6"]}}, "br-99-6"),
    (tigris_position, {"units": {"2010": ["br-16-6 sunk"]}}, "sunk"),
    (tigris_position, {"phase": "lunch"}, "lunch"),
    (hill60_position, {"units": {"10gr": {"space": "Atlantis"}}}, "Atlantis"),
    (hill60_position, {"units": {"99gr": {"space": "Hill 60"}}}, "99gr"),
    (hill60_position, {"units": {"10gr": {"steps": 9}}}, "9"),
    (hill60_position, {"turns": 3}, "turns"),
]


@pytest.mark.parametrize("position, description, named", BAD,
                         ids=[f"{p.__module__.split('.')[2]}-{n}" for p, _, n in BAD])
def test_a_bad_description_is_refused_in_one_line_naming_it(position, description, named):
    with pytest.raises(ValueError) as refused:
        position(description)
    said = str(refused.value)
    assert repr(named) in said or f"= {named}" in said, said
    assert "\n" not in said and len(said) < 300, said


# ------------------------------------------------------------------ the document
def test_the_documents_example_runs_as_written_outside_the_checkout(tmp_path):
    script = tmp_path / "case.py"
    script.write_text(block("python"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["16th Brigade moves 2010 -> 2012", "the depot at 2012 is captured (2, 12.6)"]
    assert all(f"    {line}\n" in DOC.read_text() for line in done.stdout.splitlines())  # what it says it prints
    broken = tmp_path / "broken.py"  # and it is a test: a die that does not capture fails it
    broken.write_text(block("python").replace("pos.dice([2])", "pos.dice([3])"))
    failed = subprocess.run([sys.executable, str(broken)], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)
    assert failed.returncode != 0 and "AssertionError: captured" in failed.stderr


def test_the_documents_toml_case_plays_as_it_says():
    case = tomllib.loads(block("toml"))
    pos = blocks_position(case["before"])
    dice = pos.dice(case["dice"])
    state = pos.state
    for act in case["actions"]:
        state, _ = step(BLOCKS, state, act["side"], act["action"], dice)
    assert state["blocks"]["A1"]["steps"] == 1 and dice.remaining == 0
