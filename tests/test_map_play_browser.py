"""Play on the map of ``pbem serve``, in a real browser (Playwright driving Debian's chromium;
skipped, saying why, without them): the block game's Ottoman player at the decision that moves
blocks from the Ottoman HQ (reached by the demo player and the real tool, from the golden
game's keys).  On the page, at 1280 px and in phone emulation (390 px): the pieces and spaces
the legal choices name are lit and each is a click target of at least 24 CSS px; a block taken
is whole on screen (its stack open); a block, then a space, gives the one legal move naming both (the numbered list
stays); Blood on the Tigris: a unit, then a plain hex of the grid, gives 'move UNIT to HEX'; by the keyboard alone, Tab reaches a block, Enter takes it and goes on to a space it can
reach, Enter gives that order; the title says "Your move"; the turn file signed at the end holds
that move, and the campaign verifies."""

from __future__ import annotations

import hashlib
import html
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import pbem
from tests.test_map_browser import MEASURE

VIEWS = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                   "device_scale_factor": 2}}
LIT = """() => {
  const size = e => { const b = e.getBoundingClientRect(); return Math.min(b.width, b.height); };
  const shape = g => g.querySelector(':scope > polygon, :scope > circle, :scope > rect, :scope > path');
  return {pieces: [...document.querySelectorAll('#map g.piece.legal')].map(g => g.querySelector('rect.face').dataset.piece),
          spaces: [...document.querySelectorAll('#map g.loc.active')].map(g => g.dataset.id),
          pieceSize: Math.min(...[...document.querySelectorAll('#map g.piece.legal rect.face')].map(size)),
          spaceSize: Math.min(...[...document.querySelectorAll('#map g.loc.active')].map(g => size(shape(g)))),
          targets: [...document.querySelectorAll('#map g.loc.target')].map(g => g.dataset.id),
          focusable: [...document.querySelectorAll('#map g.piece, #map g.loc')].every(g => g.tabIndex === 0),
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          title: document.title};
}"""


def _entropy(party: str):
    counter = iter(range(100_000))
    return lambda n: hashlib.sha256(f"pbem/test/map-play/{party}/{next(counter)}".encode()).digest()[:n]


def _at_a_move(root: Path):
    """Both campaigns of a block game, played by the demo player until the Ottoman moves blocks
    from his HQ (several legal moves); that decision stays open. Returns (campaign dir, identity,
    {block token: [spaces]}, {Allied concealed block token: name})."""
    from pbem.commands.demo import policy
    from pbem.play.campaign import Campaign
    from tests.test_golden import identity

    alice, bob = identity("alice"), identity("bob")
    a, genesis = Campaign.new(root / "alice", "gallipoli-blocks", "allied", alice, bob.public, bob.name, None,
                              {"turns": 2}, entropy=_entropy("alice"))
    b, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=_entropy("bob"))
    a.ingest([("join", joined.raw)])
    camps, who = {"allied": a, "ottoman": b}, {"allied": alice, "ottoman": bob}
    moves: dict[str, list[str]] = {}

    def ask_for(camp):
        demo = policy(camp)

        def ask(prompt, events, rolls, refusal):
            found = [c.action for c in prompt.choices if c.action.get("do") == "move" and "block" in c.action]
            if camp.side == "ottoman" and len(found) > 1:
                for action in found:
                    moves.setdefault(action["block"], []).append(action["to"])
                return None  # stop here: the draft so far is kept, the decision is the page's
            return demo(prompt, events, rolls, refusal)
        return ask

    try:
        for _ in range(60):
            side = a.waiting()["side"]
            result = camps[side].play(who[side], [], ask_for(camps[side]))
            if result.envelope is None:
                assert side == "ottoman" and moves
                return root / "bob", bob, moves, _concealed_allied(a)
            camps["ottoman" if side == "allied" else "allied"].ingest([("x", result.envelope.raw)])
        raise AssertionError("the Ottoman never moved blocks from his HQ")
    finally:
        a.close()
        b.close()


def _concealed_allied(camp) -> dict[str, str]:
    """The Allied blocks concealed from the Ottoman now: token -> name (as alice's tool knows it)."""
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    match = camp.ledger.state(camp.ledger.head()[0])[1]
    known = camp.knowledge(match)
    return {t: BLOCKS[known[t].split(":")[0]][0] for t, b in match["game"]["blocks"].items()
            if b["army"] == "allied" and b["id"] is None and t in known and known[t].split(":")[0] in BLOCKS}


