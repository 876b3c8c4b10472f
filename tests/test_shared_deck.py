"""Shared decks with private draws (pbem_engine.hidden.deck): the group, the encoding, a two-party play driven
by hypothesis, and each kind of cheating caught at once or by the end-of-game audit.

A 2048-bit exponentiation costs ~25 ms, so decks here are small and examples few."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pbem_engine.hidden import deck as D
from pbem_engine.canonical import canonical_json
from pbem_engine.hidden.deck_audit import audit
from pbem_engine.hidden.private import anchor

A, B = "allied", "ottoman"
SECRETS = {A: hashlib.sha256(b"allied secret").digest(), B: hashlib.sha256(b"ottoman secret").digest()}
GAME = "game-1"


class Table:
    """Both sides' tools and the public log, as the turn files would carry it."""

    def __init__(self, cards: list[str], deck_id: str = "action") -> None:
        self.start = self.state = D.new_deck(GAME, deck_id, [A, B], cards)
        self.log: list[dict] = []

    def send(self, msg: dict) -> None:
        self.state = D.apply(self.state, msg)  # what every tool does on receipt: refused or applied
        self.log.append(msg)

    def shuffle(self, first: str, cards=(), refs=(), nonce: str = "n") -> None:
        self.send(D.begin(self.state, first, list(cards), [list(r) for r in refs]))
        for _, side in D.plan(self.state["shuffles"][-1]):
            self.send(D.step(self.state, side, SECRETS[side], nonce))

    def draw(self, side: str, count: int = 1) -> list[list[int]]:
        refs = self.state["pile"][:count]
        self.send(D.draw(self.state, side, count))
        self.send(D.release(self.state, D.other(self.state, side), SECRETS[D.other(self.state, side)], refs))
        return refs

    def truth(self, ref: list[int]) -> str | None:
        """The card at a position, seen with both secrets (what the audit sees)."""
        sh, i = self.state["shuffles"][ref[0]], ref[1]
        d = 1
        for side in (A, B):
            d = d * D.Keys(SECRETS[side], GAME, self.state["deck"], side, ref[0]).unlock(i) % D.Q
        return D.card_table(GAME, self.state["deck"], tuple(self.state["cards"])).get(pow(int(sh["deck"][i], 16), d, D.P))


CARDS = [f"card-{i:02d}" for i in range(6)]


# -- the group -------------------------------------------------------------------------
def _miller_rabin(n: int, bases: list[int]) -> bool:
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


SMALL_PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89]


def test_the_group_is_a_2048_bit_safe_prime():
    assert D.P.bit_length() == 2048 and D.P == 2 * D.Q + 1
    assert D.P >> 1984 == (1 << 64) - 1 and D.P % (1 << 64) == (1 << 64) - 1  # RFC 3526's 64 ones at each end
    assert all(D.P % s and D.Q % s for s in SMALL_PRIMES)
    assert _miller_rabin(D.Q, SMALL_PRIMES) and _miller_rabin(D.P, SMALL_PRIMES)
    assert not _miller_rabin(D.P + 2, SMALL_PRIMES[:4])  # the test itself can say no


def test_membership_is_eulers_criterion():
    values = [int.from_bytes(hashlib.shake_256(bytes([i])).digest(256), "big") % D.P for i in range(12)]
    values += [D.P - 1, 4, 2]  # -1 is a non-residue (p = 3 mod 4); 4 and 2 are residues (p = 7 mod 8)
    for x in values:
        assert D.is_member(x) == (pow(x, D.Q, D.P) == 1)
    assert not D.is_member(0) and not D.is_member(1) and not D.is_member(D.P) and not D.is_member(D.P + 4)


