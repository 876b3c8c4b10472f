"""Ground and air combat resolution (rules 2.3, 3.22, 7.0-7.8, 9.0-9.1, 10.0, 11.4, 12.5).

A pure library: the caller (the future rules module, which knows the map) says which units
take part, in what condition, which Tactical Advantages each side claims and which HQs
command; this module does the arithmetic of the rules and reads the charts.

    attack = Attack(attackers=[Unit("16/6", 4)], defenders=[Unit("1/35", 2)], ...)
    res = resolve(charts.PROVISIONAL, attack, dice)       # one d6, dice.roll(6, purpose)
    outcome_distribution(charts.PROVISIONAL, attack)      # exact, before the roll

Options (RULES.md):

* ``rounding`` "up" (default) or "down": how a halved, quartered or eighthed strength is
  rounded.  2.3 ("Combat factors are rounded up") and 7.2 ("half strength (round up)") say
  up; 3.22 ("half strength (rounded down)") and 9.4 ("rounding down") say down.  Either
  way no unit falls below 1 (2.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil, floor
from typing import Any

from .charts import AirResult, Charts, CrtResult, Table

ROUNDING = ("up", "down")
DEFAULT_OPTIONS: dict[str, str] = {"rounding": "up"}
TA_CAP = 7  # 7.3, 7.5: "A limit of 7 tactical advantages per side"
RETREAT_HEXES = {"british": 2, "turkish": 3}  # 7.6
BREAKTHROUGH_RETREAT = 4  # 7.8
BREAKTHROUGH_STEPS = 2  # 7.8
BREAKTHROUGH_MP = 3  # 7.8
GROUND = ("combat", "support", "hq")  # units a depot supports (3.22, 7.2); air and gunboats are not
KINDS = (*GROUND, "gunboat", "air")


@dataclass(frozen=True)
class Unit:
    """One unit in a combat.

    ``strength``: its printed combat factor; for support units (9.0) and HQs (7.3) the
    parenthesised one; for an aeroplane its bombing strength (11.3).  ``hex`` matters only
    for support units, which count only when stacked with a friendly combat unit (9.0);
    ``adjacent`` only for attacking HQs (7.3 added: "only if in a hex adjacent").
    """

    name: str
    strength: int
    kind: str = "combat"
    oos: bool = False  # out of supply (10.0)
    ooc: bool = False  # out of communication (10.0)
    asterisk: bool = False  # special capability (*), 7.51
    crossed: bool = False  # 9.4: crossed a river into an enemy ZOC this turn: attacks at half strength
    hex: str = ""
    adjacent: bool = True


@dataclass(frozen=True)
class Command:
    """An HQ offering its command rating as a DRM (7.3, 9.0 added)."""

    name: str
    rating: int
    level: str = "division"  # division | corps | army
    in_range: bool = True  # within command range of the units involved
    own_unit: bool = True  # (divisional HQs) one of its own units is in the combat


@dataclass(frozen=True)
class Attack:
    attackers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    defender_nation: str = "turkish"  # british | turkish: the retreat rate (7.6)
    attacker_depot: bool = True  # 7.2: the attacker expends his depot (full strength, TAs)
    defender_depot: bool = True
    attacker_tas: Mapping[str, int] = field(default_factory=dict)  # TA id -> instances claimed
    defender_tas: Mapping[str, int] = field(default_factory=dict)
    across: frozenset[str] = frozenset()  # hexside features ALL attackers attack across (7.51)
    attacker_commands: tuple[Command, ...] = ()
    defender_commands: tuple[Command, ...] = ()

    def __post_init__(self) -> None:
        for attr in ("attackers", "defenders", "attacker_commands", "defender_commands"):
            object.__setattr__(self, attr, tuple(getattr(self, attr)))
        object.__setattr__(self, "across", frozenset(self.across))


def options_with_defaults(options: Mapping[str, Any] | None) -> dict[str, str]:
    out = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise ValueError(f"unknown combat option {key!r} (known: {', '.join(DEFAULT_OPTIONS)})")
        out[key] = value
    if out["rounding"] not in ROUNDING:
        raise ValueError(f"option rounding must be one of {', '.join(ROUNDING)}, got {out['rounding']!r}")
    return out


# -- 2.3, 7.2, 10.0, 12.5: strengths ------------------------------------------------------------

def multiplier(unit: Unit, depot: bool) -> Fraction:
    """10.0: OOS halves, OOC halves (both: quartered); not expending the depot halves again
    (7.2, 12.5; "eighth-ed" when all three); an HQ river crossing into an enemy ZOC halves an
    attacker once more (9.4).  Air and gunboat strengths are not ground
    strengths supported by a depot, and are taken as printed."""
    if unit.kind not in GROUND:
        return Fraction(1)
    halvings = int(unit.oos) + int(unit.ooc) + int(not depot) + int(unit.crossed)
    return Fraction(1, 2 ** halvings)


def unit_strength(unit: Unit, depot: bool, rounding: str = "up") -> int:
    """The strength a unit brings: printed x multiplier, rounded by the option, at least 1 (2.3)."""
    exact = unit.strength * multiplier(unit, depot)
    value = ceil(exact) if rounding == "up" else floor(exact)
    return max(1, value) if unit.strength > 0 else 0


def counted(units: Iterable[Unit], attacking: bool) -> list[Unit]:
    """Which units' strengths count: support units only stacked with a friendly combat unit
    (9.0; gunboats only need to be adjacent); an attacking HQ only if adjacent to the
    defenders (7.3 added)."""
    units = list(units)
    combat_hexes = {u.hex for u in units if u.kind == "combat"}
    out = []
    for u in units:
        if u.kind == "hq" and attacking and not u.adjacent:
            continue
        if u.kind in ("support", "hq") and u.hex not in combat_hexes:
            continue
        out.append(u)
    return out


def side_strength(units: Iterable[Unit], depot: bool, *, attacking: bool, rounding: str = "up") -> tuple[int, list[tuple[str, int]]]:
    """Total strength of one side and each counted unit's share."""
    units = list(units)
    used = counted(units, attacking)
    parts = [(u.name, unit_strength(u, depot, rounding)) for u in used]
    if not attacking and not any(u.kind == "combat" for u in units):
        # 9.1: an HQ alone "has a defense of one ... and must undergo a normal attack"
        hqs = [u for u in units if u.kind == "hq"]
        if hqs:
            parts = [(hqs[0].name, 1)]
    return sum(v for _, v in parts), parts


