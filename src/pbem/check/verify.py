"""``pbem verify``: replay a whole history and re-check everything in it.

Reads the envelopes exactly as stored, re-parses their armor, re-verifies
every signature against the key pinned at genesis, every link to the previous
envelope, every chain reveal, every die and every rules decision, and
compares every state hash: the one the author signed, the one recomputed,
and the one in the derived ``states`` table.  The first discrepancy raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem_engine.protocol.core import copy_state

from .. import limits
from ..chain import history
from ..play import timebank
from ..errors import PbemError, VerifyError
from ..store.ledger import Ledger
from ..wire import signatures
from ..wire.armor import find_blocks
from ..wire.envelope import open_block


@dataclass
class Verified:
    envelopes: int
    actions: int
    dice: int
    unsealed: int
    state_hash: str
    match: dict[str, Any]
    claims: int = 0
    leaves: int = 0  # leave notices under a clock (pbem.play.timebank)
    takebacks: int = 0  # take-backs both sides signed (pbem.play.takeback)
    abandoned: int = 0  # the envelopes they abandoned, kept and checked
    referee_note: str = ""
    decks_note: str = ""  # the shared decks dealt to private hands (pbem_engine.hidden.deck_table.verdict)

    def summary(self) -> str:
        unsealed = f" ({self.unsealed} rolls UNSEALED: their actor could compute them before signing)" if self.unsealed else ""
        claims = f", {self.claims} timeout claim(s)" if self.claims else ""
        claims += f", {self.leaves} leave notice(s)" if self.leaves else ""
        how = "decided by the referee (" if "public" in self.match else "by agreement ("  # refereed: {public, full}
        claims += (f", {self.takebacks} take-back(s) {how}{self.abandoned} envelope(s) abandoned, "
                   f"signed by {'the referee' if 'public' in self.match else 'both'})") if self.takebacks else ""
        hidden = ""
        for side, record in sorted(self.match.get("private", {}).items()):
            drawn = sum(len(e.get("tokens", [])) for e in record["log"])
            if drawn:
                hidden += (f", {side}'s {drawn} hidden draws checked against its secret" if record["secret"]
                           else f", {side}'s {drawn} hidden draws NOT YET CHECKED (its secret is revealed at the end)")
        claims += hidden + (f", {self.decks_note}" if self.decks_note else "") + self.referee_note
        return (f"OK: {self.envelopes} envelopes, {self.actions} actions, {self.dice} dice checked{unsealed}{claims}; "
                f"state {self.state_hash[:16]}")


def verify_ledger(ledger: Ledger, *, rebuild: bool = False, build: dict[str, Any] | None = None,
                  progress: Callable[[int, int], None] | None = None, worker: bool | str | None = None) -> Verified:
    """Replay ``ledger`` from genesis.  With ``rebuild``, rewrite the derived tables.

    ``build``: a referee's own secrets, to replay the full state of a referee game.
    ``worker``: check signatures ahead in a worker process (True) or a thread ("thread"), or only
    in the replay (False); by default a process or a thread where that helps
    (``pbem.wire.signatures.checker``).

    :raises VerifyError: naming the first bad entry and what is wrong with it.
    """
    genesis: dict[str, Any] | None = None
    match: dict[str, Any] | None = None
    head: tuple[int, str] | None = None
    actions = dice = unsealed = 0
    expected_seq = 0
    applied = None
    claimed = {seq for _, seq, *_ in ledger.claims()}  # the matches a claim must be checked against
    forks: dict[int, list[str]] = {}  # each take-back's number: the hashes of the envelopes it abandoned
    replayed: dict[int, tuple[tuple[str, str], str, dict[str, Any] | None]] = {}  # for those only
    if rebuild:
        ledger.begin()
        ledger.clear_derived()
    checker = read = None
    try:
        total = (ledger.head() or (-1, ""))[0] + 1
        stored = None if rebuild else _Stored(ledger)
        checker = signatures.checker(total, worker)
        if checker is not None:
            read = checker.checked(_armored(ledger.envelopes()))
        else:
            read = ((item, False) for item, _ in _armored(ledger.envelopes()))
        for ((seq, digest, author, kind, raw, _), blocks), signed in read:
            if progress is not None:
                progress(seq + 1, total)
            where = f"entry #{seq}"
            if seq != expected_seq:
                raise VerifyError("history has a gap", f"{where}: expected envelope #{expected_seq}")
            try:
                if not isinstance(raw, str) or not isinstance(digest, str):  # a row edited to a blob or a number
                    raise VerifyError("stored envelope is damaged", f"{where}: is {type(raw).__name__}, not text")
                if isinstance(blocks, PbemError):  # what find_blocks raised, raised in its turn
                    raise blocks
                if len(blocks) != 1:
                    raise VerifyError("stored envelope is damaged", f"{where}: holds {len(blocks)} armored blocks")
                env = open_block(blocks[0], signature_checked=signed)
                if (env.seq, env.hash, env.author, env.kind) != (seq, digest, author, kind):
                    raise VerifyError("stored envelope does not match its index columns",
                                      f"{where}: stored as #{seq} {author} {kind} {digest[:16]}…, signed as "
                                      f"#{env.seq} {env.author} {env.kind} {env.hash[:16]}…")
                # The match before is not read again (a claim's is kept as a copy): its state is changed in place.
                applied = history.apply(env, genesis, match, head, build, own=True)
            except VerifyError:
                raise
            except PbemError as e:
                raise VerifyError(f"{where} ({author}, {kind}): {e}", e.detail) from None
            if stored is not None:
                stored.compare(where, seq, applied)
            if rebuild:
                ledger.derive(seq, applied.state_json, applied.state_hash, applied.events, applied.rolls, applied.trail)
            if genesis is None:
                genesis = env.content
            if kind == "fork":  # checked by the replay: the proposal inside it and what it abandons
                forks[seq] = _abandoned_by(env.content)
            if seq in claimed:  # a copy: the next envelopes change this match's state in place, and one
                # without actions shares it with the match after it
                replayed[seq] = ((env.hash, env.author), applied.state_hash, copy_state(applied.match))
            match, head = applied.match, (seq, env.hash)
            actions += len(env.content["body"].get("actions", [])) or int("orders" in env.content["body"])
            for roll in applied.rolls:
                dice += len(roll["values"])
                unsealed += roll.get("mode") == "unsealed"
            expected_seq += 1
        if applied is None:
            raise VerifyError("empty history", "the campaign holds no envelopes")
        if stored is not None:
            stored.finish(expected_seq)
        claims, leaves = _verify_claims(ledger, genesis, replayed)
        abandoned = _verify_abandoned(ledger, forks)
        if rebuild:
            ledger.commit()
    except BaseException:
        if rebuild:
            ledger.rollback()
        raise
    finally:
        if read is not None:
            read.close()  # now, not when a traceback that holds it is dropped, after the database is closed
        if checker is not None:
            checker.close()
    assert match is not None
    return Verified(expected_seq, actions, dice, unsealed, applied.state_hash, match, claims, leaves,
                    len(forks), abandoned, decks_note=_decks(match))


def _abandoned_by(fork: dict[str, Any]) -> list[str]:
    proposal = open_block(find_blocks(fork["body"]["proposal"])[0]).content
    return [open_block(find_blocks(text)[0]).hash for text in proposal["body"]["abandon"]]


def _verify_abandoned(ledger: Ledger, forks: dict[int, list[str]]) -> int:
    """The ``abandoned`` table: each envelope in it is one a take-back of the history carries (so
    both sides signed it away), stored as signed; each timeout claim in it a signed claim about an
    envelope taken back there.  How many envelopes."""
    count = 0
    for digest, seq, author, kind, raw, fork in ledger.abandoned():
        where = f"abandoned {kind} {str(digest)[:12]} (#{seq} by {author})"
        try:
            blocks = find_blocks(raw) if isinstance(raw, str) else []
            env = open_block(blocks[0]) if len(blocks) == 1 else None
        except PbemError as e:
            raise VerifyError(f"{where}: {e}", e.detail) from None
        if env is None or (env.hash, env.seq, env.author, env.kind) != (digest, seq, author, kind):
            raise VerifyError("stored abandoned envelope does not match its index columns", where)
        if fork not in forks or not (kind == "claim" and seq >= fork or digest in forks[fork]):
            raise VerifyError("an abandoned envelope no take-back abandoned", f"{where}: no take-back at #{fork} "
                              "of this history carries it; restore the campaign from a copy")
        count += kind != "claim"
    return count


def _decks(match: dict[str, Any]) -> str:
    """The shared decks dealt to private hands: counted, and once both private secrets are in,
    every deck message recomputed from them (the replay ran the same audit at the last reveal;
    this one names its verdict, and is cached within the process)."""
    if not match.get("decks"):
        return ""
    from pbem_engine.hidden.deck import DeckError
    from pbem_engine.hidden.deck_table import verdict

    try:
        return verdict(match["game_id"], match["decks"], match.get("private", {}))
    except DeckError as e:
        raise VerifyError("the shared-deck audit failed", f"{e.side or 'a side'}: {e}") from None


def _verify_claims(ledger: Ledger, genesis: dict[str, Any] | None,
                   replayed: dict[int, tuple[tuple[str, str], str, dict[str, Any] | None]]) -> tuple[int, int]:
    """Every document beside the chain: timeout claims, and leave notices within the allowance."""
    claims, leaves = ledger.claims(), []
    for digest, seq, author, raw, _ in claims:
        where = f"timeout claim {digest[:12]} (by {author}, at #{seq})"
        try:
            blocks = find_blocks(raw) if isinstance(raw, str) else []
            if len(blocks) != 1:
                raise VerifyError("stored timeout claim is damaged", where)
            env = open_block(blocks[0])
            if env.kind == "leave" and (env.hash, env.seq, env.author) == (digest, seq, author):
                timebank.check_leave(env, genesis or {}, leaves)
                leaves.append(env)
                continue
            if (env.hash, env.seq, env.author, env.kind) != (digest, seq, author, "claim"):
                raise VerifyError("stored timeout claim does not match its index columns", where)
            stored, state, match = replayed.get(seq, (None, None, None))
            history.check_claim(env, genesis or {}, stored, state, match)
        except VerifyError:
            raise
        except PbemError as e:
            raise VerifyError(f"{where}: {e}", e.detail) from None
    return len(claims) - len(leaves), len(leaves)


def _armored(rows: Iterator[tuple]) -> Iterator[tuple[tuple[tuple, Any], bytes | None]]:
    """Each stored row with its armored blocks (or what reading them raised), and the payload
    whose signature is to be checked: the one block's, if there is one block to read."""
    bounds = limits.text_bounds()  # read once, not twice per envelope
    for row in rows:
        raw, blocks = row[4], None
        if isinstance(raw, str) and isinstance(row[1], str):
            try:
                blocks = find_blocks(raw, bounds)
            except PbemError as e:  # raised in its turn, after every envelope before it; its traceback
                blocks = e.with_traceback(None)  # would hold this frame, and so the database's cursor
        one = blocks[0].payload if isinstance(blocks, list) and len(blocks) == 1 else None
        yield (row, blocks), one