@pytest.mark.parametrize("count", [54, 36])
def test_cards_encode_into_the_subgroup_distinctly(count):
    cards = [f"night-attack#{k}" for k in range(1, 4)] + [f"card-{i}" for i in range(count - 3)]
    table = D.card_table(GAME, f"deck-{count}", tuple(cards))
    assert len(table) == count and sorted(table.values()) == sorted(cards)
    assert all(D.is_member(m) for m in table)
    assert all(pow(m, D.Q, D.P) == 1 for m in list(table)[:3])
    other_deck = D.card_table(GAME, "another-deck", tuple(cards))
    assert not set(table) & set(other_deck)  # the same card in another deck is another value
    assert D.encode(GAME, "d", "x") == D.encode(GAME, "d", "x#1") != D.encode(GAME, "d", "x#2")


def test_keys_come_from_the_secret_and_invert():
    k = D.Keys(SECRETS[A], GAME, "action", A, 0)
    assert k.position(3) == D.Keys(SECRETS[A], GAME, "action", A, 0).position(3)
    assert k.position(3) != D.Keys(SECRETS[B], GAME, "action", A, 0).position(3)
    assert k.position(3) != D.Keys(SECRETS[A], GAME, "action", A, 1).position(3) != k.position(4)
    assert 1 <= k.shuffle < D.Q and k.position(3) * k.unlock(3) % D.Q == 1
    assert sorted(k.permutation(10, "n")) == list(range(10)) and k.permutation(10, "n") != k.permutation(10, "m")


# -- two sides playing ----------------------------------------------------------------
def _hidden(t: Table) -> list[tuple[str, list[int], str]]:
    """(owner, position, card) for every card in a hand that the other side cannot read."""
    out = []
    for side in (A, B):
        for ref in D.hand(t.state, side):
            if D.released(t.state, side, ref) is None:
                out.append((side, ref, t.truth(ref)))
    return out


def _assert_private(t: Table) -> None:
    """No message since a hidden card's shuffle began names it or carries its encoded value."""
    starts = [n for n, m in enumerate(t.log) if m["op"] == "begin"]
    for owner, ref, card in _hidden(t):
        since = canonical_json(t.log[starts[ref[0]] + 1:])
        m = D.encode(GAME, t.state["deck"], card)
        assert f'"{card}"'.encode() not in since, (owner, card)
        assert D.hexed(m).encode() not in since and str(m).encode() not in since


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_two_sides_play_a_shared_deck_and_the_audit_is_clean(data):
    t = Table(CARDS[:4])
    t.shuffle(data.draw(st.sampled_from([A, B])), cards=CARDS[:4], nonce=data.draw(st.text(max_size=4)))
    for _ in range(data.draw(st.integers(3, 6))):
        side = data.draw(st.sampled_from([A, B]))
        foe = D.other(t.state, side)
        mine = D.hand(t.state, side)
        table = [r for sh in t.state["shuffles"] for r in ([sh["number"], i] for i, a in enumerate(sh["at"]))
                 if D.where(t.state, r) == "table"]
        discards = [sh["cards"][str(i)] for sh in t.state["shuffles"] for i, a in enumerate(sh["at"])
                    if a == "discard"]
        choices = (["draw"] if t.state["pile"] else []) + (["play", "show", "give", "return"] if mine else [])
        choices += (["discard"] if table else []) + (["reshuffle"] if discards or t.state["pile"] else [])
        what = data.draw(st.sampled_from(choices))
        if what == "draw":
            top = t.state["pile"][0]
            if D.released(t.state, side, top) is not None:  # a card it gave back after the other read it
                with pytest.raises(D.DeckError) as e:
                    t.send(D.draw(t.state, side))
                assert e.value.code == "key-released"
                continue
            (ref,) = t.draw(side)
            assert D.read(t.state, side, SECRETS[side], ref) == t.truth(ref)
        elif what == "play":
            ref = data.draw(st.sampled_from(mine))
            t.send(D.play(t.state, side, SECRETS[side], ref, data.draw(st.sampled_from(["table", "discard"]))))
            assert D.known(t.state, foe, SECRETS[foe])[tuple(ref)] == t.truth(ref)
        elif what == "show":  # Espionage: the other side sees the whole hand
            t.send(D.release(t.state, side, SECRETS[side], mine))
            seen = D.known(t.state, foe, SECRETS[foe])
            assert all(seen[tuple(r)] == t.truth(r) for r in mine)
        elif what == "give":  # a card moves to the other hand (Espionage takes one)
            ref = data.draw(st.sampled_from(mine))
            t.send(D.release(t.state, side, SECRETS[side], [ref]))
            t.send(D.move(t.state, side, ref))
            assert ref in D.hand(t.state, foe) and D.read(t.state, foe, SECRETS[foe], ref) == t.truth(ref)
        elif what == "return":
            t.send(D.give_back(t.state, side, data.draw(st.sampled_from(mine))))
        elif what == "discard":
            t.send(D.discard(t.state, side, data.draw(st.sampled_from(table))))
        else:
            before = sorted(discards + [t.truth(r) for r in t.state["pile"]])
            t.shuffle(side, cards=discards, refs=list(t.state["pile"]), nonce=str(len(t.log)))
            assert sorted(t.truth(r) for r in t.state["pile"][-len(before):]) == before
        _assert_private(t)
    seen = {s: D.known(t.state, s, SECRETS[s]) for s in (A, B)}
    for owner, ref, card in _hidden(t):  # its owner reads it; the other side's own key opens nothing
        assert seen[owner][tuple(ref)] == card and tuple(ref) not in seen[D.other(t.state, owner)]
        foe = D.other(t.state, owner)
        partial = pow(int(t.state["shuffles"][ref[0]]["deck"][ref[1]], 16),
                      D.Keys(SECRETS[foe], GAME, "action", foe, ref[0]).unlock(ref[1]), D.P)
        assert partial not in D.card_table(GAME, "action", tuple(t.state["cards"]))
    anchors = {s: anchor(GAME, s, SECRETS[s]) for s in (A, B)}
    assert audit(t.start, t.log, SECRETS, anchors)["messages"] == len(t.log)


