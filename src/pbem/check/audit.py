"""``pbem audit``: every roll of a campaign, re-derived from its committed inputs, with statistics.

``pbem verify`` replays the whole game and compares what it gets; the audit
runs it first, then checks the dice a second way, without the game's rules:
from the signed envelopes it takes each side's chain anchor, every revealed
link and every envelope's actions, and for each stored roll it checks

* that its two chain links hash down their side's chain to the anchor (or to
  a link already seen), and were revealed where the protocol says: the
  actor's in the envelope that declared the roll, the other side's in its
  first envelope after that (sealed), in the envelope just before it (sealed
  at once, ``pbem_engine.protocol.match.at_once``) or before it (unsealed);
* that its declarations hash is the hash of actions signed in the declaring
  envelope;
* that its seed is ``pbem_engine.protocol.match.roll_seed`` of those inputs;
* that its values come out of ``pbem_engine.chance.dice.Dice(seed)``: the rolls seeded
  by one seed are drawn from one stream, in their stored order.

Shared decks dealt to private hands (pbem_engine.hidden.deck_table) are listed message by message, with
the envelope that carried each, and verify's verdict on them: once both private secrets are
revealed every shuffle, re-keying and key release is recomputed from them.

Shuffles and draws cannot be re-derived without the items they were given
(only the result is stored); they are replayed to keep the stream in step
and marked "checked by replay (verify)".  Then it counts the faces per side
and die type and tests them against fair dice (chi-square, in ``pbem.check.dice_stats``).
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem_engine.protocol import match as protocol
from pbem_engine.chance.dice import Dice

from ..errors import PbemError, VerifyError
from ..store.ledger import Ledger
from ..wire.armor import find_blocks
from ..wire.envelope import open_block
from .dice_stats import DieStats, chi2_sf, chi_square, gammq, owner, statistics  # noqa: F401 - audit's own names
from .verify import Verified, verify_ledger

HEX = frozenset("0123456789abcdef")
REPLAY_ONLY = "checked by replay (verify)"
REDERIVED = "re-derived"
SCRIPTED = "scripted: values given, not drawn"
MAX_FACES = 1000  # larger "dice" are re-derived but left out of the statistics


# --- what the envelopes committed to -----------------------------------------

@dataclass(frozen=True)
class Reveal:
    """What one stored envelope committed: its author's chain link (anchor or reveal) and its actions."""
    seq: int
    author: str
    kind: str
    index: int | None  # the link's index in the author's chain (None: the envelope reveals none)
    link: str | None
    actions: tuple[str, ...] = ()  # declarations_hash of each prefix of its actions, shortest first
    renew: str | None = None  # the anchor of the new chain it committed to (pbem_engine.protocol.chain)


