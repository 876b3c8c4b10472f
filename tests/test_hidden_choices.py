"""Hidden choices forged by a player's own key, by real turn files (issue 30, items 1 and 5).

A player hides an item by choice (a concealed piece, a block set up concealed) as a commitment
token: no one can check it until it is opened. Here a dishonest tool hides what its owner does
not have, the same item twice, or never opens what it hid; each game is played on to the end,
where the opponent's tool refuses the opening a dishonest tool signs by hand (in the block game
the owner's own tool already refuses to sign it). And the markers of what a turn hides: a turn
that ends the game and hides something, an item the rules never committed (refused, never signed
in the clear), and the swap of items for their tokens.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pbem_engine.protocol import match as protocol
from pbem_engine.hidden import private
from pbem_engine.games.tabletop import orders as tabletop_orders

from pbem.chain import history
from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from pbem.chain.datapack import load
from pbem.wire.envelope import open_block, seal
from pbem.errors import PbemError
from pbem.view.report import render
from pbem.check.verify import verify_ledger
from tests.test_golden import identity
from tests.test_tabletop import CONCEALED


def _entropy(party: str):
    counter = iter(range(1000))
    return lambda n: hashlib.sha256(f"pbem/test/hidden/{party}/{next(counter)}".encode()).digest()[:n]


class Duel:
    """Two campaigns, ``sides[0]`` alice's and ``sides[1]`` bob's, exchanging real turn files."""

    def __init__(self, root: Path, module: str, sides: tuple[str, str], options: dict, tag: str) -> None:
        self.sides = sides
        alice, bob = identity("alice"), identity("bob")
        self.who = {sides[0]: alice, sides[1]: bob}
        a, genesis = Campaign.new(root / "a", module, sides[0], alice, bob.public, bob.name, None, options,
                                  entropy=_entropy("a" + tag))
        b, joined = Campaign.join(root / "b", genesis.raw, bob, entropy=_entropy("b" + tag))
        a.ingest([("join", joined.raw)])
        self.camps = {sides[0]: a, sides[1]: b}
        self.root = root

    def other(self, side: str) -> str:
        return self.sides[1 - self.sides.index(side)]

    def play(self, side: str, *orders: str, ask=None):
        result = self.camps[side].play(self.who[side], list(orders), ask)
        assert result.envelope is not None, f"{side} {orders}: only drafted"
        self.camps[self.other(side)].ingest([("test", result.envelope.raw)])
        return result.envelope

    def forge(self, side: str, body: dict, state: str | None = None) -> str:
        """``side``'s next turn file with ``body``, signed by hand with its own key: the file a
        dishonest tool sends (its state hash as the rules compute it, unless given)."""
        camp = self.camps[side]
        head = camp.ledger.head()
        content = {"v": 1, "game": camp.genesis["game"], "seq": head[0] + 1, "prev": head[1], "author": side,
                   "kind": "turn", "engine": history.engine_stamp(camp.game), "body": body, "state": ""}
        content["state"] = state or history.state_after(camp.match(), camp.genesis, content, head)
        return seal(self.who[side], content).raw

    def deliver_forged(self, raw: str) -> None:
        """Both copies take the forged file (the forger's own too, to sign its next file on it)."""
        for camp in self.camps.values():
            camp.ingest([("forged", raw)])

    def token(self, side: str, item: str) -> str:
        """The token of ``item`` hidden by ``side`` now, computed from its secret as any tool would."""
        camp = self.camps[side]
        n = camp.match()["private"][side]["n"]
        secret = bytes.fromhex(camp.private_secret())
        return private.token(camp.genesis["game"], side, n, item, private.nonce(secret, n))

    def refused(self, side: str, raw: str) -> PbemError:
        """The opponent's tool refuses ``raw``: its database unchanged, the error returned."""
        camp = self.camps[self.other(side)]
        before = camp.ledger.head()
        with pytest.raises(PbemError) as e:
            camp.ingest([("forged", raw)])
        assert camp.ledger.head() == before
        return e.value


def _words(error: PbemError) -> str:
    return f"{error} {error.detail}"


# --- a concealed piece of a table-top pack (a pool of the side's own pieces) -------------------
@pytest.fixture
def spies(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(CONCEALED)
    d = Duel(tmp_path, "tabletop", ("red", "blue"), {"pack": load(tmp_path / "pack")}, tmp_path.name)
    d.play("red", "pass")
    return d


def _deploy(d: Duel, item: str, to: str = "hill") -> dict[str, str]:
    """blue deploys ``item`` concealed, as a dishonest tool does: the token computed by hand
    (its own tool's rules would refuse the item). What it hid: {token: item}."""
    tok = d.token("blue", item)
    raw = d.forge("blue", {"reveal": d.camps["blue"].next_link(),
                           "actions": [{"do": "deploy", "piece": tok, "to": to}, {"do": "pass"}]})
    d.deliver_forged(raw)  # red cannot tell: it sees a token
    d.play("red", "pass")
    return {tok: item}


def _end_with_secret(d: Duel, forged: dict[str, str]) -> PbemError:
    """blue's orders end the game with its secret and every item it hid (``forged`` too): the
    file a dishonest tool signs by hand, refused by red's, which keeps it as evidence."""
    blue = d.camps["blue"]
    body = {"reveal": blue.next_link(), "actions": [{"do": "end", "result": "blue ends it"}],
            "private_secret": blue.private_secret(), "private_chosen": {**blue.chosen_items(), **forged}}
    error = d.refused("blue", d.forge("blue", body, state="0" * 64))
    assert error.code == "cheating", _words(error)
    evidence = list((d.camps["red"].dir / "evidence").glob("*.pbem"))
    assert len(evidence) == 1  # the signed lie is kept
    return error


def test_a_concealed_piece_not_in_the_players_pool_is_cheating_at_the_end(spies):
    forged = _deploy(spies, "red-guard")  # red's piece, deployed as blue's: not in blue's pool
    error = _end_with_secret(spies, forged)
    assert "blue's hidden choice in envelope #3 is not an item of its concealed" in _words(error)


def test_a_piece_that_is_no_piece_of_the_pack_is_cheating_at_the_end(spies):
    forged = _deploy(spies, "blue-spy-three")
    assert "is not an item of its concealed" in _words(_end_with_secret(spies, forged))


def test_the_same_concealed_piece_deployed_twice_is_cheating_at_the_end(spies):
    spies.play("blue", "deploy spy one to hill", "pass")  # honestly, by its own tool
    spies.play("red", "pass")
    forged = _deploy(spies, "blue-spy-one", "ford")  # and again: its pool holds one Spy One
    error = _end_with_secret(spies, forged)
    assert "blue's hidden choice in envelope #5 is not an item of its concealed" in _words(error)


def test_a_hidden_choice_never_opened_at_the_end_is_cheating(spies):
    spies.play("blue", "deploy spy one to hill", "pass")
    spies.play("red", "pass")
    blue = spies.camps["blue"]
    body = {"reveal": blue.next_link(), "actions": [{"do": "end", "result": "blue ends it"}],
            "private_secret": blue.private_secret()}  # and no private_chosen: Spy One stays hidden
    error = spies.refused("blue", spies.forge("blue", body, state="0" * 64))
    assert error.code == "cheating" and "blue never opened the item it hid in envelope #3" in _words(error)
    # an honest end opens it, and both copies verify
    spies.play("blue", "end blue ends it")
    for camp in spies.camps.values():
        assert verify_ledger(camp.ledger).summary().startswith("OK: ")


# --- a block of the block game (sealed as text: the rules check it when it is opened) --------------
def _block_game_with_setup(tmp_path: Path, deploy: list[tuple[str, str]]) -> tuple[Duel, str]:
    """A one-turn block game whose Ottoman set-up is ``deploy`` ((block:steps, space) pairs), signed
    by bob's tool past its order parser (which refuses a block already on the board), then played
    to the decision that opens every concealed block. Returns the duel and the set-up's file."""
    from pbem.commands.demo import policy

    d = Duel(tmp_path, "gallipoli-blocks", ("allied", "ottoman"), {"turns": 1}, tmp_path.name)
    d.play("allied")  # its opening reveal
    bob = d.camps["ottoman"]
    actions = [{"do": "deploy", "at": at, "block": {"$hide": block}} for block, at in deploy] + [{"do": "done"}]
    setup = bob.sign_turn(d.who["ottoman"], {"reveal": bob.next_link(), "actions": actions})
    d.camps["allied"].ingest([("set-up", setup.raw)])  # a token for each block: allied cannot tell
    while (waiting := d.camps["allied"].waiting())["side"] != "ottoman" or "open your concealed" not in waiting["text"]:
        d.play(waiting["side"], ask=policy(d.camps[waiting["side"]]))
    return d, setup.raw


def _open_by_hand(d: Duel) -> PbemError:
    """bob's own tool refuses to open his blocks; the opening signed by hand is refused by allied's."""
    bob = d.camps["ottoman"]
    with pytest.raises(PbemError) as own:
        bob.play(d.who["ottoman"], ["1"])
    match = bob.match()
    _, known = private.simulate(match["game_id"], "ottoman", match["private"]["ottoman"],
                                bytes.fromhex(bob.private_secret()), bob.chosen_items())
    concealed = [t for t, b in match["game"]["blocks"].items() if b["army"] == "ottoman" and b["id"] is None]
    body = {"reveal": bob.next_link(), "actions": [{"do": "open"}], "private": {"open": {t: known[t] for t in concealed}}}
    error = d.refused("ottoman", d.forge("ottoman", body, state="0" * 64))
    assert _words(own.value).split("cheating: ")[1] in _words(error)
    return error


def test_a_block_set_up_twice_is_refused_when_the_blocks_are_opened(tmp_path):
    d, _ = _block_game_with_setup(tmp_path, [("ott-9-div-25-rgt:4", "krithia"), ("ott-9-div-25-rgt:4", "achi-baba")])
    error = _open_by_hand(d)
    assert "cheating: 9th Div / 25th Rgt is on the board twice" in _words(error)


def test_a_block_of_the_other_army_set_up_as_ones_own_is_refused_when_opened(tmp_path):
    d, _ = _block_game_with_setup(tmp_path, [("anzac-1-div-2-bde:4", "krithia")])
    assert "cheating: a ottoman token opened as anzac-1-div-2-bde" in _words(_open_by_hand(d))


# --- the markers of what a turn hides ------------------------------------------------------------
def _signed(raw: str) -> dict:
    return open_block(find_blocks(raw)[0]).content


def test_orders_that_end_the_game_and_hide_something_open_it_in_the_next_file(spies):
    """The opening of what a turn hides is known only once the turn is signed, so a turn that
    ends the game and hides something leaves the secret to the next file (which opens it)."""
    last = spies.play("blue", "deploy spy one to hill", "end blue ends it")
    assert "private_secret" not in _signed(last.raw)["body"]
    waiting = spies.camps["red"].waiting()
    assert (waiting["side"], waiting["why"]) == ("blue", "secret")
    reveal = _signed(spies.play("blue").raw)["body"]
    assert set(reveal["private_chosen"].values()) == {"blue-spy-one"} and reveal["private_secret"]
    assert spies.camps["red"].waiting() is None
    for camp in spies.camps.values():
        assert verify_ledger(camp.ledger).summary().startswith("OK: ")
    assert "blue-spy-one" not in last.raw and "Spy One" in render(spies.camps["red"], "text", since=-1)


def test_hidden_items_go_out_as_their_tokens_each_in_its_place(spies):
    """Two pieces hidden in one turn: the signed orders carry two tokens, in the order of the
    orders, each the commitment to the piece deployed there; no piece is named."""
    envelope = spies.play("blue", "deploy spy two to hill", "deploy spy one to ford", "pass")
    content = _signed(envelope.raw)
    deployed = [a["piece"] for a in content["body"]["actions"] if a["do"] == "deploy"]
    chosen = spies.camps["blue"].chosen_items()
    assert [chosen[tok] for tok in deployed] == ["blue-spy-two", "blue-spy-one"]
    assert "blue-spy" not in json.dumps(content)
    spies.play("red", "pass")
    spies.play("blue", "end blue ends it")  # both open at the end, each against its own commitment
    for camp in spies.camps.values():
        assert verify_ledger(camp.ledger).summary().startswith("OK: ")
    hidden = spies.camps["red"].match()["game"]["hidden"]
    names = render(spies.camps["red"], "text", since=-1)
    assert {hidden[tok]["at"] for tok in deployed} == {"hill", "ford"} and "Spy Two" in names


def test_an_item_the_rules_never_committed_is_refused_and_never_signed_in_the_clear(spies, monkeypatch):
    """A rule that hides nothing where the orders mark an item hidden (here, a deploy that forgets
    to commit its piece) leaves no token for it: the tool refuses to sign, and stores nothing."""
    def careless(game, state, side, a, dice):
        return [f"{side} deploys something at {a['to']}"]

    monkeypatch.setitem(tabletop_orders.HANDLERS, "deploy", careless)
    blue = spies.camps["blue"]
    head = blue.ledger.head()
    with pytest.raises(PbemError) as e:
        blue.play(spies.who["blue"], ["deploy spy one to hill", "pass"])
    assert e.value.code == "bad-private" and "a hidden choice was not committed" in _words(e.value)
    assert blue.ledger.head() == head
    assert not any("blue-spy-one" in path.read_text() for path in (blue.dir / "sent").glob("*.pbem"))
    with pytest.raises(protocol.ProtocolError):
        protocol.swap_hidden([{"do": "deploy", "piece": {"$hide": "blue-spy-one"}}, {"$hide": "x"}], ["ab" * 32])


def test_a_hidden_choice_opened_at_the_end_as_another_item_is_cheating(spies):
    spies.play("blue", "deploy spy one to hill", "pass")
    spies.play("red", "pass")
    (tok,) = spies.camps["blue"].chosen_items()
    error = _end_with_secret(spies, {tok: "blue-spy-two"})  # the other spy, under Spy One's token
    assert "blue's hidden choice in envelope #3 is not an item of its concealed" in _words(error)


@pytest.mark.parametrize("piece, words", [({"$hide": "blue-spy-one"}, "a hidden choice must travel as its token"),
                                          ("abc", "a hidden choice must be a 64-hex token")])
def test_a_hidden_choice_that_is_not_a_token_is_refused_at_once(spies, piece, words):
    blue = spies.camps["blue"]
    raw = spies.forge("blue", {"reveal": blue.next_link(), "actions": [{"do": "deploy", "piece": piece, "to": "hill"}]},
                      state="0" * 64)
    error = spies.refused("blue", raw)
    assert error.code == "bad-private" and words in _words(error), _words(error)


def _from_honest(d: Duel, side: str, orders: list[str], change) -> str:
    """``side``'s honest turn file for ``orders``, changed by ``change(body)`` and signed again."""
    envelope = d.camps[side].play(d.who[side], orders).envelope
    content = json.loads(json.dumps(envelope.content))
    change(content["body"])
    return seal(d.who[side], content).raw


@pytest.mark.parametrize("change, words", [
    (lambda body: body["private"]["draws"].append(list(body["private"]["draws"][0])),
     "the envelope carries 2 private draws, the rules made 1"),
    (lambda body: body["private"]["draws"][0].append("ab" * 32),
     "the envelope does not carry the 1 private draw(s) of red's red-deck the rules make here"),
])
def test_private_draws_other_than_the_rules_make_are_refused(spies, change, words):
    spies.play("blue", "pass")
    raw = _from_honest(spies, "red", ["draw 1 from red orders", "pass"], change)
    error = spies.refused("red", raw)
    assert error.code == "bad-private" and words in _words(error), _words(error)


def test_a_secret_other_than_the_committed_one_is_refused_with_nothing_hidden_to_check(spies):
    """red hid and drew nothing, so no draw would expose a false secret: its anchor does."""
    spies.play("blue", "end blue ends it")
    red = spies.camps["red"]
    raw = spies.forge("red", {"reveal": red.next_link(), "actions": [], "private_secret": "5e" * 32}, state="0" * 64)
    error = spies.refused("red", raw)
    assert error.code == "cheating" and "red's revealed private secret is not the one it committed to" in _words(error)
