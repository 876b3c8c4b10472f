"""Refereed games whose shared decks are dealt to private hands (issue 16): the referee holds
the deck (pbem_engine.hidden.referee_deck) where two players run mental poker (pbem_engine.hidden.deck_table).

Assault on Gallipoli's Action Cards between the game's own players, three databases, real
files: the game ends, all three verify after the disclosure, and everything a player holds
(every file, view, report, the database) is searched for the other side's Action Cards still
in its hand and never shown to it (the referee's full state says which).  A table-top pack with
a ``dealt = "private"`` deck refereed through the CLI: shuffle, draw, look at a hand (Espionage),
take, give, play.  And the deck itself: nobody chooses an order, each view names only what its
side has seen, a player's own tool stops where only the referee can go on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pbem_engine.hidden import referee_deck as RD
from pbem_engine.hidden.deck_group import DeckError
from pbem_engine.games.assault_on_gallipoli.cards import NAMES, kind
from pbem_engine.hidden.referee_hidden import Unknowable

from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.view.report import render
from pbem.check.verify import verify_path
from tests.test_referee_hidden import Game, opened_file, without_composition


# -- the deck alone ----------------------------------------------------------------------------
CARDS = [f"c{k}" for k in range(10)]


def _deck(seed_tag: str = "a"):
    public, secret = RD.new_record(["red", "blue"], {"d": CARDS})
    links = {"red": {"link": "11" * 32}, "blue": {"link": "22" * 32}, "referee": {"link": seed_tag * 64}}
    return RD.RefereeDeck(public, secret, RD.seeder(RD.order_key(b"s" * 32), "g" * 32, 3, links)), public, secret


def test_a_shuffle_is_keyed_by_the_salt_and_every_link_and_names_no_card_in_public():
    deck, public, secret = _deck()
    assert deck.ready("d") == RD.NOT_SHUFFLED
    with pytest.raises(DeckError):
        deck.draw("red", "d", 1)
    assert deck.shuffle("red", "d") == 10 and deck.ready("d") is None
    order = secret["d"]["order"][0]
    assert sorted(order) == sorted(CARDS) and order != CARDS  # a permutation (not the box's order)
    other, _, secret2 = _deck("b")  # another link of the referee's: another order
    other.shuffle("red", "d")
    assert secret2["d"]["order"][0] != order
    again, _, secret3 = _deck()  # the same inputs: the same order (anyone replays it after the disclosure)
    again.shuffle("blue", "d")
    assert secret3["d"]["order"][0] == order
    assert not any(c in str(public) for c in CARDS)  # the public record names no card face down


def test_hands_views_espionage_take_give_and_a_reshuffle():
    deck, public, secret = _deck()
    deck.shuffle("red", "d")
    red = deck.draw("red", "d", 3)
    blue = deck.draw("blue", "d", 2)
    assert red == ["deck:d:0:0", "deck:d:0:1", "deck:d:0:2"] and RD.hands(public) == {"red": red, "blue": blue}
    seen = RD.known(public, secret, "red")
    assert sorted(seen) == red and set(RD.known(public, secret, "blue")) == set(blue)
    card = deck.play("red", red[0], "table")
    assert card == secret["d"]["order"][0][0] and RD.face_up(public) == {red[0]: card}
    assert red[0] not in RD.known(public, secret, "red")  # face up: everyone's, no longer a view's own
    with pytest.raises(DeckError) as e:
        deck.take("red", blue[0])  # not shown
    assert e.value.code == "not-shown"
    assert deck.ask("red", "d") is False  # shown at once: blue owes nothing
    assert set(blue) <= set(RD.known(public, secret, "red"))
    deck.take("red", blue[0])
    deck.give("red", red[1])
    assert RD.hands(public) == {"red": [red[2], blue[0]], "blue": [red[1], blue[1]]}
    assert red[1] in RD.known(public, secret, "blue") and red[2] not in RD.known(public, secret, "blue")
    with pytest.raises(DeckError):  # red has seen every card blue holds
        deck.show("blue", "d")
    fresh = deck.draw("blue", "d", 1)
    assert fresh[0] not in RD.known(public, secret, "red")
    assert deck.show("blue", "d") == 1  # blue's hand shown to red: only the card red had not seen
    assert fresh[0] in RD.known(public, secret, "red")
    deck.give_back("blue", red[1])
    deck.discard("red", red[0])
    assert deck.shuffle("blue", "d") == 6  # the pile (4 left, 1 returned) and the discard
    assert secret["d"]["order"][1].count(card) == 1 and len(public["d"]["pile"]) == 6
    assert public["d"]["shuffles"][0]["at"][0] == "gone" and public["d"]["box"] == 0


def test_a_players_own_tool_plays_its_cards_and_stops_where_the_referee_goes_on():
    deck, public, secret = _deck()
    deck.shuffle("red", "d")
    red, blue = deck.draw("red", "d", 2), deck.draw("blue", "d", 2)
    own = RD.OwnDeck(public, RD.known(public, secret, "red"), "red")
    assert own.play("red", red[0]) == secret["d"]["order"][0][0]  # its own card: from its view
    own.give("red", red[1])
    assert own.shuffle("red", "d") == 6  # positions are public, their order is not
    with pytest.raises(Unknowable):
        own.draw("red", "d", 1)
    with pytest.raises(Unknowable):
        own.ask("red", "d")  # blue's hand: only the referee shows it
    with pytest.raises(Unknowable):
        own.play("blue", blue[0])
    assert public["d"]["shuffles"][0]["at"][:2] == ["red", "red"]  # the view's record is untouched


# -- Assault on Gallipoli, refereed ------------------------------------------------------------
class DeckGame(Game):
    """The refereed game driver of test_referee_hidden, searching for the Action Cards.  (Its
    search for concealed close combat cards cannot be made here: each side draws from its own
    copy of the same 36 cards, so a card's name in a player's files may be its own.)"""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.cards_checked: dict[str, int] = {}
        self.ever_up: set[str] = set()
        self.max_hidden = 0

    def check(self, player: str, blobs: list[bytes], full: dict) -> None:
        secret = held_unseen(full, player, self.ever_up)
        self.max_hidden = max(self.max_hidden, len(secret))
        self.cards_checked[player] = self.cards_checked.get(player, 0) + len(secret) * len(blobs)
        for card in sorted(secret):
            assert not any(card.encode() in b for b in blobs), f"{player} can read the other side's {card}"

    def check_everything(self) -> None:
        """Every file under each player's folder, its database included, and its reports."""
        full = self.ref.match()["full"]
        for side in self.sides:
            camp = self.camps[side]
            blobs = [p.read_bytes() for p in sorted(camp.dir.rglob("*")) if p.is_file()]
            blobs += [render(camp, "text", since=-1).encode(), render(camp, "html", since=-1).encode()]
            blobs += [without_composition(payload) for *_, payload in camp.ledger.views(side)]
            self.check(side, blobs, full)


