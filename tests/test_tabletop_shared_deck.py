"""Table-top mode deals private hands from a shared deck (pbem_engine.hidden.deck_table over pbem_engine.hidden.deck):
two campaign databases exchanging real turn files, the Assault on Gallipoli pack's Action Cards,
a byte search for the opponent's cards in every file sent, the turn files a draw costs, each cheat
refused at once or named by the end-of-game audit, and hypothesis play over a small pack.

A 2048-bit exponentiation costs ~25 ms: the big test shuffles 54 cards once; the rest use 6."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pbem_engine.hidden import deck as D
from pbem_engine.hidden import deck_table

from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from pbem.chain.datapack import check, load, shipped
from pbem.wire.envelope import open_block, seal
from pbem.errors import PbemError
from pbem.view.report import render
from pbem.check.verify import verify_ledger
from tests.test_golden import identity

SMALL = """
[pack]
id = "duel"
title = "Card duel"
sides = ["red", "blue"]
dice = "d6"

[[location]]
id = "field"
name = "Field"
provisional = false

[[deck]]
id = "tricks"
name = "Tricks"
owner = "shared"
dealt = "private"
size = 6
provisional = false

[[card]]
id = "feint"
deck = "tricks"
name = "Feint"
count = 2
provisional = false

[[card]]
id = "ambush"
deck = "tricks"
name = "Ambush"
count = 2
provisional = false

[[card]]
id = "rally"
deck = "tricks"
name = "Rally"
provisional = false

[[card]]
id = "storm"
deck = "tricks"
name = "Storm"
provisional = false

[[scenario]]
id = "duel"
name = "A duel"
provisional = false
"""


def _entropy(party: str):
    counter = iter(range(1000))
    return lambda n: hashlib.sha256(f"pbem/test/dealt/{party}/{next(counter)}".encode()).digest()[:n]


class Game:
    """Two campaigns in ``root`` playing ``pack`` in table-top mode; every file is kept as sent."""

    def __init__(self, root: Path, pack: dict, sides: tuple[str, str], tag: str = "") -> None:
        self.sides = sides
        alice, bob = identity("alice"), identity("bob")
        self.who = {sides[0]: alice, sides[1]: bob}
        a, genesis = Campaign.new(root / "a", "tabletop", sides[0], alice, bob.public, bob.name, None,
                                  {"pack": pack}, entropy=_entropy("a" + tag))
        b, joined = Campaign.join(root / "b", genesis.raw, bob, entropy=_entropy("b" + tag))
        a.ingest([("join", joined.raw)])
        self.camps = {sides[0]: a, sides[1]: b}
        self.sent: list[tuple[str, str]] = []  # (author, turn file) after the genesis

    def other(self, side: str) -> str:
        return self.sides[1 - self.sides.index(side)]

    def play(self, side: str, *orders: str):
        result = self.camps[side].play(self.who[side], list(orders))
        assert result.envelope is not None, f"{side} {orders}: only drafted"
        self.camps[self.other(side)].ingest([("test", result.envelope.raw)])
        self.sent.append((side, result.envelope.raw))
        return result.envelope

    def hand(self, side: str) -> list[str]:
        """The cards ``side``'s own tool can name in its hand."""
        camp = self.camps[side]
        known = camp.knowledge()
        return [known[c] for c in camp.match()["game"]["hands"][side] if c in known]

    def finish(self) -> None:
        while (waiting := self.camps[self.sides[0]].waiting())["why"] == "deck":
            self.play(waiting["side"])
        self.play(waiting["side"], "end the test is over")
        while (waiting := self.camps[self.sides[0]].waiting()) is not None:
            assert waiting["why"] == "secret", waiting
            self.play(waiting["side"])


def _payload(raw: str) -> str:
    """A turn file's content as text, less what every copy knows anyway: the cards a shuffle
    starts from (``begin`` names the box's and the discard pile's public contents, not their order)."""
    content = open_block(find_blocks(raw)[0]).content
    for _, msg in content["body"].get("decks", []):
        if msg.get("op") == "begin":
            msg["cards"] = len(msg["cards"])
    return json.dumps(content)


