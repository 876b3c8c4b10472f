"""Refereed play of games with hidden items (issue 16): the block game and Trench Raid with a
referee and two players, three databases, real files.

The referee holds every side's private secret (sealed to it in the join) and draws, hides and
opens for any side; each player's files, database and reports hold only its own view, checked
here by searching their bytes for the other side's items that the rules never opened.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pbem.play import refereeing
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block
from pbem.play.campaign import Campaign
from pbem.commands.demo import game_turn, policy
from pbem.errors import PbemError
from pbem.wire.keys import KeyStore
from pbem.view.report import render
from pbem.check.verify import verify_path
from pbem_engine.canonical import canonical_json
from pbem_engine.hidden.private import simulate
from pbem_engine.protocol.referee import forced



class Game:
    """A refereed game driven by the game's own players through Campaign (what the CLI calls)."""

    def __init__(self, root: Path, module: str = "gallipoli-blocks", options: dict | None = None,
                 joins=None) -> None:
        from pbem_engine.registry import get_game

        self.sides = sides = get_game(module).sides
        store = KeyStore(root / "home")
        self.ids = {n: store.create(n) for n in ("ref", "alice", "bob")}
        self.ref, genesis = Campaign.new_refereed(
            root / "ref", module, self.ids["ref"],
            {sides[0]: (self.ids["alice"].public, "alice"), sides[1]: (self.ids["bob"].public, "bob")},
            options=options)
        self.root, self.genesis = root, genesis
        self.camps = {"referee": self.ref}
        self.who = {"referee": self.ids["ref"], sides[0]: self.ids["alice"], sides[1]: self.ids["bob"]}
        self.dirs = {sides[0]: root / "alice", sides[1]: root / "bob"}
        for side, name in ((sides[0], "alice"), (sides[1], "bob")):
            self.camps[side], joined = Campaign.join(root / name, genesis.raw, self.ids[name])
            self.ref.ingest([(f"{name}'s join", joined.raw)])
        self.files: dict[str, list[Path]] = {s: [] for s in sides}  # every file each player received
        self.reports: dict[str, list[str]] = {s: [] for s in sides}
        self.player_files = 0
        self.orders: list[int] = []  # orders in each player file
        self.forced: list[bool] = []  # whether each player file answered a decision with nothing to choose
        self.per_turn: dict[int, int] = {}
        self.ever_opened: dict[str, set[str]] = {}
        self.checked: dict[str, int] = {}  # item-against-blob checks made for each player

    def step(self) -> str:
        side = self.ref.waiting()["side"]
        if side != "referee":  # was the decision this file answers a forced one? (the referee's view of it)
            game, state = self.ref.game, self.ref.match()["full"]["game"]
            prompt = game.prompt(state)
            fixed = getattr(game, "forced_action", lambda s, p: None)(state, prompt)
            self.forced.append(forced(prompt) or fixed is not None)
        result = self.camps[side].play(self.who[side], [], policy(self.camps[side]))
        if side == "referee":
            targets = result.paths or [result.path]
            full = self.ref.match()["full"]
            for path in targets:
                for player in self.sides:
                    if len(targets) == 1 or path.parent.name == f"to-{player}":
                        self.camps[player].ingest([(str(path), path.read_text())])
                        self.files[player].append(path)
                        if "private" in full and self.ref.outcome() is None:
                            self.check(player, opened_file(path), full)
        else:
            self.player_files += 1
            self.orders.append(len(result.drafted))
            self.ref.ingest([(str(result.path), result.path.read_text())])
        turn = game_turn(self.ref.match()["full"]["game"])
        if turn is not None:
            self.per_turn[turn] = self.per_turn.get(turn, 0) + 1
        return side

    def check(self, player: str, blobs: list[bytes], full: dict) -> None:
        """What ``player`` holds now names none of the other side's items concealed now."""
        other = next(s for s in self.sides if s != player)
        secret = concealed_now(full, other, self.ever_opened.setdefault(other, set()))
        self.checked[player] = self.checked.get(player, 0) + len(secret) * len(blobs)
        for item in sorted(secret):
            assert not any(item.encode() in b for b in blobs), f"{player} can read {other}'s concealed {item}"

    def play_out(self, reports_every: int = 0) -> None:
        for n in range(2000):
            if self.ref.waiting() is None:
                return
            if self.step() == "referee" and reports_every and n % reports_every == 0:
                full = self.ref.match()["full"]
                for side in self.sides:
                    report = render(self.camps[side], "text") + render(self.camps[side], "html")
                    self.reports[side].append(report)
                    camp = self.camps[side]
                    blobs = [report.encode()] + [without_composition(payload) for *_, payload in camp.ledger.views(side)]
                    if "private" in full and self.ref.outcome() is None:
                        self.check(side, blobs, full)
        raise AssertionError("the game did not end")


