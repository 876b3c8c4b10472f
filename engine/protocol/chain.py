"""Each side's hash chain: a secret ``x[N]`` and its anchor ``x[0]``, where
``x[i-1] = H(chain | game | side | x[i])``.  Every envelope a side signs after joining reveals
its next link (``pbem_engine.protocol.match`` checks it against the previous one); nobody can predict the
next link, and nobody can skip one.  The side keeps checkpoints beside its secret, so that
finding a link takes about the square root of ``N`` steps, not up to ``N``.

A chain is renewed before it runs out: a side's turn body carries ``renew``, the anchor ``y[0]``
of a new chain of the same length made from a fresh secret, beside its usual reveal (a link of
the old chain, which resolves whatever waited for it).  The side's next reveal must hash to
``y[0]``, and so on down the new chain; the index counts on across chains.  A side's tool renews
when fewer than ``RENEW_BEFORE`` links are left, so that a file lost or refused can be signed
again with a link to spare.  The new anchor is signed before any link of it is used, and the
rolls the renewing file resolves use the old chain's link: nobody can choose a new chain after
seeing what its first link would decide.
"""

from __future__ import annotations

import math

from pbem_engine.canonical import digest

CHAIN_LENGTH = 4096
RENEW_BEFORE = 16  # links left in a side's chain when its tool renews it


def chain_step(game_id: str, side: str, link: bytes) -> bytes:
    """The link before ``link`` in ``side``'s chain for this game."""
    return digest("chain", game_id, side, link)


def chain_links(game_id: str, side: str, secret: bytes, length: int = CHAIN_LENGTH) -> list[bytes]:
    """All links ``x[0]..x[length]`` of the chain whose last link is ``secret``."""
    links = [secret]
    for _ in range(length):
        links.append(chain_step(game_id, side, links[-1]))
    links.reverse()
    return links


def checkpoint_every(length: int) -> int:
    """The spacing of a chain's checkpoints: about the square root of its length, at least 64."""
    return max(64, math.isqrt(length))


def chain_checkpoints(game_id: str, side: str, secret: bytes, length: int) -> list[bytes]:
    """Links ``x[e], x[2e], ...`` short of the secret (``e``: ``checkpoint_every``), kept with the
    secret so that finding a link takes at most ``e`` steps, not up to ``length``."""
    every = checkpoint_every(length)
    return chain_links(game_id, side, secret, length)[every:length:every]


def chain_link(game_id: str, side: str, secret: bytes, length: int, index: int,
               checkpoints: list[bytes] | None = None) -> bytes:
    """Link ``x[index]`` of the chain whose last link is ``secret``, from the nearest of
    ``checkpoints`` (``chain_checkpoints``) at or after it, else from the secret."""
    every, start, link = checkpoint_every(length), length, secret
    k = -(-index // every)  # the first checkpoint at or after index: x[k * every]
    if checkpoints and 1 <= k <= len(checkpoints):
        start, link = k * every, checkpoints[k - 1]
    for _ in range(start - index):
        link = chain_step(game_id, side, link)
    return link


def next_link(game_id: str, side: str, secret: bytes, length: int, index: int, checkpoints: list[bytes],
              before: str) -> bytes:
    """Link ``x[index]``, found from ``checkpoints`` where the one found hashes to ``before`` (the
    link revealed last, hex), else from the secret alone (a damaged checkpoint is passed over)."""
    link = chain_link(game_id, side, secret, length, index, checkpoints)
    if checkpoints and chain_step(game_id, side, link).hex() != before:
        link = chain_link(game_id, side, secret, length, index)
    return link


def _is_hex64(value: object) -> bool:
    # strip, not a loop over the characters: this runs once per envelope verified
    return isinstance(value, str) and len(value) == 64 and not value.strip("0123456789abcdef")


def reveal_problem(game_id: str, side: str, chain: dict, reveal: object) -> str | None:
    """Why ``reveal`` is not ``side``'s next link after ``chain`` ({link, index, maybe renewed}), or None."""
    if not _is_hex64(reveal):
        return f"{side}'s envelope must reveal its next chain link (64 hex digits)"
    if chain_step(game_id, side, bytes.fromhex(reveal)).hex() != chain.get("renewed", chain["link"]):
        where = (f"the anchor its envelope revealing link #{chain['index']} renewed the chain with"
                 if "renewed" in chain else f"link #{chain['index']}")
        return f"{side}'s revealed link #{chain['index'] + 1} does not hash to {where}: not the committed chain"
    return None


def renewal_problem(side: str, chain: dict, anchor: object, mode: str) -> tuple[str, str] | None:
    """Why ``anchor`` cannot renew ``side``'s chain (its link just revealed is ``chain``), as
    (code, text), or None."""
    if mode == "referee":
        return "bad-body", "a refereed game's chains are not renewed"
    if not _is_hex64(anchor):
        return "bad-renewal", f"{side}'s new chain anchor must be 64 hex digits"
    if anchor == chain["link"]:
        return "bad-renewal", f"{side}'s new chain anchor is the link it reveals"
    return None
