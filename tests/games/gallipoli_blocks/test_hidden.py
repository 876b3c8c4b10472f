"""Hidden information in the block game, tested on the bytes that travel.

Each side's envelopes (the signed bodies its opponent receives) must never name
one of its concealed blocks or a card still in its hand or face down; what the
rules open travels only as an opening of its token.  The situation report
shows the enemy's concealed blocks as concealed and one's own by name.  And a
tool that seals what the rules forbid, or lies about what a concealed block
lost, is caught when the block is opened.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import canonical_json
from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.gallipoli_blocks import GAME, board, bot
from pbem_engine.games.gallipoli_blocks.cards import table
from pbem_engine.games.gallipoli_blocks.data import BLOCKS
from pbem_engine.hidden.private import simulate
from pbem.chain.hidden import public_knowledge, show, show_prompt

from .driver import GID, Table
from .test_random_play import legal_random_chooser

CARDS = table()


# ------------------------------------------------------------------ what is concealed now
def item_id(item: str) -> str:
    """A block's or card's id from a sealed item ("<block>:<steps>", a dummy, a card)."""
    return item.partition(":")[0]


def hidden_tokens(t: Table, army: str) -> list[str]:
    """``army``'s tokens whose items the rules have not revealed: blocks on the board still
    sealed, cards in hand and cards face down in a battle before their reveal."""
    state = t.state
    toks = [tok for tok, b in state["blocks"].items() if b["army"] == army and b["id"] is None]
    toks += state["hands"][army]
    for f in state["frames"]:  # a reinforcement plan's sealed blocks, not yet on the board (sequence.offer_plan)
        if f["k"] in ("deploy", "event"):
            toks += [tok for tok, b in (f.get("plan") or {}).items() if b["army"] == army]
        if f["k"] == "battle":
            for who, steps in (("att", ("bombard", "entrench", "show-def", "show-att")),
                               ("def", ("bombard", "entrench", "show-def"))):
                if f[who] == army and f["step"] in steps:
                    toks += f["cards"][who]
    return toks


def concealed(t: Table, army: str) -> tuple[set[str], set[str]]:
    """(block ids, card ids) of ``army``'s items the rules have not revealed (``hidden_tokens``)."""
    known = t.known(board.seat(t.state, army))
    items = {item_id(known[tok]) for tok in hidden_tokens(t, army)}
    return {i for i in items if i in BLOCKS}, {i for i in items if i in CARDS}


def ever_public(t: Table, army: str) -> set[str]:
    """Ids of ``army``'s items made public at some time: opened by the rules (a block may die and
    be deployed again; a discarded card may be shuffled back and drawn again), or named by a card
    that brings them (which token is which block stays concealed)."""
    record = t.m["private"][board.seat(t.state, army)]
    out = {item_id(v) for v in record["opened"].values()}
    for entry in record["log"]:
        out |= set(entry.get("items", []))
    for b in list(t.state["blocks"].values()) + list(t.state["gone"].values()):
        out |= set(b.get("entering", []))  # an Allied reinforcement card names the blocks it brings (8.2.1)
    for f in t.state["frames"]:
        out |= set(f.get("blocks", [])) if f["k"] == "reinforce" else set()
    return out | set(t.state["discard"][army]) | set(t.state["removed"][army])


def without_openings(body: dict[str, Any]) -> dict[str, Any]:
    private = {k: v for k, v in body.get("private", {}).items() if k != "open"}
    return dict({k: v for k, v in body.items() if k != "private"}, private=private)


def names_of(ids: set[str]) -> list[str]:
    return [BLOCKS[i][0] if i in BLOCKS else CARDS[i]["name"] for i in sorted(ids)]


