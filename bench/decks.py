"""Shared decks (pbem_engine.hidden.deck): what a shuffle, a draw and a close combat's fresh deck cost.

Each is timed as both tools run it (the author builds each message, a receiver checks and
applies it) and reported as a ratio to the same number of bare built-in ``pow`` 2048-bit
exponentiations, counted during the run and timed in the same run: ``pow`` is the floor.
The floor is timed just before and just after the work and the faster of the two is kept,
so a busy machine makes the ratio look worse, never better.

``pbem verify`` of a finished game with such a deck is measured the same way (target 1.5x its
exponentiation floor): two campaigns play the Assault on Gallipoli pack's 54 Action Cards in
table-top mode (a shuffle, draws, a play, both secrets revealed at the end), then the whole
``verify_path`` of one campaign is timed with the engine's deck caches emptied, as a fresh
``pbem verify`` process starts, against the bare ``pow`` calls it made.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pbem_engine.hidden import deck as D
from pbem_engine.hidden import deck_group, deck_table

SIDES = ["allied", "ottoman"]
SECRETS = {"allied": b"bench allied secret", "ottoman": b"bench ottoman secret"}


class _Counter:
    """Counts the modular exponentiations pbem_engine.hidden.deck makes (not inverses or squarings)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, base: int, exp: int, mod: int | None = None) -> int:
        if mod is not None and exp.bit_length() > 64:
            self.count += 1
        return pow(base, exp, mod)


# every engine module that calls ``pow`` (pbem_engine.hidden.deck_audit works through pbem_engine.hidden.deck)
POW_MODULES = (D, deck_group, deck_table)


def _timed(work: Callable[[], Any], expected: int) -> tuple[float, int, float, Any]:
    """(time, exponentiations counted, floor for that many, result); ``expected`` sizes the first floor."""
    before = _floor(expected)
    counter = _Counter()
    for module in POW_MODULES:
        module.pow = counter  # shadows the built-in inside the engine's deck modules for this run only
    try:
        start = time.perf_counter()
        result = work()
        elapsed = time.perf_counter() - start
    finally:
        for module in POW_MODULES:
            del module.pow
    floor = min(before * counter.count / max(expected, 1), _floor(counter.count))
    return elapsed, counter.count, floor, result


def _floor(count: int) -> float:
    keys = D.Keys(b"bench floor", "bench", "floor", "x", 0)
    bases = [D.encode("bench", "floor", f"c{i}") for i in range(count)]
    exps = [keys.position(i) for i in range(count)]
    start = time.perf_counter()
    for b, e in zip(bases, exps):
        pow(b, e, D.P)
    return time.perf_counter() - start


def _deal(deck_id: str, count: int) -> dict[str, Any]:
    """A fresh deck of ``count`` cards, shuffled and re-keyed by both sides."""
    cards = [f"card-{i:02d}" for i in range(count)]
    state = D.new_deck("bench", deck_id, SIDES, cards)
    state = D.apply(state, D.begin(state, SIDES[0], cards))
    for _, side in D.plan(state["shuffles"][-1]):
        state = D.apply(state, D.step(state, side, SECRETS[side], "nonce"))
    return state


def _draws(state: dict[str, Any], count: int) -> dict[str, Any]:
    drawer, giver = SIDES
    for _ in range(count):
        ref = state["pile"][0]
        state = D.apply(state, D.draw(state, drawer))
        state = D.apply(state, D.release(state, giver, SECRETS[giver], [ref]))
        D.read(state, drawer, SECRETS[drawer], ref)
    return state


def report(echo: Callable[[str], None], cards: int = 54, combat: int = 36, draws: int = 5) -> dict[str, float]:
    out = {}
    t, n, floor, state = _timed(lambda: _deal("action", cards), 3 * cards)
    out["shuffle_ratio"] = t / floor
    echo(f"shared deck, {cards} cards shuffled and re-keyed by both sides (3 turn files): {t:.2f} s, "
         f"{n} exponentiations; floor ({n} x pow 2048-bit) {floor:.2f} s; ratio {t / floor:.2f}")
    draws = min(draws, cards)
    t, n, floor, _ = _timed(lambda: _draws(state, draws), draws)
    out["draw_ratio"] = t / floor
    echo(f"shared deck, one draw (the other's key checked, the card opened): {t / draws * 1000:.0f} ms, "
         f"{n // draws} exponentiation(s); floor {floor / draws * 1000:.0f} ms; ratio {t / floor:.2f}")
    t, n, floor, _ = _timed(lambda: _deal("close-combat-1", combat), 3 * combat)
    out["combat_ratio"] = t / floor
    echo(f"close combat, a fresh {combat}-card deck shuffled and re-keyed: {t:.2f} s, {n} exponentiations; "
         f"floor {floor:.2f} s; ratio {t / floor:.2f}")
    out.update(report_verify(echo))
    return out