class _Stored:
    """The derived rows that status and reports read, taken table by table in step with the
    envelopes (so that verify's memory does not grow with the history): each envelope's must be
    exactly what the replay gives, and no row may belong to no envelope."""

    TABLES = ("states", "events", "rolls", "trails")

    def __init__(self, ledger: Ledger) -> None:
        self.cursors = ledger.derived_cursors()
        self.next = [next(c, None) for c in self.cursors]
        self.strays: list[Any] = []  # rows of no envelope met on the way (a seq not in the history)

    def _take(self, t: int, seq: int) -> list[tuple]:
        rows, row, cursor = [], self.next[t], self.cursors[t]
        while row is not None and not (type(row[0]) is int and row[0] >= seq):
            self.strays.append(row[0])  # before this envelope, and not an earlier one's: no envelope's
            row = next(cursor, None)
        while row is not None and row[0] == seq:
            rows.append(row)
            row = next(cursor, None)
        self.next[t] = row
        return rows

    def compare(self, where: str, seq: int, applied: history.Applied) -> None:
        state = Ledger.state_row_read(seq, applied.state_json, applied.state_hash)
        event_rows, roll_rows = Ledger.event_roll_rows(seq, applied.events, applied.rolls)
        states = self._take(0, seq)
        for t, stored, replayed in ((0, states[0] if states else None, state),  # seq is its key: one row at most
                                    (1, self._take(1, seq), event_rows), (2, self._take(2, seq), roll_rows),
                                    (3, self._take(3, seq), Ledger.trail_rows(seq, applied.trail))):
            if stored != replayed:
                table = self.TABLES[t]
                words = table == "events" and [(r[0], r[1], r[3]) for r in stored] == \
                    [(r[0], r[1], r[3]) for r in replayed]  # the same events, told in other words
                raise VerifyError("derived data differs from the replay",
                                  f"{where}: the {table} table does not match the replayed "
                                  f"{'state' if table == 'states' else table}; run 'pbem rebuild'" + (
                                      " (the turn files are not in question: only the words of its events "
                                      "differ, as after an update of pbem that rewords them)" if words else ""))

    def finish(self, expected_seq: int) -> None:
        extra = []
        for t, cursor in enumerate(self.cursors):
            row = self.next[t]
            while row is not None:
                (extra if type(row[0]) is int else self.strays).append(row[0])
                row = next(cursor, None)
        if self.strays:  # a seq no envelope has (below zero, or not a whole number)
            raise VerifyError("derived rows with no envelope", f"entry #{self.strays[0]!r}: the derived tables hold "
                              "rows of no envelope; run 'pbem rebuild'")
        if extra:
            raise VerifyError("derived rows with no envelope", f"entry #{min(extra)}: the derived tables hold rows past "
                              f"the last envelope #{expected_seq - 1}; run 'pbem rebuild'")