class Page:
    """The Ottoman player's pbem serve, in a browser of the given view."""

    def __init__(self, chromium, campaign: Path, identity, view: str) -> None:
        from pbem.web.serve import Server
        from pbem.web.serve_game import Seat

        self.server = Server(Seat(campaign, identity)).start()
        self.context = chromium.new_context(accept_downloads=True, **VIEWS[view])
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.server.url)

    def close(self) -> None:
        self.context.close()
        self.server.stop()

    def settle(self, action) -> None:
        """``action``, then wait for the page's answer and redraw (the serve tests' way)."""
        from tests.test_serve_browser import SETTLED, STALE

        self.page.evaluate(STALE)
        action()
        self.page.wait_for_function(SETTLED, timeout=60_000)
        refusal = self.page.query_selector("#messages.refusal")
        assert refusal is None, refusal.inner_text()

    def shown(self, selector: str):
        """The element, panned into the map's view first (as a player pans to it)."""
        self.page.eval_on_selector(selector, "e => e.scrollIntoView({block: 'center', inline: 'center'})")
        return self.page.locator(selector)

    def drafted(self) -> str:
        return self.page.inner_text("#draft") if self.page.locator("#draft").count() else ""


def _name(space: str) -> str:
    from pbem_engine.games.gallipoli_blocks.data import SPACES

    return SPACES[space][0]


def _signed_moves(page: Page, campaign: Path) -> list[dict]:
    """Play on by clicks to the signed turn file; the moves it holds, read from the file."""
    from pbem.wire.armor import find_blocks
    from pbem.wire.envelope import open_block
    from tests.test_serve_browser import Player, play_on

    player = Player.__new__(Player)  # the serve tests' clicking player, on this page
    player.name, player.page, player.errors, player.root = "bob", page.page, page.errors, campaign.parent
    play_on(player)
    path = player.download()
    env = open_block(find_blocks(path.read_text())[0])
    return [a for a in env.content["body"]["actions"] if a.get("do") == "move"]


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_a_block_then_a_space_by_clicks_gives_that_legal_move(chromium, tmp_path, view):
    campaign, identity, moves, hidden = _at_a_move(tmp_path)
    page = Page(chromium, campaign, identity, view)
    try:
        svg = page.page.inner_html("#map")  # the enemy's concealed blocks: neither their tokens nor their names
        assert hidden and not [t for t in hidden if t in page.page.content()], hidden
        assert not [n for n in hidden.values() if n in svg or html.escape(n) in svg], hidden
        seen = page.page.evaluate(MEASURE)  # the play page's map reads as the report's does
        assert seen["counter"] >= 24 and seen["label"] >= 11 and seen["overlaps"] == [] and seen["hidden"] == [], seen
        got = page.page.evaluate(LIT)
        assert got["title"].startswith("Your move: "), got["title"]
        assert set(moves) <= set(got["pieces"]), (sorted(moves), got["pieces"])  # every block that may move: lit
        assert {s for ss in moves.values() for s in ss} <= set(got["spaces"])
        assert got["pieceSize"] >= 24 and got["spaceSize"] >= 24, got
        assert got["focusable"] and got["overflow"] <= 0, got
        listed = page.page.locator("#choices button.choice").count()
        token = next(t for t in sorted(moves) if len(moves[t]) > 1)
        block = page.shown(f"#map g.piece:has(> rect.face[data-piece='{token}'])")
        block.click()  # taken; its stack, if it is one, opens into whole counters (a click beside it closes it)
        assert "selected" in block.get_attribute("class")
        if page.page.locator(f"#map g.piece[data-at='{block.get_attribute('data-at')}']").count() > 1:
            opened = page.page.eval_on_selector_all("#map g.piece.opened rect.face",
                                                    "rs => rs.map(r => r.getBoundingClientRect())")
            assert opened and min(min(b["width"], b["height"]) for b in opened) >= 24
        on_top = page.page.evaluate("t => { const g = document.querySelector(`#map g.piece:has(> rect.face[data-piece='${t}'])`); "
                                    "const b = g.querySelector('rect.face').getBoundingClientRect(); "
                                    "return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).closest('g.piece') === g; }",
                                    token)
        assert on_top  # nothing hides the block taken
        if os.environ.get("PBEM_SCREENSHOTS"):  # the README's picture: a block taken, where it can go lit
            page.page.evaluate("window.scrollTo(0, 0)")
            page.page.screenshot(path=str(Path(os.environ["PBEM_SCREENSHOTS"]) / f"serve-play-on-the-map-{view}.png"))
        targets = page.page.evaluate(LIT)["targets"]
        assert sorted(targets) == sorted(set(moves[token])), (targets, moves[token])
        shown = page.page.eval_on_selector_all("#choices li:not([hidden]) button", "bs => bs.map(b => b.dataset.label)")
        assert len(shown) == len(moves[token]) and all(label.startswith("move ") for label in shown), shown
        where = moves[token][-1]
        space = page.shown(f"#map g.loc[data-id='{where}']")
        page.settle(space.click)
        assert f"to {_name(where)}" in page.drafted(), page.drafted()
        assert page.page.locator("#choices button.choice").count() > 0 and listed > 0  # the list stays
        assert not page.errors, page.errors
        signed = _signed_moves(page, campaign)
    finally:
        page.close()
    assert {"do": "move", "block": token, "to": where} in signed, signed
    out = pbem(CliRunner(), "verify", campaign).output
    assert out.startswith("OK: "), out