@dataclass
class Commitments:
    game_id: str
    mode: str
    chain: int
    sides: tuple[str, ...]
    envelopes: dict[int, Reveal]
    forked: list[Reveal] = field(default_factory=list)  # each side's link a take-back's fork goes on from
    _by_side: dict[str, list[int]] = field(default_factory=dict, repr=False)
    _at: dict[tuple[str, int], Reveal] = field(default_factory=dict, repr=False)
    _renewals: dict[str, dict[int, str]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # a fork carries, for each side, the last link revealed in the envelopes it took back: an
        # unsealed roll after it is seeded by the other side's (pbem.play.takeback)
        for env in sorted([e for e in self.envelopes.values() if e.link is not None] + self.forked,
                          key=lambda e: e.seq):
            self._by_side.setdefault(env.author, []).append(env.seq)
            self._at[env.author, env.seq] = env

    def anchors(self) -> dict[str, str]:
        """Each side's chain anchor (link 0, from the genesis or the join)."""
        return {e.author: e.link for e in self.envelopes.values() if e.index == 0 and e.link}

    def renewals(self) -> dict[str, dict[int, str]]:
        """Each side's renewed chains: {index of the link revealed beside the new anchor: anchor}."""
        if self._renewals is None:
            self._renewals = {}
            for e in self.envelopes.values():
                if e.renew is not None and e.index is not None:
                    self._renewals.setdefault(e.author, {})[e.index] = e.renew
        return self._renewals

    def last_before(self, side: str, seq: int) -> Reveal | None:
        """The last envelope revealing a link of ``side`` before envelope ``seq``."""
        seqs = self._by_side.get(side, [])
        i = bisect.bisect_left(seqs, seq)
        return self._at[side, seqs[i - 1]] if i else None

    def first_after(self, side: str, seq: int) -> Reveal | None:
        """The first envelope revealing a link of ``side`` after envelope ``seq``."""
        seqs = self._by_side.get(side, [])
        i = bisect.bisect_right(seqs, seq)
        return self._at[side, seqs[i]] if i < len(seqs) else None


def commitments(ledger: Ledger) -> Commitments:
    """Anchors, reveals and actions of every stored envelope (signatures checked again on the way)."""
    genesis: dict[str, Any] | None = None
    index: dict[str, int] = {}
    envelopes: dict[int, Reveal] = {}
    forked: list[Reveal] = []
    for seq, _, author, kind, raw, _ in ledger.envelopes():
        content = open_block(find_blocks(raw)[0]).content
        body = content["body"]
        if kind == "genesis":
            genesis = content
        if kind in ("genesis", "join"):
            index[author] = 0
            envelopes[seq] = Reveal(seq, author, kind, 0, body.get("anchor"))
        elif kind == "turn" and isinstance(body.get("reveal"), str):
            index[author] = index.get(author, 0) + 1
            actions = body.get("actions", [])
            prefixes = tuple(protocol.declarations_hash(actions[:i + 1]) for i in range(len(actions)))
            renew = body.get("renew") if isinstance(body.get("renew"), str) else None
            envelopes[seq] = Reveal(seq, author, kind, index[author], body.get("reveal"), prefixes, renew)
        else:
            if kind == "fork" and isinstance(body.get("chains"), dict):  # a take-back: the chains go on from
                index.update({s: c["index"] for s, c in body["chains"].items()})  # the links abandoned (verify checks)
                forked += [Reveal(seq, s, kind, c["index"], c["link"]) for s, c in sorted(body["chains"].items())]
            envelopes[seq] = Reveal(seq, author, kind, None, None)
    if genesis is None:
        raise VerifyError("dice audit failed", "the campaign has no genesis envelope")
    gbody = genesis["body"]
    return Commitments(genesis["game"], gbody["mode"], int(gbody.get("chain", protocol.CHAIN_LENGTH)),
                       tuple(sorted(gbody["sides"])), envelopes, forked)


# --- re-deriving the rolls ----------------------------------------------------

@dataclass
class AuditedRoll:
    number: int  # 1, 2, ... over the whole game
    seq: int
    n: int
    purpose: str
    spec: str
    values: list[Any]
    result: Any
    actor: str
    declared_in: int
    resolved_in: int
    mode: str  # SEALED, UNSEALED or SCRIPTED
    links: list[dict[str, Any]]  # side, index, link (full hex)
    declarations: str
    seed: str
    check: str  # REDERIVED, REPLAY_ONLY or SCRIPTED
    die: str | None = None  # the die type for the statistics (None: shuffles, draws, scripted)
    faces: tuple[Any, ...] = ()

    @property
    def values_text(self) -> str:
        values = " ".join(str(v) for v in self.values)
        return f"{values} = {self.result}" if self.result is not None else values

    @property
    def links_text(self) -> str:
        return " ".join(f"{link['side']}[{link['index']}]={str(link['link'])[:16]}" for link in self.links)


_POOL = re.compile(r"^(\d+)d(\d+)(>=|<=)(\d+)$")
_DICE = re.compile(r"^(\d+)d(\d+)$")
_SHUFFLE = re.compile(r"^shuffle (\d+)$")
_DRAW = re.compile(r"^draw (\d+) of (\d+)$")


def _replay(dice: Dice, roll: dict[str, Any]) -> tuple[str, str | None, tuple[Any, ...]]:
    """Draw ``roll`` again from ``dice``; (check, die type, faces).  Raises ValueError on a mismatch."""
    spec, values, purpose = roll["spec"], roll["values"], roll["purpose"]
    if not isinstance(values, list):
        raise ValueError("its values are not a list")
    if m := _SHUFFLE.match(spec):
        size = int(m.group(1))
        if len(values) != size:
            raise ValueError(f"a shuffle of {size} holds {len(values)} items")
        dice.shuffle(list(range(size)), purpose)  # the original items are not stored: keep the stream in step
        return REPLAY_ONLY, None, ()
    if m := _DRAW.match(spec):
        count, size = int(m.group(1)), int(m.group(2))
        if len(values) != count or count > size:
            raise ValueError(f"a draw of {count} of {size} holds {len(values)} items")
        dice.draw(list(range(size)), count, purpose)
        return REPLAY_ONLY, None, ()
    if m := _POOL.match(spec):
        count, sides, target = int(m.group(1)), int(m.group(2)), int(m.group(4))
        _check_count(count, values)
        dice.pool(count, sides, target, purpose, at_most=m.group(3) == "<=")
        die, faces = _die(sides)
    elif m := _DICE.match(spec):
        count, sides = int(m.group(1)), int(m.group(2))
        _check_count(count, values)
        dice.dice(count, sides, purpose)
        if roll.get("result") is not None:  # drawn by total(): the result is the sum
            dice.rolls[-1]["result"] = sum(dice.rolls[-1]["values"])
        die, faces = _die(sides)
    elif spec in ("d10", "d10 (0-9)"):
        zero = spec != "d10"
        dice.d10(purpose, zero_based=zero)
        die, faces = spec, tuple(range(0, 10) if zero else range(1, 11))
    elif spec in ("d100", "d100 (00-99)"):
        zero = spec != "d100"
        dice.d100(purpose, zero_based=zero)
        die, faces = spec, tuple(range(0, 100) if zero else range(1, 101))
    elif spec == "coin":
        dice.coin(purpose)
        die, faces = "d2 (coin)", ("heads", "tails")
    else:
        raise ValueError(f"unknown dice spec {spec!r}")
    drawn = dice.rolls[-1]
    if json.dumps(drawn["values"]) != json.dumps(values):  # as stored: 1 and true differ
        raise ValueError(f"values {' '.join(map(str, values))} stored, the seed gives "
                         f"{' '.join(map(str, drawn['values']))}")
    if json.dumps(drawn.get("result")) != json.dumps(roll.get("result")):
        raise ValueError(f"result {roll.get('result')!r} stored, the seed gives {drawn.get('result')!r}")
    return REDERIVED, die, faces


def _die(sides: int) -> tuple[str | None, tuple[int, ...]]:
    """Die type and faces of an NdS roll (no statistics for dice of more than MAX_FACES faces)."""
    return (f"d{sides}", tuple(range(1, sides + 1))) if sides <= MAX_FACES else (None, ())


def rederive(seed: str, rolls: list[dict[str, Any]]) -> list[str]:
    """Draw ``rolls`` (the records of one seed, in order) again from ``Dice(seed)``: how each was checked.

    :raises VerifyError: naming the first roll whose spec, values or result the seed does not give.
    """
    dice = Dice(bytes.fromhex(seed))
    checks = []
    for number, roll in enumerate(rolls, 1):
        try:
            checks.append(_replay(dice, roll)[0])
        except ValueError as e:
            raise VerifyError("dice audit failed", f"roll {number} ({roll.get('purpose')}, {roll.get('spec')}): {e}") from None
    return checks


def _check_count(count: int, values: list[Any]) -> None:
    if count != len(values):
        raise ValueError(f"the spec asks for {count} dice, {len(values)} values are stored")


def _is_hex(text: Any, length: int = 64) -> bool:
    return isinstance(text, str) and len(text) == length and set(text) <= HEX


def check_rolls(commits: Commitments, rolls: list[dict[str, Any]]) -> list[AuditedRoll]:
    """Re-derive every roll (as ``Ledger.rolls`` gives them, in stored order) from its committed inputs.

    :raises VerifyError: "dice audit failed", the detail naming the roll and what differs.
    """
    known = KnownLinks(commits.anchors(), commits.renewals())
    streams: dict[tuple[int, str], Dice] = {}
    out: list[AuditedRoll] = []
    for number, roll in enumerate(rolls, 1):
        where = (f"roll {number} (entry #{roll.get('seq')}, n {roll.get('n')}: "
                 f"{roll.get('purpose')}, {roll.get('spec')})")
        try:
            audited = _check_one(commits, known, streams, number, roll)
        except ValueError as e:
            raise VerifyError("dice audit failed", f"{where}: {e}") from None
        out.append(audited)
    return out


def _check_one(commits: Commitments, known: KnownLinks, streams: dict[tuple[int, str], Dice],
               number: int, roll: dict[str, Any]) -> AuditedRoll:
    seq, actor, mode = roll["seq"], roll.get("actor"), roll.get("mode")
    links, declarations, seed = roll.get("links"), roll.get("declarations"), roll.get("seed")
    declared_in = roll.get("declared_in")
    if roll.get("scripted"):
        return AuditedRoll(number, seq, roll["n"], roll["purpose"], roll["spec"], roll["values"], roll.get("result"),
                           str(actor), declared_in if isinstance(declared_in, int) else seq, seq, "SCRIPTED",
                           links if isinstance(links, list) else [], str(declarations or ""), str(seed or ""), SCRIPTED)
    # -- the record's shape
    if actor not in commits.sides:
        raise ValueError(f"actor {actor!r} is not a side of this game")
    other = next(s for s in commits.sides if s != actor)
    if mode not in ("sealed", "unsealed"):
        raise ValueError(f"dice mode {mode!r} is not one this audit knows (sealed, unsealed)")
    if mode != commits.mode:
        raise ValueError(f"rolled in mode {mode!r}, the genesis fixed dice mode {commits.mode!r}")
    if not (isinstance(links, list) and len(links) == 2 and all(isinstance(x, dict) for x in links)):
        raise ValueError("it does not name its two chain links")
    for link, side in zip(links, (actor, other)):
        if link.get("side") != side:
            raise ValueError(f"its links must be the actor's ({actor}) then the other side's ({other}), "
                             f"found {link.get('side')!r}")
        top = commits.chain + max(commits.renewals().get(side, {0: ""}))  # a renewed chain counts on
        if not (isinstance(link.get("index"), int) and not isinstance(link.get("index"), bool)
                and 0 <= link["index"] <= top):
            raise ValueError(f"{side}'s link index {link.get('index')!r} is not in 0..{top}")
        if not _is_hex(link.get("link")):
            raise ValueError(f"{side}'s link is not 64 hex digits")
    if not _is_hex(declarations):
        raise ValueError("its declarations hash is not 64 hex digits")
    if not _is_hex(seed):
        raise ValueError("its seed is not 64 hex digits")
    if not isinstance(declared_in, int):
        raise ValueError(f"declared in {declared_in!r}, not an envelope number")
    # -- the links are in the committed chains
    for link in links:
        known.check(commits.game_id, link["side"], link["index"], link["link"])
    # -- revealed where the protocol says, and the declarations are what the actor signed
    mine, theirs = links
    declaring = commits.envelopes.get(declared_in)
    if declaring is None or declaring.kind != "turn" or declaring.author != actor:
        raise ValueError(f"declared in envelope #{declared_in}, which is not a turn of {actor}")
    if (declaring.index, declaring.link) != (mine["index"], mine["link"]):
        raise ValueError(f"{actor}'s link {actor}[{mine['index']}] is not the one revealed in envelope #{declared_in} "
                         f"({actor}[{declaring.index}])")
    if declarations not in declaring.actions:
        raise ValueError(f"declarations hash {declarations[:16]} is not the hash of actions signed in "
                         f"envelope #{declared_in}")
    if mode == "sealed" and declared_in == seq:  # sealed at once (match.at_once): by the link just before
        resolving = commits.envelopes.get(seq - 1)
        if resolving is None or resolving.kind != "turn" or resolving.author != other:
            raise ValueError(f"a roll sealed at once in #{seq} is seeded by {other}'s link in the envelope just "
                             f"before it, and #{seq - 1} is not a turn of {other}")
    elif mode == "sealed":
        resolving = commits.first_after(other, declared_in)
        if resolving is None or resolving.seq != seq:
            raise ValueError(f"a sealed roll declared in #{declared_in} is seeded by {other}'s next envelope "
                             f"(#{resolving.seq if resolving else '?'}), it is stored under #{seq}")
        if declarations != declaring.actions[-1]:
            raise ValueError(f"a sealed roll must be the last action of envelope #{declared_in}")
    else:
        resolving = commits.last_before(other, declared_in)
        if seq != declared_in:
            raise ValueError(f"an unsealed roll declared in #{declared_in} is stored under #{seq}")
    if roll.get("resolved_in", seq) != seq:
        raise ValueError(f"says it was resolved in #{roll.get('resolved_in')}, it is stored under #{seq}")
    if resolving is None or (resolving.index, resolving.link) != (theirs["index"], theirs["link"]):
        raise ValueError(f"{other}'s link {other}[{theirs['index']}] is not the one revealed in envelope "
                         f"#{resolving.seq if resolving else '?'} ({other}[{resolving.index if resolving else '?'}])")
    # -- the seed
    expected = protocol.roll_seed(commits.game_id, declared_in, mine["link"], theirs["link"], declarations).hex()
    if expected != seed:
        raise ValueError(f"seed {seed[:16]} stored, its inputs give {expected[:16]}")
    # -- the values: one stream per seed, drawn in stored order
    if (seq, seed) not in streams:
        streams[(seq, seed)] = Dice(bytes.fromhex(seed))
    dice = streams[(seq, seed)]
    check, die, faces = _replay(dice, roll)
    return AuditedRoll(number, seq, roll["n"], roll["purpose"], roll["spec"], roll["values"], roll.get("result"),
                       actor, declared_in, seq, mode.upper(), [dict(x) for x in links], declarations, seed, check,
                       die, faces)


class KnownLinks:
    """Links known to be in each side's committed chain: the anchors, then every link checked.  A
    renewed chain's links hash down to its anchor, which sits at the index of the link revealed
    beside it (``renewals``: {side: {index: anchor}})."""

    def __init__(self, anchors: dict[str, str], renewals: dict[str, dict[int, str]] | None = None) -> None:
        self._links = {side: {0: link} for side, link in anchors.items()}
        self._indexes = {side: [0] for side in anchors}
        self._renewed = renewals or {}

    def check(self, game_id: str, side: str, index: int, value: str) -> None:
        """Link ``index`` must hash in ``index - j`` steps to the known link ``j``, the nearest below it
        in the same chain (or to the anchor of the chain it belongs to)."""
        indexes = self._indexes.get(side)
        if not indexes:
            raise ValueError(f"no anchor of {side}'s chain is known")
        j = indexes[bisect.bisect_right(indexes, index) - 1]  # index >= 0 and 0 is known
        floor = max((i for i in self._renewed.get(side, {}) if i < index), default=None)
        known = self._links[side][j]
        if floor is not None and j <= floor:  # the nearest link known is of an older chain
            j, known = floor, self._renewed[side][floor]
        current = bytes.fromhex(value)
        for _ in range(index - j):
            current = protocol.chain_step(game_id, side, current)
        if current.hex() != known:
            raise ValueError(f"{side}'s link {side}[{index}] = {value[:16]} does not hash down the chain to "
                             f"{side}[{j}] = {known[:16]}")
        if index != j:
            bisect.insort(indexes, index)
            self._links[side][index] = value


# --- the audit -------------------------------------------------------------------

@dataclass
class AuditResult:
    game_id: str
    title: str
    module: str
    module_version: str
    scenario: str
    mode: str
    envelopes: int
    verified: Verified
    rolls: list[AuditedRoll]
    stats: list[DieStats]
    decks: list[dict[str, Any]] = field(default_factory=list)  # pbem_engine.hidden.deck_table.messages: every deck message

    @property
    def decks_verdict(self) -> str:
        """The shared decks' verdict (verify's): counted, or recomputed from both revealed secrets."""
        return self.verified.decks_note

    @property
    def dice(self) -> int:
        return sum(len(r.values) for r in self.rolls if r.check == REDERIVED)

    @property
    def rederived(self) -> int:
        return sum(1 for r in self.rolls if r.check == REDERIVED)

    @property
    def replay_only(self) -> int:
        return sum(1 for r in self.rolls if r.check == REPLAY_ONLY)

    @property
    def unsealed(self) -> int:
        return sum(1 for r in self.rolls if r.mode == "UNSEALED")

    @property
    def scripted(self) -> int:
        return sum(1 for r in self.rolls if r.mode == "SCRIPTED")

    @property
    def verdict(self) -> str:
        text = f"audit OK: {self.rederived} rolls re-derived from their committed inputs"
        if self.mode == "referee":
            text += " (a full replay with the referee's salt, which it committed to at genesis)"
        if self.replay_only:
            text += f"; {self.replay_only} shuffles/draws {REPLAY_ONLY}"
        if self.scripted:
            text += f"; {self.scripted} SCRIPTED (values given, not drawn)"
        if self.unsealed:
            text += f"; {self.unsealed} UNSEALED (their actor could compute them before signing)"
        return text


def audit(ledger: Ledger, build: dict[str, Any] | None = None, progress=None) -> AuditResult:
    """Verify the campaign, then re-derive every roll and test the dice.

    ``build``: a referee's own secrets, for a referee game it runs.
    :raises VerifyError: from ``verify_ledger``, or "dice audit failed" naming the roll.
    """
    from ..chain.history import game_of

    blocks = find_blocks(ledger.raw(0) or "")
    if len(blocks) != 1:
        verify_ledger(ledger, progress=progress)  # names what is wrong with the stored genesis
        raise PbemError("the campaign's genesis is damaged", str(ledger.path), code="bad-campaign")
    genesis = open_block(blocks[0]).content
    if genesis["body"].get("mode") == "referee":
        return _audit_refereed(ledger, genesis, build, progress)
    verified = verify_ledger(ledger, progress=progress)
    commits = commitments(ledger)
    game = game_of(genesis)
    rolls = check_rolls(commits, ledger.rolls())
    decks = []
    if verified.match.get("decks"):  # shared decks dealt to private hands: each message and its envelope
        from pbem_engine.hidden.deck_table import messages

        decks = messages(verified.match["decks"])
    return AuditResult(commits.game_id, game.title, game.name, game.version, genesis["body"].get("scenario", ""),
                       commits.mode, verified.envelopes, verified, rolls, statistics(rolls, tuple(game.sides)), decks)


def _audit_refereed(ledger: Ledger, genesis: dict[str, Any], build: dict[str, Any] | None,
                    progress=None) -> AuditResult:
    """A referee game: its dice mix in the referee's salt, so they are re-derived by a full
    replay, with the referee's own secrets or, for anyone else, those it disclosed."""
    from ..chain import history
    from ..errors import PbemError

    verified = verify_ledger(ledger, build=build, progress=progress)
    envelopes = [open_block(find_blocks(raw)[0]) for _, _, _, _, raw, _ in ledger.envelopes()]
    if build is None:
        disclosure = next((e for e in envelopes if "disclose" in e.content["body"]), None)
        if disclosure is None:
            raise PbemError("the referee has not disclosed this game yet",
                            "its dice mix in the referee's secret salt; audit them once the referee discloses",
                            code="not-disclosed")
        secrets = disclosure.content["body"]["disclose"]
        build = {"referee_salt": bytes.fromhex(secrets["salt"]), "referee_box": bytes.fromhex(secrets["box"])}
    game = history.game_of(genesis)
    applied = history.apply(envelopes[0], None, None, None, build)
    match, head = applied.match, (0, envelopes[0].hash)
    rolls: list[AuditedRoll] = []
    for env in envelopes[1:]:
        applied = history.apply(env, genesis, match, head, build)  # re-derives every die from its seed
        for n, roll in enumerate(applied.rolls):
            m = _DICE.match(roll["spec"]) or _POOL.match(roll["spec"])
            die, faces = _die(int(m.group(2))) if m else (None, ())
            rolls.append(AuditedRoll(len(rolls) + 1, env.seq, n, roll["purpose"], roll["spec"], roll["values"],
                                     roll.get("result"), roll["actor"], roll["declared_in"], env.seq, "REFEREE",
                                     [dict(x) for x in roll["links"]], roll["declarations"], roll["seed"],
                                     REDERIVED, die, faces))
        match, head = applied.match, (env.seq, env.hash)
    verified.dice = sum(len(r.values) for r in rolls)  # the public chain holds none: count the full replay's, as verify does
    return AuditResult(genesis["game"], game.title, game.name, game.version, genesis["body"].get("scenario", ""),
                       "referee", verified.envelopes, verified, rolls, statistics(rolls, tuple(game.sides)))


def audit_path(path: Path, unlock=None, progress=None) -> AuditResult:
    """The audit of a campaign directory or its database, opened read-only."""
    from ..play.campaign import Campaign

    camp = Campaign.open(path, readonly=True)
    camp.unlock = unlock
    try:
        build = None
        try:
            build = camp.replay_secrets() if camp.refereed else None
        except PbemError:
            build = None
        return audit(camp.ledger, build, progress)
    finally:
        camp.ledger.close()


def render(result: AuditResult, fmt: str = "text") -> str:
    """The audit as plain text or as a self-contained HTML page (no script, no external file)."""
    from ..view.report import environment

    template = {"text": "audit.txt.j2", "html": "audit.html.j2"}[fmt]
    env = environment()  # autoescapes names ending in .html.j2, so audit.html.j2 is escaped
    return env.get_template(template).render(a=result)
