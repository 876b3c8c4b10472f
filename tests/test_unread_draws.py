"""A draw from a deck dealt by mental poker is readable by its drawer only once the other side's
keys arrive: the drawer's own `pbem play` says so, once for the whole draw, and never calls his
own cards "concealed" as if they were the opponent's."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pbem.chain.hidden import UNREAD, show
from tests.conftest import new_player, pbem


def test_a_draw_of_own_unread_cards_is_said_once():
    class Game:
        item_name = staticmethod(str)

    text = "anzac draws 3 Action Card(s): [[deck:a:0:1|card]], [[deck:a:0:2|card]], [[deck:a:0:3|card]]"
    pending = {f"deck:a:0:{i}": UNREAD for i in (1, 2, 3)}
    assert show(text, {}, Game, pending).endswith(": 3 cards of yours (readable once your opponent's next "
                                                  "file releases their keys)")
    assert show(text, {}, Game).endswith(": a concealed card, a concealed card, a concealed card")  # the opponent


def test_the_drawer_of_assault_action_cards_is_told_when_he_can_read_them(tmp_path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "anzac"), new_player(runner, tmp_path, "bob", "turkish")

    def play(p, *orders):
        out = pbem(runner, "play", *orders, "--campaign", p.dir, env=p.env).output
        other = bob if p is alice else alice
        signed = re.search(r"signed turn file #\d+: (\S+)", out)
        if signed:
            pbem(runner, "ingest", "--campaign", other.dir, signed.group(1), env=other.env)
        return out

    pbem(runner, "new", "assault-on-gallipoli", "--as", "anzac", "--key", "alice", "--opponent", bob.pub,
         "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", next(Path(alice.dir, "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, next(Path(bob.dir, "sent").glob("*join.pbem")), env=alice.env)
    play(alice, "1")  # the shuffle
    play(bob)  # its own shuffle step
    drawn = play(alice, "1")
    assert "anzac draws 5 Action Card(s): 5 cards of yours (readable once your opponent's next file releases " \
           "their keys)" in drawn, drawn
    assert "concealed" not in drawn
    report = pbem(runner, "report", "--campaign", alice.dir, env=alice.env).output
    assert "5 cards of yours (readable once your opponent's next file releases their keys)" in " ".join(report.split())