def test_a_block_and_a_space_reached_by_the_keyboard_give_the_order(chromium, tmp_path):
    campaign, identity, moves, _ = _at_a_move(tmp_path)
    page = Page(chromium, campaign, identity, "desktop")
    active = "() => { const a = document.activeElement; return a && a.closest ? " \
             "[a.getAttribute('class') || a.tagName, (a.querySelector(':scope > rect.face') || a).dataset.piece || a.dataset.id || ''] : null; }"
    try:
        page.page.focus("#order")  # from the order box, backwards through the map
        for _ in range(400):
            page.page.keyboard.press("Shift+Tab")
            cls, ident = page.page.evaluate(active)
            if "piece" in cls and ident in moves and len(moves[ident]) > 1:
                break
        else:
            raise AssertionError("Tab never reached a block that can move")
        token = ident
        page.page.keyboard.press("Enter")  # taken: the focus goes on to a space it can reach
        cls, where = page.page.evaluate(active)
        assert "loc" in cls and "target" in cls and where in moves[token], (cls, where, moves[token])
        page.page.keyboard.press("Tab")  # another place lit for it, and back
        page.page.keyboard.press("Shift+Tab")
        assert page.page.evaluate(active)[1] == where
        page.settle(lambda: page.page.keyboard.press("Enter"))
        assert f"to {_name(where)}" in page.drafted(), page.drafted()
        assert not page.errors, page.errors
        signed = _signed_moves(page, campaign)
    finally:
        page.close()
    assert {"do": "move", "block": token, "to": where} in signed, signed


def _tigris_movement(root: Path):
    """Blood on the Tigris played by the demo player to the first movement phase whose orders are
    typed ('move UNIT to HEX'); that decision stays open.  Returns (campaign dir, identity, side)."""
    from pbem.commands.demo import policy
    from pbem.play.campaign import Campaign
    from tests.test_golden import identity

    alice, bob = identity("alice"), identity("bob")
    a, genesis = Campaign.new(root / "alice", "blood-on-the-tigris", "british", alice, bob.public, bob.name, None,
                              {}, entropy=_entropy("tigris-alice"))
    b, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=_entropy("tigris-bob"))
    a.ingest([("join", joined.raw)])
    camps, who, dirs = {"british": a, "turkish": b}, {"british": alice, "turkish": bob}, {"british": "alice",
                                                                                            "turkish": "bob"}
    try:
        for _ in range(40):
            side = a.waiting()["side"]
            demo = policy(camps[side])
            result = camps[side].play(who[side], [], lambda p, e, r, f: None if p.free and "'move UNIT to HEX'" in p.text
                                      else demo(p, e, r, f))
            if result.envelope is None:
                return root / dirs[side], who[side], side
            camps["turkish" if side == "british" else "british"].ingest([("x", result.envelope.raw)])
        raise AssertionError("no movement phase")
    finally:
        a.close()
        b.close()


