"""pbem_engine.chance.odds: exact distributions against values worked out by hand, and properties."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_engine.chance import odds


def test_two_d6_totals_by_hand():
    dist = odds.total(2, 6)
    assert dist[7] == F(1, 6)
    assert dist[2] == dist[12] == F(1, 36)
    assert dist[6] == dist[8] == F(5, 36)
    assert sorted(dist) == list(range(2, 13))
    assert odds.expected(dist) == 7


def test_three_d6_totals_by_hand():
    dist = odds.total(3, 6)
    assert dist[3] == F(1, 216) and dist[18] == F(1, 216)
    assert dist[10] == dist[11] == F(27, 216)
    assert dist[4] == F(3, 216)
    assert odds.expected(dist) == F(21, 2)


def test_three_dice_at_4_plus():
    dist = odds.at_least(3, 6, 4)
    assert dist == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    assert odds.expected(dist) == F(3, 2)


def test_landing_fire_three_dice_at_3_plus():
    dist = odds.at_least(3, 6, 3)  # 9.1: p = 2/3
    assert dist == {0: F(1, 27), 1: F(6, 27), 2: F(12, 27), 3: F(8, 27)}


def test_at_most_and_the_edges_of_a_die():
    assert odds.at_most(2, 6, 2) == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    assert odds.at_least(4, 6, 7) == {0: F(1)}  # nothing hits
    assert odds.at_least(4, 6, 1) == {4: F(1)}  # everything hits
    assert odds.at_most(4, 6, 0) == {0: F(1)}
    assert odds.at_least(0, 6, 4) == {0: F(1)}
    assert odds.chance_at_least(10, 8) == F(3, 10)


def test_a_d10_read_0_9_and_a_d100():
    d10 = odds.total(1, 10, low=0)
    assert sorted(d10) == list(range(10)) and set(d10.values()) == {F(1, 10)}
    assert odds.expected(odds.uniform(100)) == F(101, 2)


def test_too_many_sums_are_refused_and_summarised():
    assert not odds.feasible(100, 1000)
    with pytest.raises(ValueError):
        odds.total(100, 1000)
    assert odds.total_line(100, 1000) == "expect 50050 (100-100000)"
    with pytest.raises(ValueError):
        odds.total(1, 0)


def test_the_one_line_formats():
    assert odds.pool_line(7, 6, 4) == "7 dice at 4+: expect 3.5 hits (0:1% 1:5% 2:16% 3:27% 4:27% 5:16% 6:5% 7:1%)"
    assert odds.pool_line(3, 6, 3) == "3 dice at 3+: expect 2 hits (0:4% 1:22% 2:44% 3:30%)"
    assert odds.pool_line(1, 6, 5) == "1 die at 5+: expect 0.33 hits (0:67% 1:33%)"
    assert odds.pool_line(3, 6, 2, below=True) == "3 dice at 2 or less: expect 1 hit (0:30% 1:44% 2:22% 3:4%)"
    # long lines leave out what is under 0.5%, at either end
    assert odds.pool_line(12, 6, 4) == ("12 dice at 4+: expect 6 hits "
                                        "(… 2:2% 3:5% 4:12% 5:19% 6:23% 7:19% 8:12% 9:5% 10:2% …)")
    assert odds.total_line(3, 6) == ("expect 10.5 (… 4:1% 5:3% 6:5% 7:7% 8:10% 9:12% 10:13% 11:13% 12:12% "
                                     "13:10% 14:7% 15:5% 16:3% 17:1% …)")
    assert odds.total_line(1, 100) == "expect 50.5 (1-100, each 1%)"
    assert odds.total_line(10, 6) == "expect 35 (10-60, 90% within 26-44)"
    assert odds.line({0: F(1, 1000), 1: F(999, 1000)}) == "expect 1 (0:<1% 1:>99%)"


def test_decimals_and_percent_round_half_up():
    assert odds.decimal(F(7, 3)) == "2.33" and odds.decimal(F(5, 2)) == "2.5" and odds.decimal(F(10)) == "10"
    assert odds.decimal(F(1, 200)) == "0.01" and odds.decimal(F(2, 3)) == "0.67"
    assert odds.percent(F(1, 200)) == "1%" and odds.percent(F(1, 201)) == "<1%" and odds.percent(F(0)) == "0%"


def test_order_part_drops_the_odds():
    assert odds.order_part("fire" + odds.SEP + "3 dice at 3+: expect 2 hits") == "fire"
    assert odds.order_part("end operations") == "end operations"


@settings(max_examples=150, deadline=None)
@given(count=st.integers(0, 40), sides=st.integers(1, 20), target=st.integers(-1, 22), below=st.booleans())
def test_pools_sum_to_one_and_expect_n_p(count, sides, target, below):
    dist = odds.at_most(count, sides, target) if below else odds.at_least(count, sides, target)
    p = odds.chance_at_most(sides, target) if below else odds.chance_at_least(sides, target)
    assert sum(dist.values()) == 1
    assert odds.expected(dist) == count * p
    assert all(0 < q <= 1 for q in dist.values()) and set(dist) <= set(range(count + 1))
    assert odds.line(dist, "hit").startswith("expect ")


@settings(max_examples=100, deadline=None)
@given(count=st.integers(0, 12), sides=st.integers(1, 12), low=st.integers(0, 1))
def test_totals_sum_to_one_and_expect_n_times_the_mean_face(count, sides, low):
    dist = odds.total(count, sides, low)
    assert sum(dist.values()) == 1
    assert odds.expected(dist) == odds.total_expected(count, sides, low) == count * F(2 * low + sides - 1, 2)
    assert min(dist) == count * low and max(dist) == count * (low + sides - 1)
    assert dist == {k: dist[count * (2 * low + sides - 1) - k] for k in dist}  # symmetric


@given(count=st.integers(1, 8), sides=st.integers(2, 8))
def test_total_agrees_with_counting_every_roll(count, sides):
    if sides**count > 5000:
        return
    from itertools import product

    ways: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 1
    assert odds.total(count, sides) == {k: F(w, sides**count) for k, w in ways.items()}


class _Table:
    d10_zero = False


@settings(max_examples=80, deadline=None)
@given(expr=st.sampled_from(["3d6", "2d6", "d6", "7d6>=4", "5d10<=3", "d10", "d10 read 0-9", "d100", "d100 read 0-9",
                             "4d8", "12d6>=5", "d20"]), seed=st.binary(min_size=8, max_size=8), zero=st.booleans())
def test_a_table_top_roll_lands_where_its_odds_say(expr, seed, zero):
    """The odds shown for a table-top roll are of the roll as do_roll reads it: every result it
    gives is an outcome the distribution lists, and the line names the expected value."""
    from pbem_engine.chance.dice import Dice
    from pbem_engine.games.tabletop import orders

    table = _Table()
    table.d10_zero = zero
    dice = Dice(seed)
    orders.do_roll(table, {}, "red", {"do": "roll", "expr": expr}, dice)
    record = dice.rolls[-1]
    result = record.get("result", record["values"][0])
    m = orders.DICE.match(expr)
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if m.group(3):
        dist = (odds.at_most if m.group(3) == "<=" else odds.at_least)(count, sides, int(m.group(4)))
    elif count == 1 and (sides == 100 or sides == 10 and ("read 0-9" in expr or zero)):
        dist = odds.uniform(sides, 0 if "read 0-9" in expr or (sides == 10 and zero) else 1)
    else:
        dist = odds.total(count, sides)
    assert result in dist
    assert orders.roll_odds(table, expr).startswith(f"expect {odds.decimal(odds.expected(dist))}")
    assert orders.roll_odds(table, "0d6") is None and orders.roll_odds(table, "fire") is None
