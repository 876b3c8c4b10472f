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
link seeds two rolls.

In a refereed game the referee decides: a player's proposal (the same file) goes to the referee,
who accepts it (signs the fork, which every copy follows: no other player countersigns) or
declines it; ``propose`` by the referee signs its own proposal and the fork at once, since no one
else's answer is asked.  Play goes back only to a point where the referee owes nothing (an
adjudication, or an earlier fork), so each player's view there is the one he already holds (the
views of the abandoned adjudications are dropped with them).  The referee's copy checks the limit
in the full state; a player's copy, what is public and the rolls his own views showed.

The proposal waiting for an answer is kept in the ledger setting ``takeback`` (this copy's own
fact); it lapses when the game moves past the head it names.  The abandoned envelopes go to the
ledger's ``abandoned`` table, in the transaction that stores the fork.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chain import history, teams
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
REFEREE = "referee"


def _refuse_player(camp: Campaign) -> None:
    """A player's accept or decline in a refereed game: the referee's to give."""
    if camp.refereed and camp.side != REFEREE:
        raise PbemError("in a refereed game the referee decides", "a take-back is asked of the referee "
                        "(pbem takeback propose --to N), who accepts or declines it", code="refereed")


def _answerer(camp: Campaign) -> str:
    return REFEREE if camp.refereed else camp.opponent


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
    teams.refuse_non_commander(camp.genesis, camp.side, identity.public, history.pinned_key(camp.genesis, camp.side),
                               "its take-backs")
    content = {"v": 1, "game": camp.genesis["game"], "seq": seq, "prev": prev, "author": camp.side, "kind": kind,
               "engine": history.engine_stamp(camp.game), "body": body, "state": state}
    return seal(identity, content)


def propose(camp: Campaign, identity: Identity, to: int) -> tuple[Envelope, Path]:
    """Sign a proposal to go back to envelope ``to``; kept as pending, written to sent/.

    In a refereed game a player's proposal goes to the referee; the referee's own takes effect at
    once: the fork is signed, stored and written to sent/ (returned in its place).

    :raises PbemError: no such envelope, a proposal already waiting, or the limit
        (``past-roll``: a roll, draw or reveal after ``to``)."""
    ledger = camp.ledger
    head = ledger.head()
    assert head is not None
    if not 1 <= to < head[0]:
        raise PbemError("no envelope to go back to", f"#{to}: give a number from 1 to #{head[0] - 1} (the envelope "
                        "play goes on from; the ones after it are taken back)", code="bad-target")
    if head[0] - to > history.TAKEBACK_MOST:
        raise PbemError("too far back", f"one take-back abandons at most {history.TAKEBACK_MOST} envelopes",
                        code="bad-target")
    referee = camp.refereed and camp.side == REFEREE
    waiting = None if referee else pending(camp)  # the referee decides at once, over any request
    if waiting is not None and waiting.content["body"]["to"] != to:
        raise PbemError("a take-back is already proposed", f"{waiting.author} proposed going back to "
                        f"#{waiting.content['body']['to']}: it is answered first", code="takeback-pending")
    if waiting is not None and waiting.author != camp.side:
        raise PbemError("your opponent already proposes this take-back", "pbem takeback accept", code="takeback-pending")
    to_hash = ledger.envelope_index(to)[0]  # type: ignore[index]
    body = {"to": to, "to_hash": to_hash, "abandon": [ledger.raw(s) for s in range(to + 1, head[0] + 1)]}
    env = _sign(camp, identity, "takeback", head[0], head[1], ledger.state_hash_at(head[0]) or "", body)
    _check(camp, env)  # the limit, as the opponent's tool and verify will check it
    if referee:
        return _fork(camp, identity, env)
    _saw_roll(camp, to)
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
    abandoned, _ = history.replay_abandoned(prop, camp.genesis, camp.ledger.state(to)[1], (to, stored[0]),
                                            camp.replay_secrets())
    return abandoned


def _saw_roll(camp: Campaign, to: int) -> None:
    """A player of a refereed game: no view of an envelope after ``to`` told him of a roll (his copy
    cannot replay the rest; the referee's and, after the disclosure, everyone's can).

    :raises RefusedTurn: ``past-roll``."""
    if not camp.refereed or camp.side == REFEREE:
        return
    for _, seq, _, _, payload in camp.ledger.views(camp.side):
        if seq > to and json.loads(payload).get("rolls"):
            raise RefusedTurn("a take-back cannot go back past a roll, a draw or a reveal",
                              f"the referee's envelope #{seq} told you of a roll; go back to #{seq} or later",
                              code="past-roll")


