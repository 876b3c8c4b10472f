"""Take-backs by agreement: a side proposes, in a signed file, to go back to an earlier envelope;
the opponent countersigns it, and both copies go on from there.

* ``propose``: a ``takeback`` envelope beside the chain, numbered and linked like a timeout claim
  (the head it abandons: its number, hash and state), whose body names the envelope to go back to
  (``to``, ``to_hash``) and carries every envelope it abandons, as signed (``abandon``).
* ``accept``: the opponent signs a ``fork``: the chain envelope after ``to``, carrying the proposal
  and each side's chain position (``pbem.chain.history``, which checks it as every copy and
  ``pbem verify`` do).  Both signatures cover the abandoned envelopes.
* ``decline``: a ``takeback`` envelope whose body names the proposal declined.

The limit: no abandoned envelope settled a roll, drew, opened or dealt a hidden item, revealed a
private secret or renewed a chain (``history.replay_abandoned``): whoever has seen a result cannot
undo the decision that caused it.  The chains go on from the last link each side revealed, so no
link seeds two rolls.  A refereed game's take-backs are the referee's to decide.

The proposal waiting for an answer is kept in the ledger setting ``takeback`` (this copy's own
fact); it lapses when the game moves past the head it names.  The abandoned envelopes go to the
ledger's ``abandoned`` table, in the transaction that stores the fork.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chain import history
from ..errors import PbemError, RefusedTurn
from ..store.files import atomic_write
from ..store.ledger import now
from ..store.lock import crash_point
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block, seal
from ..wire.keys import Identity
from . import messages as talk
from .plays import turn_file_name

if TYPE_CHECKING:  # only for annotations: the campaign does not import this module
    from .campaign import Campaign

PENDING = "takeback"  # ledger setting: the proposal waiting for an answer, as signed


def _refuse_refereed(camp: Campaign) -> None:
    if camp.refereed:
        raise PbemError("in a refereed game, ask your referee", "take-backs by agreement are for two-player games; "
                        "the referee decides (pbem say referee ...)", code="refereed")


def pending(camp: Campaign) -> Envelope | None:
    """The proposal waiting for an answer, while the head it abandons is still the head."""
    raw = camp.ledger.setting(PENDING)
    if not raw:
        return None
    try:
        prop = open_block(find_blocks(raw)[0], signature_checked=True)  # checked when stored
    except (PbemError, IndexError):
        return None
    return prop if camp.ledger.head() == (prop.seq, prop.content["prev"]) else None


def _sign(camp: Campaign, identity: Identity, kind: str, seq: int, prev: str, state: str,
          body: dict[str, Any]) -> Envelope:
    if identity.public != history.pinned_key(camp.genesis, camp.side):
        raise PbemError("wrong identity", f"this campaign's {camp.side} is pinned to another key", code="wrong-key")
    content = {"v": 1, "game": camp.genesis["game"], "seq": seq, "prev": prev, "author": camp.side, "kind": kind,
               "engine": history.engine_stamp(camp.game), "body": body, "state": state}
    return seal(identity, content)


def propose(camp: Campaign, identity: Identity, to: int) -> tuple[Envelope, Path]:
    """Sign a proposal to go back to envelope ``to``; kept as pending, written to sent/.

    :raises PbemError: a refereed game, no such envelope, a proposal already waiting, or the limit
        (``past-roll``: a roll, draw or reveal after ``to``)."""
    _refuse_refereed(camp)
    ledger = camp.ledger
    head = ledger.head()
    assert head is not None
    if not 1 <= to < head[0]:
        raise PbemError("no envelope to go back to", f"#{to}: give a number from 1 to #{head[0] - 1} (the envelope "
                        "play goes on from; the ones after it are taken back)", code="bad-target")
    if head[0] - to > history.TAKEBACK_MOST:
        raise PbemError("too far back", f"one take-back abandons at most {history.TAKEBACK_MOST} envelopes",
                        code="bad-target")
    waiting = pending(camp)
    if waiting is not None and waiting.content["body"]["to"] != to:
        raise PbemError("a take-back is already proposed", f"{waiting.author} proposed going back to "
                        f"#{waiting.content['body']['to']}: it is answered first", code="takeback-pending")
    if waiting is not None and waiting.author != camp.side:
        raise PbemError("your opponent already proposes this take-back", "pbem takeback accept", code="takeback-pending")
    to_hash = ledger.envelope_index(to)[0]  # type: ignore[index]
    body = {"to": to, "to_hash": to_hash, "abandon": [ledger.raw(s) for s in range(to + 1, head[0] + 1)]}
    env = _sign(camp, identity, "takeback", head[0], head[1], ledger.state_hash_at(head[0]) or "", body)
    _check(camp, env)  # the limit, as the opponent's tool and verify will check it
    if waiting is None:
        ledger.begin()
        ledger.put_setting(PENDING, env.raw)
        ledger.commit()
    crash_point("takeback:stored")  # a second propose --to the same envelope writes the same bytes again
    return env, _write(camp, "sent", env)


def _check(camp: Campaign, prop: Envelope) -> list[Envelope]:
    """A proposal against this copy: its envelopes replayed from the one it goes back to."""
    to = prop.content["body"]["to"]
    stored = camp.ledger.envelope_index(to)
    if stored is None:
        raise RefusedTurn("take-back of another history", f"#{to} is not held here", code="bad-takeback")
    abandoned, _ = history.replay_abandoned(prop, camp.genesis, camp.ledger.state(to)[1], (to, stored[0]))
    return abandoned


def _write(camp: Campaign, folder: str, env: Envelope) -> Path:
    path = camp.dir / folder / turn_file_name(env)
    path.parent.mkdir(exist_ok=True)
    if not path.exists():
        atomic_write(path, env.raw)
    return path


def accept(camp: Campaign, identity: Identity) -> tuple[Envelope, Path]:
    """Countersign the opponent's pending proposal: sign the fork, go back, write it to sent/.

    :raises PbemError: nothing to accept (none, our own, or lapsed)."""
    _refuse_refereed(camp)
    prop = _answerable(camp)
    to, to_hash = prop.content["body"]["to"], prop.content["body"]["to_hash"]
    at = camp.ledger.state(to)[1]
    _, after = history.replay_abandoned(prop, camp.genesis, at, (to, to_hash))
    chains = history.fork_chains(at, after)
    body = {"proposal": prop.raw, "chains": {s: {"index": r["index"], "link": r["link"]} for s, r in chains.items()}}
    state = history.match_hash(history.fork_match(at, chains, to + 1))
    env = _sign(camp, identity, "fork", to + 1, to_hash, state, body)
    applied = history.apply(env, camp.genesis, at, (to, to_hash))
    store_fork(camp, [applied], to, [], [("sent", env)])
    return env, camp.dir / "sent" / turn_file_name(env)


def _answerable(camp: Campaign) -> Envelope:
    raw = camp.ledger.setting(PENDING)
    prop = pending(camp)
    if prop is None:
        raise PbemError("no take-back to answer", "the game has moved on since it was proposed" if raw else
                        "no one has proposed one (pbem takeback propose --to N)", code="no-takeback")
    if prop.author == camp.side:
        raise PbemError("this take-back is your own proposal", f"{camp.opponent} accepts or declines it",
                        code="no-takeback")
    return prop


def decline(camp: Campaign, identity: Identity) -> tuple[Envelope, Path]:
    """Sign a refusal of the opponent's pending proposal; write it to sent/."""
    _refuse_refereed(camp)
    prop = _answerable(camp)
    head = camp.ledger.head()
    assert head is not None
    env = _sign(camp, identity, "takeback", head[0], head[1], camp.ledger.state_hash_at(head[0]) or "",
                {"decline": prop.hash})
    path = _write(camp, "sent", env)  # first: killed before the setting goes, a second decline signs these bytes
    crash_point("takeback:declined")
    _set(camp, None)
    return env, path