# -- 2.3, 7.3: the odds column ---------------------------------------------------------------

def odds_column(table: Table, attack: int | Fraction, defence: int | Fraction) -> tuple[int, bool]:
    """The column of ``attack`` against ``defence``, rounded in the defender's favour (2.3:
    "2.6-1 is 2-1"; 7.3: "Round any ratio down"): the best column whose odds do not exceed
    the true ratio.  Returns (column index, clamped): odds below the first column are read
    on the first column, and odds above the last on the last (provisional: the text does
    not say), ``clamped`` then True.  A defence of 0 reads the last column."""
    if defence <= 0:
        return len(table.columns) - 1, True
    ratio = Fraction(attack) / Fraction(defence)
    best = -1
    for i, (_, odds) in enumerate(table.columns):
        if odds <= ratio:
            best = i
    if best < 0:
        return 0, True
    return best, False


# -- 2.0, 7.3, 7.5, 7.51: Tactical Advantages --------------------------------------------------

def tactical_advantages(charts: Charts, claims: Mapping[str, int], units: Iterable[Unit], *,
                        role: str, supported: bool, across: frozenset[str] = frozenset()) -> tuple[int, list[str]]:
    """One side's Tactical Advantages, capped at 7 (7.5), with a line per advantage.

    ``claims``: TA id -> instances (units or features giving it).  The asterisk shifts are
    counted from ``units`` (7.51: each asterisked unit, in supply).  ``supported``: the side
    expended its depot and is in supply; if not, only a defender's terrain counts (2.0, 7.2,
    12.5).  River and wadi advantages need every attacker across them (7.51)."""
    chart = charts.tactical_advantages
    claims = dict(claims)
    stars = sum(1 for u in units if u.asterisk and not u.oos)
    if stars and "special" in chart:
        claims["special"] = claims.get("special", 0) + stars
    total = 0
    lines = []
    for ta, n in sorted(claims.items()):
        if n <= 0:
            continue
        entry = chart.get(ta)
        if entry is None:
            raise ValueError(f"{ta!r} is not on the Tactical Advantages Chart in use")
        if entry["side"] not in (role, "either"):
            raise ValueError(f"{entry['name']} is a {entry['side']}'s advantage, not the {role}'s")
        if not supported and not (entry["terrain"] and role == "defender"):
            lines.append(f"{entry['name']}: none (no depot expended or out of supply, 2.0/7.2)")
            continue
        if entry["across"] and ta not in across:
            lines.append(f"{entry['name']}: none (not every attacker is across it, 7.51)")
            continue
        # 7.5 Added: a type counts once however many examples, unless the chart says "each"
        value = entry["value"] * (n if entry["counts"] == "each" else 1)
        total += value
        lines.append(f"{entry['name']}: +{value}")
    if total > TA_CAP:
        lines.append(f"{total} capped at {TA_CAP} (7.5)")
        total = TA_CAP
    return total, lines


