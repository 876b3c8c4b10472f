"""pbem serve plays every module the command line plays, through its page's HTTP interface only:
the block game (deploying in words, the draft on the map, undo, signing), Hill 60, the trench
raid, table-top mode (free orders; a move shown on the map), and a refereed game (the referee
starts and adjudicates with one click each and sees the full view).  Turn files go from one
page to the other as downloads and drops; every campaign then passes ``pbem verify``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import new_player, pbem
from tests.test_serve_http import Client, start


class Pages:
    """One served page per party (``players``: side -> Player); files delivered page to page."""

    def __init__(self, players: dict) -> None:
        self.players = players
        self.servers = {side: start(p) for side, p in players.items()}
        self.clients = {side: Client(s).login() for side, s in self.servers.items()}
        self.clicks: list[tuple[str, int]] = []  # (who signed, how many actions it took)

    def close(self) -> None:
        for server in self.servers.values():
            server.stop()

    def page(self, side: str) -> str:
        return self.clients[side].page()

    def mine(self) -> str | None:
        """The party whose page says it is its decision."""
        found = [side for side, c in self.clients.items() if 'data-mine="yes"' in c.page()]
        assert len(found) <= 1, found
        return found[0] if found else None

    def act(self, side: str, order: str | None = None) -> dict:
        """What a player does on its page: the one sign button, else ``order``, else the first choice."""
        client = self.clients[side]
        page = client.page()
        if 'id="send"' in page:
            status, out = client.post("/api/send")
            assert status == 200 and out["ok"], out
            return out
        if order is None:
            labels = re.findall(r'class="choice" data-n="\d+" data-label="([^"]*)"', page)
            assert labels, f"{side} has nothing to click:\n{page[:3000]}"
            import html

            order = html.unescape(labels[0])
        return client.choose(order)

    def deliver(self, side: str) -> list[str]:
        """The files ``side``'s page has ready, downloaded there and dropped on the others' pages."""
        client = self.clients[side]
        files = [p for p in client.ready() if p.endswith(".pbem")]
        assert files, client.page()[:2000]
        for path in files:
            status, data = client.get(f"/download/{path}")
            assert status == 200
            m = re.match(r"sent/to-([^/]+)/", path)
            if m:  # a referee's file for one player
                targets = [m.group(1)]
            elif "referee" in self.clients and side != "referee":
                targets = ["referee"]
            else:
                targets = [s for s in self.clients if s != side]
            for to in targets:
                status, out = self.clients[to].upload(Path(path).name, data)
                assert status == 200 and any(line.startswith(("accepted", "skipped")) for line in out["lines"]), out
        return files

    def turn(self, order: str | None = None) -> str:
        """Whoever's decision it is acts until it signs; its files go to the others."""
        side = self.mine()
        assert side is not None, "no page has a decision"
        for clicks in range(1, 61):
            out = self.act(side, order)
            order = None
            if out.get("signed"):
                self.deliver(side)
                self.clicks.append((side, clicks))
                return side
        raise AssertionError(f"{side} never signed")

    def verify(self) -> None:
        runner = CliRunner()
        for p in self.players.values():
            out = pbem(runner, "verify", p.dir, env=p.env).output
            assert out.startswith("OK: "), out