# --- what ingest does with them ------------------------------------------------

def abandoned_hashes(camp: Campaign, found: list[Envelope]) -> set[str]:
    """The hashes of the envelopes taken back: stored as abandoned, or abandoned by a fork in ``found``."""
    out = {row[0] for row in camp.ledger.abandoned()}
    for env in found:
        if env.kind == "fork" and isinstance(env.content["body"].get("proposal"), str):
            try:
                prop = history.open_proposal(env.content["body"]["proposal"], camp.genesis)
                out |= {open_block(find_blocks(t)[0]).hash for t in prop.content["body"]["abandon"]}
            except (PbemError, IndexError):
                continue  # the fork itself is refused when it is applied
    return out


def fork_base(camp: Campaign, env: Envelope, head: tuple[int, str]) -> tuple[dict[str, Any], tuple[int, str]]:
    """For a fork that arrives: the match and head it goes back to, after checking that what it
    abandons is exactly what this copy holds after that point.

    :raises RefusedTurn: a fork of another history, or this copy signed more since the proposal."""
    to = env.seq - 1
    stored = camp.ledger.envelope_index(to)
    if stored is None or to > head[0]:
        raise RefusedTurn("gap in the sequence", f"take-back #{env.seq}: ingest envelope #{to} first", code="gap")
    prop = history.open_proposal(env.content["body"].get("proposal"), camp.genesis)
    ours = [camp.ledger.envelope_index(s)[0] for s in range(to + 1, head[0] + 1)]  # type: ignore[index]
    theirs = [blocks[0] if len(blocks) == 1 else None for blocks in map(find_blocks, prop.content["body"]["abandon"])]
    if None in theirs:
        raise RefusedTurn("malformed take-back", f"take-back #{env.seq}: each abandoned envelope is one signed block",
                          code="bad-takeback")
    theirs = [open_block(block).hash for block in theirs]
    if ours and ours != theirs:
        raise RefusedTurn("a take-back of another history", f"take-back #{env.seq} abandons envelopes "
                          f"#{to + 1}..#{prop.seq}, this copy holds #{to + 1}..#{head[0]}: they differ",
                          code="bad-takeback")
    return camp.ledger.state(to)[1], (to, stored[0])