def _write(camp: Campaign, folder: str, env: Envelope) -> Path:
    path = camp.dir / folder / turn_file_name(env)
    path.parent.mkdir(exist_ok=True)
    if not path.exists():
        atomic_write(path, env.raw)
    return path


def accept(camp: Campaign, identity: Identity) -> tuple[Envelope, Path]:
    """Countersign the opponent's pending proposal (in a refereed game: the referee grants a
    player's): sign the fork, go back, write it to sent/.

    :raises PbemError: nothing to accept (none, our own, or lapsed), a player of a refereed game."""
    _refuse_player(camp)
    return _fork(camp, identity, _answerable(camp))


def _fork(camp: Campaign, identity: Identity, prop: Envelope) -> tuple[Envelope, Path]:
    """Sign, store and write the fork that carries ``prop``."""
    to, to_hash = prop.content["body"]["to"], prop.content["body"]["to_hash"]
    at, build = camp.ledger.state(to)[1], camp.replay_secrets()
    _, after = history.replay_abandoned(prop, camp.genesis, at, (to, to_hash), build)
    if camp.refereed:  # the public state is what the state hash names (history.fork_public)
        chains = history.fork_chains(at["public"], after["public"])
        state = history.match_hash(history.fork_public(at["public"], chains, to + 1))
    else:
        chains = history.fork_chains(at, after)
        state = history.match_hash(history.fork_match(at, chains, to + 1))
    body = {"proposal": prop.raw, "chains": {s: {"index": r["index"], "link": r["link"]} for s, r in chains.items()}}
    env = _sign(camp, identity, "fork", to + 1, to_hash, state, body)
    applied = history.apply(env, camp.genesis, at, (to, to_hash), build)
    store_fork(camp, [applied], to, [], [("sent", env)])
    return env, camp.dir / "sent" / turn_file_name(env)


def _answerable(camp: Campaign) -> Envelope:
    raw = camp.ledger.setting(PENDING)
    prop = pending(camp)
    if prop is None:
        raise PbemError("no take-back to answer", "the game has moved on since it was proposed" if raw else
                        "no one has proposed one (pbem takeback propose --to N)", code="no-takeback")
    if prop.author == camp.side:
        raise PbemError("this take-back is your own proposal", f"{_answerer(camp)} accepts or declines it",
                        code="no-takeback")
    return prop


def decline(camp: Campaign, identity: Identity) -> tuple[Envelope, Path]:
    """Sign a refusal of the opponent's pending proposal (in a refereed game: the referee refuses a
    player's); write it to sent/."""
    _refuse_player(camp)
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
    return _carried(camp, {row[0] for row in camp.ledger.abandoned()}, found)


def forked_away(camp: Campaign) -> set[str]:
    """The hashes of every envelope a stored fork abandoned, held here or not: in a refereed game a
    player may get the envelopes a take-back abandoned (another player's orders, an adjudication)
    only after its fork, never having held them; they are taken back, not in conflict with it."""
    return _carried(camp, set(), [open_block(find_blocks(raw)[0]) for raw in camp.ledger.forks()])


def _carried(camp: Campaign, out: set[str], found: list[Envelope]) -> set[str]:
    """``out`` and the hashes of the envelopes each fork in ``found`` abandons."""
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
    # a player of a refereed game may not hold the last of them yet (orders the referee had, not adjudicated)
    held = theirs[:len(ours)] if camp.refereed else theirs
    if ours and ours != held:
        raise RefusedTurn("a take-back of another history", f"take-back #{env.seq} abandons envelopes "
                          f"#{to + 1}..#{prop.seq}, this copy holds #{to + 1}..#{head[0]}: they differ",
                          code="bad-takeback")
    if env.author == REFEREE:
        _saw_roll(camp, to)  # the rest of the limit is the full replay's
    return camp.ledger.state(to)[1], (to, stored[0])