def _name(pack: dict, card: str) -> str:
    base = card.split("#")[0]
    return next(c["name"] for c in pack["card"] if c["id"] == base)


# -- the Assault on Gallipoli pack, by real turn files ---------------------------------------
def test_assault_on_gallipoli_deals_private_hands_by_turn_files(tmp_path):
    pack = load(shipped()["assault-on-gallipoli"])
    assert {d["id"] for d in pack["deck"] if d.get("dealt") == "private"} == {"action-deck", "close-combat-deck"}
    g = Game(tmp_path, pack, ("anzac", "turkish"), tag="aog")  # its own game id (games are cached by id)
    anzac, turkish = g.camps["anzac"], g.camps["turkish"]
    g.play("anzac", "shuffle action card deck", "pass")  # begin + anzac's shuffle
    g.play("turkish", "pass")  # its shuffle-rekey rides on its hand-over
    files_before = len(g.sent)
    g.play("anzac", "draw 5 from action card deck", "pass")  # its rekey rides here; the draw then the hand-over
    g.play("turkish", "draw 4 from action card deck", "pass")  # anzac's keys ride on turkish's own turn
    assert len(g.sent) - files_before == 2  # a draw followed by a hand-over: no extra file
    anzac_hand = g.hand("anzac")
    assert len(anzac_hand) == 5 and g.hand("turkish") == []  # turkish reads its cards when anzac's keys come

    # a draw whose drawer keeps the decision waits for the other's keys: one extra file, named as owed
    played = anzac_hand[0]
    g.play("anzac", f"play {_name(pack, played)}", "draw 1 from action card deck")  # with its keys for turkish
    assert len(g.hand("turkish")) == 4
    waiting = anzac.waiting()
    assert waiting["side"] == "turkish" and waiting["why"] == "deck" and "keys" in waiting["text"]
    before = len(g.sent)
    g.play("turkish")  # its key-only file
    assert len(g.sent) - before == 1
    assert len(g.hand("anzac")) == 5 and played not in g.hand("anzac")
    assert anzac.waiting()["side"] == "anzac"

    # the reports: one's own hand by name, the opponent's as concealed cards; no shuffle printout
    for side, camp in g.camps.items():
        report = render(camp, "text", since=-1).replace("\n    ", " ")  # long lines are wrapped
        own = next(line for line in report.splitlines() if line.startswith(f"{side} hand:"))
        assert "concealed" not in own
        theirs = next(line for line in report.splitlines() if line.startswith(f"{g.other(side)} hand:"))
        assert set(theirs.split(":", 1)[1].replace("a concealed card", "").replace(",", " ").split()) == set()
        assert "shuffle 54" not in report and "night-attack#" not in report
    assert _name(pack, played) in render(turkish, "text", since=-1)  # a card played face up: public

    # the byte search: no turn file sent names a card still held, nor any card before it was played
    held = {c.split("#")[0] for c in g.hand("anzac") + g.hand("turkish")}
    for author, raw in g.sent:
        payload = _payload(raw)
        for card in held - {played.split("#")[0]}:
            assert card not in payload, (author, card)
    g.finish()
    for camp in g.camps.values():
        verified = verify_ledger(camp.ledger)
        assert verified.summary().startswith("OK: ")
    events = [e["text"] for e in anzac.ledger.events()]
    assert any("every shared deck checks out" in t for t in events)