def receive(camp: Campaign, documents: list[Envelope], skipped: list[tuple[Envelope, str]]) -> list[Envelope]:
    """Proposals and declines that arrived (after the chain envelopes of the same input are stored):
    checked, and the answer waiting recorded.  Those recorded are returned."""
    genesis, head = camp.genesis, camp.ledger.head()
    assert head is not None
    if camp.refereed and documents:
        raise RefusedTurn("in a refereed game, ask your referee", f"a take-back file from {documents[0].author} is "
                          "not accepted here: the referee decides", code="refereed")
    kept = []
    for env in documents:
        body = env.content["body"]
        if env.author == camp.side:
            skipped.append((env, "your own take-back file"))
            continue
        if set(body) == {"decline"}:
            if history.pinned_key(genesis, env.author) != env.public:
                raise RefusedTurn("signed by the wrong key", f"take-back answer by {env.author}", code="wrong-key")
            mine = pending(camp)
            if mine is None or mine.hash != body["decline"]:
                skipped.append((env, "declines no take-back waiting here"))
                continue
            _set(camp, None)
            kept.append(env)
            continue
        prop = history.open_proposal(env.raw, genesis)
        if prop.seq > head[0]:
            raise RefusedTurn("take-back proposal about an envelope this campaign does not hold",
                              f"ingest envelope #{prop.seq} first", code="gap")
        if (prop.seq, prop.content["prev"]) != head:  # answered by the play since: nothing to decide
            skipped.append((env, f"a take-back proposed at #{prop.seq}: the game has moved on since"))
            continue
        _check(camp, prop)
        if camp.ledger.setting(PENDING) == prop.raw:
            skipped.append((env, "already received"))
            continue
        mine = pending(camp)
        if mine is not None and mine.author == camp.side and \
                (mine.content["body"]["to"], mine.hash) <= (prop.content["body"]["to"], prop.hash):
            # proposals crossed in the post: both copies keep the one going further back (then the
            # smaller hash), so each side knows which to answer
            skipped.append((env, "crossed your own take-back proposal, which stands (it goes back further)"))
            continue
        _set(camp, prop.raw)
        kept.append(env)
    for env in kept:
        _write(camp, "received", env)
    return kept


