"""Take-backs by agreement for the independent verifier (tests/independent_verifier.py), written
from docs/spec.md section 18 alone: the standard library only, and what the verifier hands in
(``Kit``), so that neither module imports the other's names in a circle.

A ``takeback`` file travels beside the chain (a proposal, or a decline): it is checked for its
signature when read and takes no place in the history.  A ``fork`` is the chain envelope after
the one play goes back to; it carries the proposal, which carries every envelope abandoned.  The
history given may hold the abandoned files too (both homes keep them): those are left out, and
checked instead as the fork's proposal carries them.

What needs the game's rules, this verifier does not check (section 13): that no abandoned
envelope settled a roll (only the rules know which action rolls) nor the state hashes.  It checks
the rest of section 18: two signatures by the two sides, the abandoned envelopes a chain of turns
from the envelope gone back to up to the head the proposal names, none carrying a draw, an
opening, a deck, a secret or a renewal, and the chains going on from the last link each side
revealed in them.

In a refereed game (section 18.1, ``check_refereed``) the referee decides: the fork is the
referee's, the proposal a player's or its own; play goes back to a point where the referee owed
nothing; the abandoned envelopes are replayed on the public state (section 12.5), and the state
after the fork is the public state there with the chains as at the abandoned head and no view
committed.  Whether they settled a roll or moved a hidden item, only the full replay knows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SEEN = ("private", "decks", "private_secret", "renew", "disclose")  # what an abandoned envelope may not carry


@dataclass(frozen=True)
class Kit:
    H: Callable[..., bytes]  # the domain-tagged hash (section 1)
    refused: type[Exception]  # Refused(code, reason, seq)
    open_text: Callable[[str], list[Any]]  # every signed envelope in a text, each checked (sections 2-5)
    key: Callable[[dict[str, Any], str], bytes | None]  # the key pinned for a side


def _one(kit: Kit, text: Any, what: str, seq: int) -> Any:
    found = kit.open_text(text) if isinstance(text, str) else []
    if len(found) != 1:
        raise kit.refused("bad-takeback", f"{what} is one signed block", seq)
    return found[0]


def _proposal(kit: Kit, fork: Any) -> Any:
    if fork.kind != "fork" or set(fork.body) != {"proposal", "chains"}:
        raise kit.refused("bad-takeback", "a fork carries the proposal and the chains", fork.seq)
    prop = _one(kit, fork.body["proposal"], "the proposal", fork.seq)
    body = prop.body
    if prop.kind != "takeback" or set(body) != {"to", "to_hash", "abandon"} or type(body["to"]) is not int \
            or not isinstance(body["abandon"], list) or not 1 <= len(body["abandon"]) <= 16 \
            or body["to"] + len(body["abandon"]) != prop.seq or body["to"] + 1 != fork.seq:
        raise kit.refused("bad-takeback", "a proposal names to, to_hash and envelopes #to+1..#its own", fork.seq)
    return prop


def live(kit: Kit, found: list[Any]) -> list[Any]:
    """The envelopes of the history as it now stands: without the takeback files (beside the chain)
    and without the envelopes a fork among them abandoned."""
    gone: set[str] = set()
    for env in found:
        if env.kind == "fork":
            gone |= {_one(kit, t, "an abandoned envelope", env.seq).hash
                     for t in _proposal(kit, env).body["abandon"] if isinstance(t, str)}
    return [e for e in found if e.kind != "takeback" and e.hash not in gone]


def check(kit: Kit, fork: Any, genesis: dict[str, Any], head: Any, chains: dict[str, tuple[int, str]],
          renewed: dict[str, str], links: dict[float, tuple[str, int, str]]
          ) -> tuple[dict[str, tuple[int, str]], dict[str, str]]:
    """A fork after ``head`` (its game, number, key and prev already checked as every envelope's):
    the chains after it, each side's last link revealed in the abandoned envelopes, and the renewed
    anchors still to be revealed beside them.  ``links`` (``Report.links``) gets the links it goes
    on from (``fork_links``)."""
    prop = _proposal(kit, fork)
    game = genesis["game"]
    if prop.game != game or prop.author not in genesis["body"]["sides"] or kit.key(genesis, prop.author) != prop.public:
        raise kit.refused("wrong-key", "the proposal is not signed by a side's pinned key", fork.seq)
    if prop.author == fork.author:
        raise kit.refused("bad-takeback", "a take-back is countersigned by the opponent", fork.seq)
    if (prop.body["to"], prop.body["to_hash"]) != (head.seq, head.hash):
        raise kit.refused("bad-takeback", f"the proposal does not go back to #{head.seq}", fork.seq)
    chains, renewed, last = dict(chains), dict(renewed), head
    for text in prop.body["abandon"]:
        env = _one(kit, text, "an abandoned envelope", fork.seq)
        if env.kind != "turn" or env.game != game or env.seq != last.seq + 1 or env.prev != last.hash \
                or env.author not in chains or kit.key(genesis, env.author) != env.public:
            raise kit.refused("bad-takeback", f"abandoned #{env.seq} is not a signed turn after #{last.seq}", fork.seq)
        if any(k in env.body for k in SEEN):
            raise kit.refused("past-roll", f"abandoned #{env.seq} drew, opened or renewed", fork.seq)
        index, link = chains[env.author]
        reveal = env.body.get("reveal")
        if not isinstance(reveal, str) or len(reveal) != 64 or \
                kit.H("chain", game, env.author, bytes.fromhex(reveal)).hex() != renewed.pop(env.author, link):
            raise kit.refused("bad-takeback", f"abandoned #{env.seq} reveals no next link of {env.author}", fork.seq)
        chains[env.author] = (index + 1, reveal)
        last = env
    if (last.seq, last.hash) != (prop.seq, prop.prev):
        raise kit.refused("bad-takeback", f"the abandoned envelopes do not lead to #{prop.seq}", fork.seq)
    if fork.body["chains"] != {s: {"index": i, "link": k} for s, (i, k) in chains.items()}:
        raise kit.refused("bad-takeback", "the chains do not go on from the last links revealed", fork.seq)
    links.update(fork_links(fork, chains))
    return chains, renewed


def fork_links(fork: Any, chains: dict[str, tuple[int, str]]) -> dict[float, tuple[str, int, str]]:
    """The links a fork goes on from, numbered between it and the envelope after it (``Report.links``):
    an unsealed roll right after it is seeded by the other side's; none is sealed at once on them."""
    return {fork.seq + k / 10: (side, index, link) for k, (side, (index, link)) in enumerate(sorted(chains.items()))}


def check_refereed(kit: Kit, fork: Any, genesis: Any, head: Any, public: dict[str, Any],
                   advance: Callable[[dict[str, Any], Any], dict[str, Any]]) -> dict[str, Any]:
    """A refereed fork after ``head`` (its link already checked as every envelope's), ``public`` the
    public state after ``head``; ``advance(public, env)`` the next public state, its ``state`` checked.
    Returns the public state after the fork."""
    if fork.author != "referee":
        raise kit.refused("bad-takeback", "in a refereed game the referee signs the take-back", fork.seq)
    prop = _proposal(kit, fork)
    if prop.game != fork.game or (prop.author not in genesis.body["sides"] and prop.author != "referee") \
            or kit.key(genesis, prop.author) != prop.public:
        raise kit.refused("wrong-key", "the proposal is not signed by a party's pinned key", fork.seq)
    if (prop.body["to"], prop.body["to_hash"]) != (head.seq, head.hash):
        raise kit.refused("bad-takeback", f"the proposal does not go back to #{head.seq}", fork.seq)
    if public["adjudicate"] or public["disclosed"] is not None:
        raise kit.refused("bad-target", f"after #{head.seq} the referee owed an adjudication", fork.seq)
    after, last = public, head
    for text in prop.body["abandon"]:
        env = _one(kit, text, "an abandoned envelope", fork.seq)
        if env.kind != "turn" or env.game != fork.game or env.seq != last.seq + 1 or env.prev != last.hash \
                or kit.key(genesis, env.author) != env.public:
            raise kit.refused("bad-takeback", f"abandoned #{env.seq} is not a signed turn after #{last.seq}", fork.seq)
        if any(k in env.body for k in SEEN):
            raise kit.refused("past-roll", f"abandoned #{env.seq} renewed a chain or disclosed", fork.seq)
        after, last = advance(after, env), env
    if (last.seq, last.hash, last.state) != (prop.seq, prop.prev, prop.state):
        raise kit.refused("bad-takeback", f"the abandoned envelopes do not lead to #{prop.seq}", fork.seq)
    if fork.body["chains"] != {p: {"index": r["index"], "link": r["link"]} for p, r in after["chains"].items()}:
        raise kit.refused("bad-takeback", "the chains do not go on from the last links revealed", fork.seq)
    return dict(public, seq=fork.seq, chains=after["chains"], views={}, commit=None,
                **({"watch": None} if "watch" in public else {}))  # no view committed, the witnesses' neither
