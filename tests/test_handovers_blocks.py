"""The block game by e-mail at the rules' floor: the Ottoman gives his reinforcements as a plan with
the card (engine/games/gallipoli_blocks/sequence.py ``offer_plan``, 8.2.1) while the Allies may still
cancel it, so the Allied file that answers the response window (a forced "no response" when his
hand holds no response card) carries them in: no second Ottoman file after it.

Seeded games between two campaigns (bench/handovers.py ``play_files``, the bench's person
``planning``: battle plans, and the game's own player otherwise) count, per game turn, the files
that needed a person against the floor (bench/handovers_floors.py)."""

from __future__ import annotations

import statistics

import pytest

from pbem.bench.handovers import per_turn, planning, play_files
from pbem.bench.handovers_floors import FLOORS
from pbem.bench.handovers_report import SETTINGS

MODULE = "gallipoli-blocks"
SETTING = next(s for s in SETTINGS if s.game == MODULE and s.mode == "two-player")


def _planned(state, match, waiting, result):
    return {"plan": any(a.get("do") == "done" for a in result.drafted)
            and any("gives its reinforcements as a plan" in e["text"] for e in result.events),
            "deploy after": any(a.get("do") == "deploy" for a in result.drafted)
            and not any("as a plan" in e["text"] for e in result.events)
            and not any(a.get("do") == "play" for a in result.drafted)}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    return [play_files(MODULE, SETTING.options, seed, tmp_path_factory.mktemp(f"g{seed}"), choose=planning,
                       note=_planned) for seed in range(3)]


def test_a_game_turn_without_a_battle_costs_the_floor_reinforcements_and_all(games):
    quiet = [t for files in games for t in per_turn(files, FLOORS[MODULE]) if not t["battles"]]
    assert len(quiet) >= 4
    assert [(t["turn"], t["human"]) for t in quiet] == [(t["turn"], t["floor"]) for t in quiet] == \
        [(t["turn"], 2) for t in quiet]
    assert all(t["again"] == 0 for t in quiet)


def test_the_ottoman_gives_reinforcement_plans_and_never_deploys_in_a_file_of_its_own(games):
    files = [f for g in games for f in g]
    assert any(f["plan"] for f in files if f["side"] == "ottoman")  # the player gave them
    assert not any(f["deploy after"] for f in files if f["turn"] and f["turn"] >= 1)


def test_the_median_game_turn_costs_the_floor(games):
    turns = [t for files in games for t in per_turn(files, FLOORS[MODULE])]
    assert statistics.median(t["human"] for t in turns) == statistics.median(t["floor"] for t in turns) == 2
    assert all(t["no choice"] == 0 for t in turns)  # no person's file without a choice