# -- a small deck: the rules of the wire, and each cheat -------------------------------------
@pytest.fixture
def duel(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(SMALL)
    pack = load(tmp_path / "pack")
    assert check(pack) == []
    return Game(tmp_path, pack, ("red", "blue"), "duel"), pack


def _forge(g: Game, side: str, change) -> str:
    """``side``'s next turn file as its honest tool would sign it, then changed by ``change`` and
    signed again with ``side``'s own key: what a dishonest tool would send."""
    camp = g.camps[side]
    result = camp.play(g.who[side], [])
    content = open_block(find_blocks(result.envelope.raw)[0]).content
    change(content["body"])
    return seal(g.who[side], content).raw


def _refused(g: Game, side: str, raw: str) -> PbemError:
    with pytest.raises(PbemError) as e:
        g.camps[g.other(side)].ingest([("forged", raw)])
    return e.value


def test_a_draw_before_a_shuffle_is_refused_with_a_hint(duel):
    g, _ = duel
    with pytest.raises(PbemError) as e:
        g.camps["red"].play(g.who["red"], ["draw 1 from tricks"])
    assert "say 'shuffle Tricks'" in e.value.detail


def test_a_wrong_key_share_is_refused_at_once_naming_the_side_and_file(tmp_path, duel):
    g, _ = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    g.play("red", "draw 2 from tricks")  # waits for blue's keys

    def wrong_key(body):
        op = body["decks"][0][1]
        assert op["op"] == "keys"
        op["keys"][0][2] = D.hexed(12345)

    raw = _forge(g, "blue", wrong_key)
    error = _refused(g, "blue", raw)
    assert error.code == "wrong-key" and "blue" in str(error) + (error.detail or "") and "#5" in str(error) + (error.detail or "")


def test_a_card_played_that_was_not_drawn_and_a_false_claim_are_refused(duel):
    g, pack = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    g.play("red", "draw 2 from tricks", "pass")
    g.play("blue", "draw 2 from tricks", "pass")  # red's keys ride here
    card = g.hand("red")[0]
    honest = g.camps["red"].play(g.who["red"], [f"play {_name(pack, card)}", "pass"]).envelope
    content = open_block(find_blocks(honest.raw)[0]).content
    # another card than the one the keys open
    forged = json.loads(json.dumps(content))
    play = next(m for _, m in forged["body"]["decks"] if m["op"] == "play")
    other = next(c for c in g.camps["red"].match()["decks"]["tricks"]["state"]["cards"] if c.split("#")[0] != card.split("#")[0])
    play["card"] = other
    error = _refused(g, "red", seal(g.who["red"], forged).raw)
    assert error.code == "false-claim" and "red" in str(error) + (error.detail or "")
    # a position red never drew (one of blue's)
    forged = json.loads(json.dumps(content))
    play = next(m for _, m in forged["body"]["decks"] if m["op"] == "play")
    blue_ref = deck_table.parse_ref(g.camps["blue"].match()["game"]["hands"]["blue"][0])[1]
    play["ref"] = blue_ref
    forged["body"]["actions"][0]["card"] = deck_table.ref_text("tricks", blue_ref)
    error = _refused(g, "red", seal(g.who["red"], forged).raw)
    assert error.code == "illegal-action" and "does not hold" in (error.detail or str(error))
    g.camps["blue"].ingest([("honest", honest.raw)])


def test_a_tampered_shuffle_is_named_by_the_audit_at_the_end(duel, monkeypatch):
    g, _ = duel
    g.play("red", "shuffle tricks", "pass")
    real = deck_table._step_cached.__wrapped__

    def tampered(state_json, side, secret, nonce):  # blue's tool replaces a card under its lock
        msg = json.loads(real(state_json, side, secret, nonce))
        if side == "blue":
            msg["deck"][3] = D.hexed(pow(7, 2, D.P))
        return json.dumps(msg)

    monkeypatch.setattr(deck_table, "_step_cached", tampered)
    g.play("blue", "pass")  # the tampered shuffle-rekey: valid group elements, so accepted at once
    monkeypatch.undo()
    g.play("red", "pass")
    g.play("blue", "end the test is over")  # it ends the game: blue's secret goes with it (nothing to audit yet)
    last = g.camps["red"].waiting()["side"]
    assert last == "red"
    with pytest.raises(PbemError) as e:  # the last side's tool cannot sign a reveal that fails the audit
        g.camps[last].play(g.who[last], [])
    text = f"{e.value} {e.value.detail}"
    assert e.value.code == "cheating"
    assert "blue" in text and "shuffle-rekey" in text and "envelope #3" in text, text


def test_an_owed_deck_message_left_out_is_refused(duel):
    g, _ = duel
    g.play("red", "shuffle tricks", "pass")
    honest = g.camps["blue"].play(g.who["blue"], ["pass"]).envelope  # carries its shuffle-rekey
    content = open_block(find_blocks(honest.raw)[0]).content
    content["body"].pop("decks")
    error = _refused(g, "blue", seal(g.who["blue"], content).raw)
    assert error.code == "missing" and "blue" in f"{error} {error.detail}"


# -- the pack marker ---------------------------------------------------------------------------
def test_pack_check_lists_every_problem_of_the_marker(tmp_path):
    pack = load_text(tmp_path, SMALL.replace('dealt = "private"', 'dealt = "secret"'))
    assert any("dealt 'secret'" in str(p) for p in check(pack))
    own = SMALL.replace('owner = "shared"\ndealt = "private"', 'owner = "red"\ndealt = "private"')
    assert any("for a shared deck" in str(p) for p in check(load_text(tmp_path, own)))
    three = SMALL.replace('sides = ["red", "blue"]', 'sides = ["red", "blue", "green"]')
    assert any("exactly two sides" in str(p) for p in check(load_text(tmp_path, three)))
    cup = SMALL.replace('dealt = "private"', 'dealt = "private"\nkind = "cup"')
    assert any("only a deck of cards" in str(p) for p in check(load_text(tmp_path, cup)))


def load_text(tmp_path: Path, text: str) -> dict:
    folder = tmp_path / hashlib.sha256(text.encode()).hexdigest()[:8]
    folder.mkdir(exist_ok=True)
    (folder / "pack.toml").write_text(text)
    return load(folder)


# -- random play ---------------------------------------------------------------------------------
ORDERS = st.lists(st.sampled_from(["draw", "play", "discard", "return", "show", "pass"]), min_size=3, max_size=10)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ORDERS, st.integers(0, 1000))
@example(["draw", "draw", "draw", "show", "draw", "show"], 0)  # a hand shown whole, then one card more
def test_random_play_stays_hidden_and_verifies(tmp_path_factory, orders, tag):
    root = tmp_path_factory.mktemp("dealt")
    (root / "pack").mkdir()
    (root / "pack" / "pack.toml").write_text(SMALL)
    pack = load(root / "pack")
    g = Game(root, pack, ("red", "blue"), tag=str(tag))
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    shown = set()
    for order in orders:
        side = g.camps["red"].waiting()["side"]
        camp = g.camps[side]
        if camp.waiting()["why"] == "deck":
            g.play(side)
            continue
        mine = g.hand(side)
        state = camp.match()["decks"]["tricks"]["state"]
        # a card the other side returned face down cannot be drawn by this side before a reshuffle
        pile = bool(state["pile"]) and D.released(state, side, state["pile"][0]) is None
        if order == "draw" and pile:
            g.play(side, "draw 1 from tricks", "pass")
        elif order in ("play", "discard", "return") and mine:
            g.play(side, f"{order} {_name(pack, mine[0])}", "pass")
        elif order == "show" and any(D.released(state, side, r) is None for r in D.hand(state, side)):
            # a hand already shown whole has nothing new to show (refused as 'empty')
            g.play(side, "show hand of tricks", "pass")
            shown.add(side)
        else:
            g.play(side, "pass")
    # every file sent: no card still in a hand that was never shown appears in it
    face_up = {c.split("#")[0] for c in deck_table.known(g.camps["red"].match()["decks"], "red", b"\0" * 32).values()}
    for side in g.sides:
        if side in shown:
            continue
        secret_cards = {c.split("#")[0] for c in g.hand(side)} - face_up
        for author, raw in g.sent:
            payload = _payload(raw)
            assert not any(c in payload for c in secret_cards), (side, author)
        report = render(g.camps[g.other(side)], "text", since=-1).replace("\n    ", " ")
        line = next((x for x in report.splitlines() if x.startswith(f"{side} hand:")), "")
        assert all(_name(pack, c) not in line for c in g.hand(side))
    g.finish()
    for camp in g.camps.values():
        assert verify_ledger(camp.ledger).summary().startswith("OK: ")