def held_unseen(full: dict, player: str, ever_up: set[str]) -> set[str]:
    """The other side's cards in hand now that ``player`` never saw, less any card ever face up
    (its name is public from then on, even after a reshuffle)."""
    out = set()
    for deck_id, rec in full["dealt"].items():
        order = full["deal_order"][deck_id]["order"]
        for n, sh in enumerate(rec["shuffles"]):
            ever_up.update(sh["cards"].values())
            for i, at in enumerate(sh["at"]):
                if at in rec["sides"] and at != player and i not in sh["seen"].get(player, []):
                    out.add(order[n][i])
    return out - ever_up


def spy_first(camp: Campaign):
    """The game's own player, but one that plays Espionage whenever it may (refused: as the bot)."""
    base = policy(camp)

    def ask(prompt, events, rolls, refusal):
        _, known = camp.situation  # what its tool may name: its own hand among them
        if refusal is None:
            for i, choice in enumerate(prompt.choices):
                if choice.action.get("do") == "card" and known.get(choice.action["card"], "").startswith("espionage"):
                    return str(i + 1)
        return base(prompt, events, rolls, refusal)

    return ask


@pytest.fixture(scope="module")
def gallipoli(tmp_path_factory):
    import tests.test_referee_hidden as driver

    game = DeckGame(tmp_path_factory.mktemp("refereed-gallipoli"), "assault-on-gallipoli", options={"turns": 2})
    original = driver.policy
    driver.policy = spy_first  # the driver asks its players through this name
    try:
        game.play_out(reports_every=9)
        game.check_everything()
    finally:
        driver.policy = original
    return game


def test_refereed_gallipoli_ends_and_all_three_verify_after_the_disclosure(gallipoli):
    g = gallipoli
    assert g.ref.outcome() is not None
    full = g.ref.match()["full"]
    assert full["game"]["turn"] == 2 or full["game"]["result"]
    for side, camp in g.camps.items():
        summary = verify_path(camp.dir).summary()
        assert summary.startswith("OK"), (side, summary)
        if side != "referee":
            assert "views you received match" in summary
    assert len({Campaign.open(c.dir).ledger.head()[1] for c in g.camps.values()}) == 1


