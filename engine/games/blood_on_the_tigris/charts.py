"""The four charts the rulebook references but does not print, and the check of a player's own.

``PROVISIONAL`` are our reconstructions (``charts_provisional``), marked as such with their
reasons.  A player who owns the game supplies the printed charts as a data file (TOML or
JSON, read outside the engine: the engine reads no files) of the same shape;
``load_charts(parsed)`` checks it and lists EVERY problem at once in ``ChartError.problems``,
or returns the ``Charts`` to use.  ``load_charts(None)`` gives the provisional ones.

Result notation (7.6: "left of the slash ... the attacker ... right ... the defender"):

* CRT: ``A/D`` where each side is ``-`` (nothing) or a number of step losses 1-4 (``-2``,
  as 7.61's example writes it, reads as 2); the defender's side may end in ``E`` (engaged,
  7.7) or be ``BT`` (breakthrough, 7.8).
* Air-to-Air: ``I/B`` (interceptor / bomber), each ``-``, ``A`` (abort), ``D`` (one plane
  destroyed) or ``DA`` (one destroyed, the rest abort).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .charts_provisional import CHARTS as _PROVISIONAL_DATA
from .charts_provisional import LABEL as PROVISIONAL_LABEL

TABLES = ("crt", "air_to_air", "tactical_advantages", "terrain_effects")
MAX_STEPS = 4  # the largest step loss a result may name (ours: no unit has more steps)
ROLL_FACES = range(1, 7)  # "a single six-sides die" (3.22)

_ODDS = re.compile(r"^\s*(\d+)\s*[-:]\s*(\d+)\s*$")
_SIDE_STEPS = re.compile(r"^-?([0-9])$")
AIR_PARTS = ("-", "A", "D", "DA")
TA_SIDES = ("attacker", "defender", "either")
TA_COUNTS = ("once", "each")
MOTORIZED = ("normal", "double", "prohibited")


class ChartError(ValueError):
    """A supplied chart file is not usable; ``problems`` lists every fault found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        plural = "" if len(problems) == 1 else "s"
        listed = "\n- ".join(problems)
        super().__init__(f"the chart file has {len(problems)} problem{plural}:\n- {listed}")


@dataclass(frozen=True)
class CrtResult:
    """One CRT result, parsed (7.6-7.8)."""

    text: str
    attacker_steps: int
    defender_steps: int
    engaged: bool = False  # 7.7
    breakthrough: bool = False  # 7.8


@dataclass(frozen=True)
class AirResult:
    """One Air-to-Air result (7.1): what happens to each side's planes."""

    text: str
    interceptor: str  # one of AIR_PARTS
    bomber: str


@dataclass(frozen=True)
class Table:
    """An odds table: columns (label, ratio) from worst to best for the attacker, rows by
    (modified) die value, each a tuple of results, one per column."""

    columns: tuple[tuple[str, Fraction], ...]
    rows: dict[int, tuple[Any, ...]]
    drm: dict[str, int] = field(default_factory=dict)  # named fixed modifiers (air: Turkish interception)

    @property
    def labels(self) -> list[str]:
        return [label for label, _ in self.columns]

    @property
    def lowest_row(self) -> int:
        return min(self.rows)

    @property
    def highest_row(self) -> int:
        return max(self.rows)


@dataclass(frozen=True)
class Charts:
    crt: Table
    air_to_air: Table
    tactical_advantages: dict[str, dict[str, Any]]
    terrain_effects: dict[str, dict[str, Any]]
    supplied: bool  # False: our provisional reconstructions
    label: str
    provisional: dict[str, str]  # table -> why it is provisional (empty for a supplied file)


# -- parsing single values -------------------------------------------------------------------

def parse_crt_result(text: Any) -> CrtResult | None:
    """A CRT result in the notation above, or None if it is not one."""
    if not isinstance(text, str) or text.count("/") != 1:
        return None
    att, dfd = (part.strip() for part in text.split("/"))
    a = _steps(att)
    if a is None:
        return None
    if dfd.upper() == "BT":
        return CrtResult(text, a, 0, breakthrough=True)
    engaged = dfd.upper().endswith("E")
    d = _steps(dfd[:-1] if engaged else dfd)
    if d is None:
        return None
    return CrtResult(text, a, d, engaged=engaged)


