"""``pbem audit``: every roll of a campaign, re-derived from its committed inputs, with statistics.

``pbem verify`` replays the whole game and compares what it gets; the audit
runs it first, then checks the dice a second way, without the game's rules:
from the signed envelopes it takes each side's chain anchor, every revealed
link and every envelope's actions, and for each stored roll it checks

* that its two chain links hash down their side's chain to the anchor (or to
  a link already seen), and were revealed where the protocol says: the
  actor's in the envelope that declared the roll, the other side's in its
  first envelope after that (sealed), in the envelope just before it (sealed
  at once, ``engine.match.at_once``) or before it (unsealed);
* that its declarations hash is the hash of actions signed in the declaring
  envelope;
* that its seed is ``engine.match.roll_seed`` of those inputs;
* that its values come out of ``engine.dice.Dice(seed)``: the rolls seeded
  by one seed are drawn from one stream, in their stored order.

Shared decks dealt to private hands (engine.deck_table) are listed message by message, with
the envelope that carried each, and verify's verdict on them: once both private secrets are
revealed every shuffle, re-keying and key release is recomputed from them.

Shuffles and draws cannot be re-derived without the items they were given
(only the result is stored); they are replayed to keep the stream in step
and marked "checked by replay (verify)".  Then it counts the faces per side
and die type and tests them against fair dice (chi-square; the p-value is
computed here, in pure Python).
"""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem_engine import match as protocol
from pbem_engine.dice import Dice

from .armor import find_blocks
from .envelope import open_block
from .errors import PbemError, VerifyError
from .ledger import Ledger
from .verify import Verified, verify_ledger

HEX = frozenset("0123456789abcdef")
REPLAY_ONLY = "checked by replay (verify)"
REDERIVED = "re-derived"
SCRIPTED = "scripted: values given, not drawn"
MAX_FACES = 1000  # larger "dice" are re-derived but left out of the statistics
SMALL_SAMPLE = 5  # expected count per face below which the chi-square test means little


# --- the chi-square test ------------------------------------------------------

