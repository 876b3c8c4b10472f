"""pbem serve end to end in a real browser (Debian's headless chromium, driven by Playwright):
two servers on loopback, one per player, play the block game by clicks on their pages, from
the set-up through the first game turn's files; every turn file goes from one page to the other
as a download and a file dropped on the page; both campaigns then pass ``pbem verify``.

Skipped, with the reason shown, where chromium or Playwright cannot be had (``.ci/run``
installs chromium best effort; Playwright comes with the test extras and never downloads a
browser of its own here).  Set PBEM_SCREENSHOTS=DIR to keep a screenshot of each page.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from click.testing import CliRunner

from tests.conftest import pbem

STALE = "document.getElementById('live').dataset.stale = '1'"
SETTLED = ("() => !document.body.classList.contains('busy') && (!document.getElementById('live').dataset.stale"
           " || !document.getElementById('confirm').hidden)")


class Player:
    """One player's browser on its own pbem serve."""

    def __init__(self, chromium, name: str, campaign: Path, identity, root: Path) -> None:
        from pbem.web.serve import Server
        from pbem.web.serve_game import Seat

        self.name = name
        self.server = Server(Seat(campaign, identity)).start()
        self.context = chromium.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.server.url)  # the printed link: its token becomes a cookie
        assert "?token=" not in self.page.url
        self.root = root

    def close(self) -> None:
        self.context.close()
        self.server.stop()

    # -- waiting for the page ----------------------------------------------------------------
    def _after(self, action) -> None:
        """Do ``action`` (a click...) and wait until the page has its answer and has redrawn;
        sign when it asks to (the dialog's own button)."""
        page = self.page
        page.evaluate(STALE)
        action()
        page.wait_for_function(SETTLED, timeout=60_000)
        if page.is_visible("#confirm"):
            assert "cannot be taken back" in page.inner_text("#confirm-text")
            page.evaluate(STALE)
            page.click("#confirm-yes")
            page.wait_for_function(SETTLED, timeout=60_000)
        refusal = page.query_selector("#messages.refusal")
        assert refusal is None, f"{self.name}: {refusal.inner_text()}"
        assert not self.errors, self.errors

    def click(self, selector: str) -> None:
        self._after(lambda: self.page.click(selector))

    def choice(self, label: str) -> None:
        button = self.page.locator("#choices button.choice", has_text=label).first
        self._after(button.click)

    def labels(self) -> list[str]:
        return self.page.eval_on_selector_all("#choices button.choice", "bs => bs.map(b => b.dataset.label)")

    def mine(self) -> bool:
        return self.page.get_attribute("#decision", "data-mine") == "yes"

    def signed(self) -> bool:
        return self.page.locator("#ready a[href^='/download/sent/']").count() > 0 and not self.mine()

    # -- files page to page ----------------------------------------------------------------------
    def download(self) -> Path:
        """The turn file the page has ready, saved by the browser."""
        with self.page.expect_download() as got:
            self.page.click("#ready a[href^='/download/sent/']")
        path = self.root / f"from-{self.name}-{got.value.suggested_filename}"
        got.value.save_as(path)
        return path

    def drop(self, path: Path) -> None:
        """Drop a file on the page, as a player drags it from a folder."""
        def action() -> None:
            data = self.page.evaluate_handle(
                "([name, text]) => { const dt = new DataTransfer(); "
                "dt.items.add(new File([text], name, {type: 'text/plain'})); return dt; }",
                [path.name, path.read_text()])
            self.page.dispatch_event("body", "drop", {"dataTransfer": data})

        self._after(action)
        assert re.search(r"accepted #\d+ from", self.page.inner_text("#messages")), self.page.inner_text("#messages")

    def choose_file(self, path: Path) -> None:
        self._after(lambda: self.page.set_input_files("#file", str(path)))
        assert re.search(r"accepted #\d+ from", self.page.inner_text("#messages"))

    def shot(self, name: str) -> None:
        folder = os.environ.get("PBEM_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(folder) / f"serve-{name}.png"), full_page=False)


PREFERRED = ("no response", "no bombardment", "no entrenchment", "no more", "no battle event", "done moving",
             "end operations", "draw up to", "lead strongest", "reveal", "bring them in", "apply supply",
             "open concealed", "fire", "hit ")


def play_on(player: Player) -> None:
    """Clicks until this player's decision passes and the file is signed: the sign button when
    that is all there is, else a sensible choice (decline, end, draw), else the first one."""
    for _ in range(40):
        if player.signed():
            return
        if player.page.is_visible("#send"):
            player.click("#send")
            continue
        labels = player.labels()
        assert labels, player.page.inner_text("#decision")
        pick = next((label for word in PREFERRED for label in labels if label.lower().startswith(word)), labels[0])
        player.choice(pick)
    raise AssertionError(f"{player.name} did not sign")


def test_two_players_play_the_block_game_by_clicks_and_both_campaigns_verify(chromium, tmp_path):
    from pbem.play.campaign import Campaign
    from tests.test_golden import identity
    from tests.test_golden_blocks import entropy

    # the golden game's keys and randomness: the same hands and dice on every run
    keys = {"alice": identity("alice"), "bob": identity("bob")}
    a, genesis = Campaign.new(tmp_path / "alice", "gallipoli-blocks", "allied", keys["alice"], keys["bob"].public,
                              keys["bob"].name, None, {"turns": 2}, entropy=entropy("alice"))
    b, _joined = Campaign.join(tmp_path / "bob", genesis.raw, keys["bob"], entropy=entropy("bob"))
    a.close()
    b.close()
    alice = Player(chromium, "alice", tmp_path / "alice", keys["alice"], tmp_path)
    bob = Player(chromium, "bob", tmp_path / "bob", keys["bob"], tmp_path)
    try:
        # bob's join, chosen with the page's file button; alice's opening reveal, one click
        alice.choose_file(next((tmp_path / "bob" / "sent").glob("*join.pbem")))
        assert alice.mine() and alice.page.is_visible("#send")
        alice.click("#send")
        assert alice.signed()
        bob.drop(alice.download())

        # the Ottoman set-up: orders filled in by clicking the map, one typed, one taken back
        assert bob.mine() and "deploy BLOCK STEPS SPACE" in bob.page.inner_text("#decision")
        bob.page.click("button.template[data-template='deploy dummy SPACE']")
        bob.page.click("#map g.loc[data-id='gully-ravine']")
        assert bob.page.input_value("#order") == "deploy dummy Gully Ravine"
        bob.click("#orders button[type=submit]")
        assert "Your draft (1 action" in bob.page.inner_text("#draft")
        assert bob.page.locator("#map g.piece[data-at='gully-ravine']").count() == 1  # the draft, on the map
        bob.click("#undo")
        assert bob.page.locator("#draft").count() == 0
        assert bob.page.locator("#map g.piece[data-at='gully-ravine']").count() == 0
        for space in ("gully-ravine", "alexi"):
            bob.page.click("button.template[data-template='deploy dummy SPACE']")
            bob.page.click(f"#map g.loc[data-id='{space}']")
            bob.click("#orders button[type=submit]")
        bob.page.fill("#order", "deploy 25th 4 krithia")
        bob._after(lambda: bob.page.press("#order", "Enter"))
        assert "Your draft (3 actions" in bob.page.inner_text("#draft")
        bob.page.evaluate(STALE)
        bob.page.click("#choices button.choice[data-label='done']")
        bob.page.wait_for_selector("#confirm:not([hidden])")
        bob.page.click("#confirm-no")  # asked first; nothing signed
        assert "Your draft (3 actions" in bob.page.inner_text("#draft") and not bob.signed()
        bob.choice("done")
        assert bob.signed()
        alice.drop(bob.download())
        assert alice.page.locator("#map g.piece[data-at='krithia'][data-side='ottoman']").count() == 1
        assert "25th" not in alice.page.content()  # a concealed block to its enemy

        # the Allied set-up (taken by the tool: it leaves no choice), a card for OPS, a space activated
        # on the map, a block dragged on it
        ops = [label for label in alice.labels() if " for OPS" in label and "OPS 0" not in label]
        alice.choice(ops[0])
        assert "activate British HQ" in alice.labels()
        alice.page.click("#map g.loc[data-id='british-hq']")
        shown = alice.page.eval_on_selector_all("#choices li:not([hidden]) button", "bs => bs.map(b => b.dataset.label)")
        assert shown and all("British HQ" in label for label in shown), shown
        assert "activate ANZAC HQ" in alice.labels()  # still there, only not shown
        alice.page.evaluate("() => { document.querySelector('#map g.loc.selected').scrollIntoView({block: 'center', "
                            "inline: 'center'}); window.scrollTo(0, 0); }")
        alice.shot("block-game")
        alice.choice("activate British HQ")
        moves = [m for m in map(re.compile(r"^move (.+) to (.+)$").match, alice.labels()) if m]
        assert moves, alice.labels()
        block, where = moves[0].group(1), moves[0].group(2)
        piece = alice.page.locator("#map g.piece[data-at='british-hq']",
                                   has=alice.page.locator("title", has_text=block)).first
        target = alice.page.locator("#map g.loc", has=alice.page.locator("text", has_text=where)).first
        before = alice.page.locator("#draft li").count()
        alice._after(lambda: piece.drag_to(target))
        assert alice.page.locator("#draft li").count() > before  # the drag drafted that move
        assert f"to {where}" in alice.page.inner_text("#draft")
        play_on(alice)
        bob.drop(alice.download())

        # on until the first game turn is played out: the Allied player phase of turn 2 is asked
        for _ in range(12):
            if "turn 2" in alice.page.inner_text("#decision") + bob.page.inner_text("#decision"):
                break
            mover, other = (alice, bob) if alice.mine() else (bob, alice)
            play_on(mover)
            other.drop(mover.download())
        assert alice.mine() and "turn 2, allied player phase" in alice.page.inner_text("#decision")
        assert "Nothing for you to do" in bob.page.inner_text("#decision")
        bob.shot("block-game-ottoman")
        assert not alice.errors and not bob.errors
    finally:
        alice.close()
        bob.close()
    runner = CliRunner()
    for who in ("alice", "bob"):
        out = pbem(runner, "verify", tmp_path / who).output
        assert out.startswith("OK: "), out


def identity_of(player):
    from pbem.wire.keys import KeyStore

    return KeyStore(player.home).load(player.name)


def test_a_page_redraws_when_a_file_is_ingested_from_the_command_line(chromium, tmp_path):
    from tests.conftest import Duel

    duel = Duel(tmp_path, CliRunner())
    blue = Player(chromium, "bob", duel.bob.dir, duel.identity(duel.bob), tmp_path)
    try:
        assert not blue.mine() and blue.page.locator("#choices").count() == 0
        path = duel.play(duel.alice)
        duel.deliver(path, duel.bob)  # pbem ingest in a terminal, not on the page
        # blue's reveal and fire (barrage's only choice) need no person: one button signs them
        blue.page.wait_for_selector("#decision[data-mine='yes'] #send", timeout=20_000)
        assert "#2 red (turn)" in blue.page.inner_text(".story")
        assert not blue.errors
    finally:
        blue.close()


def test_table_top_a_piece_dragged_onto_a_location_moves_there(chromium, tmp_path):
    from tests.test_serve_games import two_players
    from tests.test_tabletop import MINI

    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI.replace('name = "Hill"\n', 'name = "Hill"\ncoords = [0, 0]\n')
                                                 .replace('name = "Ford"\n', 'name = "Ford"\ncoords = [2, 0]\n'))
    pages = two_players(tmp_path, "tabletop", ("red", "blue"), "--pack", str(tmp_path / "mini"))
    pages.close()
    red = Player(chromium, "alice", pages.players["red"].dir, identity_of(pages.players["red"]), tmp_path)
    try:
        piece = red.page.locator("#map g.piece[data-at='hill']", has=red.page.locator("title", has_text="Red Guard"))
        red._after(lambda: piece.drag_to(red.page.locator("#map g.loc[data-id='ford']")))
        assert "Red Guard" in red.page.inner_text("#draft") and "Ford" in red.page.inner_text("#draft")
        assert red.page.locator("#map g.piece[data-at='ford'][data-side='red']").count() == 1
        red.page.click("#map g.piece[data-at='ford'][data-side='red']")  # a piece, then a space: the same move
        red._after(lambda: red.page.click("#map g.loc[data-id='hill']"))
        assert red.page.locator("#map g.piece[data-at='hill'][data-side='red']").count() == 1
        red.click("button.template[data-template='pass']")  # an order without capitals: given at once, signed
        assert red.signed()
    finally:
        red.close()
    out = pbem(CliRunner(), "verify", pages.players["red"].dir).output
    assert out.startswith("OK: "), out

