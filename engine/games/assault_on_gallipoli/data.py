"""The data the Rulebook lacks (DIGEST 001 §4), reconstructed: the map, the counters and
Scenario 1.  Nothing here is copied from the published game; every value not stated by the
text is PROVISIONAL (see RULES.md, "Provisional data", for each reason).

Area ids are the pack's (packs/assault-on-gallipoli) where it names the area; areas the
Rulebook does not name are ours, placed from the sector's geography.
"""

from __future__ import annotations

SIDES = ("anzac", "turkish")

# id: (name, elevation 0-3, woods, tags).  Elevations are relative levels only (6.2.2 needs
# no more); the text fixes: Walker's Ridge > North Beach, Russell's Top > Walker's Ridge,
# Third Ridge > Koja Plain and The Arrow Head.
AREAS: dict[str, tuple[str, int, bool, tuple[str, ...]]] = {
    "no-2-outpost": ("No. 2 Outpost", 0, False, ("beach",)),
    "no-1-outpost": ("No. 1 Outpost", 0, False, ("beach",)),  # ours: makes the 6.6 example hold
    "ocean-beach": ("Ocean Beach", 0, False, ("beach",)),
    "north-beach": ("North Beach", 0, False, ("beach", "landing")),
    "anzac-cove": ("ANZAC Cove", 0, False, ("beach", "landing", "edge-anzac")),
    "shrapnel-green": ("Shrapnel Green", 0, False, ()),
    "brighton-beach": ("Brighton Beach", 0, False, ("beach", "landing")),
    "gaba-tepe": ("Gaba Tepe", 1, False, ("vp",)),
    "chailak-dere": ("Chailak Dere", 1, True, ()),
    "rhododendron-spur": ("Rhododendron Spur", 2, True, ()),
    "walkers-ridge": ("Walker's Ridge", 1, False, ()),
    "russells-top": ("Russell's Top", 2, False, ("vp",)),
    "plugges-plateau": ("Plugge's Plateau", 1, False, ()),
    "monash-valley": ("Monash Valley", 1, True, ()),
    "the-nek": ("The Nek", 2, False, ()),
    "baby-700": ("Baby 700", 2, False, ("vp",)),
    "battleship-hill": ("Battleship Hill", 3, False, ("vp",)),
    "chunuk-bair": ("Chunuk Bair", 3, False, ("vp",)),
    "hill-971": ("Hill 971", 3, False, ("vp",)),
    "the-400-plateau": ("The 400 Plateau", 2, False, ("vp",)),
    "lone-pine": ("Lone Pine", 2, False, ("vp",)),
    "poppy-valley": ("Poppy Valley", 1, False, ()),
    "pine-ridge": ("Pine Ridge", 2, True, ()),
    "legge-valley": ("Legge Valley", 1, True, ()),
    "the-arrow-head": ("The Arrow Head", 1, False, ()),
    "anderson-knoll": ("Anderson Knoll", 1, False, ()),
    "third-ridge": ("Third Ridge", 2, False, ("vp",)),
    "scrubby-knoll": ("Scrubby Knoll", 2, False, ("vp",)),
    "koja-plain": ("Koja Plain", 0, False, ("edge-turkish",)),
    "koja-dere": ("Koja Dere", 1, False, ("edge-turkish",)),
    "mal-tepe": ("Mal Tepe", 3, False, ("vp", "edge-turkish")),
    "aegean-sea-1": ("Aegean Sea area 1", 0, False, ("sea", "aegean")),
    "aegean-sea-2": ("Aegean Sea area 2", 0, False, ("sea", "aegean")),
    "aegean-sea-3": ("Aegean Sea area 3", 0, False, ("sea", "aegean", "boats")),
    "aegean-sea-4": ("Aegean Sea area 4", 0, False, ("sea", "aegean")),
    "aegean-sea-5": ("Aegean Sea area 5", 0, False, ("sea", "aegean")),
    "khetia-bay": ("Khetia Bay", 0, False, ("sea", "khetia")),
}

