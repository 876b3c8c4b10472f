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
    "walker": ("Gen Walker", "anzac", 1, 2, 2),  # 1st Aus Div after Bridges (Scenarios 2, 3, 5): ours
    "maclagan": ("Col MacLagan", "anzac", 0, 2, 1),  # 22: the standard counter is +0
    "mccay": ("Col McCay", "anzac", 1, 2, 1),
    "monash": ("Col Monash", "anzac", 2, 2, 1),
    "malone": ("Lt Col Malone", "anzac", 2, 3, 1),
    "bauchop": ("Col Bauchop", "anzac", 1, 2, 1),
    "johnston": ("Col Johnston", "anzac", 1, 2, 1),  # NZ Infantry Bde (Scenarios 4, 5): ours
    "cox": ("Gen Cox", "anzac", 1, 2, 1),  # 29th Indian Bde (Scenarios 4, 5): ours
    "smyth": ("Brig Smyth", "anzac", 1, 2, 1),  # 1st Aus Bde at Lone Pine (Scenarios 3, 5): ours
    "hughes": ("Col Hughes", "anzac", 0, 2, 1),  # 3rd LH Bde at The Nek (Scenarios 4, 5): ours
    "weir": ("Lt Col Weir", "anzac", 1, 2, 1),  # optional (22); the text gives no values: ours
    "essad": ("Gen Essad", "turkish", 1, 2, 3),
    "kemal": ("Col Kemal", "turkish", 2, 2, 2),
    "sefik": ("Lt Col Sefik", "turkish", 2, 2, 1),
    "avni": ("Maj Avni", "turkish", 1, 2, 1),
    # 22, optional counters (white dot): the text gives Avni +3 MF, McCay +0 FP, MacLagan +1 FP
    "avni-dot": ("Maj Avni (optional counter)", "turkish", 1, 3, 1),
    "mccay-dot": ("Col McCay (optional counter)", "anzac", 0, 2, 1),
    "maclagan-dot": ("Col MacLagan (optional counter)", "anzac", 1, 2, 1),
    # 22: 7 MP like any Leader, no Firepower, refresh TWO units (15.4.3), 1 strength, 4 casualties
    # (rank 4 here: loss_value counts the rank); no movement bonus is given: 0, ours
    "hamilton": ("Gen Hamilton", "anzac", 0, 0, 4),
    "von-sanders": ("Gen von Sanders", "turkish", 0, 0, 4),
}

# 22: the optional counters an option puts in place of the standard one, wherever it starts
ALTERNATES = {"avni": "avni-dot", "mccay": "mccay-dot", "maclagan": "maclagan-dot"}
C_IN_C_OPTIONAL = {"hamilton": ("anzac", ("anzac-cove", "north-beach")), "von-sanders": ("turkish", ("koja-dere",))}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


TURKISH_REGIMENTS = (13, 14, 15, 16, 25, 27, 33, 47, 48, 57, 64, 72, 77, 125)  # three battalions each

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
    "nz-wellington-mr": ("Wellington MR", "anzac", "mr"),
    "nz-canterbury-mr": ("Canterbury MR", "anzac", "mr"),
    # Scenarios 2-5 (ours, from the order of battle of May and August 1915)
    **{f"lh-{n}": (f"{_ordinal(n)} Light Horse", "anzac", "mr") for n in (1, 2, 5, 6, 8, 10)},
    "gr-1-5": ("1/5th Gurkha Rifles", "anzac", "aus-inf"),
    "gr-1-6": ("1/6th Gurkha Rifles", "anzac", "elite-inf"),
    "gr-2-10": ("2/10th Gurkha Rifles", "anzac", "aus-inf"),
    "sikhs-14": ("14th Sikhs", "anzac", "aus-inf"),
    "br-6-lnl": ("6th Loyal North Lancs", "anzac", "rnd-inf"),
    "br-5-wilts": ("5th Wiltshire", "anzac", "rnd-inf"),
    "br-6-slancs": ("6th South Lancs", "anzac", "rnd-inf"),
    "br-9-worcs": ("9th Worcestershire", "anzac", "rnd-inf"),
    "aus-2-mg": ("2nd Aus MG Coy", "anzac", "mg"),
    "nz-mg": ("NZ MG Coy", "anzac", "mg"),
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
    **{f"tur-{b}-{r}": (f"{b}/{_ordinal(r)} Rgt", "turkish", "tur-inf") for r in TURKISH_REGIMENTS for b in (1, 2, 3)},
    "tur-27-mg": ("27th Rgt MG Coy", "turkish", "tur-mg"),
    "tur-57-mg": ("57th Rgt MG Coy", "turkish", "tur-mg"),
    "tur-47-mg": ("47th Rgt MG Coy", "turkish", "tur-mg"),
    "tur-125-mg": ("125th Rgt MG Coy", "turkish", "tur-mg"),
    "tur-gaba-art": ("Gaba Tepe Battery", "turkish", "art"),
    "tur-39-art": ("39th Arty", "turkish", "art"),
    "tur-16-art": ("16th Div Arty", "turkish", "art"),
    "tur-turgut": ("Turgut Reis", "turkish", "ship"),
    "tur-barbaros": ("Barbaros Hayreddin", "turkish", "ship"),
    **{f"{s}-remnant-{i}": ("Remnant", s, "remnant") for s in SIDES for i in range(1, 6)},
}

