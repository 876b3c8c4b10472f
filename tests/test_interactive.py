"""Interactive play: 'help', the game's own hints only, and Ctrl-D keeps the draft."""

from __future__ import annotations

from tests.conftest import pbem
from tests.games.gallipoli_blocks.test_cli import game  # noqa: F401  (the fixture)


def test_help_and_ctrl_d_keep_the_draft_and_show_no_table_top_hints(game):  # noqa: F811
    runner, alice, bob = game
    # an order, then 'help', then end of input (Ctrl-D): the order stays drafted
    out = pbem(runner, "play", "--interactive", "--campaign", bob.dir, env=bob.env,
               input="deploy 25th 4 krithia\nhelp\n").output
    assert "any unambiguous part of the names" in out  # the help
    assert "move PIECE to LOCATION" not in out  # table-top hints belong to table-top mode
    assert "1 action(s) drafted" in out
    status = pbem(runner, "status", "--campaign", bob.dir, env=bob.env).output
    assert "1 drafted action(s) not yet signed" in status
