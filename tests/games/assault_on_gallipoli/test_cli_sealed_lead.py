"""The lead sealed with a match through the command line, two players in their own homes
(initiative.py): the matcher picks, by the numbers `pbem play` prints, his match with a sealed
lead, then the lead; the file the other side receives names no card of it; when his roll wins the
initiative his next `pbem play` asks him nothing and leads it."""

from __future__ import annotations

import re

from pbem.commands.demo import policy
from pbem.play.campaign import Campaign
from pbem.play.turns import ahead
from pbem.wire.keys import KeyStore
from tests.conftest import pbem, sent, two_homes


def number(listing: str, text: str, avoid: str = "if it is") -> str:
    """The number `pbem play` prints before the first choice holding ``text`` and not ``avoid`` (a
    card as itself, not one offered in case it is a Reserve Trench)."""
    m = re.search(rf"^\s*(\d+)\. (?![^\n]*{avoid})[^\n]*{re.escape(text)}", listing, re.M)
    assert m, listing
    return m.group(1)


def test_a_matcher_seals_his_lead_by_the_numbers_and_his_tool_leads_it(tmp_path, runner, home):
    alice, bob = two_homes(runner, tmp_path, "assault-on-gallipoli", ("anzac", "turkish"),
                           "--scenario", "turkish-counter-attack", "--option", "turns=1")
    players = {"anzac": alice, "turkish": bob}
    keys = {s: KeyStore(p.home).load(p.name) for s, p in players.items()}
    camps = {s: Campaign.open(p.dir) for s, p in players.items()}
    try:  # the game's own players up to a match that rolls for the initiative
        for _ in range(400):
            side = camps["anzac"].waiting()["side"]
            match, prompt, _ = ahead(camps[side])
            if prompt.side == side and any(c.action.get("seal") for c in prompt.choices):
                break
            result = camps[side].play(keys[side], [], policy(camps[side]))
            camps["turkish" if side == "anzac" else "anzac"].ingest([("f", result.envelope.raw)])
        else:
            raise AssertionError("no match in 400 turn files")
    finally:
        for c in camps.values():
            c.ledger.close()
    me, them = players[side], players["turkish" if side == "anzac" else "anzac"]
    listing = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    drafted = pbem(runner, "play", number(listing, "and seal your lead"), "--campaign", me.dir, env=me.env).output
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