REMNANTS = {s: [f"{s}-remnant-{i}" for i in range(1, 6)] for s in SIDES}  # the pool of 5 (9.4.4)

# The scenarios, reconstructed (both Scenario Booklets are missing; RULES.md gives each reason).
# The text gives: the five titles, dates and board halves (1.3), 11 VP in each (1.2), the
# Morale Advantage at the start (18.2: the Turks in Scenario 2, ANZAC in the others), Killing
# Time 7 or 8 (19.2), no 6-VP sudden death in Scenario 2 (1.3), the landing in Scenario 1 only
# (20.1), Scenario 5 = Scenarios 3 + 4.  Everything else is ours and PROVISIONAL: set-ups,
# reinforcement groups (turn -> side -> group -> (entry area, units)), turns (one a day of
# the dates), the VP areas (11 of 1 VP each), the starting cubes, trenches, wire and ships.
# "off": the areas not in play (3: the southern half, 4: the northern half).
SCENARIO_1_VP = [a for a, v in AREAS.items() if "vp" in v[3]]
NORTH = ["no-2-outpost", "no-1-outpost", "ocean-beach", "north-beach", "anzac-cove", "chailak-dere",
         "rhododendron-spur", "walkers-ridge", "russells-top", "plugges-plateau", "monash-valley", "the-nek",
         "baby-700", "battleship-hill", "chunuk-bair", "hill-971", "the-arrow-head", "scrubby-knoll", "koja-dere",
         "aegean-sea-1", "aegean-sea-2", "aegean-sea-3"]
SOUTH = ["anzac-cove", "plugges-plateau", "monash-valley", "shrapnel-green", "brighton-beach", "gaba-tepe",
         "the-400-plateau", "lone-pine", "poppy-valley", "pine-ridge", "legge-valley", "the-arrow-head",
         "anderson-knoll", "third-ridge", "scrubby-knoll", "koja-plain", "koja-dere", "mal-tepe",
         "aegean-sea-3", "aegean-sea-4", "aegean-sea-5", "khetia-bay"]

