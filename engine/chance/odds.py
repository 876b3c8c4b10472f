"""Exact odds of dice rolls, computed with integers and fractions (never simulated).

A distribution is a dict from outcome to its probability (a ``Fraction``), in
increasing order of outcome, its probabilities summing to exactly 1.

    successes(5, Fraction(1, 2))   5 dice each succeeding with 1/2 (binomial)
    at_least(5, 6, 4)              successes of 5d6 at 4 or more
    at_most(5, 6, 2)               successes of 5d6 at 2 or less
    total(3, 6)                    the sum of 3d6 (convolution)
    line(at_least(7, 6, 4), "hit") "expect 3.5 hits (0:1% 1:5% 2:16% 3:27% 4:27% 5:16% 6:5% 7:1%)"

Game modules put the line after a choice's label, behind ``SEP``; a label is still
matched by the words before it (``order_part``).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


Dist = dict[int, Fraction]

SEP = " — "  # between a choice's words and what a display adds after them (odds, a card's values)


def order_part(label: str) -> str:
    """A choice label without what a display added after its words (the odds)."""
    return label.split(SEP, 1)[0]


SHORT = 9  # outcomes shown in full up to this many
LONG = 17  # beyond this many (after hiding the unlikely ones) a summary is shown
TOTAL_WORK = 2_000_000  # count * count * sides: the most work ``total`` takes on (100d100 is 1,000,000)


def successes(count: int, p: Fraction) -> Dist:
    """The number of successes of ``count`` independent dice each succeeding with ``p``."""
    if count < 0 or not 0 <= p <= 1:
        raise ValueError("count must be 0 or more and p within 0..1")
    p = Fraction(p)
    a, b, n = p.numerator, p.denominator, p.denominator - p.numerator
    whole = b**count
    ways = {k: comb(count, k) * a**k * n ** (count - k) for k in range(count + 1)}
    return {k: Fraction(w, whole) for k, w in ways.items() if w}


def chance_at_least(sides: int, target: int) -> Fraction:
    """One die of ``sides`` faces (1..sides) showing ``target`` or more."""
    _faces(sides)
    return Fraction(min(sides, max(0, sides - target + 1)), sides)


def chance_at_most(sides: int, target: int) -> Fraction:
    """One die of ``sides`` faces (1..sides) showing ``target`` or less."""
    _faces(sides)
    return Fraction(min(sides, max(0, target)), sides)


def at_least(count: int, sides: int, target: int) -> Dist:
    """Successes of ``count`` dice of ``sides`` faces, each at ``target`` or more."""
    return successes(count, chance_at_least(sides, target))


def at_most(count: int, sides: int, target: int) -> Dist:
    """Successes of ``count`` dice of ``sides`` faces, each at ``target`` or less."""
    return successes(count, chance_at_most(sides, target))


def total(count: int, sides: int, low: int = 1) -> Dist:
    """The sum of ``count`` dice of ``sides`` faces read ``low``..``low + sides - 1``.

    Exact: the number of ways to make each sum, by convolution with a running sum.
    :raises ValueError: past ``TOTAL_WORK`` (see ``feasible``)."""
    _faces(sides)
    if count < 0:
        raise ValueError("count must be 0 or more")
    if not feasible(count, sides):
        raise ValueError(f"{count}d{sides} has too many sums to list")
    ways = [1]  # ways[i]: ways to make i with the dice so far, read from 0
    for _ in range(count):
        running, out = 0, []
        for i in range(len(ways) + sides - 1):
            running += ways[i] if i < len(ways) else 0
            running -= ways[i - sides] if 0 <= i - sides < len(ways) else 0
            out.append(running)
        ways = out
    whole = sides**count
    return {i + count * low: Fraction(w, whole) for i, w in enumerate(ways) if w}


def feasible(count: int, sides: int) -> bool:
    """Whether ``total(count, sides)`` is small enough to list."""
    return count * count * sides <= TOTAL_WORK


def uniform(sides: int, low: int = 1) -> Dist:
    """One die: each face alike."""
    return total(1, sides, low)


def expected(dist: Dist) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


def total_expected(count: int, sides: int, low: int = 1) -> Fraction:
    """The expected sum of ``count`` dice, without listing the sums."""
    return count * (Fraction(2 * low + sides - 1, 2))


# ------------------------------------------------------------------ words
def decimal(x: Fraction) -> str:
    """``x`` to two decimals, rounded half up, trailing zeros dropped: 3.5, 2.33, 10."""
    hundredths = (x * 100 + Fraction(1, 2)).__floor__()
    whole, frac = divmod(hundredths, 100)
    return f"{whole}" if not frac else f"{whole}.{frac:02d}".rstrip("0")


def percent(p: Fraction) -> str:
    """A probability in whole percent, rounded half up; "<1%" and ">99%" for what rounds to 0 or 100
    but is not impossible or certain."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    n = (p * 100 + Fraction(1, 2)).__floor__()
    if n == 0:
        return "<1%"
    if n == 100:
        return ">99%"
    return f"{n}%"