def test_the_action_cards_were_dealt_played_and_never_read_by_the_other_side(gallipoli):
    g = gallipoli
    full = g.ref.match()["full"]
    deck = full["dealt"][full["game"]["ac"]["deck"]]
    # dealt: each side has seen cards of its own (its hands, however many it has played since)
    assert deck["shuffles"] and all(sum(len(sh["seen"].get(s, [])) for sh in deck["shuffles"]) >= 4 for s in g.sides)
    assert any(sh["cards"] for sh in deck["shuffles"]), "no Action Card was ever played or discarded face up"
    assert g.max_hidden >= 4
    # every file, view, report and the database, searched for the other's cards: (card, file) searches made,
    # a floor that the search ran at all (a short random game makes 200-300; 500 failed such games in CI)
    for side in g.sides:
        assert g.cards_checked.get(side, 0) > 100, g.cards_checked


def test_each_player_names_its_own_action_cards_and_conceals_the_others(gallipoli):
    g = gallipoli
    full = g.ref.match()["full"]
    for side in g.sides:
        view = g.camps[side].ledger.views(side)[-1]
        cards = json.loads(view[4])["cards"]
        assert cards == RD.known(full["dealt"], full["deal_order"], side)
        report = re.sub(r"\n {5,}", " ", render(g.camps[side], "text", since=-1))  # the wrapped lines joined
        assert re.search(rf"{side} draws \d Action Card\(s\): [A-Z]", report), side  # by name: 'Good Luck, ...'
        other = next(s for s in g.sides if s != side)
        # the other's draws: named only where this side has seen such a card (Espionage, a card
        # handed over, one played face up), else concealed
        seen = {NAMES[kind(c)] for c in set(cards.values()) | set(RD.face_up(full["dealt"]).values())}
        for line in re.findall(rf"{other} draws \d+ Action Card\(s\): (.*)", report):
            named = {c for c in line.split(", ") if c in NAMES.values()}
            assert named <= seen, (side, named - seen)
            assert all(c in NAMES.values() or c == "a concealed card" for c in line.split(", ")), line


def test_several_orders_ride_in_one_file_and_the_deals_cost_no_file(gallipoli):
    g = gallipoli
    assert not any(g.forced), "a player was made to send a file for a forced decision"
    assert max(g.orders) >= 3 and sum(g.orders) / len(g.orders) > 1.2, g.orders