def _steps(part: str) -> int | None:
    if part in ("", "-", "0"):
        return 0
    m = _SIDE_STEPS.match(part)
    if not m or not 1 <= int(m.group(1)) <= MAX_STEPS:
        return None
    return int(m.group(1))


def parse_air_result(text: Any) -> AirResult | None:
    if not isinstance(text, str) or text.count("/") != 1:
        return None
    i, b = (part.strip().upper() or "-" for part in text.split("/"))
    if i not in AIR_PARTS or b not in AIR_PARTS:
        return None
    return AirResult(text, i, b)


def parse_odds(label: Any) -> Fraction | None:
    """ "3-1" -> 3, "1-2" -> 1/2 (also "3:1"); None if not an odds label."""
    if not isinstance(label, str):
        return None
    m = _ODDS.match(label)
    if not m or int(m.group(1)) == 0 or int(m.group(2)) == 0:
        return None
    return Fraction(int(m.group(1)), int(m.group(2)))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# -- the check -------------------------------------------------------------------------------

def _table(name: str, data: Any, parse: Any, problems: list[str], drm_keys: tuple[str, ...] = ()) -> Table | None:
    if not isinstance(data, Mapping):
        problems.append(f"{name}: must be a table, got {type(data).__name__}")
        return None
    before = len(problems)
    columns: list[tuple[str, Fraction]] = []
    raw_columns = data.get("columns")
    if not isinstance(raw_columns, list) or not raw_columns:
        problems.append(f"{name}.columns: missing or empty (a list of odds such as \"1-2\", \"1-1\", \"2-1\")")
        raw_columns = None
    else:
        for i, label in enumerate(raw_columns):
            ratio = parse_odds(label)
            if ratio is None:
                problems.append(f"{name}.columns[{i}]: {label!r} is not an odds column like \"2-1\" or \"1-2\"")
            else:
                columns.append((label.strip(), ratio))
        ratios = [r for _, r in columns]
        if any(b <= a for a, b in itertools.pairwise(ratios)):
            problems.append(f"{name}.columns: must rise strictly from left to right (worst to best odds), "
                            f"got {', '.join(label for label, _ in columns)}")
    rows: dict[int, tuple[Any, ...]] = {}
    raw_rows = data.get("rows")
    if not isinstance(raw_rows, Mapping) or not raw_rows:
        problems.append(f"{name}.rows: missing or empty (one row of results per die face 1-6)")
    else:
        for key, row in raw_rows.items():
            try:
                face = int(key)
            except (TypeError, ValueError):
                problems.append(f"{name}.rows: row key {key!r} is not a die value")
                continue
            if face in rows:
                problems.append(f"{name}.rows: die value {face} is given twice")
                continue
            if not isinstance(row, list):
                problems.append(f"{name}.rows.{key}: must be a list of results, got {type(row).__name__}")
                continue
            if raw_columns is not None and len(row) != len(raw_columns):
                problems.append(f"{name}.rows.{key}: has {len(row)} results for {len(raw_columns)} columns")
            parsed = []
            for i, cell in enumerate(row):
                result = parse(cell)
                if result is None:
                    problems.append(f"{name}.rows.{key}[{i}]: {cell!r} is not a known result")
                parsed.append(result)
            rows[face] = tuple(parsed)
        faces = sorted(rows)
        missing = [f for f in ROLL_FACES if f not in rows]
        if missing:
            problems.append(f"{name}.rows: no row for die value{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(map(str, missing))}")
        elif faces != list(range(faces[0], faces[-1] + 1)):
            problems.append(f"{name}.rows: the die values must run without gaps, got {faces}")
    drm: dict[str, int] = {}
    for key in drm_keys:
        value = data.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{name}.{key}: must be a whole number, got {value!r}")
        else:
            drm[key] = value
    known = {"columns", "rows", "provisional", "note", *drm_keys}
    for key in data:
        if key not in known:
            problems.append(f"{name}: unknown entry {key!r}")
    if len(problems) > before:
        return None
    return Table(tuple(columns), rows, drm)


