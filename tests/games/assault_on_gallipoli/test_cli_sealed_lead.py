"""The lead sealed with a match through the command line, two players in their own homes
(initiative.py): the matcher picks, by the numbers `pbem play` prints, his match with a sealed
lead, then the lead; the file the other side receives names no card of it; when his roll wins the
initiative his next `pbem play` asks him nothing and leads it."""

from __future__ import annotations

import re

from tests.conftest import pbem, sent, two_homes
from tests.games.assault_on_gallipoli.two_players import number, play_until


def test_a_matcher_seals_his_lead_by_the_numbers_and_his_tool_leads_it(tmp_path, runner, home):
    alice, bob = two_homes(runner, tmp_path, "assault-on-gallipoli", ("anzac", "turkish"),
                           "--scenario", "turkish-counter-attack", "--option", "turns=1")
    players = {"anzac": alice, "turkish": bob}
    side = play_until(players, lambda side, state, after, prompt, ours: prompt.side == side and any(
        c.action.get("seal") for c in prompt.choices))  # a match that rolls for the initiative
    me, them = players[side], players["turkish" if side == "anzac" else "anzac"]
    listing = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    drafted = pbem(runner, "play", number(listing, "and seal your lead", "if it is"), "--campaign", me.dir, env=me.env).output
    assert "drafted, not yet signed" in drafted, drafted
    listing = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    assert "should the roll win the initiative" in listing, listing  # his sealed lead: the leads his hand leaves
    played = pbem(runner, "play", number(listing, "should the roll win the initiative: play",
                                       "if it is|Reserve Trench"), "--campaign", me.dir,
                  env=me.env).output
    assert "seals the card it leads should its roll win the initiative" in played, played
    pbem(runner, "ingest", "--campaign", them.dir, sent(me), env=them.env)
    report = pbem(runner, "report", "--campaign", them.dir, env=them.env).output
    assert "seals the card it leads" in report and "a concealed" not in report.split("seals the card")[1][:40]
    reveal = pbem(runner, "play", "--campaign", them.dir, env=them.env).output  # his tool: the roll's reveal
    if "Give your orders" in reveal:  # the roll lost: the other side leads, its person's decision
        pbem(runner, "play", "1", "--campaign", them.dir, env=them.env)
    pbem(runner, "ingest", "--campaign", me.dir, sent(them), env=me.env)
    report = pbem(runner, "report", "--campaign", me.dir, env=me.env).output
    won = re.findall(rf"{side} rolls \d+ for the initiative, needing \d+ or less: (\w+) has it", report)
    assert won, report
    if won[-1] == side:  # his tool leads the sealed card: nothing asked of him
        assert "nothing to decide" in pbem(runner, "status", "--campaign", me.dir, env=me.env).output
        played = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
        assert "lead as sealed with your match" in played and "opens the lead it sealed" in played, played
    else:  # the roll lost: the order lapses unopened
        assert f"{side}'s sealed lead lapses: it does not have the initiative" in report