# -- Espionage: look at the other's hand, take a card; a card handed over -------------------
def test_espionage_looks_at_the_other_hand_and_takes_a_card(duel):
    g, pack = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    g.play("red", "draw 2 from tricks", "pass")
    g.play("blue", "draw 3 from tricks", "pass")  # its keys for red's draw ride here
    with pytest.raises(PbemError) as e:  # nothing shown yet: nothing of blue's to name
        g.camps["red"].play(g.who["red"], ["take feint"])
    assert "look at hand of DECK" in e.value.detail
    red_before = g.hand("red")
    assert len(red_before) == 2 and g.hand("blue") == []  # blue reads its cards when red's keys come

    # red looks (its keys for blue's draw ride on the same file), then blue's file shows the hand
    g.play("red", "play " + _name(pack, red_before[0]), "look at hand of tricks")
    blue_before = g.hand("blue")
    assert len(blue_before) == 3
    waiting = g.camps["red"].waiting()
    assert waiting["side"] == "blue" and waiting["why"] == "deck" and "asked to see" in waiting["text"]
    before = len(g.sent)
    g.play("blue")  # its show: the one extra file, as a draw whose drawer keeps the decision
    assert len(g.sent) - before == 1 and g.camps["red"].waiting()["side"] == "red"
    shown = {ref: card for ref, card in g.camps["red"].knowledge().items()
             if ref in g.camps["red"].match()["game"]["hands"]["blue"]}
    assert sorted(shown.values()) == sorted(blue_before)

    # red takes one: it moves to red's hand in both copies, red's tool names it
    ref, card = sorted(shown.items())[0]
    g.play("red", f"take {_name(pack, card)} from blue's hand", "pass")
    for camp in g.camps.values():
        hands = camp.match()["game"]["hands"]
        assert ref in hands["red"] and ref not in hands["blue"]
        assert D.where(camp.match()["decks"]["tricks"]["state"], deck_table.parse_ref(ref)[1]) == "red"
    assert sorted(g.hand("red")) == sorted(red_before[1:] + [card])
    assert sorted(g.hand("blue")) == sorted(c for c in blue_before if c != card)
    # no one without a side's secret reads it: the public record names only cards face up
    public = deck_table.known(g.camps["red"].match()["decks"], "red", b"\0" * 32)
    assert ref not in public
    # the byte search: no file sent names a card still held (the taken one included)
    held = {c.split("#")[0] for c in g.hand("red") + g.hand("blue")} - {red_before[0].split("#")[0]}
    for author, raw in g.sent:
        assert not any(c in _payload(raw) for c in held), author

    # a take of a card not shown is refused: blue draws a fresh card, red forges a take of it
    g.play("blue", "draw 1 from tricks", "pass")
    fresh = g.camps["red"].match()["game"]["hands"]["blue"][-1]

    honest = g.camps["red"].play(g.who["red"], ["pass"]).envelope  # its keys for blue's fresh card, then pass
    forged = open_block(find_blocks(honest.raw)[0]).content
    forged["body"]["actions"] = [{"do": "take", "card": fresh}, {"do": "pass"}]
    forged["body"]["decks"].append(["tricks", {"op": "take", "side": "red", "ref": deck_table.parse_ref(fresh)[1]}])
    error = _refused(g, "red", seal(g.who["red"], forged).raw)
    assert error.code == "not-shown" and "red" in f"{error} {error.detail}"
    g.camps["blue"].ingest([("honest", honest.raw)])
    g.sent.append(("red", honest.raw))
    g.finish()
    for camp in g.camps.values():
        summary = verify_ledger(camp.ledger).summary()
        assert summary.startswith("OK: ") and "1 card moved between hands" in summary, summary
        assert "deck messages recomputed from both sides' secrets" in summary, summary

    # pbem audit lists every deck message with its envelope, and the verdict
    from pbem.check.audit import audit, render as render_audit

    result = audit(g.camps["blue"].ledger)
    ops = [(d["envelope"], d["side"], d["op"]) for d in result.decks]
    assert ops[0][2] == "begin" and ("red", "ask") in {(s, o) for _, s, o in ops}
    assert ("red", "take") in {(s, o) for _, s, o in ops} and ("red", "play") in {(s, o) for _, s, o in ops}
    envelopes = [e for e, _, _ in ops]
    assert envelopes == sorted(envelopes) and envelopes[0] == 2  # red's first turn file
    text = render_audit(result)
    assert "Shared decks dealt to private hands" in text and "recomputed from both sides' secrets" in text
    assert f"tricks #{envelopes[0]} red: shuffle 0 begins" in text, text
    assert "Shared decks dealt to private hands" in render_audit(result, "html")


