"""The dice statistics of ``pbem audit``: faces counted per side and die type, and the chi-square
test of fair dice, its p-value computed here in pure Python (no SciPy).  A roll is anything with
the fields of ``pbem.check.audit.AuditedRoll`` (``die``, ``faces``, ``values``, ``purpose``, ``actor``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

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


def owner(roll: Any, sides: tuple[str, ...]) -> str:
    """The side whose roll it is: the one side its purpose names ("Hill 60: ottoman return fire",
    "Allied fire at Krithia"), else the side that declared it.  A roll declared in one side's
    turn file may be the other side's dice (return fire): its faces count for the side firing."""
    named = [side for side in sides if re.search(rf"\b{re.escape(side)}\b", roll.purpose, re.IGNORECASE)]
    return named[0] if len(named) == 1 else roll.actor


def statistics(rolls: list[Any], sides: tuple[str, ...]) -> list[DieStats]:
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
