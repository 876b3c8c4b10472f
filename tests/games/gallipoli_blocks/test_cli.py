"""The block game through the command line: orders in words, and every refusal (a bad order, a
forged illegal action, a turn file that opens a block as something it was not) gives a reason
and a detail, exit 1, no traceback, and leaves the campaign database byte for byte as it was."""

import json
import re
from pathlib import Path

import pytest

from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block
from tests.conftest import assert_refused, db_bytes, forge, invoke, new_player, pbem
from pbem_engine.games.gallipoli_blocks import GAME


@pytest.fixture
def game(tmp_path, runner, home):
    alice = new_player(runner, tmp_path, "alice", "allied")
    bob = new_player(runner, tmp_path, "bob", "ottoman")
    pbem(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
         "--option", "turns=2", "--campaign", alice.dir, env=alice.env)
    genesis = max((alice.dir / "sent").glob("*.pbem"))
    pbem(runner, "join", genesis, "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, max((bob.dir / "sent").glob("*.pbem")), env=alice.env)
    pbem(runner, "play", "--campaign", alice.dir, env=alice.env)  # the creator's opening reveal
    pbem(runner, "ingest", "--campaign", bob.dir, max((alice.dir / "sent").glob("*.pbem")), env=bob.env)
    return runner, alice, bob


def test_the_ottoman_sets_up_in_words_and_alice_sees_only_tokens(game):
    runner, alice, bob = game
    out = pbem(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", "deploy dummy gully ravine",
               "deploy 57th 3 kilia liman", "done", env=bob.env).output
    assert "signed turn file" in out and "9th Div / 25th Rgt (concealed at 4 steps)" in out
    sent = max((bob.dir / "sent").glob("*.pbem"))
    pbem(runner, "ingest", "--campaign", alice.dir, sent, env=alice.env)
    report = pbem(runner, "report", "--campaign", alice.dir, env=alice.env).output
    assert "a concealed block (ottoman)" in report and "25th" not in report and "57th" not in report
    content = json.dumps(open_block(find_blocks(sent.read_text())[0]).content)
    assert "ott-9-div-25-rgt" not in content and "ott-19-div-57-rgt" not in content
    assert "Ottoman card" not in content  # the hand of ten is drawn as tokens


@pytest.mark.parametrize("order, code, why", [
    ("deploy 25th 5 krithia", "illegal-order", "say 'deploy BLOCK STEPS SPACE'"),  # the 25th sets up at 4 steps
    ("deploy 25th 4 anzac cove", "illegal-action", "cannot deploy at 'anzac-cove'"),  # not an Ottoman area
    ("deploy nobody 2 krithia", "illegal-order", "no single ottoman block called 'nobody'"),
    ("march on constantinople", "illegal-order", "say 'deploy BLOCK STEPS SPACE'"),
])
def test_a_bad_order_is_refused_and_changes_nothing(game, order, code, why):
    runner, alice, bob = game
    before = db_bytes(bob.dir)
    result = invoke(runner, "play", "--campaign", bob.dir, order, env=bob.env)
    assert_refused(result, code)
    assert why in result.stderr, result.stderr
    assert db_bytes(bob.dir) == before


def _private_of(bob, actions) -> dict:
    """The private draws bob's own tool would put in a turn of ``actions`` (they must be legal)."""
    from pbem.play.campaign import Campaign
    from pbem_engine.protocol import match as protocol

    camp = Campaign.open(bob.dir, readonly=True)
    try:
        build = camp._build()
        head = camp.ledger.head()
        protocol.advance(camp.game, camp.match(), head[0] + 1, "ottoman",
                         {"reveal": camp.next_link(), "actions": actions}, build)
    finally:
        camp.ledger.close()
    return build["private"]


def _forged(bob, alice_dir: Path, actions, private=None) -> Path:
    """A turn file bob's key signs, built by hand (a tool that skipped its own checks)."""
    from pbem.play.campaign import Campaign
    from pbem.wire.keys import KeyStore
    from pbem_engine.protocol.core import IllegalAction
    from tests.conftest import next_state

    camp = Campaign.open(alice_dir, readonly=True)
    try:
        head = camp.ledger.head()
        match = camp.match()
        link_index = match["chains"]["ottoman"]["index"] + 1
        game_id = camp.genesis["game"]
    finally:
        camp.ledger.close()
    from pbem_engine.protocol import match as protocol

    secret = json.loads((bob.dir / "secrets" / "chain.json").read_text())
    links = protocol.chain_links(game_id, "ottoman", bytes.fromhex(secret["secret"]), secret["length"])
    body = {"reveal": links[link_index].hex(), "actions": actions}
    if private:
        body["private"] = private
    content = {"v": 1, "game": game_id, "seq": head[0] + 1, "prev": head[1], "author": "ottoman", "kind": "turn",
               "engine": {"module": "gallipoli-blocks", "module_version": GAME.version, "pbem": "0.1.0"}, "body": body,
               "state": ""}
    try:
        content["state"] = next_state(alice_dir, content)
    except (IllegalAction, protocol.ProtocolError):  # the rules refuse it: there is no honest state to sign
        content["state"] = "0" * 64
    return forge(KeyStore(bob.home).load("bob"), content, bob.dir / "forged.pbem")


@pytest.mark.parametrize("actions, legal, code, why", [
    # not a deployment space
    ([{"do": "deploy", "at": "anzac-cove", "block": "ab" * 32}], None, "illegal-action", "cannot deploy at 'anzac-cove'"),
    # the item in clear
    ([{"do": "deploy", "at": "krithia", "block": {"$hide": "ott-9-div-25-rgt:4"}}], None, "bad-private",
     "a hidden choice must travel as its token"),
    ([{"do": "deploy", "at": "krithia", "block": "not a token"}], None, "bad-private", "must be a 64-hex token"),
    ([{"do": "deploy", "at": "krithia"}], None, "illegal-action", "malformed action"),
    # a field the rules do not know, signed beside a legal deployment; an order the frame does not take
    ([{"do": "deploy", "at": "krithia", "block": "ab" * 32, "note": "x"}], None, "illegal-action",
     "a 'deploy' order has no field 'note'"),
    ([{"do": "place", "at": "krithia", "block": "ab" * 32}], None, "illegal-action", "no 'place' order here"),
    # the set-up done (with the draws it makes), then done again: the allied set-up is next
    ([{"do": "done"}, {"do": "done"}], [{"do": "done"}], "illegal-action",
     "action 2: it is allied's decision, not ottoman's"),
    # the set-up done without the private draws the rules make there
    ([{"do": "done"}], None, "bad-private", "does not carry the 10 private draw(s)"),
    (["deploy"], None, "bad-actions", "actions must be a list of objects"),
])
def test_a_forged_illegal_action_is_refused_and_changes_nothing(game, actions, legal, code, why):
    runner, alice, bob = game
    path = _forged(bob, alice.dir, actions, _private_of(bob, legal) if legal else None)
    before = db_bytes(alice.dir)
    result = invoke(runner, "ingest", "--campaign", alice.dir, path, env=alice.env)
    assert_refused(result, code)
    assert why in result.stderr, result.stderr
    assert db_bytes(alice.dir) == before



def test_pbem_play_lists_the_choices_after_the_draft_with_our_cards_named(game):
    runner, alice, bob = game
    pbem(runner, "play", "--campaign", bob.dir, "deploy 25th 4 krithia", "done", env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, max((bob.dir / "sent").glob("*.pbem")), env=alice.env)
    drafted = pbem(runner, "play", "--campaign", alice.dir, "set up", env=alice.env).output
    assert "drafted, not yet signed" in drafted  # the set-up is drafted; the first player phase follows
    listed = pbem(runner, "play", "--campaign", alice.dir, env=alice.env).output
    assert "player phase" in listed and "[[" not in listed
    assert re.search(r"\d+\. play (Allied card \d\d|Royal Navy Seaplanes|Suvla Bay Invasion) for OPS", listed)
    report = pbem(runner, "report", "--campaign", bob.dir, env=bob.env).output
    assert "a concealed card" not in report.split("ottoman hand")[1].splitlines()[0]  # bob sees his own hand


@pytest.mark.parametrize("args, code, why", [
    (["--option", "turns"], None, "KEY=VALUE"),  # not KEY=VALUE: misuse (exit 2)
    (["--option", "turns=zz"], "bad-genesis", "option turns is a whole number of turns"),  # the module refuses it
    (["--option", "fog=1"], "bad-genesis", "unknown options fog"),  # no such option
    (["--cards", "CARDS"], "bad-genesis", "allied-card-01 breaks rules 5.2-5.4"),  # OPS 7 (rules 5.3: 0-3)
    (["--cards", "BROKEN"], "bad-cards", "cannot read the card values"),  # not TOML
])
def test_bad_game_options_are_refused_and_make_no_campaign(tmp_path, runner, home, args, code, why):
    bob = new_player(runner, tmp_path, "bob", "ottoman")
    alice = new_player(runner, tmp_path, "alice", "allied")
    (tmp_path / "cards.toml").write_text('[allied-card-01]\nops = 7\n')
    (tmp_path / "broken.toml").write_text("allied-card-01 = {\n")
    args = [str(tmp_path / "cards.toml") if a == "CARDS" else str(tmp_path / "broken.toml") if a == "BROKEN" else a
            for a in args]
    result = invoke(runner, "new", "gallipoli-blocks", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
                    *args, "--campaign", alice.dir, env=alice.env)
    if code is None:
        assert result.exit_code == 2, result.output  # a usage error, before anything is read
    else:
        assert_refused(result, code)
    assert why in result.stderr, result.stderr
    assert not alice.dir.exists()


def test_the_other_sides_decision_is_shown_with_its_blocks_concealed_not_as_markup(capsys):
    """After a turn file, 'pbem play' (and ingest) say whose decision is next in its words: an
    Ottoman's choice of leading blocks names the blocks in the rules' markup, which the Allied
    player reads as "a concealed block" (or by name, one of his own), never as a token.  (Found
    by the command-line playthrough: a battle where the bot did not plan.)"""
    from pbem.commands.cli_common import show_next
    from pbem.play.campaign import Campaign

    theirs, ours = "a" * 64, "b" * 64

    class Camp:  # the Allied player's campaign, as show_next reads it
        side, refereed, game, genesis = "allied", False, GAME, {"game": "g" * 32}
        worded, knowledge = Campaign.worded, Campaign.knowledge

        def waiting(self):
            return {"side": "ottoman", "why": "decide", "since": 9,
                    "text": f"ottoman: battle for Krithia, round 1: choose 1-3 leading blocks: 'lead NAME, NAME, "
                            f"NAME' or 'lead strongest'; may lead: [[{theirs}|block]], [[{ours}|block]]"}

        def match(self):
            return {"private": {s: {"opened": {}, "secret": None} for s in ("allied", "ottoman")}}

        def secrets_readable(self):
            return True

        def known_items(self, match):
            return {ours: "br-29-div-86-bde:4"}

    from pbem.commands.cli_game import _owed

    camp = Camp()
    show_next(camp)
    out = capsys.readouterr().out
    status = _owed(camp, camp.waiting())  # pbem status's line
    assert out.startswith("Now ottoman's decision: battle for Krithia"), out
    assert status.startswith("waiting for ottoman: battle for Krithia"), status
    for text in (out, status):
        assert "[[" not in text and theirs not in text and ours not in text
        assert "may lead: a concealed block, 29 Div British / 86 Bde (concealed at 4 steps)" in text, text
    assert camp.worded(camp.waiting()["text"], own=False).endswith("may lead: a concealed block, a concealed block")
    # the subject of the mail that carries the Allied file to the Ottoman: what any side may read,
    # so the Allied block is concealed there too (its name is the Allied player's to know)
    from types import SimpleNamespace

    from pbem.mailbox.mail import _status

    camp.ledger = SimpleNamespace(head=lambda: (9, "h"))
    camp.waiting = lambda: {"side": "ottoman", "why": "decide", "since": 9,
                            "text": f"ottoman: lead at Krithia, beside [[{ours}|block]]"}  # within a subject's 90
    subject = _status(camp, SimpleNamespace(kind="turn", seq=9, author="allied", content={"body": {}}), "ottoman")
    assert subject == "your move: lead at Krithia, beside a concealed block", subject