def _set(camp: Campaign, raw: str | None) -> None:
    camp.ledger.begin()
    if raw is None:
        camp.ledger.delete_setting(PENDING)
    else:
        camp.ledger.put_setting(PENDING, raw)
    camp.ledger.commit()


def store_fork(camp: Campaign, applied: list[history.Applied], to: int, claims: list[Envelope],
               owed: list[tuple[str, Envelope]]) -> None:
    """Store a fork (``applied[0]``) and what follows it in one transaction: the envelopes after
    ``to`` and the timeout claims about them go to ``abandoned``, the derived rows with them; the
    files owed are written after (``owed-files``: the next command writes them if this one is killed)."""
    ledger = camp.ledger
    stale = []
    for digest, seq, _, raw, _ in ledger.claims():
        if seq > to and open_block(find_blocks(raw)[0], signature_checked=True).kind == "claim":
            stale.append(digest)  # a claim about an envelope taken back: kept with it
    ledger.begin()
    try:
        ledger.abandon(to, applied[0].envelope.seq, stale)
        for a in applied:
            e = a.envelope
            ledger.append(e.seq, e.hash, e.author, e.kind, e.raw, now())
            ledger.derive(e.seq, a.state_json, a.state_hash, a.events, a.rolls)
        for c in claims:
            ledger.add_claim(c.hash, c.seq, c.author, c.raw, now())
        try:
            said = [s for s in json.loads(ledger.setting(talk.INDEX) or "[]") if isinstance(s, int) and s <= to]
        except ValueError:
            said = []
        ledger.put_setting(talk.INDEX, json.dumps(said))  # messages of the abandoned envelopes go with them
        talk.index(ledger, [a.envelope for a in applied])
        ledger.delete_setting(PENDING)
        ledger.put_setting("owed-files", json.dumps([[f"{folder}/{turn_file_name(e)}", e.hash] for folder, e in owed]))
        ledger.commit()
    except BaseException:
        ledger.rollback()
        raise
    crash_point("takeback:forked")
    camp.save_draft([])  # a draft of unsigned actions was made for a position that is gone
    for folder, env in owed:
        camp.archive(folder, env)


# --- what status says -------------------------------------------------------------

def status_lines(camp: Campaign) -> list[str]:
    """The take-back waiting for an answer, and those agreed before."""
    out = []
    prop = pending(camp)
    if prop is not None:
        body = prop.content["body"]
        what = f"back to #{body['to']}, taking back #{body['to'] + 1}..#{prop.seq}"
        if prop.author == camp.side:
            out.append(f"TAKE-BACK proposed by you ({what}): waiting for {camp.opponent} to accept or decline")
        else:
            out.append(f"TAKE-BACK proposed by {prop.author} ({what}): pbem takeback accept, or pbem takeback decline")
    forks: dict[int, int] = {}
    for _, _, _, kind, _, fork in camp.ledger.abandoned():
        if kind != "claim":
            forks[fork] = forks.get(fork, 0) + 1
    for fork, count in sorted(forks.items()):
        out.append(f"taken back by agreement at #{fork}: {count} envelope(s) abandoned, signed by both and kept")
    return out


def check_not_waiting(camp: Campaign) -> None:
    """``pbem play`` while our own proposal waits: refused, so that what it abandons stays the head.

    :raises PbemError: ``takeback-pending``."""
    prop = pending(camp)
    if prop is not None and prop.author == camp.side:
        raise PbemError("your take-back proposal waits for an answer", f"{camp.opponent} accepts or declines going "
                        f"back to #{prop.content['body']['to']} first", code="takeback-pending")


def subject(camp: Campaign, env: Envelope) -> str:
    """The mail subject of a take-back file."""
    body = env.content["body"]
    if env.kind == "fork":
        prop = history.open_proposal(body["proposal"], camp.genesis)
        return (f"take-back accepted by {env.author}: play goes on from #{env.seq - 1} "
                f"({prop.seq - env.seq + 1} envelope(s) taken back)")
    if "decline" in body:
        return f"take-back declined by {env.author}: play goes on from #{env.seq}"
    return (f"TAKE-BACK proposed by {env.author}: back to #{body['to']} "
            "(pbem takeback accept, or pbem takeback decline)")
