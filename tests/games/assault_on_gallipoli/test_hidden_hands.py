"""The close combat hands are private draws (engine/hidden/private.py): over two real campaigns played
by the game's own player, nothing a side's tool writes for the other (the turn file and the
ready-to-send e-mail with its report) and no report the receiver's tool shows names a card of
the sender's hand, or opens one of its tokens, before the rules play or show it."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.chain.hidden import public_knowledge
from pbem.mailbox.mail import write_outbox
from pbem.view.report import render
from pbem_engine.games.assault_on_gallipoli.closecombat import CARD_NAMES
from tests.games.gallipoli_blocks.test_files_sent import decoded, mail_text
from tests.test_golden import identity
from tests.test_golden_blocks import entropy

SIDES = ("anzac", "turkish")


def other(side: str) -> str:
    return "turkish" if side == "anzac" else "anzac"


@pytest.fixture(scope="module", params=["anzac-landing", "turkish-counter-attack"])
def game(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("hands")
    alice, bob = identity("alice"), identity("bob")
    anzac, genesis = Campaign.new(root / "alice", "assault-on-gallipoli", "anzac", alice, bob.public, bob.name,
                                  request.param, {"turns": 2}, entropy=entropy(f"hands-{request.param}-a"))
    turkish, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy(f"hands-{request.param}-b"))
    anzac.ingest([("join", joined.raw)])
    camps, who = {"anzac": anzac, "turkish": turkish}, {"anzac": alice, "turkish": bob}
    sent = []  # (side, seq, turn file, e-mail texts, the receiver's report after ingesting)
    while (waiting := anzac.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        mails = [mail_text(p.read_bytes()) for p in write_outbox(camps[side], result)]
        camps[other(side)].ingest([("f", result.envelope.raw)])
        shown = render(camps[other(side)], "text") + render(camps[other(side)], "html")
        sent.append((side, result.envelope.seq, result.envelope.raw, mails, shown))
        assert len(sent) < 600
    states = {seq: anzac.ledger.state(seq)[1] for seq in anzac.ledger.stored_derived()[0]}
    yield sent, states, camps
    for camp in camps.values():
        camp.ledger.close()


def hand_lines(text: str, side: str) -> list[str]:
    """What a text shows of ``side``'s close combat hand: the describe line's hand part."""
    flat = " ".join(text.split())  # the text report folds its lines at 80 columns
    return [m.group(1) for m in re.finditer(rf"{side} close combat cards: hand (.*?); played", flat)]


def test_no_file_or_report_for_the_other_side_names_a_card_in_hand(game):
    sent, states, camps = game
    held_checked = 0
    for side, seq, raw, mails, shown in sent:
        state = states[seq]  # as the receiver's tool holds it after ingesting this file
        if state["game"]["result"] is not None:
            break
        hand = state["game"]["ccdeck"][side]["hand"]
        public = public_knowledge(camps[side].genesis["game"], state)
        body = json.loads(decoded(raw))["body"]
        played = set(body.get("private", {}).get("open", {}))  # a card played now, waiting for the dice
        shown_cards = [t for t in hand if t in public]
        assert set(shown_cards) <= played and len(shown_cards) <= 1, f"#{seq}: {side}'s hand is public"
        # a card the rules showed (a hand opened to prove it cannot match, 10.3.2) is held by name
        allowed = Counter([CARD_NAMES[public[t]] for t in shown_cards] + [CARD_NAMES[c] for c in hand if c in CARD_NAMES])
        for text in [decoded(raw), *mails, shown]:
            for line in hand_lines(text, side):
                named = Counter({n: line.count(n) for n in CARD_NAMES.values() if n in line})
                assert not named - allowed, f"#{seq}: what {other(side)} sees of {side}'s hand names {named}: {line}"
        held_checked += any(t not in CARD_NAMES and t not in public for t in hand)
    assert held_checked >= 3, "the games should hold close combat hands across turn files"


def test_the_check_has_teeth(game):
    """The sender's own report names the cards of its hand, on the very line the check reads."""
    sent, states, camps = game
    for side, seq, *_ in sent:
        if states[seq]["game"]["ccdeck"][side]["hand"] and not states[seq]["game"]["result"]:
            break
    else:
        pytest.fail("no hand held")
    camp = camps[side]
    own = render(camp, "text", at=seq)
    assert any(any(n in line for n in CARD_NAMES.values()) for line in hand_lines(own, side)), own
