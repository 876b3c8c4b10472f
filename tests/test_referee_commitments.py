"""What a referee commits to and what a player's tool takes from it, attacked by real files
(issue 30, items 2, 3 and 6): the commitment to the full state depends on the referee's secret
salt; sealed orders open only in the envelope they were sealed for; a view is checked against the
referee's commitment when it arrives and holds only what its player may know; a view or a join
signed by the wrong party is refused at ingest.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from pbem_engine.canonical import canonical_json, digest
from pbem_engine.games.gallipoli_blocks.data import BLOCKS

from pbem.chain import referee

from pbem.play import refereeing
from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from pbem.wire.envelope import Envelope, open_block, seal
from pbem.errors import PbemError
from pbem.wire.keys import KeyStore
from tests.test_referee_hidden import Game


def _words(error: PbemError) -> str:
    return f"{error} {error.detail}"


def _envelopes(camp: Campaign) -> list[Envelope]:
    return [open_block(find_blocks(raw)[0]) for _, _, _, _, raw, _ in camp.ledger.envelopes()]


def _refused(camp: Campaign, text: str, code: str) -> PbemError:
    """``camp`` refuses ``text`` with ``code`` and stores nothing."""
    before = (camp.ledger.head(), camp.ledger.views())
    with pytest.raises(PbemError) as e:
        camp.ingest([("forged", text)])
    assert e.value.code == code, _words(e.value)
    assert (camp.ledger.head(), camp.ledger.views()) == before
    return e.value


@pytest.fixture
def hill60(tmp_path):
    g = Game(tmp_path, module="hill60")
    for _ in range(4):  # the start, allied's orders, their adjudication, ottoman's orders ...
        g.step()
    return g


# --- item 2: the commitment and the orders box -----------------------------------------------------
def test_the_commitment_to_the_full_state_depends_on_the_referees_secret_salt(hill60):
    """A player who guessed the full state exactly (here: read from the referee's own database)
    still cannot tell it from the commitment without the salt: no other salt gives the same."""
    g = hill60
    while g.ref.waiting()["side"] != "referee":
        g.step()
    g.step()  # an adjudication: the last envelope commits to the full state after it
    last = _envelopes(g.ref)[-1]
    full, seq = g.ref.match()["full"], last.seq
    salt = bytes.fromhex(g.ref.referee_disclosure()["salt"])
    assert last.author == "referee" and last.content["body"]["commit"] == referee.commitment(full, seq, salt)
    guesses = {referee.commitment(full, seq, other) for other in (bytes(32), b"\xff" * 32, hashlib.sha256(salt).digest())}
    guesses.add(digest("state", full["game_id"], str(seq), canonical_json(full, strict=False)).hex())  # no salt at all
    assert last.content["body"]["commit"] not in guesses and len(guesses) == 4
    assert referee.commitment(full, seq + 1, salt) != referee.commitment(full, seq, salt)


def _players_turn(g: Game, side: str, body: dict) -> str:
    """``side``'s next turn file with ``body``, signed by hand with its key (the public state as
    its tool computes it)."""
    camp = g.camps[side]
    head = camp.ledger.head()
    public = referee.public_advance(camp.match()["public"], head[0] + 1, side, "turn", body)
    content = {"v": 1, "game": camp.genesis["game"], "seq": head[0] + 1, "prev": head[1], "author": side,
               "kind": "turn", "engine": _envelopes(camp)[-1].content["engine"], "body": body,
               "state": refereeing._hash(public)}
    return seal(g.who[side], content).raw


def test_sealed_orders_open_only_in_the_envelope_they_were_sealed_for(hill60):
    """A player's turn carrying an orders box sealed for another envelope (his own earlier one, or
    the other player's) is refused by the referee: the box's associated data names its envelope."""
    g = hill60
    while g.ref.waiting()["side"] != "allied":
        g.step()
    boxes = {(e.author, e.seq): e.content["body"]["orders"] for e in _envelopes(g.ref) if "orders" in e.content["body"]}
    own = max(seq for author, seq in boxes if author == "allied")
    theirs = max(seq for author, seq in boxes if author == "ottoman")
    allied = g.camps["allied"]
    for box in (boxes[("allied", own)], boxes[("ottoman", theirs)]):
        raw = _players_turn(g, "allied", {"reveal": allied.next_link(), "orders": box})
        error = _refused(g.ref, raw, "bad-box")
        assert "orders: wrong key, or changed after sealing" in _words(error)
    assert own in {seq for author, seq in boxes if author == "allied"}
    g.step()  # the honest orders go through


# --- item 3: a view checked at ingest against the commitment; and only its player's --------------
def _adjudicated(g: Game) -> tuple[dict[str, str], Envelope]:
    """The referee adjudicates; the files it wrote for each player (not delivered) and its envelope."""
    while g.ref.waiting()["side"] != "referee":
        g.step()
    result = g.ref.play(g.who["referee"], [])
    files = {path.parent.name.removeprefix("to-"): path.read_text() for path in result.paths}
    return files, result.envelope


def _with_view(text: str, view: Envelope) -> str:
    """A file for a player: its chain envelopes, and ``view`` in place of its view block."""
    blocks = [b for b in find_blocks(text) if open_block(b).kind != "view"]
    return "".join(open_block(b).raw for b in blocks) + view.raw


def test_a_view_the_referee_did_not_commit_to_is_refused_when_it_arrives(hill60):
    g = hill60
    files, adjudication = _adjudicated(g)
    alice = g.camps["allied"]
    view = next(open_block(b) for b in find_blocks(files["allied"]) if open_block(b).kind == "view")
    game_id, seq = adjudication.game, adjudication.seq
    payload = json.loads(referee.open_box(alice.box_secret(), view.content["body"]["box"], game_id, "view",
                                          referee.view_aad(game_id, seq, "allied")))
    payload["events"].append("the ottoman line breaks: allied wins")
    box_key = bytes.fromhex(alice.match()["public"]["boxes"]["allied"])
    lie = referee.seal_box(box_key, canonical_json(payload), game_id, "view", referee.view_aad(game_id, seq, "allied"))
    resigned = lambda **change: seal(g.who["referee"], {**view.content, **change})  # noqa: E731  the referee's key
    earlier = _envelopes(alice)[-1]  # the last envelope alice holds: the referee's previous adjudication
    forgeries = {
        "a box the referee did not commit to": resigned(body={"to": "allied", "box": lie}),
        "a view naming another envelope": resigned(prev=earlier.hash),
    }
    for what, forged in forgeries.items():
        error = _refused(alice, _with_view(files["allied"], forged), "bad-view")
        assert f"view #{seq} for allied" in _words(error), what
    # the box of the view alice last received, for the player's envelope this file carries (its
    # public state keeps the last views it was given: it commits to none of its own)
    orders = next(e for e in map(open_block, find_blocks(files["allied"])) if e.kind == "turn" and e.author != "referee")
    old = open_block(find_blocks(alice.ledger.views("allied")[-1][3])[0])
    replay = seal(g.who["referee"], {**old.content, "seq": orders.seq, "prev": orders.hash})
    error = _refused(alice, files["allied"] + replay.raw, "bad-view")
    assert f"view #{orders.seq} for allied" in _words(error)
    alice.ingest([("honest", files["allied"])])  # the view the referee committed to goes through


def test_a_view_signed_by_another_party_is_refused_when_it_arrives(hill60):
    g = hill60
    files, _ = _adjudicated(g)
    alice = g.camps["allied"]
    view = next(open_block(b) for b in find_blocks(files["allied"]) if open_block(b).kind == "view")
    by_bob = seal(g.who["ottoman"], view.content)  # the referee's view, signed by a player's key
    error = _refused(alice, _with_view(files["allied"], by_bob), "wrong-key")
    assert "view from referee" in _words(error)
    as_bob = seal(g.who["ottoman"], {**view.content, "author": "ottoman"})  # and as that player's own
    error = _refused(alice, _with_view(files["allied"], as_bob), "wrong-key")
    assert "views come from the referee" in _words(error)
    alice.ingest([("honest", files["allied"])])


def _views_hold_only_their_players_own(g: Game) -> dict[str, int]:
    """Checks every view each player of ``g`` received; counts what was there to check."""
    seen = {"others' decisions": 0, "own items named": 0, "events for one side": 0}
    for side in g.sides:
        other = next(s for s in g.sides if s != side)
        for _, seq, _, _, payload in g.camps[side].ledger.views(side):
            view = json.loads(payload)
            waiting = view["waiting"]
            if waiting is not None and waiting["side"] != side:
                seen["others' decisions"] += 1
                assert view["prompt"] is None, (side, seq)
                assert waiting == {"side": waiting["side"], "why": waiting["why"], "since": waiting["since"],
                                   "text": f"waiting for {waiting['side']}"}, (side, seq)
            if view["prompt"] is not None:
                assert waiting["side"] == side
            if "chosen" in view:
                own_tokens = {e["token"] for e in view["private"][side]["log"] if "choose" in e}
                assert set(view["chosen"]) <= own_tokens, (side, seq)
                for item in view["chosen"].values():  # a block set up, or what it sealed (its leaders)
                    if item.partition(":")[0] in BLOCKS:
                        assert BLOCKS[item.partition(":")[0]][1] == side, (side, seq, item)
                        seen["own items named"] += 1
                    assert not any(block in item for block, data in BLOCKS.items() if data[1] == other)
            seen["events for one side"] += sum(text.startswith(f"{side} gives orders") for text in view["events"])
            assert not any(text.startswith(f"{other} gives orders") for text in view["events"]), (side, seq)
    return seen


def test_each_view_holds_only_what_its_player_may_know(tmp_path):
    """In every view a player received, the decision and its choices are there only when the
    decision is his, the items named as his own are his own army's, and no event meant for the
    other player reaches him: a refereed block game played out, and Hill 60 for a while."""
    blocks = Game(tmp_path / "blocks", options={"turns": 1})
    blocks.play_out()
    seen = _views_hold_only_their_players_own(blocks)
    assert seen["others' decisions"] >= 3 and seen["own items named"] >= 4
    hill60 = Game(tmp_path / "hill60", module="hill60")
    for _ in range(12):
        hill60.step()
    seen = _views_hold_only_their_players_own(hill60)
    assert seen["others' decisions"] >= 3 and seen["events for one side"] >= 1


# --- item 6: a join signed by the wrong key ----------------------------------------------------------
def test_a_join_signed_by_the_wrong_key_is_refused_by_the_referee_when_it_arrives(tmp_path):
    store = KeyStore(tmp_path / "home")
    ids = {n: store.create(n) for n in ("ref", "alice", "bob")}
    ref, genesis = Campaign.new_refereed(tmp_path / "ref", "hill60", ids["ref"],
                                         {"allied": (ids["alice"].public, "alice"), "ottoman": (ids["bob"].public, "bob")})
    _, joined = Campaign.join(tmp_path / "alice", genesis.raw, ids["alice"])
    content = joined.content
    forgeries = {
        "alice's join signed by bob": (seal(ids["bob"], content), "wrong-key", "join from allied"),
        "a join in the referee's name": (seal(ids["ref"], {**content, "author": "referee"}), "wrong-key",
                                         "joins from the players"),
        "a join of another invitation": (seal(ids["alice"], {**content, "prev": "ab" * 32}), "bad-join",
                                         "join from allied"),
    }
    for what, (forged, code, words) in forgeries.items():
        error = _refused(ref, forged.raw, code)
        assert words in _words(error), what
    ref.ingest([("alice's join", joined.raw)])
    assert [side for _, _, side, _, _ in ref.ledger.views()] == ["allied"]