def check_envelope(t: Table, events_before: int) -> None:
    """The envelope just sent names no item its author still conceals; what it opens, the rules opened."""
    side, body = t.bodies[-1]
    army = board.army_of(t.state, side)
    blocks, cards = concealed(t, army)
    sent = canonical_json(without_openings(body)).decode()
    for secret in sorted(blocks | cards):
        assert secret not in sent, f"{side}'s envelope #{len(t.bodies)} names its concealed {secret}"
    record = t.m["private"][side]
    for tok in body.get("private", {}).get("open", {}):
        assert tok in record["opened"], f"{side} opened {tok[:12]}, which the rules did not reveal"
    if t.m["pending"] is None:  # what the envelope opened, the rules revealed (no longer concealed)
        # (with a sealed roll pending, the author has declared an action that opens its card or
        # blocks once the dice are known; the opening travels with the declaration, committed)
        still = set(hidden_tokens(t, army))
        for tok in body.get("private", {}).get("open", {}):
            assert tok not in still, f"{side} opened {tok[:12]}, which stays concealed"
    if record["secret"] is not None:  # the end: the secret opens every draw to both
        return
    # nothing kept by both tools (the match record, the events) names an item never revealed
    fresh = (blocks | cards) - ever_public(t, army)
    private = {s: {k: v for k, v in r.items() if k != "initial"} for s, r in t.m["private"].items()}
    record_text = canonical_json(dict(t.m, private=private)).decode()  # (less the decks' public contents)
    other = board.enemy(army)
    opponent = {**public_knowledge(GID, t.m), **t.known(board.seat(t.state, other))}
    shown = "\n".join(show(e, opponent, GAME) for e in t.events[events_before:])
    shown += "\n" + "\n".join(show(line, opponent, GAME) for line in GAME.describe(GAME.view(t.state, other)))
    prompt = GAME.prompt(t.state)
    shown += "\n" + "\n".join([show_prompt(prompt, opponent, GAME).text]
                              + [c.label for c in show_prompt(prompt, opponent, GAME).choices])
    shown = shown.replace("closed until Suvla Bay Invasion", "")  # the report's header names that card always
    for secret in sorted(fresh):
        assert secret not in record_text, f"the match record names {army}'s concealed {secret}"
    for name in names_of({i for i in fresh if i in BLOCKS}) + names_of({i for i in fresh if i in CARDS}):
        assert name not in shown, f"{other} is shown {army}'s concealed {name}"


def play_checked(t: Table, chooser: Any, limit: int = 2000) -> None:
    for _ in range(limit):
        before = len(t.events)
        if not t.step(chooser):
            return
        check_envelope(t, before)
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------ leaks
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_envelopes_never_name_concealed_items(seed: int) -> None:
    t = Table(options={"turns": 5}, seed=seed, mode="sealed" if seed % 2 else "unsealed")
    chooser = None if seed <= 2 else legal_random_chooser(random.Random(seed))  # the bot, or random choices
    play_checked(t, chooser)
    assert t.waiting() is None and t.state["result"] is not None
    # the game opened blocks on the way and at the end: the test saw openings travel
    opened = [tok for _, body in t.bodies for tok in body.get("private", {}).get("open", {})]
    assert opened


def test_a_reinforcement_plan_names_no_block_it_seals() -> None:
    """The Ottoman's reinforcement plan (sequence.offer_plan) travels as sealed tokens, before the
    Allies answer the response window: the envelope that carries it names none of its blocks."""
    t = Table(options={"turns": 4}, seed=1)
    play_checked(t, None)  # the bot gives its plans; check_envelope counts a plan's tokens as concealed
    planned = [i for i, (side, body) in enumerate(t.bodies) if side == "ottoman"
               and any(a.get("do") == "done" for a in body["actions"]) and any(
                   a.get("do") == "play" for a in body["actions"])]
    assert planned, "no reinforcement plan was given"
    for i in planned:
        text = canonical_json(without_openings(t.bodies[i][1])).decode()
        assert not [b for b in BLOCKS if b.startswith("ott-") and b in text]