def test_blood_on_the_tigris_a_unit_then_a_plain_hex_gives_the_move_order(chromium, tmp_path):
    """A hex map: a unit clicked, then a hex no location names (part of the drawn grid), gives the
    order the prompt quotes, 'move UNIT to HEX', with that hex's printed number; the rules take it."""
    import shutil

    from pbem.web.serve_game import Seat
    from pbem_engine.games.blood_on_the_tigris import hexmap

    campaign, identity, side = _tigris_movement(tmp_path)
    seat = Seat(campaign, identity)
    pieces = seat.page()["map_svg"]
    mine = re.findall(rf'<g class="piece[^"]*" data-at="(\d{{4}})" data-side="{side}">[^\n]*?data-piece="([^"]+)"', pieces)
    named = set(re.findall(r'<g class="loc" data-id="(\d{4})"', pieces))
    legal = None
    for at, unit in mine:  # a move the rules allow, to a hex no location draws, found on a copy of the campaign
        for to in sorted(set(hexmap.neighbours(at)) - named):
            trial = tmp_path / "trial"
            shutil.rmtree(trial, ignore_errors=True)
            shutil.copytree(campaign, trial)
            try:
                Seat(trial, identity).choose(f"move {unit} to {to}")
            except Exception:  # noqa: BLE001 - an illegal move: try the next
                continue
            legal = (at, unit, to)
            break
        if legal:
            break
    assert legal, mine
    at, unit, to = legal
    page = Page(chromium, campaign, identity, "desktop")
    try:
        assert page.page.title().startswith("Your move: ")
        page.shown(f"#map g.piece:has(> rect.face[data-piece='{unit}'])").click()
        c, r = hexmap.col_row(to)
        point = page.page.evaluate("""([c, r]) => {  // the hex's centre on screen, from its column of the grid
          const svg = document.querySelector('#map svg.pbem-map'), grid = svg.querySelector('g.hexgrid');
          const col = [...grid.querySelectorAll('use.hexcol')].find(u => Number(u.dataset.c) === c);
          const i = (r - Number(col.dataset.r)) / Number(grid.dataset.dr);
          const p = svg.createSVGPoint(); p.x = Number(col.getAttribute('x')); p.y = Number(col.getAttribute('y')) + i * Number(grid.dataset.h);
          const view = document.querySelector('#map .mapview'), vb = view.getBoundingClientRect();
          let s = p.matrixTransform(svg.getScreenCTM());  // panned to the middle of the map's view, as a player pans
          view.scrollLeft += s.x - (vb.left + vb.width / 2); view.scrollTop += s.y - (vb.top + vb.height / 2);
          // a visible part of the hex, as a player clicks it (the unit's open stack may cover some of it)
          for (const [dx, dy] of [[0, 0], [0, 16], [0, -16], [16, 8], [-16, 8], [16, -8], [-16, -8]]) {
            const q = svg.createSVGPoint(); q.x = p.x + dx; q.y = p.y + dy;
            s = q.matrixTransform(svg.getScreenCTM());
            const e = document.elementFromPoint(s.x, s.y);
            if (e && !e.closest('g.piece, rect.stackbox, g.marker')) return [s.x, s.y];
          }
          return null;
        }""", [c, r])
        assert point, "the hex is covered"
        page.settle(lambda: page.page.mouse.click(point[0], point[1]))
        assert to in page.drafted() or to in page.page.inner_text("#draft"), page.drafted()
        assert not page.errors, page.errors
    finally:
        page.close()


def _assault_go_to(root: Path):
    """Assault on Gallipoli played by the demo player until a side moving a group may choose where
    it goes ('go to AREA'); that decision stays open.  Returns (campaign dir, identity, the areas,
    the side)."""
    from pbem.commands.demo import policy
    from pbem.play.campaign import Campaign
    from tests.test_golden import identity

    alice, bob = identity("alice"), identity("bob")
    a, genesis = Campaign.new(root / "alice", "assault-on-gallipoli", "anzac", alice, bob.public, bob.name, None,
                              {}, entropy=_entropy("aog-alice"))
    b, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=_entropy("aog-bob"))
    a.ingest([("join", joined.raw)])
    camps, who, dirs = {"anzac": a, "turkish": b}, {"anzac": alice, "turkish": bob}, {"anzac": "alice", "turkish": "bob"}
    areas: list[str] = []

    def ask_for(camp):
        demo = policy(camp)

        def ask(prompt, events, rolls, refusal):
            found = [c.action["to"] for c in prompt.choices if c.action.get("do") == "go"]
            if len(found) > 1:
                areas.extend(found)
                return None
            return demo(prompt, events, rolls, refusal)
        return ask

    try:
        for _ in range(60):
            side = a.waiting()["side"]
            result = camps[side].play(who[side], [], ask_for(camps[side]))
            if result.envelope is None:
                return root / dirs[side], who[side], areas, side
            camps["turkish" if side == "anzac" else "anzac"].ingest([("x", result.envelope.raw)])
        raise AssertionError("no group moved")
    finally:
        a.close()
        b.close()


def test_assault_on_gallipoli_a_unit_of_the_moving_group_then_an_area_gives_go_to(chromium, tmp_path):
    """Areas: a unit of the moving side, then an area the group's move reaches, gives that 'go to
    AREA' (the legal order names the area, not the unit); the areas it may go to are lit."""
    from pbem_engine.games.assault_on_gallipoli.data import AREAS

    campaign, identity, areas, side = _assault_go_to(tmp_path)
    page = Page(chromium, campaign, identity, "desktop")
    try:
        got = page.page.evaluate(LIT)
        assert set(areas) <= set(got["spaces"]), (areas, got["spaces"])
        where = areas[0]
        page.shown(f"#map g.piece[data-side='{side}']").first.click()  # a unit of the side that moves
        page.settle(page.shown(f"#map g.loc[data-id='{where}']").click)
        assert AREAS[where][0] in page.drafted(), (where, page.drafted())  # the group went there
        assert not page.errors, page.errors
    finally:
        page.close()