_LONE_PINE = {
    "setup": {"the-400-plateau": ["smyth", "aus-1", "aus-2", "aus-3", "aus-4", "aus-1-mg"],
              "monash-valley": ["walker", "aus-7", "aus-12", "aus-2-mg"],
              "shrapnel-green": ["aus-1-art", "aus-11"], "brighton-beach": ["aus-9", "aus-10"],
              "lone-pine": ["tur-1-47", "tur-2-47", "tur-3-47", "tur-47-mg"],
              "legge-valley": ["tur-1-125", "tur-2-125", "tur-125-mg"], "pine-ridge": ["tur-3-125"],
              "gaba-tepe": ["tur-1-48", "tur-2-48", "tur-gaba-art"], "the-arrow-head": ["tur-3-48"],
              "third-ridge": ["sefik", "tur-16-art"]},
    "trenches": {"the-400-plateau": 2, "monash-valley": 2, "brighton-beach": 1, "lone-pine": 2, "legge-valley": 1,
                 "gaba-tepe": 1},
    "wire": ["gaba-tepe"],
    "ships": {"anzac": ["hms-london", "hms-prince-of-wales", "hms-manica"], "turkish": ["tur-barbaros"]},
    "reinforcements": {1: {"turkish": {"15th Rgt": ("koja-plain", ["tur-1-15", "tur-2-15", "tur-3-15"])}},
                       2: {"anzac": {"2nd Bde": ("anzac-cove", ["aus-5", "aus-6", "aus-8"])},
                           "turkish": {"13th Rgt": ("koja-plain", ["tur-1-13", "tur-2-13", "tur-3-13"])}},
                       3: {"turkish": {"64th Rgt": ("mal-tepe", ["tur-1-64", "tur-2-64", "tur-3-64"])}}},
    "vp": ["the-400-plateau", "lone-pine", "gaba-tepe", "pine-ridge", "legge-valley", "the-arrow-head",
           "anderson-knoll", "third-ridge", "poppy-valley", "shrapnel-green", "monash-valley"],
    "anzac_cubes": ["the-400-plateau", "shrapnel-green", "monash-valley"],
}
_SARI_BAIR = {
    "setup": {"no-2-outpost": ["bauchop", "nz-otago-mr", "nz-auckland-mr", "nz-wellington-mr", "nz-canterbury-mr"],
              "no-1-outpost": ["johnston", "malone", "nz-auckland", "nz-wellington", "nz-canterbury", "nz-otago"],
              "north-beach": ["cox", "gr-1-5", "gr-1-6", "gr-2-10", "sikhs-14"],
              "ocean-beach": ["monash", "aus-13", "aus-14", "aus-15", "aus-16"],
              "russells-top": ["hughes", "lh-8", "lh-10", "nz-mg"], "anzac-cove": ["birdwood", "godley", "nz-how"],
              "chailak-dere": ["tur-3-14"], "rhododendron-spur": ["tur-2-14"], "chunuk-bair": ["tur-1-14"],
              "hill-971": ["tur-3-72"], "battleship-hill": ["tur-1-72", "tur-2-72"],
              "baby-700": ["avni", "tur-1-57", "tur-2-57", "tur-57-mg"], "the-nek": ["tur-3-57", "tur-27-mg"],
              "scrubby-knoll": ["essad", "tur-39-art"]},
    "trenches": {"russells-top": 2, "chunuk-bair": 1, "baby-700": 2, "the-nek": 2},
    "wire": ["the-nek"],
    "ships": {"anzac": ["hms-queen", "hms-bacchante"], "turkish": []},  # Khetia Bay is off the northern half
    "reinforcements": {2: {"anzac": {"13th Div": ("north-beach", ["br-6-lnl", "br-5-wilts", "br-6-slancs", "br-9-worcs"])},
                           "turkish": {"25th Rgt": ("koja-dere", ["tur-1-25", "tur-2-25", "tur-3-25"])}},
                       3: {"turkish": {"Kemal": ("koja-dere", ["kemal", "tur-1-16", "tur-2-16", "tur-3-16",
                                                              "tur-1-33", "tur-2-33"])}}},
    "vp": ["chailak-dere", "rhododendron-spur", "chunuk-bair", "hill-971", "battleship-hill", "baby-700", "the-nek",
           "russells-top", "walkers-ridge", "no-2-outpost", "scrubby-knoll"],
    "anzac_cubes": ["russells-top", "walkers-ridge", "no-2-outpost"],
}


def _combined(a: dict, b: dict) -> dict:
    """Scenario 5 = Scenarios 3 and 4 on the whole board (1.3); no unit is in both."""
    reinf: dict = {}
    for part in (a, b):
        for turn, sides in part["reinforcements"].items():
            for side, groups in sides.items():
                reinf.setdefault(turn, {}).setdefault(side, {}).update(groups)
    return {"setup": {**a["setup"], **b["setup"]}, "trenches": {**a["trenches"], **b["trenches"]},
            "wire": a["wire"] + b["wire"],
            "ships": {s: a["ships"][s] + b["ships"][s] for s in SIDES}, "reinforcements": reinf}