def test_every_ottoman_block_stays_unnamed_until_revealed() -> None:
    """Concretely: 'ott-9-div-25-rgt' (or 'ott-9-div-25-rgt:<steps>') travels in an Ottoman
    envelope only inside the opening of the token the rules reveal."""
    t = Table(options={"turns": 4}, seed=11)
    play_checked(t, legal_random_chooser(random.Random(11)))
    seen = set()
    for side, body in t.bodies:
        if side != "ottoman" or "private_secret" in body:  # (the secret names its hidden choices)
            continue
        text = canonical_json(without_openings(body)).decode()
        assert not [b for b in BLOCKS if b.startswith("ott-") and b in text]
        assert not [c for c, v in CARDS.items() if v["army"] == "ottoman" and c in text]
        seen |= {item_id(o["item"]) for o in body.get("private", {}).get("open", {}).values()}
    assert "ott-9-div-25-rgt" in seen  # the bot's set-up block, opened at the latest at the end


def test_describe_names_own_items_and_conceals_the_enemy() -> None:
    t = Table(options={"turns": 20}, seed=5)
    while t.state["turn"] < 2 and t.step():
        pass
    state = t.state
    assert state["result"] is None
    public = public_knowledge(GID, t.m)
    for army in board.ARMIES:
        side, other = board.seat(state, army), board.seat(state, board.enemy(army))
        text = "\n".join(GAME.describe(GAME.view(state, other)))
        mine = {**public, **t.known(side)}
        hidden_toks = [tok for tok, b in state["blocks"].items() if b["army"] == army and b["id"] is None]
        assert hidden_toks, f"{army} has no concealed block to test"
        fresh = {item_id(mine[tok]) for tok in hidden_toks} - ever_public(t, army)
        for knowledge in (public, {**public, **t.known(other)}):  # what anyone / the opponent may know
            theirs = show(text, knowledge, GAME)
            assert theirs.count(f"a concealed block ({army}") == len(hidden_toks)
            for name in names_of(fresh):
                assert name not in theirs
            hand = state["hands"][army]
            assert f"{army} hand ({len(hand)}):" + "".join(["\n    a concealed card"] * len(hand)) in theirs
        own = show("\n".join(GAME.describe(GAME.view(state, side))), mine, GAME)
        assert f"a concealed block ({army}" not in own
        for tok in hidden_toks:
            assert f"{GAME.item_name(mine[tok])} ({army}" in own
        for tok in state["hands"][army]:
            assert CARDS[mine[tok]]["name"] in own


# ------------------------------------------------------------------ cheating caught at the opening
def passive(orders: list[str]):
    """The Ottoman set-up as ``orders``; then both sides only draw cards (no battle opens a block early)."""

    def choose(state: dict[str, Any], side: str, prompt: Any, known: dict[str, str]) -> str:
        frame = state["frames"][-1]
        if frame["k"] == "deploy" and frame["origin"] == "setup":
            return orders[frame["placed"]] if frame["placed"] < len(orders) else "done"
        for i, c in enumerate(prompt.choices):
            if c.action.get("do") == "draw":
                return str(i + 1)
        return bot.order(state, side, prompt, known)

    return choose


def run_to_ottoman_final(t: Table, chooser: Any) -> None:
    while not (t.state["frames"][-1]["k"] == "final" and t.waiting()["side"] == "ottoman"):
        assert t.step(chooser)


def forged_final(t: Table) -> dict[str, Any]:
    """The Ottoman's final envelope as it would be signed: its blocks opened with its true seals."""
    _, openings = simulate(GID, "ottoman", t.m["private"]["ottoman"], t.secrets["ottoman"], t.chosen["ottoman"])
    toks = [tok for tok, b in t.state["blocks"].items() if b["army"] == "ottoman" and b["id"] is None]
    reveal = t.chains["ottoman"][t.m["chains"]["ottoman"]["index"] + 1].hex()
    return {"reveal": reveal, "actions": [{"do": "open"}], "private": {"open": {tok: openings[tok] for tok in toks}}}


