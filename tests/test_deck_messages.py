"""Shared-deck messages are the ones the rules make, field by field (issue 30, items 4 and 8).

Each envelope's deck messages are made by the rules from the orders (a shuffle begun and its
steps, a draw, the keys a draw or a show calls for, a card played): a dishonest tool that sends
another count, shuffle number, nonce, positions, destination, deck, operation or number of
messages, signed with its own key, is refused by the other side's tool at once, with nothing
stored. And a side that holds dealt cards reveals its secret at the end, even with nothing else
hidden, so that every deck message is audited.
"""

from __future__ import annotations

import json

import pytest
from pbem_engine.hidden import deck as D

from pbem.wire.armor import find_blocks
from pbem.chain.datapack import load
from pbem.wire.envelope import open_block, seal
from pbem.errors import PbemError
from pbem.check.verify import verify_ledger
from tests.test_tabletop_shared_deck import SMALL, Game, _name


@pytest.fixture
def duel(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(SMALL)
    return Game(tmp_path, load(tmp_path / "pack"), ("red", "blue"), tmp_path.name)


def _message(body: dict, op: str) -> dict:
    return next(msg for _, msg in body["decks"] if msg["op"] == op)


def _forged_then_honest(g: Game, side: str, orders: list[str], forgeries: dict) -> dict:
    """``side`` plays ``orders`` with its honest tool; each forgery (what -> (change(body), code,
    words)) of that file, signed with ``side``'s key, is refused by the other side, which stores
    nothing; then the honest file is delivered. Returns the honest body."""
    envelope = g.camps[side].play(g.who[side], orders).envelope
    receiver = g.camps[g.other(side)]
    for what, (change, code, words) in forgeries.items():
        content = json.loads(json.dumps(envelope.content))
        change(content["body"])
        head = receiver.ledger.head()
        with pytest.raises(PbemError) as e:
            receiver.ingest([("forged", seal(g.who[side], content).raw)])
        said = f"{e.value} {e.value.detail}"
        assert e.value.code == code and words in said, (what, said)
        assert receiver.ledger.head() == head
    receiver.ingest([("honest", envelope.raw)])
    g.sent.append((side, envelope.raw))
    return envelope.content["body"]


def _set(msg_of, field, value):
    """A change that sets ``field`` of the message ``msg_of(body)`` finds."""
    return lambda body: msg_of(body).__setitem__(field, value)


def test_shuffle_messages_other_than_the_rules_make_are_refused(duel):
    g = duel
    shuffle = lambda body: _message(body, "shuffle")  # noqa: E731
    begin = lambda body: _message(body, "begin")  # noqa: E731
    _forged_then_honest(g, "red", ["shuffle tricks", "pass"], {
        "a card left out of the shuffle": (lambda b: begin(b)["cards"].pop(), "unexpected", "its cards is not the one"),
        "another shuffle number": (_set(shuffle, "number", 1), "unexpected", "its number is not the one"),
        "a nonce of its own choosing": (_set(shuffle, "nonce", "00" * 32), "unexpected", "its nonce is not the one"),
        "another operation": (_set(shuffle, "op", "lock"), "unexpected", "carries 'lock' of 'tricks'; the rules make shuffle"),
        "another deck": (lambda b: b["decks"][1].__setitem__(0, "other"), "unexpected",
                         "carries 'shuffle' of 'other'; the rules make shuffle of tricks"),
        "one message more": (lambda b: b["decks"].append(json.loads(json.dumps(b["decks"][1]))), "unexpected",
                             "carries 3 deck messages, the rules made 2"),
        "one message less": (lambda b: b["decks"].pop(), "missing", "the envelope does not carry it"),
    })
    rekey = lambda body: _message(body, "shuffle-rekey")  # noqa: E731
    _forged_then_honest(g, "blue", ["pass"], {  # its shuffle-rekey rides on its hand-over
        "a nonce of its own choosing": (_set(rekey, "nonce", "11" * 32), "unexpected", "its nonce is not the one"),
    })


def test_draw_key_and_play_messages_other_than_the_rules_make_are_refused(duel):
    g = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    draw = lambda body: _message(body, "draw")  # noqa: E731
    _forged_then_honest(g, "red", ["draw 2 from tricks", "pass"], {
        "one card more": (_set(draw, "count", 3), "unexpected", "its count is not the one"),
        "one card less": (_set(draw, "count", 1), "unexpected", "its count is not the one"),
    })
    state = g.camps["blue"].match()["decks"]["tricks"]["state"]
    pile = state["pile"][0]
    extra = D.release(state, "blue", bytes.fromhex(g.camps["blue"].private_secret()), [pile])["keys"][0]
    keys = lambda body: _message(body, "keys")["keys"]  # noqa: E731
    _forged_then_honest(g, "blue", ["pass"], {  # its keys for red's two cards ride here
        "a key held back": (lambda b: keys(b).pop(), "unexpected", "the rules ask for [[0, 0], [0, 1]]"),
        "a key for a card of the pile": (lambda b: keys(b).append(extra), "unexpected", "the rules ask for"),
    })
    card = _name(g.camps["red"].game.pack, g.hand("red")[0])
    play = lambda body: _message(body, "play")  # noqa: E731
    _forged_then_honest(g, "red", [f"play {card}", "pass"], {
        "played to the discard pile": (_set(play, "to", "discard"), "unexpected", "its to is not the one"),
    })


def test_keys_shown_or_given_are_for_exactly_the_cards_the_rules_name(duel):
    g = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    g.play("red", "draw 3 from tricks", "pass")
    g.play("blue", "pass")  # its keys for red's cards
    red = g.camps["red"]
    hand = g.hand("red")
    state = red.match()["decks"]["tricks"]["state"]
    refs = D.hand(state, "red")
    secret = bytes.fromhex(red.private_secret())
    given = _name(red.game.pack, hand[0])
    other_key = D.release(state, "red", secret, [refs[1]])["keys"][0]
    keys = lambda body: _message(body, "keys")["keys"]  # noqa: E731
    _forged_then_honest(g, "red", [f"give {given} to blue", "pass"], {
        "the key of another card of its hand": (lambda b: keys(b).__setitem__(0, other_key), "unexpected",
                                                "not for the card it gives"),
    })
    g.play("blue", "pass")
    _forged_then_honest(g, "red", ["show hand of tricks", "pass"], {
        "one card of its hand kept back": (lambda b: keys(b).pop(), "unexpected", "not its hand"),
    })


def test_a_side_that_holds_dealt_cards_reveals_its_secret_at_the_end_so_the_deck_is_audited(duel):
    """Neither side hides anything of its own (their private logs stay empty): the dealt cards
    alone make each owe its secret at the end, the last orders carry it, and the audit runs."""
    g = duel
    g.play("red", "shuffle tricks", "pass")
    g.play("blue", "pass")
    g.play("red", "draw 1 from tricks", "pass")
    g.play("blue", "draw 1 from tricks", "pass")
    g.play("red", "pass")  # its keys for blue's card
    match = g.camps["blue"].match()
    assert all(not record["log"] for record in match["private"].values())
    last = g.play("blue", "end blue ends it")
    assert open_block(find_blocks(last.raw)[0]).content["body"]["private_secret"]  # with the orders that end it
    waiting = g.camps["blue"].waiting()
    assert (waiting["side"], waiting["why"]) == ("red", "secret")
    g.play("red")
    assert g.camps["blue"].waiting() is None
    for camp in g.camps.values():
        events = [e["text"] for e in camp.ledger.events()]
        assert any(t.startswith("every shared deck checks out") for t in events)
        summary = verify_ledger(camp.ledger).summary()
        assert summary.startswith("OK: ") and "deck messages recomputed from both sides' secrets" in summary, summary
