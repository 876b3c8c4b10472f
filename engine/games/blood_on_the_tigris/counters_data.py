"""The counters' data (PROVISIONAL values): types, depots, supply schedule, order of battle; read by counters.py."""

from __future__ import annotations

from typing import Any

DATA: dict[str, Any] = {}

# Blood on the Tigris, Scenario 1 (the Campaign Game): the counters -- PROVISIONAL values of the
# pbem project, NOT the publisher's counters, which print every value and which we do not have.
#
# From the rules text: which units exist (21.0), who sets up where (16.1) and arrives when and
# where (16.3), who is removed (16.3) or held (16.22, 16.3 turn 7), the HQ echelons (7.3, 21.0),
# two steps for British gunboats (15.6), the steamers' 30 hexsides and 3 units carried (15.2,
# 15.3), the Ford van's capacity of 1 (2.1), the Short's half air-to-air rating (2.1), three
# battalions to a brigade for stacking (6.0).  Unit ids agree with packs/blood-on-the-tigris.
# OURS (provisional): every combat factor, movement allowance, troop competency, step count
# (other than the gunboats'), asterisk, HQ command rating and radius, air rating and radius, by
# the unit types below; which 38th brigade is at Qurna, where in one hex of Basra and Nasirya
# units stand (16.1 leaves it to the player); a place for "any city" (Baghdad) and for arrivals
# with none given (13.1: Basra, or Fao before it is British; Baghdad for the Turks).
DATA['counters'] = {
    'provisional': "Counter values are printed on the counters, not in the rules text: every strength, movement allowance, competency, step count (but the British gunboats'), asterisk, command rating and radius and air value here is ours, by unit type; the order of battle, set-up and arrivals are the text's (16.1, 16.3, 21.0).",
}

