"""Ingest: checking turn files from the other sides and storing them in a campaign, all or
nothing (``Campaign.ingest``).  Every envelope is checked against the history before it
(``pbem.chain.history.apply``); a second, different envelope for a number, or one that proves a cheat,
is kept in evidence/; timeout claims and views (a referee's, or a player's join) are checked
beside the chain."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chain import history
from ..errors import PbemError, RefusedTurn
from ..store.files import atomic_write
from ..store.lock import crash_point
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block
from . import clock, takeback, timebank

if TYPE_CHECKING:  # only for annotations: the campaign imports this module, not the other way round
    from .campaign import Campaign


class IngestResult:
    """What an ingest accepted, skipped (with why) and recorded beside the chain."""

    def __init__(self) -> None:
        self.accepted: list[Envelope] = []
        self.skipped: list[tuple[Envelope, str]] = []
        self.claims: list[Envelope] = []
        self.leaves: list[Envelope] = []  # leave notices under a clock (pbem.play.timebank)
        self.takebacks: list[Envelope] = []  # take-back proposals and answers recorded (pbem.play.takeback)


def ingest(campaign: Campaign, texts: list[tuple[str, str]], skip_other_games: bool = False) -> IngestResult:
    """Check and store every envelope in ``texts`` ((source, text) pairs), all or nothing.

    :raises PbemError: the first problem; nothing is stored.
    """
    found: list[Envelope] = []
    for source, text in texts:
        try:
            blocks = find_blocks(text)
            if not blocks:
                raise RefusedTurn("no turn file found", "it holds no '-----BEGIN PBEM TURN-----' block", code="no-turn-file")
            found += [open_block(b) for b in blocks]
        except PbemError as e:
            e.detail = f"{source}: {e.detail}" if e.detail else source
            raise
    genesis = campaign.genesis
    result = IngestResult()
    head = campaign.ledger.head()
    assert head is not None
    match: dict[str, Any] | None = None
    todo: list[history.Applied] = []
    batch: dict[int, Envelope] = {}
    claims = [e for e in found if e.kind in ("claim", "leave")]
    beside = ("claim", "leave", "view", "join") if campaign.refereed else ("claim", "leave", "view")  # beside the chain
    views = [e for e in found if e.kind in beside and e.kind not in ("claim", "leave")]
    beside += ("takeback",)
    build = campaign.replay_secrets()
    if skip_other_games:  # a mailbox holds other games' mail too: report it, do not refuse
        for env in [e for e in found if e.game != genesis["game"]]:
            result.skipped.append((env, f"another game ({env.game[:8]})"))
        found = [e for e in found if e.game == genesis["game"]]
        views = [e for e in views if e.game == genesis["game"]]
        claims = [e for e in claims if e.game == genesis["game"]]
    proposals = [e for e in found if e.kind == "takeback"]
    for env in proposals:
        if env.game != genesis["game"]:
            raise RefusedTurn("take-back of another game", f"from {env.author}: game {env.game}", code="wrong-game")
    taken_back = takeback.abandoned_hashes(campaign, found)  # never equivocation: both sides signed it away
    gone: list[set[str]] = []  # what the stored forks abandoned: read once, only for an envelope off the chain

    def forked_away() -> set[str]:
        if not gone:
            gone.append(takeback.forked_away(campaign))
        return gone[0]

    fork_at: int | None = None
    if views and not campaign.refereed:  # a referee's kind of file: here no one may sign one
        raise RefusedTurn("a view is for a refereed game", f"{views[0].kind} #{views[0].seq} from {views[0].author}: "
                          "this game has no referee", code="bad-kind")
    clock.refuse_after_forfeit(campaign, [e for e in found if e.kind not in beside])  # a claim at zero ended it
    for env in sorted((e for e in found if e.kind not in beside), key=lambda e: e.seq):
        if env.game != genesis["game"]:
            raise RefusedTurn("turn file of another game", f"envelope #{env.seq} from {env.author} belongs to game "
                              f"{env.game}, this campaign is {genesis['game']}", code="wrong-game")
        pinned = history.pinned_key(genesis, env.author)
        if pinned is None:
            raise RefusedTurn("unknown author", f"envelope #{env.seq}: '{env.author}' is not a side of this game",
                              code="unknown-author")
        if not history.signs_for(genesis, env.author, env.public):  # the side's key, or a member's (chain.teams)
            raise RefusedTurn("signed by the wrong key", f"envelope #{env.seq} claims to be from {env.author} "
                              "but is not signed by a key the invitation lets sign for that side", code="wrong-key")
        if env.hash in taken_back:
            result.skipped.append((env, "taken back by agreement"))
            continue
        off_chain = env.content["prev"] != head[1] if env.seq > head[0] else \
            (campaign.ledger.envelope_index(env.seq) or (env.hash,))[0] != env.hash  # a copy already held is not
        if off_chain and env.hash in forked_away():  # read only for an envelope that fits nowhere here
            result.skipped.append((env, "taken back before it came here"))  # a refereed game's third party
            continue
        earlier = batch.get(env.seq)
        if env.kind == "fork" and env.seq <= head[0] and not earlier:
            stored = campaign.ledger.envelope_index(env.seq)
            if stored and stored[0] == env.hash:
                result.skipped.append((env, "already ingested"))
                continue
            if todo or fork_at is not None:
                raise RefusedTurn("a take-back after other envelopes", f"take-back #{env.seq} comes with envelopes "
                                  "it would take back: ingest it on its own", code="bad-takeback")
            match, head = takeback.fork_base(campaign, env, head)
            fork_at = head[0]
            applied = history.apply(env, genesis, match, head, build)
            todo.append(applied)
            batch[env.seq] = env
            match, head = applied.match, (env.seq, env.hash)
            result.accepted.append(env)
            continue
        if earlier is not None:  # the same number twice in this input (e.g. a quoted copy)
            if earlier.hash == env.hash:
                result.skipped.append((env, "repeated in this input"))
                continue
            _conflict(campaign, env, earlier.hash, earlier.author)
        if env.seq <= head[0] and not earlier:
            stored = campaign.ledger.envelope_index(env.seq)
            if stored and stored[0] == env.hash:
                result.skipped.append((env, "already ingested"))
                continue
            if stored:
                _conflict(campaign, env, *stored)
        if match is None:
            match = campaign.match()
        try:
            applied = history.apply(env, genesis, match, head, build)
        except RefusedTurn as e:
            if e.code == "cheating":  # signed by its author's pinned key: keep it, it proves the cheat
                e.detail = f"{e.detail}; the envelope is kept as evidence in {_evidence(campaign, env)}"
            raise
        todo.append(applied)
        batch[env.seq] = env
        match, head = applied.match, (env.seq, env.hash)
        result.accepted.append(env)
    _check_claims(campaign, claims, todo, result)
    opened_views = []
    new = {a.envelope.hash for a in todo}
    for view in [v for v in views if v.content["prev"] in taken_back
                 or v.content["prev"] not in new and v.content["prev"] in forked_away()]:
        result.skipped.append((view, "its adjudication was taken back by the referee's decision"))
        views.remove(view)
    if views or (campaign.refereed and todo):  # a player's view must come with the referee's envelope
        from .refereeing import check_views

        opened_views = check_views(campaign, views, todo, result)
    if todo or result.claims or result.leaves or opened_views:
        beside_chain = result.claims + result.leaves
        owed = [("received", a.envelope) for a in todo] + [("received", c) for c in beside_chain]
        if fork_at is not None:  # the envelopes after it go to the abandoned table in the same transaction
            takeback.store_fork(campaign, todo, fork_at, beside_chain, owed)
            return result
        campaign.store(todo, beside_chain, opened_views, owed=owed)
        crash_point("ingest:stored")
        for n, (folder, env) in enumerate(owed):
            campaign.archive(folder, env)
            if n == 0:
                crash_point("ingest:received")
    if proposals:
        result.takebacks = takeback.receive(campaign, proposals, result.skipped)
    return result


def _check_claims(campaign: Campaign, claims: list[Envelope], todo: list[history.Applied],
                  result: IngestResult) -> None:
    known = {h for h, *_ in campaign.ledger.claims()}
    new = {a.envelope.seq: (a.envelope.hash, a.state_hash, a.match) for a in todo}
    for claim in claims:
        if claim.hash in known:
            result.skipped.append((claim, "timeout claim already recorded" if claim.kind == "claim" else "already received"))
            continue
        if claim.kind == "leave":
            timebank.check_leave(claim, campaign.genesis, [e for e, _ in timebank.notices(campaign, "leave")]
                                 + result.leaves)
            known.add(claim.hash)
            result.leaves.append(claim)
            continue
        seq = claim.seq
        if seq in new:
            stored, state, match = (new[seq][0], claim.author), new[seq][1], new[seq][2]
        else:
            stored = campaign.ledger.envelope_index(seq)
            state = campaign.ledger.state_hash_at(seq)
            match = campaign.ledger.state(seq)[1] if stored is not None and state is not None else None
        history.check_claim(claim, campaign.genesis, stored, state, match)
        known.add(claim.hash)
        result.claims.append(claim)


def _conflict(campaign: Campaign, env: Envelope, stored_hash: str, stored_author: str) -> None:
    """A validly signed envelope for a number that already holds a different one."""
    if stored_author != env.author:
        raise RefusedTurn("conflicting envelope", f"#{env.seq} from {env.author} conflicts with the stored "
                          f"#{env.seq}, which is {stored_author}'s", code="conflict")
    path = _evidence(campaign, env)
    raise RefusedTurn("a second, different envelope for the same sequence number",
                      f"{env.author} signed two different envelopes #{env.seq}; the second is kept as evidence "
                      f"in {path} and was not accepted", code="equivocation")


def _evidence(campaign: Campaign, env: Envelope) -> Path:
    folder = campaign.dir / "evidence"
    folder.mkdir(exist_ok=True)
    path = folder / f"{env.seq:04d}-{env.author}-{env.hash[:12]}.pbem"
    if not path.exists():
        atomic_write(path, env.raw)
    return path
