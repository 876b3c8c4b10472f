"""The measure of what a game costs by e-mail: per game turn, the turn files that needed a person,
the rules' floor, all turn files and the calendar days (bench/handovers.py, handovers_report.py).

The day model and the line are checked on hand-made sequences; the games are played once each
(one seeded game a setting) to check that every line is printed in its form with sound numbers.
Today's figures are not targets: nothing here asserts them."""

from __future__ import annotations

import re

from pbem.bench.handovers import DAY, again, days_per_turn, line, per_turn, sent_times
from pbem.bench.handovers_floors import alternations, gallipoli_blocks
from pbem.bench.handovers_report import SETTINGS, report

LINE = re.compile(r"handovers (?P<game>[a-z0-9-]+) (?P<mode>two-player|refereed): human (?P<human>\d+(?:\.\d+)?) "
                  r"per game turn \(floor (?P<floor>\d+(?:\.\d+)?)\), files (?P<files>\d+(?:\.\d+)?), "
                  r"days (?P<days>\d+\.\d)")


def _file(turn, side, person, battles=0):
    return {"turn": turn, "side": side, "person": person, "battles": battles, "no choice": False, "kind": "x"}


def test_a_file_that_needs_a_person_waits_for_the_next_morning_and_any_other_follows_in_ten_minutes():
    # the file before the first (the join) was sent at 09:00 on day 0
    times = sent_times([("allied", True), ("ottoman", False), ("allied", False), ("ottoman", True)])
    assert times == [DAY + 9 * 60, DAY + 9 * 60 + 10, DAY + 9 * 60 + 20, 2 * DAY + 9 * 60]
    # strictly after: a person's file sent at 09:00 is answered at 09:00 the next day, not at once
    assert sent_times([("allied", True), ("ottoman", True)]) == [DAY + 540, 2 * DAY + 540]
    # another hour: the Ottoman answers at 21:00, the same day the Allied file was sent
    assert sent_times([("allied", True), ("ottoman", True), ("allied", True)], {"ottoman": 21}) == \
        [DAY + 540, DAY + 21 * 60, 2 * DAY + 540]
    # files that need no one, from 23:55: over midnight
    assert sent_times([("a", False)] * 3, start=23 * 60 + 55)[-1] == DAY + 25


def test_a_game_turns_days_run_from_the_previous_game_turns_last_file_to_its_own_last():
    files = [_file(None, "allied", False),  # set-up, 09:10 day 0
             _file(1, "allied", True), _file(1, "ottoman", False), _file(1, "allied", False),  # day 1 09:00-09:20
             _file(2, "ottoman", True),  # day 2 09:00
             _file(2, "allied", True), _file(2, "ottoman", False)]  # day 3 09:00, 09:10
    days = days_per_turn(files)
    assert days[1] == (DAY + 20 - 10) / DAY  # from 09:10 of day 0 to 09:20 of day 1
    assert days[2] == (2 * DAY - 10) / DAY  # from 09:20 of day 1 to 09:10 of day 3
    turns = per_turn(files + [_file(3, "ottoman", True)], alternations)  # turn 3, the last, cut short
    assert [t["turn"] for t in turns] == [1, 2]
    assert [(t["human"], t["files"], t["floor"], t["again"]) for t in turns] == [(1, 3, 1, 0), (2, 3, 2, 0)]
    assert [round(t["days"], 3) for t in turns] == [round(days[1], 3), round(days[2], 3)]


def test_hand_overs_and_the_same_person_again():
    files = [_file(1, "a", True), _file(1, "b", False), _file(1, "a", True), _file(1, "b", True), _file(1, "a", True)]
    assert alternations(files, None) == 3 and again(files, None) == 1  # a, (b's reveal), a again, b, a
    assert alternations(files, "a") == 2 and again(files, "a") == 2  # the turn before ended with a's file
    # the block game's floor is its module's, with battle plans: 2 + 2 a battle
    assert gallipoli_blocks([_file(1, "a", True, battles=1), _file(1, "b", True, battles=2)]) == 8
    assert gallipoli_blocks([_file(1, "a", True)]) == 2


def test_the_line_has_its_form():
    assert line("gallipoli-blocks", "two-player", 4, 2, 6, 4.0) == \
        "handovers gallipoli-blocks two-player: human 4 per game turn (floor 2), files 6, days 4.0"
    assert line("assault-on-gallipoli", "two-player", 25.5, 23.5, 27, 25.51) == \
        "handovers assault-on-gallipoli two-player: human 25.5 per game turn (floor 23.5), files 27, days 25.5"
    assert LINE.fullmatch(line("gallipoli-blocks", "refereed", 5, 6, 10, 5.0))


def test_every_game_and_mode_prints_its_line_with_sound_numbers():
    out: list[str] = []
    measured = report(out.append, games=1)
    lines = [LINE.fullmatch(text) for text in out if text.startswith("handovers ")]
    assert all(lines), out
    assert [(m["game"], m["mode"]) for m in lines] == [(s.game, s.mode) for s in SETTINGS]
    assert {("gallipoli-blocks", "two-player"), ("gallipoli-blocks", "refereed"), ("assault-on-gallipoli", "two-player"),
            ("blood-on-the-tigris", "two-player")} <= {(m["game"], m["mode"]) for m in lines}
    for m in lines:
        human, floor, files, days = (float(m[k]) for k in ("human", "floor", "files", "days"))
        assert 0 < human <= files and floor > 0 and days > 0, m.group(0)
    for m in measured:
        for turn in m["turns"]:
            assert turn["human"] <= turn["files"] and turn["again"] <= turn["human"]
            assert turn["days"] >= turn["human"] - 1  # each file that needs a person waits for a morning
        if m["setting"].mode == "refereed":  # the referee's files never need a person
            assert m["human"] < m["files"]