# kind: combat (2.1 infantry, cavalry, artillery), support (2.1: strength in parentheses), hq,
# gunboat, steamer, air.  arm: infantry | cavalry | artillery | armoured-car | van (5.1, 9.6).
# size: brigade | regiment | battalion (6.0: three battalions make one brigade).
# cf: combat factor (support units' parenthesised one); ma: movement allowance; tc: troop
# competency (3.4); steps: 1 or 2 (7.6); star: special capability (*) (7.51); command and radius:
# an HQ's command points and command radius in hexes (2.0, 7.3); air: air-to-air rating as
# [numerator, denominator] (2.1: the Short's is 1/2), bomb: bombing strength, range: air radius.
DATA['types'] = {
    'br-inf': {'kind': 'combat', 'arm': 'infantry', 'size': 'brigade', 'cf': 6, 'ma': 10, 'tc': 4, 'steps': 2},
    'br-cav': {'kind': 'combat', 'arm': 'cavalry', 'size': 'brigade', 'cf': 3, 'ma': 16, 'tc': 4, 'steps': 2},
    'br-arty': {'kind': 'combat', 'arm': 'artillery', 'size': 'brigade', 'cf': 4, 'ma': 8, 'tc': 4, 'steps': 1},
    'br-heavy-arty': {'kind': 'combat', 'arm': 'artillery', 'size': 'brigade', 'cf': 5, 'ma': 6, 'tc': 4, 'steps': 1, 'star': True},
    'tk-inf': {'kind': 'combat', 'arm': 'infantry', 'size': 'brigade', 'cf': 4, 'ma': 10, 'tc': 3, 'steps': 2},
    'tk-reserve-inf': {'kind': 'combat', 'arm': 'infantry', 'size': 'brigade', 'cf': 3, 'ma': 10, 'tc': 2, 'steps': 2},
    'tk-arab-inf': {'kind': 'combat', 'arm': 'infantry', 'size': 'brigade', 'cf': 2, 'ma': 10, 'tc': 2, 'steps': 1},
    'tk-cav': {'kind': 'combat', 'arm': 'cavalry', 'size': 'brigade', 'cf': 2, 'ma': 16, 'tc': 3, 'steps': 1},
    'tk-cav-rgt': {'kind': 'combat', 'arm': 'cavalry', 'size': 'regiment', 'cf': 1, 'ma': 16, 'tc': 3, 'steps': 1},
    'tk-cav-bn': {'kind': 'combat', 'arm': 'cavalry', 'size': 'battalion', 'cf': 1, 'ma': 16, 'tc': 3, 'steps': 1},
    'tk-arab-cav': {'kind': 'combat', 'arm': 'cavalry', 'size': 'brigade', 'cf': 2, 'ma': 16, 'tc': 1, 'steps': 1},
    'tk-german-rgt': {'kind': 'combat', 'arm': 'infantry', 'size': 'regiment', 'cf': 3, 'ma': 10, 'tc': 5, 'steps': 1, 'star': True},
    'tk-arty': {'kind': 'combat', 'arm': 'artillery', 'size': 'brigade', 'cf': 3, 'ma': 8, 'tc': 3, 'steps': 1},
    'tk-german-arty': {'kind': 'combat', 'arm': 'artillery', 'size': 'battalion', 'cf': 2, 'ma': 8, 'tc': 5, 'steps': 1, 'star': True},
    'tk-german-bn': {'kind': 'combat', 'arm': 'infantry', 'size': 'battalion', 'cf': 2, 'ma': 10, 'tc': 5, 'steps': 1, 'star': True},
    'armoured-car': {'kind': 'support', 'arm': 'armoured-car', 'cf': 2, 'ma': 20, 'steps': 1},
    'ford-van': {'kind': 'support', 'arm': 'van', 'cf': 0, 'ma': 20, 'steps': 1, 'carry': 1},
    'hq-division': {'kind': 'hq', 'cf': 1, 'ma': 12, 'steps': 1, 'echelon': 'division', 'command': 1, 'radius': 6},
    'hq-corps': {'kind': 'hq', 'cf': 1, 'ma': 12, 'steps': 1, 'echelon': 'corps', 'command': 2, 'radius': 10},
    'hq-army': {'kind': 'hq', 'cf': 1, 'ma': 12, 'steps': 1, 'echelon': 'army', 'command': 3, 'radius': 12},
    'gunboat-br': {'kind': 'gunboat', 'cf': 3, 'ma': 30, 'steps': 2},
    'gunboat-tk': {'kind': 'gunboat', 'cf': 2, 'ma': 30, 'steps': 1},
    'steamer': {'kind': 'steamer', 'cf': 0, 'ma': 30, 'steps': 1, 'carry': 3},
    'air-be2': {'kind': 'air', 'air': [1, 1], 'bomb': 1, 'range': 10},
    'air-short': {'kind': 'air', 'air': [1, 2], 'bomb': 2, 'range': 12},
    'air-albatross': {'kind': 'air', 'air': [1, 1], 'bomb': 1, 'range': 10},
    'air-fokker': {'kind': 'air', 'air': [2, 1], 'bomb': 0, 'range': 8},
}

# Depots (12.0): at start and as reinforcements.  at = a hex, or a place id for arrivals.
DATA['depots'] = {
    'setup': [{'side': 'turkish', 'hex': '1931', 'mode': 'static'}],
    'arrivals': [
        {'side': 'british', 'turn': 1, 'enters': 'fao'},
        {'side': 'british', 'turn': 4, 'enters': 'mohammerah'},
    ],
}

# Supply points from the reinforcement schedule (16.3), added in the Mutual Operations phase.
# British turn 12 prints "Two support points", read as supply points.
DATA['supply'] = {
    'british': {'2': 1, '6': 1, '8': 2, '11': 1, '12': 2, '14': 3, '15': 2, '16': 2, '17': 1, '18': 1, '22': 2, '24': 2, '25': 4, '26': 2, '27': 4},
    'turkish': {'4': 3, '6': 2, '7': 2, '8': 1, '9': 1, '13': 3, '14': 3, '16': 2, '26': 4, '28': 2},
}

