"""Table talk on the play page (pbem serve) in a real browser: a player says something to the table
and tells the other side something sealed, from the page; both ride in the turn file he signs
there, the sealed words unreadable in its bytes; the other player's page shows both, the sealed
one opened with his own key. Skipped, saying why, where chromium or Playwright cannot be had."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.wire.armor import find_blocks
from tests.conftest import hill60_pair, pbem
from tests.test_serve_browser import Player, identity_of

PUBLIC, SEALED = "good luck at Hill 60", "watch the Kabak Kuyu wells"


def test_a_player_talks_from_the_page_and_the_other_reads_it_on_his(chromium, tmp_path):
    runner = CliRunner()
    alice, bob = hill60_pair(runner, tmp_path)
    page = Player(chromium, "alice", alice.dir, identity_of(alice), tmp_path)
    try:
        assert page.page.inner_text("#talk").startswith("Table talk")
        assert "Nothing said yet." in page.page.inner_text("#talk")
        options = page.page.eval_on_selector_all("#talk-to option", "os => os.map(o => o.textContent)")
        assert options == ["to everyone", "to ottoman alone (sealed)"]

        page.page.fill("#talk-text", PUBLIC)
        page.click("#talk-form button[type=submit]")
        page.page.select_option("#talk-to", "ottoman")
        page.page.fill("#talk-text", SEALED)
        page.click("#talk-form button[type=submit]")
        waiting = page.page.inner_text("#talk .waiting-talk")
        assert f"say: {PUBLIC}" in waiting and f"to ottoman (sealed): {SEALED}" in waiting
        assert "your next turn file carries it, for ottoman alone (sealed)" in page.page.inner_text("#messages")

        page.click("#choices li:last-child button.choice")  # end turn: signs the file (the page asks first)
        assert page.page.locator("#talk .waiting-talk").count() == 0  # gone with the file
        said = page.page.inner_text("#talk ol.said")
        assert f"allied says: {PUBLIC}" in said and f"allied to ottoman (sealed): {SEALED}" in said
    finally:
        page.close()

    turn = max((alice.dir / "sent").glob("*-turn.pbem"))
    payload = find_blocks(turn.read_text())[0].payload  # the signed JSON, out of its armor
    assert PUBLIC.encode() in payload and SEALED.encode() not in payload  # sealed: not in the file's bytes
    assert SEALED.encode() not in turn.read_bytes()
    pbem(runner, "ingest", "--campaign", bob.dir, turn, env=bob.env)

    other = Player(chromium, "bob", bob.dir, identity_of(bob), tmp_path)
    try:
        said = other.page.inner_text("#talk ol.said")
        assert f"allied says: {PUBLIC}" in said
        assert f"allied to ottoman (sealed): {SEALED}" in said  # opened with bob's key by the page
        box = other.page.eval_on_selector("#talk", "e => e.getBoundingClientRect().width")
        assert box > 200
    finally:
        other.close()
