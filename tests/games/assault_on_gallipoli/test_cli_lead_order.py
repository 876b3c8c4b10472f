"""The lead order through the command line, two players in their own homes (leadorder.py): a
player seals it by the numbers `pbem play` prints, in a Round; the file his opponent receives names
none of its cards; when he comes to lead in a close combat, `pbem status` tells him nothing waits
for him and a bare `pbem play` draws and leads by it (his, or the other side's: the game's own
player seals one too, and which side leads first depends on the game's random course)."""

from __future__ import annotations

from pbem_engine.games.assault_on_gallipoli import board, closecombat
from tests.conftest import pbem, sent, two_homes
from tests.games.assault_on_gallipoli.two_players import number, play_until


def test_a_player_seals_his_lead_order_by_the_numbers_and_his_tool_leads_by_it(tmp_path, runner, home):
    alice, bob = two_homes(runner, tmp_path, "assault-on-gallipoli", ("anzac", "turkish"),
                           "--scenario", "turkish-counter-attack", "--option", "turns=3")
    players = {"anzac": alice, "turkish": bob}

    def offered(side, state, after, prompt, ours):  # to a side attacking a contested area: it leads there (10.4.1)
        return prompt.side == side and any(c.action == {"do": "leads"} for c in prompt.choices) and any(
            board.controller(state, a) not in (None, side) for a in closecombat.pending(state, []))
    side = play_until(players, offered)
    me, them = players[side], players["turkish" if side == "anzac" else "anzac"]
    listing = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    drafted = pbem(runner, "play", number(listing, "seal a lead order"), "--campaign", me.dir, env=me.env).output
    assert "drafted, not yet signed" in drafted, drafted
    listing = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    assert "lead the rarest card first" in listing and "no lead order: decide each lead" in listing, listing
    drafted = pbem(runner, "play", number(listing, "lead the rarest card first"), "--campaign", me.dir,
                   env=me.env).output
    assert "drafted, not yet signed" in drafted, drafted  # the Round is still his to decide
    listing = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    assert "seal a lead order" not in listing, listing
    played = pbem(runner, "play", number(listing, "pass"), "--campaign", me.dir, env=me.env).output
    assert "seals a lead order for this turn's close combats" in played, played
    payload = sent(me).read_bytes()
    assert b"creeping-barrage" not in payload and b"reserve-trench:" not in payload  # a token, no card
    pbem(runner, "ingest", "--campaign", them.dir, sent(me), env=them.env)


    def leads(s, before, after, prompt, ours):  # its tool alone would lead a card, by a lead order (his, or
        sealed_lead = any(isinstance(f.get("plan"), dict) and f["plan"].get("side") == s  # one the game's player
                          for f in before["frames"])  # sealed), not a lead sealed with a match (initiative.py)
        return (not ours and s in before.get("leadorders", {}) and not sealed_lead
                and len(after["ccdeck"][s]["table"]) > len(before["ccdeck"][s]["table"]))
    leader = play_until(players, leads)
    me = players[leader]
    status = pbem(runner, "status", "--campaign", me.dir, env=me.env).output
    assert "nothing to decide" in status, status
    played = pbem(runner, "play", "--campaign", me.dir, env=me.env).output
    assert "leads by its sealed lead order" in played, played
    assert "taken for you, by an order you sealed earlier" in played, played
