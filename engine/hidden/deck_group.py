"""The group, the cards and the keys of a shared deck (pbem_engine.hidden.deck).

The RFC 3526 2048-bit safe prime p = 2q+1; cards are quadratic residues (the subgroup of prime
order q); keys are exponents derived from a side's committed private secret.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from functools import lru_cache
from typing import Any

from pbem_engine.canonical import digest
from pbem_engine.chance.dice import Dice

# RFC 3526, section 3: the 2048-bit MODP group (group 14), generator 2.
# p = 2^2048 - 2^1984 - 1 + 2^64 * { [2^1918 pi] + 124476 }
P = int(
    "FFFFFFFF FFFFFFFF C90FDAA2 2168C234 C4C6628B 80DC1CD1"
    "29024E08 8A67CC74 020BBEA6 3B139B22 514A0879 8E3404DD"
    "EF9519B3 CD3A431B 302B0A6D F25F1437 4FE1356D 6D51C245"
    "E485B576 625E7EC6 F44C42E9 A637ED6B 0BFF5CB6 F406B7ED"
    "EE386BFB 5A899FA5 AE9F2411 7C4B1FE6 49286651 ECE45B3D"
    "C2007CB8 A163BF05 98DA4836 1C55D39A 69163FA8 FD24CF5F"
    "83655D23 DCA3AD96 1C62F356 208552BB 9ED52907 7096966D"
    "670C354E 4ABC9804 F1746C08 CA18217C 32905E46 2E36CE3B"
    "E39E772C 180E8603 9B2783A2 EC07A28F B5C55DF0 6F4C52C9"
    "DE2BCBF6 95581718 3995497C EA956AE5 15D22618 98FA0510"
    "15728E5A 8AACAA68 FFFFFFFF FFFFFFFF".replace(" ", ""), 16)
Q = (P - 1) // 2  # prime: the order of the quadratic residues
WIDTH = 512  # hex digits of one group element in a message
ELEMENT_HEX = re.compile(rf"[0-9a-f]{{{WIDTH}}}")


class DeckError(Exception):
    """A deck message or opening that does not check out.

    ``side`` is the side at fault when it is known, ``step`` the message
    (e.g. "#4 rekey of shuffle 0") where the audit found it.
    """

    def __init__(self, code: str, message: str, side: str | None = None, step: str | None = None) -> None:
        super().__init__(message)
        self.code, self.side, self.step = code, side, step


# -- the group --------------------------------------------------------------------
def _jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd n: for the prime p, +1 exactly for the quadratic residues.

    Euler's criterion says the same as ``pow(a, q, p) == 1``, at ~2% of its cost."""
    a %= n
    t = 1
    while a:
        zeros = (a & -a).bit_length() - 1
        if zeros:
            a >>= zeros
            if zeros & 1 and n & 7 in (3, 5):
                t = -t
        if a & n & 3 == 3:
            t = -t
        a, n = n % a, a
    return t if n == 1 else 0


def is_member(x: int) -> bool:
    """Is ``x`` in the prime-order subgroup (1 < x < p, x^q = 1 mod p)?  1 is refused: it would be
    the same under every key."""
    return 1 < x < P and _jacobi(x, P) == 1


def element(text: Any, what: str) -> int:
    """A group element from its fixed-width hex form in a message.

    :raises DeckError: not 512 lowercase hex digits, or not in the subgroup (code ``not-in-group``)."""
    if not isinstance(text, str) or not ELEMENT_HEX.fullmatch(text):
        raise DeckError("bad-element", f"{what} is not {WIDTH} lowercase hex digits")
    x = int(text, 16)
    if not is_member(x):
        raise DeckError("not-in-group", f"{what} is not in the deck's group (1 < x < p, x^q = 1)")
    return x


def hexed(x: int) -> str:
    return f"{x:0{WIDTH}x}"


# -- cards ------------------------------------------------------------------------
def _split(card: str) -> tuple[str, str]:
    name, _, copy_no = card.rpartition("#")
    return (name, copy_no) if name and copy_no.isdigit() else (card, "1")


def encode(game_id: str, deck_id: str, card: str) -> int:
    """A card as a quadratic residue: the square of a 2304-bit hash reduced mod p.

    A hash, not a structured value such as g^i: nobody knows the discrete log of one card to
    another, so ciphertexts under one key cannot be matched up (c1^b = c2^a)."""
    name, copy_no = _split(card)
    wide = hashlib.shake_256(digest("card", game_id, deck_id, name, copy_no)).digest(288)
    return pow(int.from_bytes(wide, "big") % P, 2, P)


@lru_cache(maxsize=64)
def card_table(game_id: str, deck_id: str, cards: tuple[str, ...]) -> dict[int, str]:
    """Encoded value -> card, for recognising a card once both locks are off."""
    table = {encode(game_id, deck_id, c): c for c in cards}
    if len(table) != len(cards) or not all(is_member(m) for m in table):
        raise DeckError("bad-cards", f"the cards of deck {deck_id} do not encode to distinct group elements")
    return table


# -- keys: everything from the side's committed secret -------------------------------
def _exponent(seed: bytes, purpose: str, index: int) -> int:
    """Uniform in [1, q-1]: 2560 bits of HMAC-SHA512 reduced mod q-1 (bias below 2^-500)."""
    wide = b"".join(hmac.digest(seed, digest("deck-exponent", purpose, str(index), str(c)), "sha512")
                    for c in range(5))
    return int.from_bytes(wide, "big") % (Q - 1) + 1


class Keys:
    """One side's keys for one shuffle of one deck."""

    def __init__(self, secret: bytes, game_id: str, deck_id: str, side: str, number: int) -> None:
        self.seed = hmac.digest(secret, digest("deck-keys", game_id, deck_id, side, str(number)), "sha256")
        self._shuffle = 0

    @property
    def shuffle(self) -> int:
        if not self._shuffle:
            self._shuffle = _exponent(self.seed, "shuffle", 0)
        return self._shuffle

    def position(self, j: int) -> int:
        return _exponent(self.seed, "position", j)

    def unlock(self, j: int) -> int:
        return pow(self.position(j), -1, Q)

    def permutation(self, n: int, nonce: str) -> list[int]:
        """out[j] = in[perm[j]]; the public ``nonce`` (e.g. the other side's latest chain link)
        makes each shuffle's order unknown until it is given."""
        seed = hmac.digest(self.seed, digest("deck-permutation", nonce), "sha256")
        return Dice(seed).shuffle(list(range(n)), "deck")
