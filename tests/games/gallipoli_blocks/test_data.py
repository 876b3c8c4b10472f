"""The module's board, blocks and cards are the gallipoli-blocks pack's: one reconstruction, two forms
(the engine reads no file, so the rules module keeps its data beside the code)."""

import tomllib
from pathlib import Path

from pbem_engine.games.gallipoli_blocks import GAME, board, cards
from pbem_engine.games.gallipoli_blocks.data import BLOCKS, SPACES

PACK = tomllib.loads((Path(__file__).resolve().parents[3] / "packs" / "gallipoli-blocks" / "pack.toml").read_text())


def test_spaces_match_the_pack():
    locations = {loc["id"]: loc for loc in PACK["location"]}
    assert set(locations) == set(SPACES)
    for sid, (name, region, terrain, objective, adjacent) in SPACES.items():
        loc = locations[sid]
        tags = loc.get("tags") or []
        assert name == loc["name"]
        assert terrain == ("hq" if "hq" in tags else loc["terrain"])
        assert objective == ("objective" in tags)
        assert set(adjacent) == set(loc["adjacent"])
        if region != "hq":
            assert region == loc["region"]


def test_connections_are_two_way_and_the_rules_own_facts_hold():
    for sid, v in SPACES.items():
        for other in v[4]:
            assert sid in SPACES[other][4], (sid, other)
    # rules 4.4 (regions), 7.1.3 (forts), 8.1.1 (the movement example's connections)
    assert {s for s, v in SPACES.items() if v[1] == "southern"} == {
        "asmak", "krithia", "the-quadrilateral", "gully-ravine", "sedd-el-bahr", "alexi", "achi-baba"}
    assert {s for s, v in SPACES.items() if v[1] == "suvla"} == {
        "cape-suvla", "suvla-bay", "salt-lake", "burnt-hill-kuchuk-anafarta", "selvili"}
    assert {s for s, v in SPACES.items() if v[2] == "fort"} == {"sedd-el-bahr", "kilid-bahr"}
    for a, b in (("anzac-cove", "the-nek"), ("anzac-cove", "lone-pine"), ("anzac-cove", "anzac-hq"),
                 ("the-nek", "sari-bair")):
        assert b in SPACES[a][4]


def test_blocks_match_the_pack_and_rules_11():
    pieces = {p["id"]: p for p in PACK["piece"] if p.get("type") == "block" or "dummy" in p["id"]}
    assert set(pieces) == set(BLOCKS)
    assert sum(1 for b in BLOCKS.values() if b[1] == "allied") == 44  # 2.3
    assert sum(1 for b in BLOCKS.values() if b[1] == "ottoman") == 23
    assert sum(1 for b in BLOCKS if board.is_dummy(b)) == 5
    for bid, (name, army, _service, strengths, group, hq, _start) in BLOCKS.items():
        p = pieces[bid]
        assert (name, army) == (p["name"], p["side"])
        assert list(strengths) == p.get("values", {}).get("strengths", [])
        assert group == p.get("values", {}).get("group", "")


def test_cards_match_the_pack_and_rules_2_2():
    pack_cards = {c["id"]: c for c in PACK["card"]}
    table = cards.table()
    assert set(pack_cards) == set(table)
    assert sum(1 for c in table.values() if c["army"] == "allied") == 27
    assert sum(1 for c in table.values() if c["army"] == "ottoman") == 27
    for cid, card in table.items():
        assert card["name"] == pack_cards[cid]["name"]
        if pack_cards[cid].get("subdeck"):
            assert card["subdeck"] == pack_cards[cid]["subdeck"]
    # the three named cards keep what the text says of them
    assert table["royal-navy-seaplanes"]["ops"] == 2
    assert table["kitchener-tours-the-battlefield"]["bombardment"] == 2
    assert table["suvla-bay-invasion"]["event"]["kind"] == "suvla"
    # every reinforcement block named on a card is an Allied reinforcement block (11.1.1)
    for card in table.values():
        for bid in card["event"].get("blocks", []):
            assert BLOCKS[bid][1] == "allied" and BLOCKS[bid][6] == "reinforcement"


def test_the_module_says_what_it_reconstructed():
    text = " ".join(GAME.provisional)
    for word in ("map", "cards", "Allied set-up", "landing"):
        assert word in text