# -- 7.3, 9.0 added: command DRM ---------------------------------------------------------------

def command_bonus(commands: Iterable[Command]) -> tuple[int, list[str]]:
    """7.3 added: a divisional HQ needs one of its own units in the attack and to be within
    command range; a corps or army HQ only to be within range.  Several HQs add up (9.0 added)."""
    total, lines = 0, []
    for c in commands:
        if not c.in_range:
            lines.append(f"{c.name}: not within command range")
        elif c.level == "division" and not c.own_unit:
            lines.append(f"{c.name}: none of its own units in the combat")
        else:
            total += c.rating
            lines.append(f"{c.name}: {c.rating:+d}")
    return total, lines


# -- the whole calculation ---------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """Everything decided before the die is rolled (3.22 B, 7.3, 7.5)."""

    attack: int
    defence: int
    attack_parts: tuple[tuple[str, int], ...]
    defence_parts: tuple[tuple[str, int], ...]
    base_column: int
    odds_clamped: bool
    attacker_ta: int
    defender_ta: int
    shift: int  # net, attacker minus defender (7.5)
    column: int  # after the shift, kept on the table
    column_label: str
    drm: int  # attacker's command bonus minus the defender's (7.3)
    notes: tuple[str, ...]


def prepare(charts: Charts, attack: Attack, options: Mapping[str, Any] | None = None) -> Setup:
    opts = options_with_defaults(options)
    crt = charts.crt
    a, a_parts = side_strength(attack.attackers, attack.attacker_depot, attacking=True, rounding=opts["rounding"])
    d, d_parts = side_strength(attack.defenders, attack.defender_depot, attacking=False, rounding=opts["rounding"])
    base, clamped = odds_column(crt, a, d)
    notes = [f"attack {a} against defence {d}: column {crt.columns[base][0]} (rounded for the defender, 2.3)"]
    if clamped:
        notes.append("the odds are off the table and read on its last column at that end")
    a_ground = [u for u in attack.attackers if u.kind in GROUND]
    d_ground = [u for u in attack.defenders if u.kind in GROUND]
    a_sup = attack.attacker_depot and not (a_ground and all(u.oos for u in a_ground))
    d_sup = attack.defender_depot and not (d_ground and all(u.oos for u in d_ground))
    ta_a, lines_a = tactical_advantages(charts, attack.attacker_tas, attack.attackers, role="attacker",
                                        supported=a_sup, across=attack.across)
    ta_d, lines_d = tactical_advantages(charts, attack.defender_tas, attack.defenders, role="defender",
                                        supported=d_sup, across=attack.across)
    shift = ta_a - ta_d
    column = min(max(base + shift, 0), len(crt.columns) - 1)
    notes += [f"attacker's advantage, {line}" for line in lines_a]
    notes += [f"defender's advantage, {line}" for line in lines_d]
    notes.append(f"Tactical Advantages {ta_a} - {ta_d} = {shift:+d}: column {crt.columns[column][0]} (7.5)")
    if base + shift != column:
        notes.append("the shift runs off the table: the last column at that end is used")
    cmd_a, cl_a = command_bonus(attack.attacker_commands)
    cmd_d, cl_d = command_bonus(attack.defender_commands)
    notes += [f"attacker's command, {line}" for line in cl_a] + [f"defender's command, {line}" for line in cl_d]
    drm = cmd_a - cmd_d
    notes.append(f"command DRM {cmd_a} - {cmd_d} = {drm:+d} (7.3)")
    return Setup(a, d, tuple(a_parts), tuple(d_parts), base, clamped, ta_a, ta_d, shift, column,
                 crt.columns[column][0], drm, tuple(notes))


def row_for(table: Table, die: int, drm: int) -> int:
    """The row read for ``die`` + ``drm``: a modified roll beyond the table's rows reads its
    last row at that end (provisional: the text does not say)."""
    return min(max(die + drm, table.lowest_row), table.highest_row)


@dataclass(frozen=True)
class Resolution:
    setup: Setup
    die: int
    row: int
    result: CrtResult


def resolve(charts: Charts, attack: Attack, dice: Any, options: Mapping[str, Any] | None = None,
            purpose: str = "combat (3.22)") -> Resolution:
    """3.22 B / 7.3: work out the column and DRM, roll one d6, read the CRT."""
    setup = prepare(charts, attack, options)
    die = dice.roll(6, purpose)
    row = row_for(charts.crt, die, setup.drm)
    return Resolution(setup, die, row, charts.crt.rows[row][setup.column])