def test_more_than_nine_southern_steps_is_caught_when_opened(monkeypatch) -> None:
    from pbem_engine.chance.dice import Dice

    t = Table(options={"turns": 1}, seed=7)
    cheat = passive(["deploy ott-9-div-25-rgt 4 krithia", "deploy ott-9-div-26-rgt 4 achi-baba",
                     "deploy ott-9-div-27-rgt 4 sedd-el-bahr", "deploy ott-19-div-57-rgt 4 maidos"])
    with monkeypatch.context() as patched:  # a modified tool that skips the owner's own quota check
        patched.setattr(Dice, "own_item", lambda self, side, token: None)
        run_to_ottoman_final(t, cheat)  # the sealed set-up was accepted: no one could see the steps
    assert len(board.tokens(t.state, army="ottoman")) == 4
    with pytest.raises(IllegalAction, match="cheating.*more than 9 steps.*setup:south"):
        protocol.advance(GAME, t.m, t.seq + 1, "ottoman", forged_final(t))  # the Allied tool replays it
    with pytest.raises(IllegalAction, match="cheating"):
        t.step(cheat)  # and the Ottoman's own tool will not build it


def test_nine_southern_steps_open_cleanly() -> None:
    t = Table(options={"turns": 1}, seed=7)
    honest = passive(["deploy ott-9-div-25-rgt 4 krithia", "deploy ott-9-div-26-rgt 3 achi-baba",
                      "deploy ott-9-div-27-rgt 2 sedd-el-bahr", "deploy ott-19-div-57-rgt 4 maidos"])
    run_to_ottoman_final(t, honest)
    protocol.advance(GAME, t.m, t.seq + 1, "ottoman", forged_final(t))
    while t.step(honest):
        pass
    assert t.state["result"]["result"] == "game stopped"
    assert all(b["id"] is not None for b in t.state["blocks"].values())


def cut_off(eliminated: bool) -> Table:
    """A 1-step Ottoman block at Gully Ravine, cut from its HQ by Allied blocks at Alexi and Krithia
    (put there directly: the test sets the board, as the owners might by agreement), comes to the
    supply check of turn 1; the Ottoman reports it eliminated, or lies that it only lost a step."""
    t = Table(options={"turns": 1}, seed=9)
    chooser = passive(["deploy ott-9-div-27-rgt 1 gully-ravine", "deploy ott-9-div-25-rgt 4 achi-baba"])
    while not (t.state["frames"][-1]["k"] == "phase" and t.state["frames"][-1]["army"] == "ottoman"):
        assert t.step(chooser)
    allied = board.tokens(t.state, "british-hq", "allied")
    t.state["blocks"][allied[0]]["at"], t.state["blocks"][allied[1]]["at"] = "alexi", "krithia"
    gully = board.tokens(t.state, "gully-ravine", "ottoman")
    assert len(gully) == 1
    t.send("ottoman", [{"do": "draw"}, {"do": "supply", "spared": [], "eliminated": gully if eliminated else []}])
    assert t.state["result"] is not None  # the victory check of the last turn came next
    return t


def test_supply_elimination_is_shown() -> None:
    t = cut_off(eliminated=True)
    assert any("out of supply: 9th Div / 27th Rgt" in e and "eliminated" in e for e in t.events)
    while t.step(passive([])):
        pass
    assert t.waiting() is None


def test_lying_about_a_supply_survivor_is_caught_when_opened() -> None:
    t = cut_off(eliminated=False)
    assert any("a concealed block at Gully Ravine loses a step" in e for e in t.events)
    run_to_ottoman_final(t, passive([]))
    with pytest.raises(IllegalAction, match="cheating.*should have been eliminated by its hits"):
        protocol.advance(GAME, t.m, t.seq + 1, "ottoman", forged_final(t))
    with pytest.raises(IllegalAction, match="cheating"):
        t.step(passive([]))