# "a b flags": flags road (6.2.4), river (6.2.3), red (a red line, 6.1.4: no movement, fire passes)
EDGES = """
no-2-outpost no-1-outpost
no-1-outpost ocean-beach
ocean-beach north-beach
north-beach anzac-cove
anzac-cove shrapnel-green
shrapnel-green brighton-beach
brighton-beach gaba-tepe
no-2-outpost chailak-dere
no-1-outpost chailak-dere
chailak-dere rhododendron-spur
chailak-dere hill-971 red
rhododendron-spur chunuk-bair
rhododendron-spur walkers-ridge red
rhododendron-spur battleship-hill
chunuk-bair hill-971
chunuk-bair battleship-hill
hill-971 koja-dere river
walkers-ridge north-beach
walkers-ridge ocean-beach
walkers-ridge russells-top
russells-top the-nek
russells-top plugges-plateau red
russells-top monash-valley red
plugges-plateau north-beach
plugges-plateau anzac-cove
plugges-plateau shrapnel-green
plugges-plateau monash-valley
monash-valley shrapnel-green
monash-valley the-400-plateau
monash-valley baby-700
the-nek baby-700
baby-700 battleship-hill
baby-700 legge-valley
baby-700 the-arrow-head
battleship-hill scrubby-knoll
battleship-hill koja-dere river
the-400-plateau shrapnel-green
the-400-plateau lone-pine
the-400-plateau legge-valley
lone-pine brighton-beach
lone-pine poppy-valley
lone-pine pine-ridge
lone-pine legge-valley
poppy-valley brighton-beach
poppy-valley gaba-tepe
poppy-valley pine-ridge
pine-ridge gaba-tepe
pine-ridge anderson-knoll
pine-ridge legge-valley
legge-valley anderson-knoll
legge-valley third-ridge
legge-valley the-arrow-head
the-arrow-head third-ridge
the-arrow-head scrubby-knoll
anderson-knoll third-ridge road
anderson-knoll koja-plain
third-ridge koja-plain
third-ridge scrubby-knoll road
scrubby-knoll koja-dere road river
koja-plain koja-dere river
koja-plain mal-tepe
koja-dere mal-tepe road
aegean-sea-1 no-2-outpost
aegean-sea-1 no-1-outpost
aegean-sea-2 ocean-beach
aegean-sea-2 north-beach
aegean-sea-3 north-beach
aegean-sea-3 anzac-cove
aegean-sea-4 shrapnel-green
aegean-sea-4 brighton-beach
aegean-sea-5 gaba-tepe
aegean-sea-1 aegean-sea-2
aegean-sea-2 aegean-sea-3
aegean-sea-3 aegean-sea-4
aegean-sea-4 aegean-sea-5
aegean-sea-5 khetia-bay
khetia-bay gaba-tepe
"""

# Counter types: kind, firepower (fresh, exhausted), range, strength (fresh, exhausted), MF.
# The text gives: infantry and Remnants range 2, MG 3, artillery 4, ships 5 (8.2.1); Leaders
# and Remnants 1 strength both sides (9.1.1); MGs 1 exhausted strength (9.4.1); elite units
# 4/3 strength (9.4.2); most infantry 4 MF, artillery and some MGs 3 (2.1.4); Otago MR 5 MF
# (6.6); the example of 21: Wellington and Auckland 2 exhausted FP, Auckland 3 exhausted
# strength, Turkish battalions 2 FP fresh and 1 exhausted, Remnants 0 FP exhausted.
TYPES: dict[str, tuple[str, tuple[int, int], int, tuple[int, int], int]] = {
    "aus-inf": ("inf", (3, 2), 2, (3, 2), 4),
    "elite-inf": ("inf", (3, 2), 2, (4, 3), 4),
    "mr": ("inf", (2, 1), 2, (3, 2), 5),
    "rnd-inf": ("inf", (2, 1), 2, (3, 2), 4),
    "tur-inf": ("inf", (2, 1), 2, (3, 2), 4),
    "mg": ("mg", (3, 2), 3, (2, 1), 3),
    "tur-mg": ("mg", (3, 2), 3, (2, 1), 4),
    "art": ("art", (3, 2), 4, (3, 2), 3),
    "ship": ("ship", (4, 4), 5, (1, 1), 0),
    "manica": ("ship", (0, 0), 5, (1, 1), 0),
    "remnant": ("remnant", (1, 0), 2, (1, 1), 4),
}