def _plural(noun: str, x: Fraction) -> str:
    return noun if x == 1 else noun + ("es" if noun.endswith("s") else "s")


def line(dist: Dist, noun: str = "") -> str:
    """One line: the expected value and each outcome's chance, e.g.
    "expect 3.5 hits (0:1% 1:5% 2:16% 3:27% 4:27% 5:16% 6:5% 7:1%)".

    Up to ``SHORT`` outcomes are all shown; past that the ones under 0.5% are left out as "…";
    past ``LONG`` a summary is given (the range, and where the middle 90% falls)."""
    mean = expected(dist)
    head = f"expect {decimal(mean)}" + (f" {_plural(noun, mean)}" if noun else "")
    items = sorted(dist.items())
    if len(items) <= SHORT:
        return f"{head} ({' '.join(f'{k}:{percent(p)}' for k, p in items)})"
    half = Fraction(1, 200)
    shown: list[str] = []
    for k, p in items:
        if p < half:
            if not shown or shown[-1] != "…":
                shown.append("…")
        else:
            shown.append(f"{k}:{percent(p)}")
    if sum(1 for s in shown if s != "…") <= LONG:
        return f"{head} ({' '.join(shown)})"
    return f"{head} ({summary(dist)})"


def summary(dist: Dist) -> str:
    """The range; each outcome's chance if all are alike, else the middle 90%."""
    items = sorted(dist.items())
    lo, hi = items[0][0], items[-1][0]
    if len({p for _, p in items}) == 1:
        return f"{lo}-{hi}, each {percent(items[0][1])}"
    low_cut, high_cut = Fraction(1, 20), Fraction(19, 20)
    running, a, b = Fraction(0), None, None
    for k, p in items:
        running += p
        if a is None and running > low_cut:
            a = k
        if b is None and running >= high_cut:
            b = k
    return f"{lo}-{hi}, 90% within {a}-{b}"


def pool_line(count: int, sides: int, target: int, *, below: bool = False, noun: str = "hit",
              die: str = "") -> str:
    """``count`` dice at ``target``+ (or at most ``target``): "7 dice at 4+: expect 3.5 hits (...)".
    ``die`` names the dice when they are not the game's usual six-sided ones ("d10")."""
    dist = at_most(count, sides, target) if below else at_least(count, sides, target)
    what = f"{count} {die or ('die' if count == 1 else 'dice')}"
    return f"{what} at {target}{' or less' if below else '+'}: {line(dist, noun)}"


def total_line(count: int, sides: int, low: int = 1) -> str:
    """The sum of ``count`` dice: "expect 10.5 (… 4:1% ... 17:1% …)"; when there are too many sums
    to list, the exact expected value and the range."""
    if feasible(count, sides):
        return line(total(count, sides, low))
    return f"expect {decimal(total_expected(count, sides, low))} ({count * low}-{count * (low + sides - 1)})"


def _faces(sides: int) -> None:
    if sides < 1:
        raise ValueError("a die has at least one face")