def _entries(name: str, data: Any, fields: dict[str, Any], problems: list[str]) -> dict[str, dict[str, Any]]:
    """Named entries, each checked field by field: ``fields`` maps a field to a check
    returning an error text or None."""
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(data, Mapping):
        problems.append(f"{name}: must be a table, got {type(data).__name__}")
        return out
    for key, entry in data.items():
        if key in ("provisional", "note"):
            continue
        if not isinstance(entry, Mapping):
            problems.append(f"{name}.{key}: must be a table, got {type(entry).__name__}")
            continue
        for fname, check in fields.items():
            if fname not in entry:
                problems.append(f"{name}.{key}.{fname}: missing")
                continue
            error = check(entry[fname])
            if error:
                problems.append(f"{name}.{key}.{fname}: {error}, got {entry[fname]!r}")
        for fname in entry:
            if fname not in fields:
                problems.append(f"{name}.{key}: unknown field {fname!r}")
        out[str(key)] = dict(entry)
    if not out:
        problems.append(f"{name}: has no entries")
    return out


def _one_of(*choices: Any) -> Any:
    return lambda v: None if v in choices else f"must be one of {', '.join(map(repr, choices))}"


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) else "must be text"


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _whole(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 7 else "must be a whole number 0-7"


def _mp(v: Any) -> str | None:
    if v == "prohibited" or (_is_number(v) and v >= 0):
        return None
    return "must be a number of movement points (0 or more) or \"prohibited\""


TA_FIELDS = {"name": _text, "side": _one_of(*TA_SIDES), "value": _whole, "counts": _one_of(*TA_COUNTS),
             "terrain": _flag, "across": _flag}
TEC_FIELDS = {"name": _text, "mp": _mp, "hexside": _flag, "motorized": _one_of(*MOTORIZED), "ta": _text}
# The entries the rules look up by id, so a chart file must give them (under these ids): the
# advantages fight.py claims (7.5, 7.51, 9.2) and the terrain movement.py reads (4.2: a hex
# not on the chart costs as clear; the hexsides rivers, wadis and seasonal water cross).
REQUIRED = {"tactical_advantages": ("river", "wadi", "trench", "fort", "combined_arms", "hq"),
            "terrain_effects": ("clear", "river", "wadi", "seasonal_water")}


def load_charts(data: Mapping[str, Any] | None) -> Charts:
    """The charts to use: ours (``None``) or a player's parsed chart file, checked whole.

    Raises ``ChartError`` listing every problem found (missing tables, wrong columns,
    unknown results, non-numeric values, unknown names), never only the first."""
    supplied = data is not None
    if data is None:
        data = _PROVISIONAL_DATA
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise ChartError([f"the chart file must be a table of tables, got {type(data).__name__}"])
    for name in TABLES:
        if name not in data:
            problems.append(f"{name}: missing (the file must give all of {', '.join(TABLES)})")
    for key in data:
        if key not in (*TABLES, "label", "note"):
            problems.append(f"unknown table {key!r} (known: {', '.join(TABLES)})")
    crt = _table("crt", data["crt"], parse_crt_result, problems) if "crt" in data else None
    air = (_table("air_to_air", data["air_to_air"], parse_air_result, problems, ("turkish_intercept_drm",))
           if "air_to_air" in data else None)
    tas = _entries("tactical_advantages", data["tactical_advantages"], TA_FIELDS, problems) \
        if "tactical_advantages" in data else {}
    tec = _entries("terrain_effects", data["terrain_effects"], TEC_FIELDS, problems) \
        if "terrain_effects" in data else {}
    for name, needed in REQUIRED.items():
        given = data.get(name)
        missing = [k for k in needed if isinstance(given, Mapping) and k not in given]
        if missing:
            problems.append(f"{name}: missing {', '.join(missing)} (the rules look these entries up by id)")
    for key, entry in tec.items():
        ta = entry.get("ta")
        if isinstance(ta, str) and ta and ta not in tas and "tactical_advantages" in data:
            problems.append(f"terrain_effects.{key}.ta: {ta!r} is not an entry of tactical_advantages")
    if problems:
        raise ChartError(problems)
    assert crt is not None and air is not None
    label = data.get("label", "charts supplied by the player" if supplied else PROVISIONAL_LABEL)
    provisional = {} if supplied else {name: data[name]["provisional"] for name in TABLES}
    return Charts(crt, air, tas, tec, supplied, str(label), provisional)


PROVISIONAL = load_charts(None)