# units: setup = a hex (or a hexside for boats) at the start (16.1); turn/enters = arrival
# (16.3; enters is a place of map_data.py, or "baghdad"); removed = the turn the schedule takes it
# off; released = the first turn it may move (16.22: the 35th Division is tied to Nasirya until
# attacked or turn 10; 16.3 turn 7: the 46th Division until turn 13); normal_on_entry = in
# supply and command on its turn of entry (16.3 turns 1 and 4).
DATA['oob'] = {
    'units': [
        {'id': 'tk-6-army-hq', 'name': '6th Army HQ', 'side': 'turkish', 'type': 'hq-army', 'setup': '1305'},
        {'id': 'tk-13-corps-hq', 'name': '13th Corps HQ', 'side': 'turkish', 'type': 'hq-corps', 'setup': '1412', 'removed': 15},
        {'id': 'tk-18-corps-hq', 'name': '18th Corps HQ', 'side': 'turkish', 'type': 'hq-corps', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-35-div-hq', 'name': '35th Division HQ', 'side': 'turkish', 'type': 'hq-division', 'division': '35th', 'setup': '0830', 'removed': 15, 'released': 10},
        {'id': 'tk-37-div-hq', 'name': '37th Division HQ', 'side': 'turkish', 'type': 'hq-division', 'division': '37th Nizam', 'turn': 9, 'enters': 'baghdad'},
        {'id': 'tk-38-div-hq', 'name': '38th Division HQ', 'side': 'turkish', 'type': 'hq-division', 'division': '38th Nizam', 'setup': '1639', 'removed': 15},
        {'id': 'tk-43-2-cav', 'name': '43/2 Cavalry Brigade', 'side': 'turkish', 'type': 'tk-cav', 'division': '2nd', 'turn': 16, 'enters': 'baghdad', 'removed': 20},
        {'id': 'tk-1-2', 'name': '1/2 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '2nd', 'turn': 16, 'enters': 'baghdad', 'removed': 20},
        {'id': 'tk-5-2', 'name': '5/2 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '2nd', 'turn': 16, 'enters': 'baghdad', 'removed': 20},
        {'id': 'tk-6-2', 'name': '6/2 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '2nd', 'turn': 16, 'enters': 'baghdad', 'removed': 20},
        {'id': 'tk-16-6', 'name': '16/6 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '6th', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-18-6', 'name': '18/6 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '6th', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-156-6', 'name': '156/6 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '6th', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-14-cav-bn', 'name': '14th Cavalry Battalion', 'side': 'turkish', 'type': 'tk-cav-bn', 'division': '14th', 'turn': 28, 'enters': 'baghdad'},
        {'id': 'tk-3-14', 'name': '3/14 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '14th', 'turn': 28, 'enters': 'baghdad'},
        {'id': 'tk-116-14', 'name': '116/14 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '14th', 'turn': 28, 'enters': 'baghdad'},
        {'id': 'tk-142-14', 'name': '142/14 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '14th', 'turn': 28, 'enters': 'baghdad'},
        {'id': 'tk-180-14', 'name': '180/14 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '14th', 'turn': 28, 'enters': 'baghdad'},
        {'id': 'tk-1-35', 'name': '1/35 Infantry Brigade', 'side': 'turkish', 'type': 'tk-reserve-inf', 'division': '35th', 'setup': '0830', 'removed': 15, 'released': 10},
        {'id': 'tk-2-35', 'name': '2/35 Infantry Brigade', 'side': 'turkish', 'type': 'tk-reserve-inf', 'division': '35th', 'setup': '0830', 'removed': 15, 'released': 10},
        {'id': 'tk-3-35', 'name': '3/35 Infantry Brigade', 'side': 'turkish', 'type': 'tk-reserve-inf', 'division': '35th', 'setup': '0831', 'removed': 15, 'released': 10},
        {'id': 'tk-1-37', 'name': '1/37 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '37th Nizam', 'turn': 4, 'enters': 'baghdad'},
        {'id': 'tk-2-37', 'name': '2/37 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '37th Nizam', 'turn': 4, 'enters': 'baghdad'},
        {'id': 'tk-3-37', 'name': '3/37 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '37th Nizam', 'turn': 9, 'enters': 'baghdad'},
        {'id': 'tk-1-38', 'name': '1/38 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '38th Nizam', 'setup': '1639', 'removed': 15},
        {'id': 'tk-2-38', 'name': '2/38 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '38th Nizam', 'setup': '1345', 'removed': 15},
        {'id': 'tk-3-38', 'name': '3/38 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '38th Nizam', 'setup': '1345', 'removed': 15},
        {'id': 'tk-141-46', 'name': '141/46 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '46th', 'turn': 7, 'enters': 'baghdad', 'released': 13},
        {'id': 'tk-144-46', 'name': '144/46 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '46th', 'turn': 7, 'enters': 'baghdad', 'released': 13},
        {'id': 'tk-145-46', 'name': '145/46 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '46th', 'turn': 7, 'enters': 'baghdad', 'released': 13},
        {'id': 'tk-1-46', 'name': '1/46', 'side': 'turkish', 'type': 'tk-inf', 'turn': 13, 'enters': 'entry-1601'},
        {'id': 'tk-51-cav-bn', 'name': '51st Cavalry Battalion', 'side': 'turkish', 'type': 'tk-cav-bn', 'division': '51st', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-7-51', 'name': '7/51 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '51st', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-9-51', 'name': '9/51 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '51st', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-44-51', 'name': '44/51 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '51st', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-37-52', 'name': '37/52 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '52nd', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-43-52', 'name': '43/52 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '52nd', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-44-52', 'name': '44/52 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '52nd', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-constantinople-fire-bde', 'name': 'Constantinople Fire Brigade', 'side': 'turkish', 'type': 'tk-inf', 'setup': '1931'},
        {'id': 'tk-2-arab-inf-bde', 'name': '2nd Arab Infantry Brigade', 'side': 'turkish', 'type': 'tk-arab-inf', 'setup': '0831'},
        {'id': 'tk-german-vol-rgt', 'name': 'German Volunteer Regiment', 'side': 'turkish', 'type': 'tk-german-rgt', 'turn': 4, 'enters': 'baghdad'},
        {'id': 'tk-1-arab-cav-bde', 'name': '1st Arab Cavalry Brigade', 'side': 'turkish', 'type': 'tk-arab-cav', 'turn': 4, 'enters': 'entry-2944', 'normal_on_entry': True},
        {'id': 'tk-13-arab-cav-bde', 'name': '13th Arab Cavalry Brigade', 'side': 'turkish', 'type': 'tk-arab-cav', 'turn': 4, 'enters': 'entry-2944', 'normal_on_entry': True},
        {'id': 'tk-amara-cav-bde', 'name': 'Amara Cavalry Brigade', 'side': 'turkish', 'type': 'tk-arab-cav', 'setup': '1931'},
        {'id': 'tk-cav-a-rgt', 'name': 'Cavalry A Regiment', 'side': 'turkish', 'type': 'tk-cav-rgt', 'setup': '1931'},
        {'id': 'tk-cav-b-rgt', 'name': 'Cavalry B Regiment', 'side': 'turkish', 'type': 'tk-cav-rgt', 'turn': 26, 'enters': 'baghdad'},
        {'id': 'tk-31-cav-bde', 'name': '31st Cavalry Brigade', 'side': 'turkish', 'type': 'tk-cav', 'turn': 13, 'enters': 'entry-1601'},
        {'id': 'tk-2-cav-rgt', 'name': '2nd Cavalry Regiment', 'side': 'turkish', 'type': 'tk-cav-rgt', 'turn': 15, 'enters': 'entry-1601'},
        {'id': 'tk-misc-arty', 'name': 'Miscellaneous Artillery', 'side': 'turkish', 'type': 'tk-arty', 'turn': 16, 'enters': 'baghdad'},
        {'id': 'tk-13-arty-bde', 'name': '13th Artillery Brigade', 'side': 'turkish', 'type': 'tk-arty', 'turn': 13, 'enters': 'entry-1601'},
        {'id': 'tk-german-arty-bn', 'name': 'German Artillery Battalion', 'side': 'turkish', 'type': 'tk-german-arty', 'turn': 9, 'enters': 'baghdad'},
        {'id': 'tk-basra-steamer', 'name': 'Basra Steamer', 'side': 'turkish', 'type': 'steamer', 'setup': '1345|1445'},
        {'id': 'tk-ss-ecbatana', 'name': 'SS Ecbatana', 'side': 'turkish', 'type': 'steamer', 'setup': '1345|1445'},
        {'id': 'tk-albatross-t6-1', 'name': 'Albatross aeroplane 1', 'side': 'turkish', 'type': 'air-albatross', 'turn': 6, 'enters': 'ali-garbi'},
        {'id': 'tk-albatross-t6-2', 'name': 'Albatross aeroplane 2', 'side': 'turkish', 'type': 'air-albatross', 'turn': 6, 'enters': 'ali-garbi'},
        {'id': 'tk-albatross-t15', 'name': 'Albatross aeroplane', 'side': 'turkish', 'type': 'air-albatross', 'turn': 15, 'enters': 'baghdad'},
        {'id': 'tk-fokker-t14-1', 'name': 'Fokker aeroplane 1', 'side': 'turkish', 'type': 'air-fokker', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-fokker-t14-2', 'name': 'Fokker aeroplane 2', 'side': 'turkish', 'type': 'air-fokker', 'turn': 14, 'enters': 'baghdad'},
        {'id': 'tk-fokker-t15-1', 'name': 'Fokker aeroplane 1', 'side': 'turkish', 'type': 'air-fokker', 'turn': 15, 'enters': 'baghdad'},
        {'id': 'tk-fokker-t15-2', 'name': 'Fokker aeroplane 2', 'side': 'turkish', 'type': 'air-fokker', 'turn': 15, 'enters': 'baghdad'},
        {'id': 'tk-marmariss', 'name': 'Marmariss gunboat', 'side': 'turkish', 'type': 'gunboat-tk', 'off_map': True},
        # Scenario 2 (18.1) names a 45th Division the order of battle (21.0) lacks: three brigades, ours.
        {'id': 'tk-1-45', 'name': '1/45 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '45th', 'off_map': True, 'not_in_oob': '18.1'},
        {'id': 'tk-2-45', 'name': '2/45 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '45th', 'off_map': True, 'not_in_oob': '18.1'},
        {'id': 'tk-3-45', 'name': '3/45 Infantry Brigade', 'side': 'turkish', 'type': 'tk-inf', 'division': '45th', 'off_map': True, 'not_in_oob': '18.1'},
        # Scenario 3 (19.0), Operation Lightning: the 3rd Cavalry Division (three brigades, ours), the
        # German units 601, 60 and 133 (battalions, ours) and one Albatross, none of them in 21.0.
        {'id': 'tk-1-3-cav', 'name': '1/3 Cavalry Brigade', 'side': 'turkish', 'type': 'tk-cav', 'division': '3rd Cavalry', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'tk-2-3-cav', 'name': '2/3 Cavalry Brigade', 'side': 'turkish', 'type': 'tk-cav', 'division': '3rd Cavalry', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'tk-3-3-cav', 'name': '3/3 Cavalry Brigade', 'side': 'turkish', 'type': 'tk-cav', 'division': '3rd Cavalry', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'tk-german-601', 'name': 'German Battalion 601', 'side': 'turkish', 'type': 'tk-german-bn', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'tk-german-60', 'name': 'German Battalion 60', 'side': 'turkish', 'type': 'tk-german-bn', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'tk-german-133', 'name': 'German Battalion 133', 'side': 'turkish', 'type': 'tk-german-bn', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'tk-albatross-lightning', 'name': 'Albatross aeroplane (Lightning)', 'side': 'turkish', 'type': 'air-albatross', 'off_map': True, 'not_in_oob': '19.0', 'lightning': True},
        {'id': 'br-mef-hq', 'name': 'MEF HQ', 'side': 'british', 'type': 'hq-army', 'turn': 1, 'enters': 'fao', 'normal_on_entry': True},
        {'id': 'br-i-corps-hq', 'name': 'I Corps HQ', 'side': 'british', 'type': 'hq-corps', 'turn': 23, 'enters': 'basra'},
        {'id': 'br-ii-corps-hq', 'name': 'II Corps HQ', 'side': 'british', 'type': 'hq-corps', 'turn': 6, 'enters': 'basra'},
        {'id': 'br-iii-corps-hq', 'name': 'III Corps HQ', 'side': 'british', 'type': 'hq-corps', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-3-div-hq', 'name': '3rd Indian Division HQ', 'side': 'british', 'type': 'hq-division', 'division': '3rd Indian', 'turn': 14, 'enters': 'basra'},
        {'id': 'br-7-3', 'name': '7/3 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '3rd Indian', 'turn': 14, 'enters': 'basra'},
        {'id': 'br-8-3', 'name': '8/3 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '3rd Indian', 'turn': 14, 'enters': 'basra'},
        {'id': 'br-9-3', 'name': '9/3 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '3rd Indian', 'turn': 14, 'enters': 'basra'},
        {'id': 'br-6-div-hq', 'name': '6th Indian Division HQ', 'side': 'british', 'type': 'hq-division', 'division': '6th Indian', 'turn': 1, 'enters': 'fao', 'normal_on_entry': True},
        {'id': 'br-16-6', 'name': '16th Brigade', 'side': 'british', 'type': 'br-inf', 'division': '6th Indian', 'turn': 1, 'enters': 'fao', 'normal_on_entry': True},
        {'id': 'br-17-6', 'name': '17th Brigade', 'side': 'british', 'type': 'br-inf', 'division': '6th Indian', 'turn': 2, 'enters': 'basra'},
        {'id': 'br-18-6', 'name': '18th Brigade', 'side': 'british', 'type': 'br-inf', 'division': '6th Indian', 'turn': 1, 'enters': 'fao', 'normal_on_entry': True},
        {'id': 'br-19-7', 'name': '19/7 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '7th Indian', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-21-7', 'name': '21/7 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '7th Indian', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-28-7', 'name': '28/7 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '7th Indian', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-12-div-hq', 'name': '12th Division HQ', 'side': 'british', 'type': 'hq-division', 'division': '12th', 'turn': 4, 'enters': 'mohammerah', 'normal_on_entry': True},
        {'id': 'br-12-12', 'name': '12/12 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '12th', 'turn': 4, 'enters': 'mohammerah', 'normal_on_entry': True},
        {'id': 'br-30-12', 'name': '30/12 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '12th', 'turn': 4, 'enters': 'mohammerah', 'normal_on_entry': True},
        {'id': 'br-33-12', 'name': '33/12 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '12th', 'turn': 4, 'enters': 'basra'},
        {'id': 'br-38-13', 'name': '38/13 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '13th', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-39-13', 'name': '39/13 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '13th', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-40-13', 'name': '40/13 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '13th', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-41-13', 'name': '41/13 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '13th', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-14-div-hq', 'name': '14th Division HQ', 'side': 'british', 'type': 'hq-division', 'division': '14th', 'turn': 18, 'enters': 'basra'},
        {'id': 'br-35-14', 'name': '35/14 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '14th', 'turn': 18, 'enters': 'basra'},
        {'id': 'br-36-14', 'name': '36/14 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '14th', 'turn': 18, 'enters': 'basra'},
        {'id': 'br-37-14', 'name': '37/14 Brigade', 'side': 'british', 'type': 'br-inf', 'division': '14th', 'turn': 18, 'enters': 'basra'},
        {'id': 'br-6-cav-bde', 'name': '6th Cavalry Brigade', 'side': 'british', 'type': 'br-cav', 'turn': 4, 'enters': 'mohammerah', 'normal_on_entry': True},
        {'id': 'br-7-cav-bde', 'name': '7th Cavalry Brigade', 'side': 'british', 'type': 'br-cav', 'turn': 24, 'enters': 'basra'},
        {'id': 'br-34-bde', 'name': '34th Infantry Brigade', 'side': 'british', 'type': 'br-inf', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-43-bde', 'name': '43rd Infantry Brigade', 'side': 'british', 'type': 'br-inf', 'turn': 12, 'enters': 'basra'},
        {'id': 'br-13-armd-car', 'name': '13th Armoured Car Platoon', 'side': 'british', 'type': 'armoured-car', 'turn': 26, 'enters': 'basra'},
        {'id': 'br-14-armd-car', 'name': '14th Armoured Car Platoon', 'side': 'british', 'type': 'armoured-car', 'turn': 27, 'enters': 'basra'},
        {'id': 'br-23-arty', 'name': '23rd Artillery Brigade', 'side': 'british', 'type': 'br-arty', 'turn': 11, 'enters': 'basra'},
        {'id': 'br-30-arty', 'name': '30th Artillery Brigade', 'side': 'british', 'type': 'br-arty', 'turn': 11, 'enters': 'basra'},
        {'id': 'br-heavy-arty', 'name': 'Heavy Artillery Brigade', 'side': 'british', 'type': 'br-heavy-arty', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-66-arty', 'name': '66th Artillery Brigade', 'side': 'british', 'type': 'br-arty', 'turn': 21, 'enters': 'basra'},
        {'id': 'br-74-hvy-arty', 'name': '74th Heavy Artillery Brigade', 'side': 'british', 'type': 'br-heavy-arty', 'turn': 24, 'enters': 'basra'},
        {'id': 'br-77-hvy-arty', 'name': '77th Heavy Artillery Brigade', 'side': 'british', 'type': 'br-heavy-arty', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-home-arty', 'name': 'Home Artillery Brigade', 'side': 'british', 'type': 'br-arty', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-61-how', 'name': '61st Howitzer Brigade', 'side': 'british', 'type': 'br-heavy-arty', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-60-pdr', 'name': '60 PDR Brigade', 'side': 'british', 'type': 'br-heavy-arty', 'turn': 22, 'enters': 'basra'},
        {'id': 'br-trench-arty', 'name': 'Trench Artillery Brigade', 'side': 'british', 'type': 'br-arty', 'turn': 22, 'enters': 'basra'},
        {'id': 'br-159-siege', 'name': '159th Siege Artillery Brigade', 'side': 'british', 'type': 'br-heavy-arty', 'turn': 24, 'enters': 'basra'},
        {'id': 'br-odin-espiegle', 'name': 'HMS Odin and Espiegle', 'side': 'british', 'type': 'gunboat-br', 'turn': 1, 'enters': 'fao'},
        {'id': 'br-comet-pelly', 'name': 'HMS Comet and Pelly', 'side': 'british', 'type': 'gunboat-br', 'turn': 2, 'enters': 'basra'},
        {'id': 'br-mashona-shaitan', 'name': 'HMS Mashona and Shaitan', 'side': 'british', 'type': 'gunboat-br', 'turn': 2, 'enters': 'basra'},
        {'id': 'br-lewis-sumana', 'name': 'HMS Lewis and Sumana', 'side': 'british', 'type': 'gunboat-br', 'turn': 2, 'enters': 'basra'},
        {'id': 'br-butterfly-dragonfly', 'name': 'HMS Butterfly and Dragonfly', 'side': 'british', 'type': 'gunboat-br', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-cranefly-gadfly', 'name': 'HMS Cranefly and Gadfly', 'side': 'british', 'type': 'gunboat-br', 'turn': 15, 'enters': 'basra'},
        {'id': 'br-grayfly-mayfly', 'name': 'HMS Grayfly and Mayfly', 'side': 'british', 'type': 'gunboat-br', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-mantis-firefly', 'name': 'HMS Mantis and Firefly', 'side': 'british', 'type': 'gunboat-br', 'turn': 17, 'enters': 'basra'},
        {'id': 'br-stonefly-sawfly', 'name': 'HMS Stonefly and Sawfly', 'side': 'british', 'type': 'gunboat-br', 'turn': 17, 'enters': 'basra'},
        {'id': 'br-moth-tarantula', 'name': 'HMS Moth and Tarantula', 'side': 'british', 'type': 'gunboat-br', 'turn': 27, 'enters': 'basra'},
        {'id': 'br-steamer-1', 'name': 'British steamer 1', 'side': 'british', 'type': 'steamer', 'turn': 8, 'enters': 'basra'},
        {'id': 'br-steamer-2', 'name': 'British steamer 2', 'side': 'british', 'type': 'steamer', 'turn': 8, 'enters': 'basra'},
        {'id': 'br-steamer-3', 'name': 'British steamer 3', 'side': 'british', 'type': 'steamer', 'turn': 8, 'enters': 'basra'},
        {'id': 'br-steamer-4', 'name': 'British steamer 4', 'side': 'british', 'type': 'steamer', 'turn': 8, 'enters': 'basra'},
        {'id': 'br-ford-van-1', 'name': 'Ford van 1', 'side': 'british', 'type': 'ford-van', 'turn': 22, 'enters': 'basra'},
        {'id': 'br-ford-van-2', 'name': 'Ford van 2', 'side': 'british', 'type': 'ford-van', 'turn': 22, 'enters': 'basra'},
        {'id': 'br-ford-van-3', 'name': 'Ford van 3', 'side': 'british', 'type': 'ford-van', 'turn': 22, 'enters': 'basra'},
        {'id': 'br-30-sqn-a-1', 'name': 'A Flight, 30th Squadron 1', 'side': 'british', 'type': 'air-be2', 'turn': 6, 'enters': 'basra'},
        {'id': 'br-30-sqn-a-2', 'name': 'A Flight, 30th Squadron 2', 'side': 'british', 'type': 'air-be2', 'turn': 6, 'enters': 'basra'},
        {'id': 'br-30-sqn-a-3', 'name': 'A Flight, 30th Squadron 3', 'side': 'british', 'type': 'air-be2', 'turn': 6, 'enters': 'basra'},
        {'id': 'br-30-sqn-a-4', 'name': 'A Flight, 30th Squadron 4', 'side': 'british', 'type': 'air-be2', 'turn': 6, 'enters': 'basra'},
        {'id': 'br-30-sqn-b-1', 'name': 'B Flight, 30th Squadron 1', 'side': 'british', 'type': 'air-be2', 'turn': 13, 'enters': 'basra'},
        {'id': 'br-30-sqn-b-2', 'name': 'B Flight, 30th Squadron 2', 'side': 'british', 'type': 'air-be2', 'turn': 13, 'enters': 'basra'},
        {'id': 'br-30-sqn-c-1', 'name': 'C Flight, 30th Squadron 1', 'side': 'british', 'type': 'air-be2', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-30-sqn-c-2', 'name': 'C Flight, 30th Squadron 2', 'side': 'british', 'type': 'air-be2', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-30-sqn-c-3', 'name': 'C Flight, 30th Squadron 3', 'side': 'british', 'type': 'air-be2', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-30-sqn-c-4', 'name': 'C Flight, 30th Squadron 4', 'side': 'british', 'type': 'air-be2', 'turn': 16, 'enters': 'basra'},
        {'id': 'br-short-1', 'name': 'Short aeroplane 1', 'side': 'british', 'type': 'air-short', 'turn': 11, 'enters': 'basra'},
        {'id': 'br-short-2', 'name': 'Short aeroplane 2', 'side': 'british', 'type': 'air-short', 'turn': 11, 'enters': 'basra'},
    ],
}