def test_both_hands_are_dealt_in_three_messages():
    """The second side releases its keys for the first side's hand with its shuffle-rekey, the
    first for the second's with its rekey: a fresh close-combat deal is three turn files."""
    t = Table(CARDS, "close-combat-1")
    t.send(D.begin(t.state, A, CARDS))
    t.send(D.step(t.state, A, SECRETS[A], "n"))  # turn file 1 (A)
    t.send(D.step(t.state, B, SECRETS[B], "n"))  # turn file 2 (B) ...
    t.send(D.release(t.state, B, SECRETS[B], [[0, 0], [0, 1]]))  # ... with A's hand keys
    t.send(D.step(t.state, A, SECRETS[A], "n"))  # turn file 3 (A) ...
    t.send(D.release(t.state, A, SECRETS[A], [[0, 2], [0, 3]]))  # ... with B's hand keys
    t.send(D.draw(t.state, A, 2))
    t.send(D.draw(t.state, B, 2))
    hands = {s: [D.read(t.state, s, SECRETS[s], r) for r in D.hand(t.state, s)] for s in (A, B)}
    assert sorted(hands[A] + hands[B]) == sorted(t.truth([0, i]) for i in range(4))
    assert not set(D.known(t.state, A, SECRETS[A])) & {(0, 2), (0, 3)}
    _assert_private(t)


# -- cheating ------------------------------------------------------------------------------
def _dealt(first: str = A) -> Table:
    t = Table(CARDS)
    t.shuffle(first, cards=CARDS)
    return t


def test_a_wrong_key_share_is_refused_at_once():
    t = _dealt()
    t.send(D.draw(t.state, A))
    wrong = D.release(t.state, B, SECRETS[B], [[0, 1]])
    wrong["keys"][0][1] = 0  # the key of another position
    with pytest.raises(D.DeckError) as e:
        t.send(wrong)
    assert (e.value.code, e.value.side) == ("wrong-key", B)
    forged = D.release(t.state, B, SECRETS[A], [[0, 0]])  # a key from another secret
    forged["side"] = B
    with pytest.raises(D.DeckError) as e:
        t.send(forged)
    assert (e.value.code, e.value.side) == ("wrong-key", B)