def two_players(root: Path, module: str, sides: tuple[str, str], *options: str) -> dict:
    runner = CliRunner()
    a, b = new_player(runner, root, "alice", sides[0]), new_player(runner, root, "bob", sides[1])
    pbem(runner, "new", module, "--as", sides[0], "--key", "alice", "--opponent", b.pub, "--campaign", a.dir,
         *options, env=a.env)
    pbem(runner, "join", next((a.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", b.dir, env=b.env)
    pages = Pages({sides[0]: a, sides[1]: b})
    pages.clients[sides[0]].upload("join.pbem", next((b.dir / "sent").glob("*join.pbem")).read_bytes())
    return pages


@pytest.fixture
def closing():
    opened: list[Pages] = []
    yield opened.append
    for pages in opened:
        pages.close()


def pieces_at(page: str, where: str) -> int:
    return len(re.findall(rf'<g class="piece" data-at="{re.escape(where)}"', page))


def test_the_block_game_deploy_draft_undo_and_sign_then_play_on(tmp_path, closing):
    pages = two_players(tmp_path, "gallipoli-blocks", ("allied", "ottoman"), "--option", "turns=2")
    closing(pages)
    assert pages.mine() == "allied" and "Send your reveal" in pages.page("allied")
    pages.turn()  # the opening reveal, one click
    bob = pages.clients["ottoman"]
    page = bob.page()
    assert "deploy BLOCK STEPS SPACE" in page and pieces_at(page, "gully-ravine") == 0
    assert not bob.choose("deploy dummy gully ravine")["signed"]
    page = bob.page()
    assert "Your draft (1 action" in page and pieces_at(page, "gully-ravine") == 1  # the map shows the draft
    status, out = bob.post("/api/undo")
    assert status == 200 and out["lines"][0].startswith("took back: ")
    assert pieces_at(bob.page(), "gully-ravine") == 0
    for order in ("deploy 25th 4 krithia", "deploy dummy gully ravine", "deploy 57th 3 kilia liman"):
        bob.choose(order)
    page = bob.page()
    assert pieces_at(page, "krithia") == 1 and "9th Div / 25th Rgt" in page
    status, out = bob.post("/api/choose", {"order": "done"})
    assert out["confirm"] and "Your draft (3 actions" in bob.page()  # asked first: still a draft
    pages.turn("done")
    alice = pages.page("allied")
    assert pieces_at(alice, "krithia") == 1 and "25th" not in alice  # a concealed block, as the rules say
    for _ in range(6):
        pages.turn()
    pages.verify()


@pytest.mark.parametrize("module", ["hill60", "raid", "barrage"])
def test_a_rules_module_by_clicks_on_its_choices(tmp_path, closing, module):
    from pbem_engine.registry import get_game

    pages = two_players(tmp_path, module, get_game(module).sides)
    closing(pages)
    for _ in range(8):
        if pages.mine() is None:
            break
        pages.turn()
    pages.verify()


def test_table_top_free_orders_and_a_move_on_the_map(tmp_path, closing):
    from tests.test_tabletop import MINI

    (tmp_path / "mini").mkdir()
    placed = MINI.replace('name = "Hill"\n', 'name = "Hill"\ncoords = [0, 0]\n').replace(
        'name = "Ford"\n', 'name = "Ford"\ncoords = [2, 0]\n')  # on a map
    (tmp_path / "mini" / "pack.toml").write_text(placed)
    pages = two_players(tmp_path, "tabletop", ("red", "blue"), "--pack", str(tmp_path / "mini"))
    closing(pages)
    red = pages.clients["red"]
    page = red.page()
    assert 'data-free="yes"' in page and "move PIECE to LOCATION" in page and pieces_at(page, "hill") >= 1
    hill = pieces_at(page, "hill")
    assert not red.choose("move red guard to ford")["signed"]
    assert pieces_at(red.page(), "ford") >= 1 and pieces_at(red.page(), "hill") == hill - 1
    assert red.choose("roll 2d6 for fire")["signed"]  # a roll waits for blue's reveal: the file goes now
    pages.deliver("red")
    assert "Send your reveal" in pages.page("blue")
    pages.turn()  # blue's reveal resolves red's roll
    assert re.search(r"red rolls 2d6 for fire: \d \d = \d+", pages.page("red"))
    pages.turn("pass")  # red hands over
    assert pages.mine() == "blue"
    pages.verify()


def test_a_refereed_game_the_referee_starts_and_adjudicates_with_one_click(tmp_path, closing):
    runner = CliRunner()
    ref, alice, bob = (new_player(runner, tmp_path, name, side) for name, side in
                       (("ref", "referee"), ("alice", "allied"), ("bob", "ottoman")))
    pbem(runner, "new", "hill60", "--referee", "--key", "ref", "--player", f"allied={alice.pub}",
         "--player", f"ottoman={bob.pub}", "--campaign", ref.dir, env=ref.env)
    invitation = next((ref.dir / "sent").glob("*genesis.pbem"))
    for p in (alice, bob):
        pbem(runner, "join", invitation, "--key", p.name, "--campaign", p.dir, env=p.env)
    pages = Pages({"referee": ref, "allied": alice, "ottoman": bob})
    for p in (alice, bob):  # the joins, dropped on the referee's page
        pages.clients["referee"].upload("join.pbem", next((p.dir / "sent").glob("*join.pbem")).read_bytes())
    closing(pages)
    assert pages.mine() == "referee" and "Start the game" in pages.page("referee")
    pages.turn()
    assert "Susuk Kuyu" in pages.page("referee")  # the situation, from the full state
    for _ in range(6):
        pages.turn()
    sides = [side for side, _ in pages.clicks]
    assert sides.count("referee") >= 2 and {"allied", "ottoman"} & set(sides)
    assert all(n == 1 for side, n in pages.clicks if side == "referee")  # start, adjudicate: one click each
    pages.verify()


def test_the_page_knows_when_the_campaign_changes_on_disk(tmp_path, closing):
    pages = two_players(tmp_path, "barrage", ("red", "blue"))
    closing(pages)
    runner = CliRunner()
    alice, bob = pages.players["red"], pages.players["blue"]
    blue = pages.clients["blue"]
    before = blue.get("/api/version")[1]
    assert 'data-mine="no"' in blue.page()
    out = pbem(runner, "play", "1", "--campaign", alice.dir, env=alice.env).output
    path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
    pbem(runner, "ingest", "--campaign", bob.dir, path, env=bob.env)  # from the command line, not the page
    assert blue.get("/api/version")[1] != before
    assert 'data-mine="yes"' in blue.page()