# Leaders: name, side, firepower bonus, movement bonus, rank (1 plain, 2 Divisional, 3 C-in-C:
# 15.4.1-15.4.2, the casualties they count for in 18.4).  The text gives Malone +2 FP, +3 MF;
# Kemal, Sefik, Monash +2 FP (15.2.1); Avni +1 FP (21); Bauchop +2 MF (6.6); Birdwood and
# Essad the C-in-Cs.  The rest is ours.
LEADERS: dict[str, tuple[str, str, int, int, int]] = {
    "birdwood": ("Gen Birdwood", "anzac", 1, 2, 3),
    "bridges": ("Gen Bridges", "anzac", 1, 2, 2),
    "godley": ("Gen Godley", "anzac", 1, 2, 2),
    "maclagan": ("Col MacLagan", "anzac", 0, 2, 1),
    "mccay": ("Col McCay", "anzac", 1, 2, 1),
    "monash": ("Col Monash", "anzac", 2, 2, 1),
    "malone": ("Lt Col Malone", "anzac", 2, 3, 1),
    "bauchop": ("Col Bauchop", "anzac", 1, 2, 1),
    "weir": ("Lt Col Weir", "anzac", 1, 2, 1),  # optional (22); the text gives no values: ours
    "essad": ("Gen Essad", "turkish", 1, 2, 3),
    "kemal": ("Col Kemal", "turkish", 2, 2, 2),
    "sefik": ("Lt Col Sefik", "turkish", 2, 2, 1),
    "avni": ("Maj Avni", "turkish", 1, 2, 1),
}

# Combat units: id -> (name, side, type)
UNITS: dict[str, tuple[str, str, str]] = {
    **{f"aus-{n}": (f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'} Bn ({s})", "anzac",
                    "elite-inf" if n == 7 else "aus-inf")
       for n, s in ((1, "NSW"), (2, "NSW"), (3, "NSW"), (4, "NSW"), (5, "VIC"), (6, "VIC"), (7, "VIC"),
                    (8, "VIC"), (9, "QLD"), (10, "SA"), (11, "WA"), (12, "TAS"), (13, "NSW"), (14, "VIC"),
                    (15, "QLD"), (16, "WA"))},
    "nz-auckland": ("Auckland Bn", "anzac", "elite-inf"),
    "nz-wellington": ("Wellington Bn", "anzac", "elite-inf"),
    "nz-canterbury": ("Canterbury Bn", "anzac", "aus-inf"),
    "nz-otago": ("Otago Bn", "anzac", "aus-inf"),
    "nz-otago-mr": ("Otago MR", "anzac", "mr"),
    "nz-auckland-mr": ("Auckland MR", "anzac", "mr"),
    "rnd-ports": ("Ports Bn (RND)", "anzac", "rnd-inf"),
    "rnd-chatham": ("Chatham Bn (RND)", "anzac", "rnd-inf"),
    "aus-1-mg": ("1st Aus MG Coy", "anzac", "mg"),
    "aus-1-art": ("1st Aus Field Arty", "anzac", "art"),
    "nz-how": ("NZ Howitzer Bty", "anzac", "art"),
    "hms-queen": ("HMS Queen", "anzac", "ship"),
    "hms-london": ("HMS London", "anzac", "ship"),
    "hms-prince-of-wales": ("HMS Prince of Wales", "anzac", "ship"),
    "hms-triumph": ("HMS Triumph", "anzac", "ship"),
    "hms-majestic": ("HMS Majestic", "anzac", "ship"),
    "hms-bacchante": ("HMS Bacchante", "anzac", "ship"),
    "hms-manica": ("HMS Manica", "anzac", "manica"),
    **{f"tur-{b}-{r}": (f"{b}/{r}{'nd' if r == 72 else 'th'} Rgt", "turkish", "tur-inf")
       for r in (27, 57, 72, 77) for b in (1, 2, 3)},
    "tur-27-mg": ("27th Rgt MG Coy", "turkish", "tur-mg"),
    "tur-57-mg": ("57th Rgt MG Coy", "turkish", "tur-mg"),
    "tur-gaba-art": ("Gaba Tepe Battery", "turkish", "art"),
    "tur-39-art": ("39th Arty", "turkish", "art"),
    "tur-turgut": ("Turgut Reis", "turkish", "ship"),
    **{f"{s}-remnant-{i}": ("Remnant", s, "remnant") for s in SIDES for i in range(1, 6)},
}