def test_keys_other_than_the_hashed_ones_fail_at_the_draw_and_the_audit_names_the_rekey():
    t = Table(CARDS)
    t.send(D.begin(t.state, A, CARDS))
    t.send(D.step(t.state, A, SECRETS[A], "n"))
    t.send(D.step(t.state, B, SECRETS[B], "n"))
    rekey = D.step(t.state, A, SECRETS[A])
    rekey["deck"][0] = D.hexed(pow(int(rekey["deck"][0], 16), 3, D.P))  # locked with a key it did not hash
    t.send(rekey)
    t.send(D.draw(t.state, B))
    t.send(D.release(t.state, A, SECRETS[A], [[0, 0]]))  # the key it hashed: accepted
    with pytest.raises(D.DeckError) as e:
        D.read(t.state, B, SECRETS[B], [0, 0])
    assert (e.value.code, e.value.side) == ("not-a-card", A)
    with pytest.raises(D.DeckError) as e:
        audit(t.start, t.log, SECRETS)
    assert (e.value.code, e.value.side, e.value.step) == ("cheating", A, "#4 rekey of shuffle 0")


def test_a_card_not_drawn_or_not_held_cannot_be_played():
    t = _dealt()
    (mine,) = t.draw(A)
    (theirs,) = t.draw(B)
    with pytest.raises(D.DeckError) as e:  # a card of the other's hand
        t.send(D.play(t.state, B, SECRETS[B], theirs) | {"side": A, "key": D.release(t.state, A, SECRETS[A], [theirs])["keys"][0][2]})
    assert (e.value.code, e.value.side) == ("not-in-hand", A)
    with pytest.raises(D.DeckError) as e:  # a card still in the pile
        t.send({"op": "play", "side": A, "ref": t.state["pile"][0], "card": CARDS[0], "key": "0" * 512, "to": "table"})
    assert e.value.code == "not-in-hand"
    honest = D.play(t.state, A, SECRETS[A], mine)
    lie = next(c for c in CARDS if c != honest["card"])
    with pytest.raises(D.DeckError) as e:  # its own position, named as another card
        t.send(honest | {"card": lie})
    assert (e.value.code, e.value.side) == ("false-claim", A)
    with pytest.raises(D.DeckError) as e:  # the right card with a made-up key
        t.send(honest | {"key": D.hexed(12345)})
    assert (e.value.code, e.value.side) == ("wrong-key", A)
    t.send(honest)
    assert D.where(t.state, mine) == "table"


def _cheat_step(t: Table, side: str, copy_from: int, copy_to: int, nonce: str = "n") -> dict:
    """``side``'s next step computed honestly over an input where one card was copied over another."""
    sh = t.state["shuffles"][-1]
    values = D._input(t.state, sh) if not sh["done"] else [int(x, 16) for x in sh["deck"]]
    values[copy_to] = values[copy_from]
    kind = D.plan(sh)[len(sh["done"])][0]
    return D._compute(t.state, sh, kind, side, SECRETS[side], values, nonce)


def test_a_card_copied_under_one_lock_is_refused_at_once():
    t = Table(CARDS)
    t.send(D.begin(t.state, A, CARDS))
    with pytest.raises(D.DeckError) as e:
        t.send(_cheat_step(t, A, 0, 1))
    assert (e.value.code, e.value.side) == ("duplicate", A)


def test_a_card_copied_under_position_keys_is_named_by_the_audit():
    t = Table(CARDS)
    t.send(D.begin(t.state, A, CARDS))
    t.send(D.step(t.state, A, SECRETS[A], "n"))
    t.send(_cheat_step(t, B, 0, 1))  # B's shuffle-rekey: distinct values, a card twice, one missing
    t.send(D.step(t.state, A, SECRETS[A]))
    with pytest.raises(D.DeckError) as e:
        audit(t.start, t.log, SECRETS)
    assert (e.value.code, e.value.side, e.value.step) == ("cheating", B, "#3 shuffle-rekey of shuffle 0")
    # while the game runs, the copy is caught once both copies are seen
    t.send(D.draw(t.state, A, len(CARDS)))
    t.send(D.release(t.state, B, SECRETS[B], D.hand(t.state, A)))
    with pytest.raises(D.DeckError) as e:
        for ref in D.hand(t.state, A):
            t.send(D.play(t.state, A, SECRETS[A], ref))
    assert e.value.code == "duplicate-card"