def test_a_card_given_to_the_other_hand_is_read_by_its_new_holder(duel):
    g, pack = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    g.play("red", "draw 2 from tricks", "pass")
    g.play("blue", "pass")  # its keys for red's cards
    card = g.hand("red")[0]
    g.play("red", f"give {_name(pack, card)} to blue", "pass")  # its own key, then the move
    assert card in g.hand("blue") and card not in g.hand("red")
    for camp in g.camps.values():
        assert len(camp.match()["game"]["hands"]["red"]) == 1 and len(camp.match()["game"]["hands"]["blue"]) == 1
    summary = verify_ledger(g.camps["red"].ledger).summary()  # before the end: checked as played, no more
    assert "shared decks: 1 shuffle, 2 draws" in summary and "waits for both private secrets" in summary, summary
    g.finish()
    for camp in g.camps.values():
        assert verify_ledger(camp.ledger).summary().startswith("OK: ")


# -- a draw of a card the other side returned face down: a friendly refusal, by the CLI --------
def test_drawing_a_card_the_other_returned_face_down_is_refused_by_the_cli(tmp_path):
    from click.testing import CliRunner

    from tests.conftest import assert_refused, db_bytes, invoke, new_player, pbem

    runner = CliRunner()
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(SMALL)
    red, blue = new_player(runner, tmp_path, "alice", "red"), new_player(runner, tmp_path, "bob", "blue")
    pbem(runner, "new", "tabletop", "--pack", tmp_path / "pack", "--as", "red", "--key", "alice",
         "--opponent", blue.pub, "--campaign", red.dir, env=red.env)
    invitation = max((red.dir / "sent").glob("*.pbem"))
    pbem(runner, "join", invitation, "--key", "bob", "--campaign", blue.dir, env=blue.env)
    pbem(runner, "ingest", "--campaign", red.dir, max((blue.dir / "sent").glob("*.pbem")), env=red.env)

    def turn(player, other, *orders):
        pbem(runner, "play", *orders, "--campaign", player.dir, env=player.env)
        pbem(runner, "ingest", "--campaign", other.dir, max((player.dir / "sent").glob("*.pbem")), env=other.env)

    turn(red, blue, "shuffle tricks", "pass")
    turn(blue, red, "pass")
    turn(red, blue, "draw 6 from tricks", "pass")  # the whole deck
    turn(blue, red, "pass")  # blue's keys for red's six cards: red reads them
    turn(red, blue, "return feint", "pass")  # face down, to the bottom: the only card of the pile
    before = db_bytes(blue.dir)
    result = invoke(runner, "play", "draw 1 from tricks", "--campaign", blue.dir, env=blue.env)
    assert_refused(result, "illegal-action")
    text = result.stderr
    assert "red returned it" in text and "shuffle Tricks" in text and "protocol" not in text.lower(), text
    assert db_bytes(blue.dir) == before  # the campaign unchanged
    turn(blue, red, "shuffle tricks", "pass")  # what the refusal says to do instead is accepted