# -- pbem verify of a finished game with a shared deck ------------------------------------------
VERIFY_TARGET = 1.5


def _empty_caches() -> None:
    """The engine's per-process deck caches (a shuffle step, the end-of-game audit, a card table,
    a card read): empty, as in a fresh ``pbem verify`` process."""
    for cached in (deck_table._step_cached, deck_table._audit, deck_table._read, D.card_table):
        cached.cache_clear()


def verify_game(root) -> tuple[Any, str]:
    """Two campaigns in ``root`` play a short table-top game of the Assault on Gallipoli pack to its
    end: the 54 Action Cards shuffled, 5 and 4 cards drawn, one played face up, both private secrets
    revealed.  Returns the first campaign's folder and what was played."""
    from pbem.chain.datapack import load, shipped

    pack = load(shipped()["assault-on-gallipoli"])
    t = _Table(root, "verify", pack)
    first, second = t.sides
    try:
        t.play(first, "shuffle action card deck", "pass")  # begin and its shuffle
        t.play(second, "pass")  # its shuffle-rekey
        t.play(first, "draw 5 from action card deck", "pass")  # its rekey, the draw
        t.play(second, "draw 4 from action card deck", "pass")  # its keys for the first's draw ride here
        known = t.camps[first].knowledge()
        card = next(known[c] for c in t.camps[first].match()["game"]["hands"][first] if c in known)
        name = next(c["name"] for c in pack["card"] if c["id"] == card.split("#")[0])
        t.play(first, f"play {name}", "pass")  # face up, with its key: checked at once
        while (side := t.waits()) is not None:
            t.play(side)
        t.play(t.camps[first].waiting()["side"], "end the bench game is over")
        while (waiting := t.camps[first].waiting()) is not None:  # the last secret
            assert waiting["why"] == "secret", waiting
            t.play(waiting["side"])
        size = len(t.camps[first].match()["decks"]["action-deck"]["state"]["cards"])
        what = (f"{pack['pack']['title']}, {size} Action Cards shuffled, 9 drawn, 1 played, both secrets "
                f"revealed")
    finally:
        t.close()
    return root / "a", what


def report_verify(echo: Callable[[str], None]) -> dict[str, float]:
    """``pbem verify`` of a finished game with a shared deck, as a ratio to the bare ``pow`` calls it makes."""
    import tempfile
    from pathlib import Path

    from pbem.check.verify import verify_path

    with tempfile.TemporaryDirectory(prefix="pbem-bench-verify-") as tmp:
        folder, what = verify_game(Path(tmp))
        _empty_caches()
        t, n, floor, verified = _timed(lambda: verify_path(folder), 3 * 54 + 2)
    assert verified.decks_note.endswith("recomputed from both sides' secrets"), verified.decks_note
    ratio = t / floor
    echo(f"verify of a game with a shared deck: {n} exponentiations, ratio {ratio:.2f} to their bare cost "
         f"(target {VERIFY_TARGET}) {'OK' if ratio <= VERIFY_TARGET else 'MISSED'}; verify {t:.2f} s, floor "
         f"({n} x pow 2048-bit) {floor:.2f} s; the game: {what}, {verified.envelopes} envelopes")
    return {"verify_game_ratio": ratio, "verify_game_exponentiations": n}


# -- turn files: the small cases played by two campaigns exchanging real turn files ------------
PACK = """
[pack]
id = "bench-duel"
title = "Card duel (bench)"
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
count = 3
provisional = false

[[card]]
id = "ambush"
deck = "tricks"
name = "Ambush"
count = 3
provisional = false

[[scenario]]
id = "duel"
name = "A duel"
provisional = false
"""


