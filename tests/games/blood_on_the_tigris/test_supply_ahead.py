"""3.4, 10.0, 12.2: the report and the supply phase agree.  At the campaign's start the Turks carry
no OOS marker (a marker is placed only in the supply phase, 10.0), so the report's "14 of 14 in
supply" is their condition; but 10 of them cannot trace a line of supply, and the supply phase
marks exactly those.  The report says so ahead, from the same function (supply.check)."""

from __future__ import annotations

import copy

from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME, counters, supply


def test_the_report_names_the_units_the_supply_phase_then_marks_oos():
    state = GAME.setup("campaign", {})
    lines = GAME.describe(state)
    assert "turkish: 14 of 14 ground units in supply, 0 OOS, 6 OOC (their markers, in force until the supply " \
           "phase, 3.4, 10.0); 1 depot(s)" in lines
    ahead = next(line for line in lines if line.startswith("turkish at the supply phase (3.4), as things stand: "))
    assert "10 of 14 ground units cannot trace a line of supply (12.2" in ahead, ahead
    told = {counters.name(u) for u in state["units"] if u.startswith("tk-") and counters.name(u) in ahead}
    after = copy.deepcopy(state)  # the supply phase on the same position: every OOS combat unit rolls 3.4's die
    events = supply.update_supply(after, ScriptedDice([1] * 10))
    marked = {e["text"].removesuffix(" is out of supply (3.4)") for e in events if e["text"].endswith("out of supply (3.4)")}
    assert len(marked) == 10 and marked == told, (marked, told)
    assert marked == {counters.name(u) for u, v in after["units"].items() if v["oos"]}
    assert "british at the supply phase (3.4), as things stand: no OOS marker changes" in lines


def test_once_marked_the_report_and_the_phase_still_agree():
    state = GAME.setup("campaign", {})
    supply.update_supply(state, ScriptedDice([1] * 10))
    lines = GAME.describe(state)
    assert "turkish: 4 of 14 ground units in supply, 10 OOS" in " ".join(lines)
    assert "turkish at the supply phase (3.4), as things stand: no OOS marker changes" in lines