def opened_file(path: Path) -> list[bytes]:
    """What a turn file says, block by block: each signed envelope's content as JSON (a view
    block's content is its sealed box: only its player opens it, stored as a view)."""
    return [canonical_json(open_block(block).content) for block in find_blocks(path.read_text())]


def without_composition(payload: str) -> bytes:
    """A stored view, less each side's public pool composition (which blocks and cards each
    side has in all, known to both players as at the table, not which are where)."""
    view = json.loads(payload)
    for record in view.get("private", {}).values():
        record.pop("initial", None)
    return canonical_json(view)


def concealed_now(match: dict, army: str, ever_opened: set[str]) -> set[str]:
    """``army``'s items the rules have not opened to anyone so far: those of its tokens not
    yet opened, less any item opened before (a block concealed again keeps a known name).
    The referee's full state holds each side's secret and chosen items."""
    record, hidden = match["private"][army], match["hidden"][army]
    _, openings = simulate(match["game_id"], army, record, bytes.fromhex(hidden["secret"]), hidden["chosen"])
    ever_opened |= {i.partition(":")[0] for i in record["opened"].values()}
    items = {o["item"].partition(":")[0] for tok, o in openings.items() if tok not in record["opened"]}
    public = canonical_json(match["game"]).decode()  # what the rules name openly (a card's reinforcements)
    return {i for i in items - ever_opened
            if len(i) > 6 and " " not in i and len(i) != 64 and i not in public}  # not token lists


@pytest.fixture(scope="module")
def block_game(tmp_path_factory):
    game = Game(tmp_path_factory.mktemp("refereed-blocks"), options={"turns": 3})
    game.play_out(reports_every=7)
    return game


def test_the_refereed_block_game_ends_and_all_three_verify_after_the_disclosure(block_game):
    g = block_game
    assert g.ref.outcome() is not None
    for side, camp in g.camps.items():
        summary = verify_path(camp.dir).summary()
        assert summary.startswith("OK"), (side, summary)
        if side != "referee":
            assert "views you received match" in summary
    states = {Campaign.open(c.dir).ledger.head()[1] for c in g.camps.values()}
    assert len(states) == 1  # one history, the same in the three databases


def test_no_file_database_or_report_of_a_player_holds_the_other_sides_concealed_items(block_game):
    """Checked as the game goes (``Game.check``): each file a player receives, and at intervals
    his reports, database and stored views, against the other side's items concealed then."""
    g = block_game
    for side in g.sides:
        assert g.checked.get(side, 0) > 200, g.checked


def test_a_player_sees_his_own_concealed_items_by_name(block_game):
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    g = block_game
    reports = "\n".join(g.reports["allied"])
    named = [b for b, (name, army, *_) in BLOCKS.items() if army == "allied" and name in reports]
    assert len(named) > 10, "the allied reports name too few allied blocks"
    concealed = "\n".join(g.reports["ottoman"])
    assert "concealed" in concealed


def test_several_orders_ride_in_one_player_file_and_forced_decisions_cost_none(block_game):
    g = block_game
    assert g.ref.match()["full"].get("protocol") >= 2  # several orders a file, forced decisions by the referee
    assert g.player_files == len(g.orders) > 5
    assert sum(g.orders) / len(g.orders) > 1.5, g.orders  # a player's tool follows the rules past its first order
    assert max(g.orders) >= 5
    assert not any(g.forced), "a player was made to send a file for a forced decision"


def test_a_join_whose_sealed_secret_is_not_the_one_committed_to_is_refused(tmp_path):
    store = KeyStore(tmp_path / "home")
    ids = {n: store.create(n) for n in ("ref", "alice", "bob")}
    ref, genesis = Campaign.new_refereed(tmp_path / "ref", "raid", ids["ref"],
                                         {"allied": (ids["alice"].public, "alice"),
                                          "ottoman": (ids["bob"].public, "bob")})
    alice, joined = Campaign.join(tmp_path / "alice", genesis.raw, ids["alice"])
    ref.ingest([("alice", joined.raw)])
    # bob commits to one secret and seals another to the referee
    from pbem.wire.envelope import seal
    from pbem_engine.hidden.private import anchor

    bob_secret, other = b"\x01" * 32, b"\x02" * 32
    content = refereeing.join_content(genesis, "ottoman", "00" * 32, "11" * 32, other,
                                      anchor(genesis.game, "ottoman", bob_secret))
    ref.ingest([("bob", seal(ids["bob"], content).raw)])
    before = (tmp_path / "ref" / "campaign.db").read_bytes()
    with pytest.raises(PbemError) as e:
        ref.play(ids["ref"], [])
    assert e.value.code == "cheating"
    assert (tmp_path / "ref" / "campaign.db").read_bytes() == before


def test_trench_raid_refereed_hands_stay_hidden_and_verify(tmp_path):
    g = Game(tmp_path, "raid")
    g.play_out(reports_every=1)
    for camp in g.camps.values():
        assert verify_path(camp.dir).summary().startswith("OK")
    assert all(g.checked.get(side, 0) > 20 for side in g.sides), g.checked