def receive(camp: Campaign, documents: list[Envelope], skipped: list[tuple[Envelope, str]]) -> list[Envelope]:
    """Proposals and declines that arrived (after the chain envelopes of the same input are stored):
    checked, and the answer waiting recorded.  Those recorded are returned."""
    genesis, head = camp.genesis, camp.ledger.head()
    assert head is not None
    kept = []
    for env in documents:
        body = env.content["body"]
        if env.author == camp.side:
            skipped.append((env, "your own take-back file"))
            continue
        if set(body) == {"decline"}:
            if history.pinned_key(genesis, env.author) != env.public:
                raise RefusedTurn("signed by the wrong key", f"take-back answer by {env.author}", code="wrong-key")
            if camp.refereed and env.author != REFEREE:
                skipped.append((env, "in a refereed game only the referee answers a take-back"))
                continue
            mine = pending(camp)
            if mine is None or mine.hash != body["decline"]:
                skipped.append((env, "declines no take-back waiting here"))
                continue
            _set(camp, None)
            kept.append(env)
            continue
        prop = history.open_proposal(env.raw, genesis)
        if camp.refereed and camp.side != REFEREE:
            skipped.append((env, "a take-back is asked of the referee, who decides it"))
            continue
        if prop.seq > head[0]:
            raise RefusedTurn("take-back proposal about an envelope this campaign does not hold",
                              f"ingest envelope #{prop.seq} first", code="gap")
        if (prop.seq, prop.content["prev"]) != head:  # answered by the play since: nothing to decide
            skipped.append((env, f"a take-back proposed at #{prop.seq}: the game has moved on since"))
            continue
        if camp.refereed:  # the referee decides: one the full replay refuses waits to be declined
            _limit(camp, prop)
        else:
            _check(camp, prop)
        if camp.ledger.setting(PENDING) == prop.raw:
            skipped.append((env, "already received"))
            continue
        mine = pending(camp)
        if camp.refereed and mine is not None:
            skipped.append((env, f"{mine.author}'s take-back waits for your answer first"))
            continue
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


def _limit(camp: Campaign, prop: Envelope, told: bool = False) -> str | None:
    """The referee's copy: why ``prop`` cannot be granted (the limit, in the full state), or None.
    Only the limit is an answer, which the referee gives by declining; a proposal of another
    history raises, unless ``told`` (what status and a subject say never fails).

    :raises RefusedTurn: a proposal this copy cannot check."""
    try:
        _check(camp, prop)
    except RefusedTurn as e:
        if not told and e.code not in ("past-roll", "game-over", "bad-target"):
            raise
        return f"{e}: {e.detail}"
    return None


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
            ledger.derive(e.seq, a.state_json, a.state_hash, a.events, a.rolls, a.trail)
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
            out.append(f"TAKE-BACK proposed by you ({what}): waiting for {_answerer(camp)} to accept or decline")
        else:
            why = _limit(camp, prop, told=True) if camp.refereed else None
            out.append(f"TAKE-BACK proposed by {prop.author} ({what}): " + (
                f"it cannot be granted ({why}): pbem takeback decline" if why else
                "pbem takeback accept, or pbem takeback decline"))
    forks: dict[int, int] = {}
    for _, _, _, kind, _, fork in camp.ledger.abandoned():
        if kind != "claim":
            forks[fork] = forks.get(fork, 0) + 1
    how, who = ("by the referee's decision", "the referee") if camp.refereed else ("by agreement", "both")
    for fork, count in sorted(forks.items()):
        out.append(f"taken back {how} at #{fork}: {count} envelope(s) abandoned, signed by {who} and kept")
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
        done = "decided by the referee" if prop.author == env.author else f"accepted by {env.author}"
        return (f"take-back {done}: play goes on from #{env.seq - 1} "
                f"({prop.seq - env.seq + 1} envelope(s) taken back)")
    if "decline" in body:
        return f"take-back declined by {env.author}: play goes on from #{env.seq}"
    why = _limit(camp, env, told=True) if camp.refereed and camp.side == REFEREE else None
    return (f"TAKE-BACK proposed by {env.author}: back to #{body['to']} " + (
        f"(it cannot be granted: {why}; pbem takeback decline)" if why else
        "(pbem takeback accept, or pbem takeback decline)"))


def recipients(camp: Campaign, env: Envelope, prop: Envelope | None = None) -> list[str]:
    """Who a take-back file goes to: the opponent; in a refereed game a player's proposal to the
    referee, the referee's fork to every player, its decline to the player who asked (``prop``)."""
    if not camp.refereed:
        return [camp.opponent]
    if camp.side != REFEREE:
        return [REFEREE]
    if env.kind == "takeback" and prop is not None:
        return [prop.author]
    return sorted(camp.genesis["body"]["sides"])
