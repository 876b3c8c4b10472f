"""16.2: the ship-placement prompt says where the Aegean Sea areas lie (the map's left-hand edge,
the peninsula's west coast) and which coast each one borders, only for the areas in play."""

from __future__ import annotations

from pbem_engine.games.assault_on_gallipoli import GAME
from pbem_engine.games.assault_on_gallipoli.position import position


def ships_prompt(scenario: str):
    return GAME.prompt(position({"scenario": scenario, "frames": [{"k": "ships", "left": ["hms-queen"]}]}).state)


def test_the_prompt_says_where_each_sea_area_lies():
    p = ships_prompt("anzac-landing")
    assert [c.label for c in p.choices] == [f"place HMS Queen in Aegean Sea area {n}" for n in range(1, 6)]
    assert "left-hand edge" in p.text and "west (Aegean) coast (16.2)" in p.text and "north to south" in p.text
    assert "provisional" in p.text  # our map's numbering and coasts
    for area, coast in ((1, "No. 1 Outpost, No. 2 Outpost"), (3, "ANZAC Cove, North Beach"), (5, "Gaba Tepe")):
        assert f"Aegean Sea area {area} off {coast}" in p.text


def test_only_the_sea_areas_in_play_are_described():
    p = ships_prompt("lone-pine")  # Scenario 3: the southern half, areas 3-5
    assert "Aegean Sea area 4 off Brighton Beach, Shrapnel Green" in p.text
    assert "Aegean Sea area 1" not in p.text and "Aegean Sea area 2" not in p.text