REMNANTS = {s: [f"{s}-remnant-{i}" for i in range(1, 6)] for s in SIDES}  # the pool of 5 (9.4.4)

# Scenario 1, reconstructed (its booklet is missing): set-up, boats, reinforcements by turn
# (group name -> entry area, units), turns, Killing Time start, first Morale Advantage (18.2
# is the text's), trenches and wire, and the cubes' colours at the start.
SCENARIOS = {
    "anzac-landing": {
        "title": "Scenario 1: The ANZAC Landing, 25-29 April 1915 (set-up reconstructed, provisional)",
        "turns": 5, "killing_time": 8, "morale": "anzac", "landing": True,
        "setup": {"russells-top": ["tur-2-27"], "plugges-plateau": ["turkish-remnant-1"],
                  "the-400-plateau": ["turkish-remnant-2"], "gaba-tepe": ["tur-27-mg", "turkish-remnant-3"],
                  "third-ridge": ["tur-gaba-art"], "mal-tepe": ["essad"]},
        "trenches": {"russells-top": 1, "gaba-tepe": 1}, "wire": ["gaba-tepe"],
        "ships": {"anzac": ["hms-queen", "hms-london", "hms-prince-of-wales", "hms-triumph", "hms-majestic",
                            "hms-bacchante", "hms-manica"], "turkish": ["tur-turgut"]},
        "waves": [[["maclagan", "aus-9", "aus-10"], ["aus-11", "aus-12"]],
                  [["aus-5", "aus-6"], ["mccay", "aus-7", "aus-8"]],
                  [["aus-1", "aus-2"], ["bridges", "aus-3", "aus-4"]],
                  [["malone", "nz-wellington", "nz-auckland"], ["nz-canterbury", "nz-otago"]]],
        "reinforcements": {
            1: {"turkish": {"Sefik": ("koja-plain", ["sefik", "tur-1-27", "tur-3-27"]),
                            "Kemal": ("koja-dere", ["kemal", "avni", "tur-1-57", "tur-2-57", "tur-3-57", "tur-57-mg"])}},
            2: {"anzac": {"Godley": ("anzac-cove", ["godley", "bauchop", "nz-otago-mr", "nz-auckland-mr"]),
                          "Monash": ("anzac-cove", ["monash", "aus-13", "aus-14", "aus-15", "aus-16"])},
                "turkish": {"77th": ("koja-dere", ["tur-1-77", "tur-2-77", "tur-3-77"]),
                            "72nd": ("mal-tepe", ["tur-1-72", "tur-2-72", "tur-3-72"])}},
            3: {"anzac": {"RND": ("north-beach", ["rnd-ports", "rnd-chatham"]),
                          "Artillery": ("anzac-cove", ["aus-1-art", "nz-how", "aus-1-mg"])},
                "turkish": {"39th Arty": ("koja-plain", ["tur-39-art"])}},
            4: {"anzac": {"Birdwood": ("anzac-cove", ["birdwood"])}},
        },
        "cubes": "turkish",  # every VP area starts with a red cube
    },
}

LANDING = ((3, "brighton-beach"), (7, "anzac-cove"), (10, "north-beach"))  # 20.3: d10 1-3, 4-7, 8-10
