"""What pbem prints is in words: no [[token]], no {'$hide': ...}, no JSON in play, undo, status
or an error, in the block game where every deployment is a hidden choice."""

from __future__ import annotations

import re

from tests.conftest import invoke, pbem
from tests.games.gallipoli_blocks.test_cli import game  # noqa: F401  (the fixture)

INTERNAL = re.compile(r"\[\[|\$hide|\{'|\{\"|[0-9a-f]{32}")


def _clean(text: str) -> None:
    leak = INTERNAL.search(text)
    assert not leak, f"internal data printed: {text[max(0, leak.start() - 60):leak.end() + 60]!r}"


def test_play_undo_status_and_errors_print_words_only(game):  # noqa: F811
    runner, alice, bob = game
    drafted = pbem(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", "deploy dummy gully ravine",
                   env=bob.env).output
    _clean(drafted)
    taken = pbem(runner, "undo", "--campaign", bob.dir, env=bob.env).output
    _clean(taken)
    assert "took back: ottoman deploys" in taken and "Gully Ravine" in taken and "1 drafted action(s) remain" in taken
    status = pbem(runner, "status", "--campaign", bob.dir, env=bob.env).output
    _clean(re.sub(r"game [0-9a-f]{32}", "game ID", status))  # the game id is the one hex shown
    refused = invoke(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", env=bob.env)
    assert refused.exit_code == 1
    _clean(refused.output)


def test_the_owners_tool_refuses_a_set_up_over_the_quota_naming_the_rule(game):  # noqa: F811
    from tests.conftest import assert_refused, db_bytes

    runner, alice, bob = game
    before = db_bytes(bob.dir)
    over = invoke(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", "deploy 26th 4 achi baba",
                  "deploy 27th 4 sedd el bahr", env=bob.env)
    assert_refused(over)
    assert "6.1: at most 9 steps in the Southern Region: 8 deployed, 4 more would make 12" in over.stderr
    assert db_bytes(bob.dir) == before
    # within the quota, dummies free: signed
    ok = pbem(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", "deploy 26th 4 achi baba",
              "deploy dummy sedd el bahr", "deploy 57th 3 kilia liman", "done", env=bob.env).output
    assert "signed turn file" in ok


def test_the_deploy_prompt_lists_the_blocks_and_spaces_one_may_name(game):  # noqa: F811
    runner, alice, bob = game
    listed = pbem(runner, "play", "--campaign", bob.dir, env=bob.env).output
    assert "Blocks you may deploy: " in listed and "9th Div / 25th Rgt" in listed and "spaces: " in listed
    assert "Krithia" in listed.split("spaces: ")[1]
    pbem(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", env=bob.env)
    again = pbem(runner, "play", "--campaign", bob.dir, env=bob.env).output
    names = again.split("Blocks you may deploy: ")[1].split(";")[0]
    assert "25th Rgt" not in names and "26th Rgt" in names  # the one deployed is no longer offered
    assert "move PIECE to LOCATION" not in again  # no table-top hints in the block game


def test_the_side_is_named_once_before_its_prompt(game):  # noqa: F811
    runner, alice, bob = game
    listed = pbem(runner, "play", "--campaign", bob.dir, env=bob.env).output
    assert "ottoman: ottoman:" not in listed and listed.startswith("ottoman: deploy concealed blocks")
