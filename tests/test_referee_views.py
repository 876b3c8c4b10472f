"""A player's tool insists on its own view in every referee envelope that commits to one, and a
player's verify checks every view the referee signed for him (before the disclosure too)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import assert_refused, db_bytes, invoke
from tests.test_referee import Refereed


@pytest.fixture
def game(tmp_path):
    g = Refereed(tmp_path)
    return g


def _referee_files(g: Refereed) -> dict[str, Path]:
    """The referee adjudicates once; the files it wrote for each player, not yet delivered."""
    assert g.waiting()["side"] == "referee"
    out = g.run(g.ref, "play", "--campaign", g.ref.dir).output
    return {to: Path(path) for to, path in re.findall(r"for (\w+) \(\w+\): (\S+)", out)}


def test_the_file_meant_for_the_other_player_is_refused(game):
    g = game
    files = _referee_files(g)
    before = db_bytes(g.alice.dir)
    result = invoke(g.runner, "ingest", "--campaign", g.alice.dir, files["ottoman"], env=g.alice.env)
    assert_refused(result, "missing-view")
    assert db_bytes(g.alice.dir) == before
    # the right file is accepted, and the game goes on
    g.run(g.alice, "ingest", "--campaign", g.alice.dir, files["allied"])


def test_a_damaged_view_block_refuses_the_whole_file(game):
    g = game
    files = _referee_files(g)
    text = files["allied"].read_text()
    blocks = text.split("-----BEGIN PBEM TURN-----")
    # the view is the block addressed to allied after the chain envelope: break its signature
    view = next(i for i, b in enumerate(blocks) if "Kind: view" in b)
    lines = blocks[view].splitlines()
    body = max(range(len(lines)), key=lambda i: len(lines[i]))
    lines[body] = ("B" if lines[body][0] != "B" else "C") + lines[body][1:]
    blocks[view] = "\n".join(lines) + "\n"
    damaged = files["allied"].with_name("damaged.pbem")
    damaged.write_text("-----BEGIN PBEM TURN-----".join(blocks))
    before = db_bytes(g.alice.dir)
    result = invoke(g.runner, "ingest", "--campaign", g.alice.dir, damaged, env=g.alice.env)
    assert_refused(result)
    assert db_bytes(g.alice.dir) == before


def _play_a_while(g: Refereed, steps: int = 6) -> None:
    for _ in range(steps):
        g.step()


@pytest.mark.parametrize("damage", ["garbage payload", "deleted", "another view's raw"])
def test_a_players_verify_checks_the_views_the_referee_signed(game, damage):
    g = game
    _play_a_while(g)
    ok = g.run(g.alice, "verify", g.alice.dir).output
    assert ok.startswith("OK:") and re.search(r"the [1-9]\d* views the referee signed for you checked", ok), ok
    with sqlite3.connect(g.alice.db) as c:
        rows = c.execute("select hash, seq, raw from views order by seq").fetchall()
        assert len(rows) >= 2
        if damage == "garbage payload":
            c.execute("update views set payload = 'garbage' where hash = ?", (rows[-1][0],))
        elif damage == "deleted":
            c.execute("delete from views where hash = ?", (rows[0][0],))
        else:
            c.execute("update views set raw = ? where hash = ?", (rows[0][2], rows[-1][0]))
    result = invoke(g.runner, "verify", g.alice.dir, env=g.alice.env)
    assert result.exit_code == 1 and "view" in result.output, result.output


def test_the_verify_line_inside_audit_counts_the_dice_verify_counts(tmp_path):
    g = Refereed(tmp_path)
    g.play_out()
    verified = g.run(g.alice, "verify", g.alice.dir).output
    audited = g.run(g.alice, "audit", g.alice.dir).output
    dice = re.search(r"(\d+) dice checked", verified).group(1)
    assert int(dice) > 0
    assert re.search(r"verify: OK: .* (\d+) dice checked", audited).group(1) == dice