def verify_path(path: Path, unlock=None, progress: Callable[[int, int], None] | None = None) -> Verified:
    """Verify a campaign directory or database.  A referee's campaign is replayed in full
    with its own secrets (``unlock`` asks for their passphrase if they are encrypted); a
    player's copy of a referee game is replayed in full once the referee has disclosed."""
    from ..play.campaign import Campaign

    camp = Campaign.open(path, readonly=True)
    camp.unlock = unlock
    try:
        try:
            refereed = camp.refereed
        except PbemError:  # no readable genesis: the replay below says what is wrong
            refereed = False
        build = camp.replay_secrets() if refereed else None
        result = verify_ledger(camp.ledger, build=build, progress=progress)
        if refereed and camp.side == "referee":
            result.referee_note = ", full state replayed with the referee's secrets and every commitment checked"
        elif refereed:
            from ..play.refereeing import verify_disclosed, verify_views

            views = verify_views(camp)  # raises bad-view
            if result.match["public"]["disclosed"] is None:
                result.referee_note = (f", public chain and the {views} views the referee signed for you checked; "
                                       "the full replay is checked once the referee discloses")
            else:
                views, result.dice = verify_disclosed(camp.ledger, camp.side)
                result.referee_note = f", referee disclosed: full game replayed, {views} views you received match"
        return result
    finally:
        camp.ledger.close()