def test_a_game_of_forced_decisions_is_settled_by_the_referee_alone(tmp_path):
    g = Game(tmp_path, "barrage")
    g.play_out()
    assert g.player_files == 0  # the dice duel has nothing to decide: no player sends a file
    assert g.ref.ledger.head()[0] == 2  # genesis, the start (every roll), the disclosure
    for camp in g.camps.values():
        assert verify_path(camp.dir).summary().startswith("OK")


def test_table_top_mode_refereed_a_hand_stays_hidden_until_played(tmp_path):
    """Table-top mode with a referee, through the CLI: the pack travels in the referee's
    invitation, red draws from its private deck and plays one card; blue's files and report
    name only the card played, red's name both; all three verify after the disclosure."""
    import re

    from click.testing import CliRunner

    from tests.conftest import new_player, pbem
    from tests.test_tabletop import MINI

    runner = CliRunner()
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)
    ref, red, blue = (new_player(runner, tmp_path, n, s) for n, s in (("ref", "referee"), ("alice", "red"),
                                                                        ("bob", "blue")))
    run = lambda p, *args: pbem(runner, *args, env=p.env)  # noqa: E731
    run(ref, "new", "tabletop", "--referee", "--pack", str(tmp_path / "mini"), "--key", "ref",
        "--player", f"red={red.pub}", "--player", f"blue={blue.pub}", "--campaign", ref.dir)
    invitation = next((ref.dir / "sent").glob("*genesis.pbem"))
    for p in (red, blue):
        run(p, "join", invitation, "--key", p.name, "--campaign", p.dir)
        run(ref, "ingest", "--campaign", ref.dir, next((p.dir / "sent").glob("*join.pbem")))
    received = {"red": [], "blue": []}

    def adjudicate():
        out = run(ref, "play", "--campaign", ref.dir).output
        for side, path in re.findall(r"for (\w+) \(\w+\): (\S+)", out):
            received[side].append(Path(path))
            run({"red": red, "blue": blue}[side], "ingest", "--campaign", {"red": red, "blue": blue}[side].dir, path)

    def act(p, *orders):
        out = run(p, "play", *orders, "--campaign", p.dir).output
        path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
        run(ref, "ingest", "--campaign", ref.dir, path)
        adjudicate()

    adjudicate()  # the start: both views
    act(red, "draw 3 from red orders", "play charge", "pass")  # several orders, one file
    red_report = run(red, "report", "--campaign", red.dir).output
    blue_report = run(blue, "report", "--campaign", blue.dir).output
    assert "red plays Charge" in blue_report and "red plays Charge" in red_report
    assert re.search(r"red hand: a concealed item, a concealed item$", blue_report, re.M), blue_report
    assert re.search(r"red hand: (Charge|Rally), (Charge|Rally)$", red_report, re.M), red_report
    held = re.search(r"red hand: (\w+), (\w+)$", red_report, re.M).groups()
    if "Rally" in held:  # the card red still holds never reaches blue
        assert all(b"Rally" not in blob for path in received["blue"] for blob in opened_file(path))
        assert "Rally" not in blue_report
    act(blue, "end blue concedes")
    while Campaign.open(ref.dir).waiting() is not None:
        adjudicate()
    for p in (ref, red, blue):
        assert run(p, "verify", p.dir).output.startswith("OK: ")


def test_the_browser_page_of_a_refereed_player_offers_the_decision_after_its_draft(tmp_path):
    """pbem serve: a player of a refereed block game drafts orders one click at a time; the
    page's decision is the one after the draft (its own tool runs the rules on its view), not
    the view's first one again, and the orders sign together."""
    from pbem.web.serve_game import Seat

    g = Game(tmp_path, options={"turns": 1})
    while g.ref.waiting()["side"] != "ottoman":
        g.step()
    seat = Seat(g.dirs["ottoman"], g.who["ottoman"])
    first = seat.page()["decision"]
    assert first["free"] and "deploy" in first["text"] and first["choices"]
    from pbem.play import referee_orders

    camp = Campaign.open(g.dirs["ottoman"], readonly=True)
    draft = referee_orders.run(camp, refereeing.latest_view(camp), [])
    order = camp.game.player(draft.state, "ottoman", draft.prompt, draft.known)  # the game's own player's first
    camp.close()
    assert order != "done"
    assert seat.choose(order)["signed"] is False
    after = seat.page()
    assert after["draft"]["count"] == 1
    assert after["decision"]["text"] != first["text"]  # what is left to deploy, after the draft
    assert seat.choose("done", confirm=True)["signed"] is True  # the deployment and 'done' in one file
    g.ref.ingest([(str(p), p.read_text()) for p in sorted((g.dirs["ottoman"] / "sent").glob("*-turn.pbem"))[-1:]])
    assert g.ref.waiting()["side"] == "referee"