# -- table-top mode, refereed through the CLI ----------------------------------------------------
def test_table_top_pack_with_a_dealt_deck_refereed_through_the_cli(tmp_path):
    """Red shuffles and draws (one file, the draw the last order its tool can follow), plays a
    card; blue draws, red looks at blue's hand and takes a card of it, gives blue one; every
    file blue receives and its report name only the cards played or shown to it."""
    from click.testing import CliRunner

    from tests.conftest import assert_refused, invoke, new_player, pbem
    from tests.test_tabletop_shared_deck import SMALL

    runner = CliRunner()
    (tmp_path / "duel").mkdir()
    (tmp_path / "duel" / "pack.toml").write_text(SMALL)
    ref, red, blue = (new_player(runner, tmp_path, n, s) for n, s in (("ref", "referee"), ("alice", "red"),
                                                                        ("bob", "blue")))
    players = {"red": red, "blue": blue}
    run = lambda p, *args: pbem(runner, *args, env=p.env)  # noqa: E731
    run(ref, "new", "tabletop", "--referee", "--pack", str(tmp_path / "duel"), "--key", "ref",
        "--player", f"red={red.pub}", "--player", f"blue={blue.pub}", "--campaign", ref.dir)
    invitation = next((ref.dir / "sent").glob("*genesis.pbem"))
    for p in (red, blue):
        run(p, "join", invitation, "--key", p.name, "--campaign", p.dir)
        run(ref, "ingest", "--campaign", ref.dir, next((p.dir / "sent").glob("*join.pbem")))
    received: dict[str, list[Path]] = {"red": [], "blue": []}

    def adjudicate():
        out = run(ref, "play", "--campaign", ref.dir).output
        for side, path in re.findall(r"for (\w+) \(\w+\): (\S+)", out):
            received[side].append(Path(path))
            run(players[side], "ingest", "--campaign", players[side].dir, path)

    def act(p, *orders):
        out = run(p, "play", *orders, "--campaign", p.dir).output
        path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
        run(ref, "ingest", "--campaign", ref.dir, path)
        adjudicate()

    def full():
        return Campaign.open(ref.dir).match()["full"]

    def hand(side):
        f = full()
        return [f["deal_order"]["tricks"]["order"][int(r.split(":")[2])][int(r.split(":")[3])]
                for r in f["game"]["hands"][side]]

    names = {"feint": "Feint", "ambush": "Ambush", "rally": "Rally", "storm": "Storm"}

    def name(card):
        return names[card.split("#")[0]]

    adjudicate()  # the start
    before = (red.dir / "campaign.db").read_bytes()
    for orders in (("draw 1 from tricks",), ("shuffle tricks", "draw 2 from tricks", "pass")):
        refused = invoke(runner, "play", *orders, "--campaign", red.dir, env=red.env)
        assert_refused(refused, ("illegal-action", "too-many-orders"))  # not shuffled; an order past the draw
    assert (red.dir / "campaign.db").read_bytes() == before and not list((red.dir / "sent").glob("*turn*"))
    act(red, "shuffle tricks", "draw 2 from tricks")  # one file: the draw is where the referee goes on
    assert len(hand("red")) == 2
    act(red, f"play {name(hand('red')[0])}", "pass")
    played = full()["game"]["played"][0]
    act(blue, "draw 3 from tricks")
    blue_hand = hand("blue")
    red_report = run(red, "report", "--campaign", red.dir).output
    assert "red plays " + name(played) in red_report
    kept = hand("red")[0]
    blue_only = {c for c in blue_hand} - {kept, played}
    for path in received["red"]:  # red has not seen blue's hand yet
        for blob in opened_file(path):
            assert not any(c.encode() in blob for c in blue_only)
    act(blue, "pass")
    act(red, "look at hand of tricks")  # its tool stops: the referee shows blue's hand to red alone
    red_view = Campaign.open(red.dir).ledger.views("red")[-1][4]
    assert all(c in red_view for c in blue_hand)
    taken = next(c for c in sorted(blue_hand) if name(c) != name(kept))  # 3 cards, at most 2 of a name
    act(red, f"take {name(taken)} from blue's hand", f"give {name(kept)} to blue", "draw 1 from tricks")
    # a card is taken by its name: blue may hold two copies of it, either may come
    assert name(hand("red")[0]) == name(taken) and kept in hand("blue") and len(hand("red")) == 2
    act(red, "pass")
    drawn = hand("red")[1]
    blue_report = run(blue, "report", "--campaign", blue.dir).output
    assert re.search(rf"blue hand: .*{name(kept)}", blue_report), blue_report
    assert re.search(rf"red hand: {name(taken)}, a concealed card$", blue_report, re.M), blue_report
    blobs = [p.read_bytes() for p in blue.dir.rglob("*") if p.is_file()] + [blue_report.encode()]
    blobs += [b for path in received["blue"] for b in opened_file(path)]
    assert not any(drawn.encode() in b for b in blobs)  # red's fresh card: nowhere in blue's hands
    act(blue, "end blue concedes")
    while Campaign.open(ref.dir).waiting() is not None:
        adjudicate()
    for p in (ref, red, blue):
        assert run(p, "verify", p.dir).output.startswith("OK: ")


def test_demo_referee_plays_assault_on_gallipoli(tmp_path):
    from pbem.commands.demo import run_refereed

    lines: list[str] = []
    run_refereed(tmp_path / "demo", "assault-on-gallipoli", lines.append)
    text = "\n".join(lines)
    assert text.count(": OK: ") == 3, text[-2000:]
    assert "adjudicates; one sealed view per player" in text


def test_a_refereed_player_s_tool_leads_by_his_sealed_lead_order(gallipoli):
    """leadorder.py in refereed play: the game's player seals a lead order in a Round, and at his
    leads his own tool reads it (``sealed_choice``, in referee_orders) and leads by it; the files
    the referee sends name none of the order's cards."""
    for camp in gallipoli.camps.values():
        text = render(camp, "text", since=-1)
        assert "seals a lead order for this turn's close combats" in text
        assert "leads by its sealed lead order" in text
    for side in gallipoli.sides:
        for path in gallipoli.files[side]:
            assert b"reserve-trench:raid" not in path.read_bytes()