def outcome_distribution(charts: Charts, attack: Attack, options: Mapping[str, Any] | None = None) -> dict[str, Fraction]:
    """Each CRT result's exact probability for this attack, over the six die faces, in the
    order the faces first give them (for the odds shown before an attack)."""
    setup = prepare(charts, attack, options)
    dist: dict[str, Fraction] = {}
    for die in range(1, 7):
        text = charts.crt.rows[row_for(charts.crt, die, setup.drm)][setup.column].text
        dist[text] = dist.get(text, Fraction(0)) + Fraction(1, 6)
    return dist


# -- 7.6-7.8: what a result asks of the defender ---------------------------------------------

@dataclass(frozen=True)
class DefenderLosses:
    """What the defender must do for a result, before any choice (7.61, 7.7, 7.8)."""

    steps: int  # step losses that must be taken
    optional: int  # further losses each of which may be a retreat instead (7.61)
    retreat_hexes: int  # the national retreat rate for each such retreat (7.6)
    forced_retreat: int = 0  # 7.8: hexes retreated before the losses, no option
    counterattack: bool = False  # 7.7: counterattack one attacking hex, or +1 step and retreat


def defender_losses(result: CrtResult, nation: str) -> DefenderLosses:
    """7.61: the first step loss must be taken; the defender "may choose to retreat at the
    normal national rate instead of each additional step loss" (British 2, Turks 3 hexes).
    7.8: a breakthrough retreats 4 hexes and then takes 2 steps, no retreat option.  7.7:
    engaged takes the losses and then counterattacks (or a step more and a retreat)."""
    rate = RETREAT_HEXES[nation]
    if result.breakthrough:
        return DefenderLosses(BREAKTHROUGH_STEPS, 0, rate, forced_retreat=BREAKTHROUGH_RETREAT)
    first = min(result.defender_steps, 1)
    return DefenderLosses(first, result.defender_steps - first, rate, counterattack=result.engaged)


def apply_defender_choice(result: CrtResult, nation: str, retreats: int) -> tuple[int, int]:
    """(steps lost, hexes retreated) when the defender replaces ``retreats`` of the optional
    losses by retreats (7.61).  A breakthrough's own retreat is included (7.8)."""
    losses = defender_losses(result, nation)
    if not 0 <= retreats <= losses.optional:
        raise ValueError(f"{retreats} retreats: the result allows 0 to {losses.optional} (7.61)")
    steps = losses.steps + losses.optional - retreats
    hexes = losses.forced_retreat + (losses.retreat_hexes if retreats else 0) * retreats
    return steps, hexes


# -- 7.1, 11.4: air-to-air combat --------------------------------------------------------------

@dataclass(frozen=True)
class AirCombat:
    interceptor: Fraction
    bomber: Fraction
    column: int
    column_label: str
    drm: int
    die: int
    row: int
    result: AirResult


def air_strength(ratings: Iterable[int | Fraction]) -> Fraction:
    """2.1, 2.3: the sum of air-to-air ratings; a Short aeroplane rates 1/2 (two make 1)."""
    return sum((Fraction(r) for r in ratings), Fraction(0))


def air_setup(charts: Charts, interceptors: Iterable[int | Fraction], bombers: Iterable[int | Fraction],
              turkish_interceptors: bool) -> tuple[Fraction, Fraction, int, int]:
    """7.1: "the interceptor becomes the attacker"; odds rounded for the defender (2.3);
    11.4: Turkish interceptors take the chart's modifier (ours: -1 on the die)."""
    table = charts.air_to_air
    i, b = air_strength(interceptors), air_strength(bombers)
    column, _ = odds_column(table, i, b)
    drm = table.drm.get("turkish_intercept_drm", 0) if turkish_interceptors else 0
    return i, b, column, drm


def resolve_air(charts: Charts, interceptors: Iterable[int | Fraction], bombers: Iterable[int | Fraction],
                turkish_interceptors: bool, dice: Any, purpose: str = "air-to-air combat (7.1)") -> AirCombat:
    table = charts.air_to_air
    i, b, column, drm = air_setup(charts, interceptors, bombers, turkish_interceptors)
    die = dice.roll(6, purpose)
    row = row_for(table, die, drm)
    return AirCombat(i, b, column, table.columns[column][0], drm, die, row, table.rows[row][column])


def air_distribution(charts: Charts, interceptors: Iterable[int | Fraction], bombers: Iterable[int | Fraction],
                     turkish_interceptors: bool) -> dict[str, Fraction]:
    table = charts.air_to_air
    _, _, column, drm = air_setup(charts, interceptors, bombers, turkish_interceptors)
    dist: dict[str, Fraction] = {}
    for die in range(1, 7):
        text = table.rows[row_for(table, die, drm)][column].text
        dist[text] = dist.get(text, Fraction(0)) + Fraction(1, 6)
    return dist