SCENARIOS = {
    "anzac-landing": {
        "title": "Scenario 1: The ANZAC Landing, 25-29 April 1915 (set-up reconstructed, provisional)",
        "turns": 5, "killing_time": 8, "morale": "anzac", "landing": True, "sudden_death_vp": True, "off": [],
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
        "vp": SCENARIO_1_VP, "anzac_cubes": [],  # every VP area starts with a red cube
    },
    "turkish-counter-attack": {
        "title": "Scenario 2: The Turkish Counter-Attack, 18-20 May 1915 (set-up reconstructed, provisional)",
        "turns": 3, "killing_time": 7, "morale": "turkish", "landing": False, "sudden_death_vp": False, "off": [],
        "setup": {"no-2-outpost": ["nz-otago-mr", "nz-canterbury-mr"],
                  "walkers-ridge": ["nz-auckland-mr", "nz-wellington-mr", "nz-mg"],
                  "russells-top": ["lh-1", "lh-2", "aus-2-mg"],
                  "monash-valley": ["monash", "aus-13", "aus-14", "aus-15", "aus-16"],
                  "plugges-plateau": ["godley", "nz-auckland", "nz-wellington"],
                  "the-400-plateau": ["walker", "aus-1", "aus-2", "aus-3", "aus-4", "aus-1-mg"],
                  "shrapnel-green": ["aus-9", "aus-10", "aus-11", "aus-1-art"], "brighton-beach": ["aus-12"],
                  "anzac-cove": ["birdwood", "nz-how"],
                  "the-nek": ["tur-1-72", "tur-2-72"], "baby-700": ["kemal", "tur-1-57", "tur-2-57", "tur-3-57", "tur-57-mg"],
                  "battleship-hill": ["tur-1-77", "tur-2-77", "tur-3-77"],
                  "legge-valley": ["tur-1-125", "tur-2-125", "tur-3-125", "tur-125-mg"],
                  "lone-pine": ["tur-1-47", "tur-2-47", "tur-3-47", "tur-47-mg"],
                  "pine-ridge": ["tur-1-48", "tur-2-48", "tur-3-48"],
                  "gaba-tepe": ["sefik", "tur-1-27", "tur-2-27", "tur-3-27", "tur-27-mg"],
                  "the-arrow-head": ["avni", "tur-3-72"], "third-ridge": ["essad", "tur-gaba-art", "tur-39-art"]},
        "trenches": {"no-2-outpost": 1, "walkers-ridge": 1, "russells-top": 2, "monash-valley": 2, "plugges-plateau": 1,
                     "the-400-plateau": 2, "shrapnel-green": 1, "the-nek": 2, "baby-700": 2, "lone-pine": 2,
                     "gaba-tepe": 1},
        "wire": ["the-400-plateau", "gaba-tepe"],
        "ships": {"anzac": ["hms-triumph", "hms-majestic", "hms-bacchante", "hms-manica"], "turkish": ["tur-turgut"]},
        "reinforcements": {
            1: {"turkish": {"2nd Div": ("koja-dere", ["tur-1-33", "tur-2-33", "tur-3-33", "tur-1-25", "tur-2-25",
                                                     "tur-3-25"])}},
            2: {"anzac": {"2nd LH Bde": ("anzac-cove", ["lh-5", "lh-6"])},
                "turkish": {"5th Div": ("koja-plain", ["tur-1-13", "tur-2-13", "tur-3-13", "tur-1-15", "tur-2-15",
                                                      "tur-3-15"])}},
        },
        "vp": ["walkers-ridge", "russells-top", "plugges-plateau", "monash-valley", "the-400-plateau", "shrapnel-green",
               "no-2-outpost", "the-nek", "baby-700", "lone-pine", "gaba-tepe"],
        "anzac_cubes": ["walkers-ridge", "russells-top", "plugges-plateau", "monash-valley", "the-400-plateau",
                        "shrapnel-green", "no-2-outpost"],
    },
    "lone-pine": {
        "title": "Scenario 3: The Battle of Lone Pine, 6-9 August 1915, southern half (set-up reconstructed, provisional)",
        "turns": 4, "killing_time": 8, "morale": "anzac", "landing": False, "sudden_death_vp": True,
        "off": sorted(a for a in AREAS if a not in SOUTH), **_LONE_PINE,
    },
    "sari-bair": {
        "title": "Scenario 4: The Battle of Sari Bair, 6-9 August 1915, northern half (set-up reconstructed, provisional)",
        "turns": 4, "killing_time": 8, "morale": "anzac", "landing": False, "sudden_death_vp": True,
        "off": sorted(a for a in AREAS if a not in NORTH), **_SARI_BAIR,
    },
    "august-offensive": {
        "title": "Scenario 5: The August Offensive, 6-9 August 1915, Scenarios 3 and 4 together "
                 "(set-up reconstructed, provisional)",
        "turns": 4, "killing_time": 8, "morale": "anzac", "landing": False, "sudden_death_vp": True, "off": [],
        **_combined(_LONE_PINE, _SARI_BAIR),
        "vp": ["lone-pine", "the-400-plateau", "third-ridge", "baby-700", "the-nek", "battleship-hill", "chunuk-bair",
               "hill-971", "rhododendron-spur", "russells-top", "gaba-tepe"],
        "anzac_cubes": ["the-400-plateau", "russells-top"],
    },
}
for _sc in SCENARIOS.values():
    _sc.setdefault("waves", [])

LANDING = ((3, "brighton-beach"), (7, "anzac-cove"), (10, "north-beach"))  # 20.3: d10 1-3, 4-7, 8-10
