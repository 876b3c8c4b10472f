"""Assault on Gallipoli by e-mail: the standing orders of engine/games/assault_on_gallipoli/standing.py,
initiative.py, discards.py, leadorder.py and fireplan.py take away the same person's second file
where the rules let him decide earlier.

* The Morale Advantage holder's close combat order (10.1.2) given with a pass that ends the phase:
  the file that resolves the pass roll starts the combats; before, he passed, the other side's
  file only revealed its link, and he ordered the combats in a second file.
* The ANZAC ships (16.2) placed with his Action Card draw when he draws second (18.1): the Turk's
  file that carries his draw's keys sets them out; before, a file of his followed it.
* The lead sealed with a match (10.4.2) and the discards sealed with a pass (17.3, 18.1): when the
  roll gives the matcher the initiative, or the passer the Morale Advantage, his own tool opens
  them (a file of his tool's, no person's); before, his person decided again after the other
  side's file revealed the roll.
* The lead order (10.2-10.3), sealed in a Round: the leader's own tool draws and leads by it, after
  its own pass ended the phase or the other side's forced choices ended a combat.
* The plan given with a fire (17: a Heroic Act's activation, a Coordinated Attack, Keep Moving):
  the file that resolves a missed fire carries out the firer's next decisions.

A seeded game between two campaigns (bench/handovers.py ``play_files``, the game's own player)
records what each file that needed a person opened with (bench/handovers_assault.py ``frame``):
every game turn of it costs its floor, no "same person again" left (the bench's three games: none
either).  What could still bring one back is what RULES.md "Hand-overs" names as not cut: a
decision right after one's own roll whose result it needs (a hit fire: the other side allocates,
so a hand-over anyway) or after the other side's forced choices outside close combat."""

from __future__ import annotations

import pytest

from pbem.bench.handovers import per_turn, play_files
from pbem.bench.handovers_assault import frame
from pbem.bench.handovers_floors import FLOORS
from pbem.bench.handovers_report import SETTINGS

MODULE = "assault-on-gallipoli"
SETTING = next(s for s in SETTINGS if s.game == MODULE and s.mode == "two-player")
NOT_CUT = {"cc deal", "cc match", "round", "fire", "move", "heroic", "card", "damage", "retreat", "ccdamage"}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return play_files(MODULE, SETTING.options, 0, tmp_path_factory.mktemp("assault"), describe=frame)


def _again(files):
    """The files that needed a person whose author made the last such file before them, each
    with the frame its first free question opened with."""
    out, last, before = [], None, None
    for f in files:
        if f["person"] and f["side"] == last:
            out.append((next(what for what, _, forced, _ in f["asks"] if not forced), before["kind"]))
        if f["person"] or f["sealed"]:  # a sealed order carried out passes its person's decision on
            last = f["side"]
        before = f
    return out


def test_the_standing_orders_are_given(files):
    asked = {what for f in files for what, *_ in f["asks"]}
    # the game's player gave them (the close combat order, ccplan, only where two combats wait: its
    # rule tests and the bench's other games)
    assert {"shipplan", "leadplan", "discardplan", "leadorder", "fireplan"} <= asked
    assert any(f["sealed"] for f in files)  # and its tool carried a sealed one out, no person asked


def test_no_second_file_for_the_close_combat_order_or_the_ships(files):
    again = _again(files)
    assert not {"ccorder", "ships"} & {what for what, _ in again}
    assert {what for what, _ in again} <= NOT_CUT | {"cc lead", "draw"}, again
    # a lead after a won initiative, a draw after a won Morale Advantage: the sealed orders' (the
    # file before is the roll's reveal); one after the other side's forced choices is not cut
    assert not [a for a in again if a in (("cc lead", "reveal only"), ("draw", "reveal only"))], again


def test_a_game_turn_costs_the_floor_but_for_what_is_not_cut(files):
    turns = per_turn(files, FLOORS[MODULE])
    assert turns
    for t in turns:
        assert t["human"] == t["floor"] and t["again"] == 0, t  # the floor: no person's file after his own
        assert t["no choice"] == 0