def gammq(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (Numerical Recipes ``gammq``)."""
    if a <= 0 or x < 0:
        raise ValueError(f"gammq needs a > 0 and x >= 0, got a={a}, x={x}")
    if x == 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _gser(a, x))
    return _gcf(a, x)


_EPS = 1e-15
_FPMIN = 1e-300
_ITMAX = 10_000


def _gser(a: float, x: float) -> float:
    """P(a, x) by its series (good for x < a + 1)."""
    ap, term = a, 1.0 / a
    total = term
    for _ in range(_ITMAX):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gcf(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (good for x >= a + 1)."""
    b = x + 1 - a
    c = 1 / _FPMIN
    d = 1 / b
    h = d
    for i in range(1, _ITMAX):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = b + an / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with ``df`` degrees of freedom (the p-value)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    return gammq(df / 2, max(x, 0.0) / 2)


def chi_square(counts: list[int]) -> tuple[float, int]:
    """(statistic, degrees of freedom) of ``counts`` (one per face) against equally likely faces."""
    n, k = sum(counts), len(counts)
    if k < 2 or n == 0:
        return 0.0, max(k - 1, 0)
    expected = n / k
    return sum((c - expected) ** 2 for c in counts) / expected, k - 1


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


@dataclass
class Commitments:
    game_id: str
    mode: str
    chain: int
    sides: tuple[str, ...]
    envelopes: dict[int, Reveal]
    _by_side: dict[str, list[int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for seq in sorted(self.envelopes):
            env = self.envelopes[seq]
            if env.link is not None:
                self._by_side.setdefault(env.author, []).append(seq)

    def anchors(self) -> dict[str, str]:
        """Each side's chain anchor (link 0, from the genesis or the join)."""
        return {e.author: e.link for e in self.envelopes.values() if e.index == 0 and e.link}

    def last_before(self, side: str, seq: int) -> Reveal | None:
        """The last envelope revealing a link of ``side`` before envelope ``seq``."""
        seqs = self._by_side.get(side, [])
        i = bisect.bisect_left(seqs, seq)
        return self.envelopes[seqs[i - 1]] if i else None

    def first_after(self, side: str, seq: int) -> Reveal | None:
        """The first envelope revealing a link of ``side`` after envelope ``seq``."""
        seqs = self._by_side.get(side, [])
        i = bisect.bisect_right(seqs, seq)
        return self.envelopes[seqs[i]] if i < len(seqs) else None


def commitments(ledger: Ledger) -> Commitments:
    """Anchors, reveals and actions of every stored envelope (signatures checked again on the way)."""
    genesis: dict[str, Any] | None = None
    index: dict[str, int] = {}
    envelopes: dict[int, Reveal] = {}
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
            envelopes[seq] = Reveal(seq, author, kind, index[author], body.get("reveal"), prefixes)
        else:
            envelopes[seq] = Reveal(seq, author, kind, None, None)
    if genesis is None:
        raise VerifyError("dice audit failed", "the campaign has no genesis envelope")
    gbody = genesis["body"]
    return Commitments(genesis["game"], gbody["mode"], int(gbody.get("chain", protocol.CHAIN_LENGTH)),
                       tuple(sorted(gbody["sides"])), envelopes)


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
    known = KnownLinks(commits.anchors())
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
        if not (isinstance(link.get("index"), int) and not isinstance(link.get("index"), bool)
                and 0 <= link["index"] <= commits.chain):
            raise ValueError(f"{side}'s link index {link.get('index')!r} is not in 0..{commits.chain}")
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
    """Links known to be in each side's committed chain: the anchors, then every link checked."""

    def __init__(self, anchors: dict[str, str]) -> None:
        self._links = {side: {0: link} for side, link in anchors.items()}
        self._indexes = {side: [0] for side in anchors}

    def check(self, game_id: str, side: str, index: int, value: str) -> None:
        """Link ``index`` must hash in ``index - j`` steps to the known link ``j``, the nearest below it."""
        indexes = self._indexes.get(side)
        if not indexes:
            raise ValueError(f"no anchor of {side}'s chain is known")
        j = indexes[bisect.bisect_right(indexes, index) - 1]  # index >= 0 and 0 is known
        current = bytes.fromhex(value)
        for _ in range(index - j):
            current = protocol.chain_step(game_id, side, current)
        known = self._links[side][j]
        if current.hex() != known:
            raise ValueError(f"{side}'s link {side}[{index}] = {value[:16]} does not hash down the chain to "
                             f"{side}[{j}] = {known[:16]}")
        if index != j:
            bisect.insort(indexes, index)
            self._links[side][index] = value


# --- statistics ----------------------------------------------------------------

@dataclass
class DieStats:
    side: str
    die: str
    dice: int
    counts: list[tuple[Any, int]]  # (face, count) for every face, in face order
    mean: float | None  # None for coins
    fair_mean: float | None
    chi2: float
    df: int
    p: float
    expected: float  # expected count per face

    @property
    def small(self) -> bool:
        return self.expected < SMALL_SAMPLE

    @property
    def note(self) -> str:
        if self.small:
            return f"sample too small for the test to mean much (expected {self.expected:.1f} per face, < {SMALL_SAMPLE})"
        return ""

    @property
    def counts_text(self) -> str:
        if len(self.counts) <= 20:
            return " ".join(f"{face}:{count}" for face, count in self.counts)
        values = [c for _, c in self.counts]
        return f"{len(values)} faces, counts {min(values)}..{max(values)}"

    @property
    def p_text(self) -> str:
        return f"{self.p:.3f}" if self.p >= 0.001 else f"{self.p:.1e}"

    def histogram(self, height: int = 120) -> dict[str, Any]:
        """Geometry of an inline SVG bar chart: one bar per face, a line at the expected count."""
        k = len(self.counts)
        bar = max(4, min(36, 540 // k))
        top = max([c for _, c in self.counts] + [self.expected]) or 1
        scale = (height - 12) / (top * 1.1)  # room for the count above the highest bar
        label_every = 1 if k <= 20 else 10
        bars = []
        for i, (face, count) in enumerate(self.counts):
            h = count * scale
            bars.append({"x": 30 + i * bar, "y": 10 + height - h, "w": bar - 1, "h": h, "face": face,
                         "count": count, "label": i % label_every == 0 or i == k - 1, "cx": 30 + i * bar + bar / 2})
        return {"width": 30 + k * bar + 10, "height": height + 40, "base": 10 + height, "bars": bars,
                "show_counts": k <= 20,
                "expected_y": 10 + height - self.expected * scale, "right": 30 + k * bar}


def owner(roll: AuditedRoll, sides: tuple[str, ...]) -> str:
    """The side whose roll it is: the one side its purpose names ("Hill 60: ottoman return fire",
    "Allied fire at Krithia"), else the side that declared it.  A roll declared in one side's
    turn file may be the other side's dice (return fire): its faces count for the side firing."""
    import re

    named = [side for side in sides if re.search(rf"\b{re.escape(side)}\b", roll.purpose, re.IGNORECASE)]
    return named[0] if len(named) == 1 else roll.actor


def statistics(rolls: list[AuditedRoll], sides: tuple[str, ...]) -> list[DieStats]:
    """Counts per face and the chi-square test, per side whose roll it is (``owner``) and die
    type (re-derived rolls only)."""
    faces_of: dict[str, tuple[Any, ...]] = {}
    counts: dict[tuple[str, str], dict[Any, int]] = {}
    for roll in rolls:
        if roll.die is None:
            continue
        faces_of[roll.die] = roll.faces
        tally = counts.setdefault((owner(roll, sides), roll.die), {face: 0 for face in roll.faces})
        for value in roll.values:
            tally[value] += 1
    order = {side: i for i, side in enumerate(sides)}
    out = []
    for (side, die), tally in sorted(counts.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][0],
                                                                    len(faces_of[kv[0][1]]), kv[0][1])):
        faces = faces_of[die]
        per_face = [(face, tally[face]) for face in faces]
        n = sum(c for _, c in per_face)
        numeric = all(isinstance(f, int) for f in faces)
        mean = sum(f * c for f, c in per_face) / n if numeric and n else None
        fair = sum(faces) / len(faces) if numeric else None
        stat, df = chi_square([c for _, c in per_face])
        out.append(DieStats(side, die, n, per_face, mean, fair, stat, df, chi2_sf(stat, df) if df else 1.0,
                            n / len(faces)))
    return out


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
    decks: list[dict[str, Any]] = field(default_factory=list)  # engine.deck_table.messages: every deck message

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
    from .history import game_of

    genesis = open_block(find_blocks(ledger.raw(0) or "")[0]).content
    if genesis["body"].get("mode") == "referee":
        return _audit_refereed(ledger, genesis, build, progress)
    verified = verify_ledger(ledger, progress=progress)
    commits = commitments(ledger)
    game = game_of(genesis)
    rolls = check_rolls(commits, ledger.rolls())
    decks = []
    if verified.match.get("decks"):  # shared decks dealt to private hands: each message and its envelope
        from pbem_engine.deck_table import messages

        decks = messages(verified.match["decks"])
    return AuditResult(commits.game_id, game.title, game.name, game.version, genesis["body"].get("scenario", ""),
                       commits.mode, verified.envelopes, verified, rolls, statistics(rolls, tuple(game.sides)), decks)


def _audit_refereed(ledger: Ledger, genesis: dict[str, Any], build: dict[str, Any] | None,
                    progress=None) -> AuditResult:
    """A referee game: its dice mix in the referee's salt, so they are re-derived by a full
    replay, with the referee's own secrets or, for anyone else, those it disclosed."""
    from . import history
    from .errors import PbemError

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
    from .campaign import Campaign

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
    from .report import environment

    template = {"text": "audit.txt.j2", "html": "audit.html.j2"}[fmt]
    env = environment()  # autoescapes names ending in .html.j2, so audit.html.j2 is escaped
    return env.get_template(template).render(a=result)