class _Table:
    """Two campaigns in ``root`` playing the bench pack (or ``pack``) in table-top mode; counts every turn file
    and the deck messages each carries."""

    def __init__(self, root, tag: str, pack: dict[str, Any] | None = None) -> None:
        import hashlib

        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from pbem.play.campaign import Campaign
        from pbem.chain.datapack import load
        from pbem.wire.keys import Identity

        if pack is None:
            (root / "pack").mkdir()
            (root / "pack" / "pack.toml").write_text(PACK)
            pack = load(root / "pack")
        self.sides = list(pack["pack"]["sides"])
        first, second = self.sides

        def entropy(party: str):
            counter = iter(range(10**9))
            return lambda n: hashlib.sha256(f"pbem/bench/decks/{tag}/{party}/{next(counter)}".encode()).digest()[:n]

        one, two = (Identity(n, Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"{tag}{n}".encode()).digest()))
                    for n in self.sides)
        a, genesis = Campaign.new(root / "a", "tabletop", first, one, two.public, second, None, {"pack": pack},
                                  entropy=entropy("a"))
        b, joined = Campaign.join(root / "b", genesis.raw, two, entropy=entropy("b"))
        a.ingest([("join", joined.raw)])
        self.camps, self.who = {first: a, second: b}, {first: one, second: two}
        self.files: list[tuple[str, int, list[str]]] = []  # (author, orders, the ops of its deck messages)

    def play(self, side: str, *orders: str) -> None:
        from pbem.wire.armor import find_blocks
        from pbem.wire.envelope import open_block

        result = self.camps[side].play(self.who[side], list(orders))
        other = self.sides[1 - self.sides.index(side)]
        self.camps[other].ingest([("bench", result.envelope.raw)])
        body = open_block(find_blocks(result.envelope.raw)[0]).content["body"]
        self.files.append((side, len(body.get("actions", [])), [m["op"] for _, m in body.get("decks", [])]))

    def waits(self) -> str | None:
        waiting = self.camps[self.sides[0]].waiting()
        return waiting["side"] if waiting and waiting["why"] == "deck" else None

    def readable(self, side: str) -> int:
        camp = self.camps[side]
        known = camp.knowledge()
        return sum(c in known for c in camp.match()["game"]["hands"][side])

    def close(self) -> None:
        for camp in self.camps.values():
            camp.ledger.close()


def turn_files() -> dict[str, int]:
    """Play each small case and count: the turn files that carry no orders (sent only because a
    deck waits for them), and the deck messages of a fresh shuffle with the files they rode on."""
    import tempfile
    from pathlib import Path

    out = {}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-decks-") as tmp:
        t = _Table(Path(tmp), "files")
        try:
            start = len(t.files)
            t.play("red", "shuffle tricks", "pass")  # begin and red's shuffle
            t.play("blue", "pass")  # blue's shuffle-rekey rides on its hand-over
            t.play("red", "draw 1 from tricks", "pass")  # red's rekey rides here, then the draw and the hand-over
            shuffle = t.files[start:]
            steps = [[op for op in ops if op in ("lock", "shuffle", "shuffle-rekey", "rekey")] for _, _, ops in shuffle]
            out["shuffle_messages"] = sum(len(s) for s in steps)
            out["shuffle_files"] = sum(1 for s in steps if s)
            out["shuffle_extra"] = sum(1 for _, n, _ in shuffle if n == 0)
            # a draw with a hand-over: blue's keys ride on blue's own turn
            start = len(t.files)
            t.play("blue", "pass")
            assert t.readable("red") == 1
            out["draw_handover_extra"] = sum(1 for _, n, _ in t.files[start:] if n == 0)
            # a draw whose drawer keeps the decision: the other owes a file of keys alone
            start = len(t.files)
            t.play("red", "draw 1 from tricks")
            while (side := t.waits()) is not None:
                t.play(side)
            assert t.readable("red") == 2
            out["draw_keep_extra"] = sum(1 for _, n, _ in t.files[start:] if n == 0)
            # Espionage: red looks at blue's hand and keeps the decision; blue's file shows it
            t.play("red", "pass")
            t.play("blue", "draw 2 from tricks", "pass")
            start = len(t.files)
            t.play("red", "look at hand of tricks")
            while (side := t.waits()) is not None:
                t.play(side)
            out["look_extra"] = sum(1 for _, n, _ in t.files[start:] if n == 0)
        finally:
            t.close()
    return out


def report_files(echo: Callable[[str], None]) -> dict[str, int]:
    n = turn_files()
    echo(f"shared deck, turn files (measured by two campaigns exchanging real turn files): a draw followed by "
         f"a hand-over {n['draw_handover_extra']} extra, a draw whose drawer keeps the decision "
         f"{n['draw_keep_extra']} extra, a look at the other's hand (Espionage) {n['look_extra']} extra; a fresh "
         f"shuffle {n['shuffle_messages']} messages riding on {n['shuffle_files']} files sent anyway "
         f"({n['shuffle_extra']} extra)")
    return n


if __name__ == "__main__":
    report(print)
    report_files(print)
