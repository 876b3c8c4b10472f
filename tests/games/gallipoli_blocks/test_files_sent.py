"""What each player's tool actually writes for the other (turn files and the ready-to-send e-mail
with its report) never names a block the rules still conceal or a card still in hand: searched
in the decoded bytes of every file, envelope by envelope, over a game played by the real tool."""

import email
import json
from email import policy as email_policy

import pytest

from pbem_engine.games.gallipoli_blocks import GAME
from pbem_engine.games.gallipoli_blocks.cards import CARDS
from pbem_engine.games.gallipoli_blocks.data import BLOCKS
from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from pbem.commands.demo import policy
from pbem.wire.envelope import open_block
from pbem.chain.hidden import public_knowledge
from pbem.mailbox.mail import write_outbox
from tests.test_golden import identity
from tests.test_golden_blocks import entropy


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = tmp_path_factory.mktemp("leak")
    alice, bob = identity("alice"), identity("bob")
    allied, genesis = Campaign.new(root / "alice", "gallipoli-blocks", "allied", alice, bob.public, bob.name, None,
                                   {"turns": 3}, entropy=entropy("alice"))
    ottoman, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("bob"))
    allied.ingest([("join", joined.raw)])
    camps, who = {"allied": allied, "ottoman": ottoman}, {"allied": alice, "ottoman": bob}
    sent = []  # (side, seq, turn file text, e-mail texts)
    while (waiting := allied.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        mails = [p.read_bytes() for p in write_outbox(camps[side], result)]
        sent.append((side, result.envelope.seq, result.envelope.raw, mails))
        camps["ottoman" if side == "allied" else "allied"].ingest([("f", result.envelope.raw)])
    states = {seq: allied.ledger.state(seq)[1] for seq in allied.ledger.stored_derived()[0]}
    everything = public_knowledge(allied.genesis["game"], allied.match())  # every token, once all is open
    yield sent, states, everything
    for camp in camps.values():
        camp.ledger.close()


def secret_words(state: dict, side: str, everything: dict) -> set[str]:
    """What ``side`` still hides in ``state``: its concealed blocks and its hand, by id and by name."""
    game = state["game"]
    army = next(a for a, s in game["seats"].items() if s == side)
    words = set()
    for tok, b in game["blocks"].items():
        # blocks a reinforcement card names are public as a group (8.2.1); which token is which is not,
        # and that no opening of a concealed token is ever sent is checked separately below
        # and so are the blocks stood up again together after a battle (10.1 step 11): the opponent
        # saw them; which fresh token is which is what stays hidden (test_stood_up_blocks_...)
        if b["army"] == army and b["id"] is None and not b.get("entering") and not b["origin"].startswith("again:"):
            bid = everything[tok].split(":")[0]
            if not bid.startswith("ott-dummy"):  # dummies' names say nothing ("a dummy")
                words |= {bid, BLOCKS[bid][0]}
    played = set(game["discard"][army]) | set(game["removed"][army])
    for tok in game["hands"][army]:
        cid = everything[tok]
        if cid not in played:
            words |= {cid, CARDS[cid][0]}
    return words


def decoded(raw: str) -> str:
    env = open_block(find_blocks(raw)[0])
    return json.dumps(env.content, ensure_ascii=False)


def mail_text(data: bytes) -> str:
    msg = email.message_from_bytes(data, policy=email_policy.default)
    parts = []
    for part in msg.walk():
        if part.get_content_maintype() == "text" or part.get_filename():
            payload = part.get_payload(decode=True) or b""
            text = payload.decode("utf-8", "replace")
            parts.append(text)
            parts += [decoded(block.raw) for block in find_blocks(text)] if "BEGIN PBEM" in text else []
    return "\n".join(parts)


def test_no_file_names_a_concealed_block_or_a_card_in_hand(game):
    sent, states, everything = game
    checked = 0
    for side, seq, raw, mails in sent:
        state = states[seq]
        if state["pending"] and seq + 1 in states:  # the actions wait for dice: they take effect at seq + 1
            state = states[seq + 1]
        if state["game"]["result"] is not None:
            break  # the game is decided: everything is opened on purpose
        hidden = secret_words(state, side, everything)
        texts = [decoded(raw)] + [mail_text(m) for m in mails]
        for text in texts:
            leaked = sorted(w for w in hidden if w in text)
            assert not leaked, f"#{seq} by {side} names what it hides: {leaked}"
        body = open_block(find_blocks(raw)[0]).content["body"]
        concealed = {t for t, b in state["game"]["blocks"].items() if b["id"] is None}
        opened = set(body.get("private", {}).get("open", {}))
        assert not opened & concealed, f"#{seq} by {side} carries the opening of a block still concealed"
        checked += 1
        assert mails, "every turn comes with a ready-to-send e-mail"
    assert checked > 20


def test_the_check_has_teeth(game):
    """The same search finds a block in the sender's own report, which names its own blocks."""
    sent, states, everything = game
    side, seq, raw, _ = next(s for s in sent if states[s[1]]["game"]["blocks"] and s[0] == "ottoman")
    hidden = secret_words(states[seq], side, everything)
    assert hidden
    own_view = "\n".join(GAME.describe(states[seq]["game"]))
    from pbem.chain.hidden import show

    mine = show(own_view, everything, GAME)
    assert any(w in mine for w in hidden)



def test_stood_up_blocks_cannot_be_told_apart(game):
    """Fog of war (10.1 step 11): after a battle the revealed survivors get fresh tokens. From then
    on, until the rules open one again, the opponent's board shows the token concealed, no file
    carries its opening, and the old token (which he saw opened) is off the board."""
    sent, states, everything = game
    again = {}  # fresh token -> (its block, the envelope that stood it up)
    for seq in sorted(states):
        for tok, b in states[seq]["game"]["blocks"].items():
            if b["origin"].startswith("again:") and tok not in again:
                again[tok] = (everything[tok].split(":")[0], seq)
    assert again, "the game should stand up blocks after its battles"
    for tok, (bid, since) in again.items():
        origin = next(states[s]["game"]["blocks"][tok]["origin"] for s in sorted(states) if
                      tok in states[s]["game"]["blocks"])
        for side, seq, raw, _ in sent:
            state = states[seq]["game"]
            if seq <= since or state["result"] is not None or tok not in state["blocks"]:
                continue
            if state["blocks"][tok]["id"] is not None:
                break  # the rules opened it again (a later battle): from here it is public
            body = open_block(find_blocks(raw)[0]).content["body"]
            assert tok not in body.get("private", {}).get("open", {}), f"#{seq} opens {tok[:12]} early"
            board_text = "\n".join(GAME.describe(state))  # what the opponent's report shows of the board
            shown = [t for t, b in state["blocks"].items() if b["id"] == bid]
            assert shown or BLOCKS[bid][0] not in board_text, f"#{seq}: {BLOCKS[bid][0]} still shown on the board"
        # the fresh token opens, at the end, only to a block of its group (board.check_origin)
        assert everything[tok] in states[max(states)]["game"]["again"][origin]
