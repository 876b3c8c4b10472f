"""The odds before a roll, as a player sees them: `pbem play` lists the block game's choice of leading
blocks with the exact odds of its dice, the text and HTML reports show the same label, and the label
typed back (whole or by its words) is still an order; a table-top roll ordered in words shows its odds."""

import html
import re

import pytest

from pbem.play.campaign import Campaign
from pbem.commands.demo import choose
from pbem.wire.keys import KeyStore
from pbem_engine.chance.odds import SEP, pool_line
from tests.conftest import new_player, pbem
from tests.test_tabletop import Table, MINI

LEADING = "choose 1-3 leading blocks"


def _play_until_a_leading_choice(alice, bob):
    """Both sides played by the game's own simple player, turn files exchanged, until one side's turn
    opens on the choice of its leading blocks (nothing drafted before it, so the report, which shows
    what is stored, asks the same).  Returns that player and the prompt `pbem play` showed."""
    players = {"allied": alice, "ottoman": bob}
    for _ in range(200):
        camp = Campaign.open(alice.dir)
        try:
            waiting = camp.waiting()
        finally:
            camp.close()
        assert waiting is not None, "the game ended without a battle"
        me, other = players[waiting["side"]], players["ottoman" if waiting["side"] == "allied" else "allied"]
        camp = Campaign.open(me.dir)
        stopped, asked = [], []

        def ask(prompt, events, rolls, refusal, camp=camp):
            asked.append(prompt)
            if LEADING in prompt.text and len(asked) == 1:
                stopped.append(prompt)
                return None  # nothing to sign: `pbem play` shows this decision
            if "a battle plan?" in prompt.text:
                return "decide each step"  # the leading blocks are then chosen at their own step, with odds
            return choose(prompt, camp)

        try:
            result = camp.play(KeyStore(me.home).load(me.name), [], ask)
        finally:
            camp.close()
        if stopped:
            return me, stopped[0]
        camp = Campaign.open(other.dir)
        try:
            camp.ingest([("turn", result.path.read_text())])
        finally:
            camp.close()
    raise AssertionError("no battle in 200 turn files")


@pytest.fixture
def at_the_leading_choice(tmp_path, runner, home):
    alice = new_player(runner, tmp_path, "alice", "allied")
    bob = new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--option", "turns=6", "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", max((alice.dir / "sent").glob("*.pbem")), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, max((bob.dir / "sent").glob("*.pbem")), env=alice.env)
    me, prompt = _play_until_a_leading_choice(alice, bob)
    return runner, me, prompt


def test_play_and_both_reports_show_the_odds_of_the_leading_blocks(at_the_leading_choice):
    runner, me, prompt = at_the_leading_choice
    out = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    m = re.search(r"^  1\. (lead strongest — (\d+) dice at ([2-6])\+: expect [\d.]+ hits? \(.*\))$", out, re.M)
    assert m, out
    label, dice, target = m.group(1), int(m.group(2)), int(m.group(3))
    assert label == "lead strongest" + SEP + pool_line(dice, 6, target)  # computed from the rules' numbers
    assert f"each {target}+ a hit at the current target" in out
    assert label == prompt.choices[0].label  # what `pbem play` asked the player is what it lists
    text = pbem(runner, "report", "--campaign", me.dir, env=me.env).output
    assert label in " ".join(text.split())  # wrapped at 80 columns
    page = pbem(runner, "report", "--html", "--campaign", me.dir, env=me.env).output
    assert label in " ".join(html.unescape(page).split())


@pytest.mark.parametrize("order", ["lead strongest", "whole label"])
def test_the_label_is_still_an_order(at_the_leading_choice, order):
    runner, me, prompt = at_the_leading_choice
    typed = prompt.choices[0].label if order == "whole label" else order
    out = pbem(runner, "play", "--campaign", me.dir, typed, env=me.env).output
    assert "signed turn file" in out or "drafted" in out, out


def test_a_table_top_roll_shows_its_odds(tmp_path):
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)
    t = Table(tmp_path, str(tmp_path / "mini"), ("red", "blue"))
    out = t.act(t.a, "roll 3d6 for fire")
    assert "signed turn file" in out
    assert ("  odds: 3d6 for fire: expect 10.5 (… 4:1% 5:3% 6:5% 7:7% 8:10% 9:12% 10:13% 11:13% 12:12% 13:10% "
            "14:7% 15:5% 16:3% 17:1% …)") in out
    t.act(t.b)
    out = t.act(t.a, "move red guard to ford", "roll 7d6>=4")
    assert "  odds: 7d6>=4: expect 3.5 successes (0:1% 1:5% 2:16% 3:27% 4:27% 5:16% 6:5% 7:1%)" in out
    assert out.count("odds:") == 1  # a move has none


def test_hill60_and_barrage_choices_show_their_odds_in_play_and_the_report(tmp_path, runner):
    from tests.conftest import Duel

    d = Duel(tmp_path, runner)  # barrage: red fires six dice hitting on 5+, the only legal choice
    signed = d.run(d.alice, "play", "fire", "--campaign", d.alice.dir).output
    assert "signed turn file #2" in signed  # the label's first words still name it, though it is taken alone
    assert "taken for you, as the only legal choice: fire 6 dice — 6 dice at 5+: expect 2 hits " \
           "(0:9% 1:26% 2:33% 3:22% 4:8% 5:2% 6:<1%)" in signed  # its odds, as it is signed
    assert "were not used" not in signed
    from pbem_engine.registry import get_game

    hill = get_game("hill60")
    state = hill.setup("standard", {})
    labels = [c.label for c in hill.playable(state, hill.prompt(state), {}).choices]
    assert any(label.startswith("assault Hill 60 from Kabak Kuyu — your fire: 3 dice at 6+") for label in labels)
    assert [c.action for c in hill.playable(state, hill.prompt(state), {}).choices] == \
        [c.action for c in hill.prompt(state).choices]  # display only: the same actions