def test_a_card_replaced_by_a_non_card_fails_its_draw_and_the_audit_names_the_shuffle():
    t = Table(CARDS)
    t.send(D.begin(t.state, B, CARDS))
    sh = t.state["shuffles"][-1]
    values = D._input(t.state, sh)
    values[2] = D.encode(GAME, "another deck", "card-02")  # a valid group element, but no card
    t.send(D._compute(t.state, sh, "shuffle", B, SECRETS[B], values, "n"))
    t.send(D.step(t.state, A, SECRETS[A], "n"))
    t.send(D.step(t.state, B, SECRETS[B]))
    with pytest.raises(D.DeckError) as e:
        audit(t.start, t.log, SECRETS)
    assert (e.value.code, e.value.side, e.value.step) == ("cheating", B, "#2 shuffle of shuffle 0")
    t.send(D.draw(t.state, A, len(CARDS)))
    t.send(D.release(t.state, B, SECRETS[B], D.hand(t.state, A)))
    codes = set()
    for ref in D.hand(t.state, A):
        try:
            D.read(t.state, A, SECRETS[A], ref)
        except D.DeckError as err:
            codes.add((err.code, err.side))
    assert codes == {("not-a-card", B)}


def test_a_tampered_ciphertext_is_refused_at_once_or_named_by_the_audit():
    t = Table(CARDS)
    t.send(D.begin(t.state, A, CARDS))
    msg = D.step(t.state, A, SECRETS[A], "n")
    x = int(msg["deck"][3], 16)
    for bad, code in [(D.hexed(D.P - x), "not-in-group"), (D.hexed(D.P + 1), "not-in-group"),
                      (D.hexed(1), "not-in-group"), (msg["deck"][4], "duplicate"), (msg["deck"][3].upper(), "bad-element")]:
        deck = list(msg["deck"])
        deck[3] = bad
        with pytest.raises(D.DeckError) as e:
            t.send(dict(msg, deck=deck))
        assert (e.value.code, e.value.side) == (code, A)
    with pytest.raises(D.DeckError) as e:
        t.send(dict(msg, deck=msg["deck"][:-1]))
    assert (e.value.code, e.value.side) == ("bad-size", A)
    t.send(dict(msg, deck=msg["deck"][:3] + [D.hexed(x * 4 % D.P)] + msg["deck"][4:]))  # still a residue
    t.send(D.step(t.state, B, SECRETS[B], "n"))
    t.send(D.step(t.state, A, SECRETS[A]))
    with pytest.raises(D.DeckError) as e:
        audit(t.start, t.log, SECRETS)
    assert (e.value.code, e.value.side, e.value.step) == ("cheating", A, "#2 shuffle of shuffle 0")


def test_steps_out_of_turn_and_a_wrong_secret_are_refused():
    t = Table(CARDS)
    t.send(D.begin(t.state, A, CARDS))
    with pytest.raises(D.DeckError) as e:
        D.step(t.state, B, SECRETS[B], "n")
    assert e.value.code == "not-your-step"
    for _, side in D.plan(t.state["shuffles"][-1]):
        t.send(D.step(t.state, side, SECRETS[side], "n"))
    with pytest.raises(D.DeckError) as e:
        audit(t.start, t.log, SECRETS, {A: anchor(GAME, A, SECRETS[A]), B: anchor(GAME, B, b"x" * 32)})
    assert (e.value.code, e.value.side) == ("bad-secret", B)


def test_the_benchmark_prints_ratios():
    from pbem.bench.decks import report

    lines: list[str] = []
    result = report(lines.append, cards=3, combat=2)
    text = "\n".join(lines)
    assert "ratio" in text and set(result) >= {"shuffle_ratio", "draw_ratio", "combat_ratio"}
    assert all(r > 0 for r in result.values())
