"""Issue 29, item 7: a player's report lists his own Action Card hand (17.1), each card by name with
what it does in brief, in the situation; his opponent's report, and the mail written for the
opponent, show the same hand only as concealed cards: no byte of them names one."""

from __future__ import annotations

import pytest

from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.mailbox.mail import write_outbox
from pbem.view.report import render
from pbem_engine.games.assault_on_gallipoli import cards
from tests.games.gallipoli_blocks.test_files_sent import mail_text
from tests.test_golden import identity
from tests.test_golden_blocks import entropy


@pytest.fixture(scope="module")
def dealt(tmp_path_factory):
    """A campaign played by the game's own player until both Action hands are dealt."""
    root = tmp_path_factory.mktemp("report-hands")
    alice, bob = identity("alice"), identity("bob")
    anzac, genesis = Campaign.new(root / "alice", "assault-on-gallipoli", "anzac", alice, bob.public, bob.name,
                                  "turkish-counter-attack", {"turns": 1}, entropy=entropy("report-hands-a"))
    turkish, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("report-hands-b"))
    anzac.ingest([("join", joined.raw)])
    camps, who = {"anzac": anzac, "turkish": turkish}, {"anzac": alice, "turkish": bob}
    mails = {"anzac": [], "turkish": []}  # what each side's tool wrote for the other
    for _ in range(20):
        hands = anzac.match()["game"]["ac"]["hands"]
        if all(hands.values()) and anzac.known_items().keys() >= set(hands["anzac"]):
            break
        side = anzac.waiting()["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        mails[side] += [mail_text(p.read_bytes()) for p in write_outbox(camps[side], result)]
        camps["turkish" if side == "anzac" else "anzac"].ingest([("f", result.envelope.raw)])
    else:
        pytest.fail("the hands were never dealt")
    yield camps, mails
    for camp in camps.values():
        camp.ledger.close()


def held(camp: Campaign) -> list[str]:
    """The cards of ``camp``'s own hand, as its own tool reads them."""
    known = camp.known_items()
    return [known[e] for e in camp.match()["game"]["ac"]["hands"][camp.side]]


def situation(report: str) -> str:
    return " ".join(report.split("The situation\n-------------\n", 1)[1].split("What is asked of you")[0].split())


def test_the_report_lists_your_own_hand_by_name_with_what_each_card_does(dealt):
    camps, _ = dealt
    for side, camp in camps.items():
        mine = held(camp)
        report = render(camp, "text")
        names = ", ".join(cards.NAMES[cards.kind(c)] for c in mine)
        assert f"{side} Action Cards in hand ({len(mine)}): {names}" in situation(report), report
        flat = " ".join(report.split())
        for card in mine:
            assert f"{cards.NAMES[cards.kind(card)]}: {cards.brief(card)}" in flat, card
        assert "Killing Time" in cards.brief("good-luck#1") and cards.brief("good-luck#1").startswith("green")


def test_the_opponents_report_and_mail_never_name_a_card_of_your_hand(dealt):
    camps, mails = dealt
    for side, camp in camps.items():
        foe = camps["turkish" if side == "anzac" else "anzac"]
        theirs = {cards.NAMES[cards.kind(c)] for c in held(foe)}
        secret = [c for c in held(camp) if cards.NAMES[cards.kind(c)] not in theirs]
        assert secret, "no card of this hand to look for"
        seen = [render(foe, "text"), render(foe, "html"), *mails[side]]
        assert f"{side} Action Cards in hand ({len(held(camp))}): a concealed Action Card" in situation(seen[0])
        for text in seen:
            data = text.encode()
            for card in secret:
                assert cards.NAMES[cards.kind(card)].encode() not in data, card
                assert cards.BRIEF[cards.kind(card)].encode() not in data, card
