"""The hex map's data (PROVISIONAL): places, terrain, water hexsides; read by hexmap.py."""

from __future__ import annotations

from typing import Any

DATA: dict[str, Any] = {}

# Blood on the Tigris: the hex map -- a PROVISIONAL reconstruction by the pbem project, NOT the
# publisher's map, which we do not have and copied nothing from.  It is drawn from the rules
# text (the hex numbers it gives) and the real geography of lower Mesopotamia, so that the
# rules can be played; every hex it does not name is ours.
#
# Geometry (agrees with packs/blood-on-the-tigris): a hex number CCRR is column CC, row RR;
# rows run down the map from Baghdad (top) to Basra and Fao (bottom).  Columns are vertical
# with EVEN columns half a hex lower than odd ones: the only reading under which all three
# adjacencies the text attests hold (1345-1445 16.1, 1344-1444 16.24, and 1207-1308 18.1,
# which the odd-columns-lower reading does not make adjacent).
#
# Terrain lists are runs "CCRR-CCRR" within one column (or single hexes); a hex not listed is
# clear (desert).  Rivers, the wadi and seasonal water run along hexsides ("AAAA|BBBB"): each is
# given by waypoint hexsides, and the code joins consecutive waypoints by the shortest line of
# hexsides (fewest; ties broken in a fixed order), so the data stays short and every hexside
# of a river is checked to touch the next (tests/games/blood_on_the_tigris/test_map.py).
DATA['map'] = {
    'provisional': 'The map is printed with the game and absent from the rules text. This layout is ours: the text gives only hex numbers for Basra 1345, Kut 1518, Ali Garbi 2324, 1344-1444, 1412, 1445, 1548, 1601, 2944 and the Scenario 2 hexes; every other place, all terrain, rivers, marsh, groves, aerodromes and map edges are placed from real geography by us.',
    'columns': [1, 30],
    'rows': [1, 54],
    # friendly map edges for 16.23 (reinforcements that cannot enter where listed): ours
    'edges': {'british': 'bottom', 'turkish': 'top'},
}

# Places: the hexes the text names.  source: the rule that gives the number, or "ours".
DATA['places'] = {
    'basra': {'hex': '1345', 'name': 'Basra', 'terrain': 'city', 'aerodrome': True, 'source': '16.3 turn 2 (1345); the aerodrome is ours'},
    'kut': {'hex': '1518', 'name': 'Kut', 'terrain': 'town', 'source': '18.1 (1518)'},
    'ali-garbi': {'hex': '2324', 'name': 'Ali Garbi', 'terrain': 'town', 'aerodrome': True, 'source': '16.3 turn 6, 2.2 (aerodrome in 2324)'},
    'aziziya': {'hex': '1412', 'name': 'Aziziya', 'terrain': 'town', 'source': '16.1 gives 1412 (13th Corps HQ); the name is ours'},
    'mohammerah': {'hex': '1548', 'name': 'Mohammerah', 'terrain': 'town', 'source': '16.3 turn 4 gives 1548; the name is ours (the Karun mouth)'},
    'fao': {'hex': '1853', 'name': 'Fao', 'terrain': 'town', 'source': 'ours (the text names Fao, 13.1, 16.3, without a hex)'},
    'qurna': {'hex': '1639', 'name': 'Qurna', 'terrain': 'town', 'source': 'ours (named in 16.1, 16.24, 16.25)'},
    'amara': {'hex': '1931', 'name': 'Amara', 'terrain': 'town', 'aerodrome': True, 'source': 'ours (named in 16.1, 16.25, 17.0)'},
    'nasirya': {'hex': '0830', 'name': 'Nasirya', 'terrain': 'town', 'source': 'ours (named in 16.1, 16.21, 17.0)'},
    'ahwaz': {'hex': '2643', 'name': 'Ahwaz', 'terrain': 'town', 'source': 'ours (named in 16.21, 16.3, 17.0)'},
    'ctesiphon': {'hex': '1305', 'name': 'Ctesiphon', 'terrain': 'town', 'source': 'ours (named in 16.1, 17.0, 19.0); beside the Scenario 2 hexes of 18.1'},
    'sheikh-saad': {'hex': '2021', 'name': 'Sheikh Saad', 'terrain': 'town', 'source': 'ours'},
    'shaiba': {'hex': '1146', 'name': 'Shaiba', 'terrain': 'town', 'source': 'ours'},
    'suq': {'hex': '1033', 'name': 'Suq ash Shuyukh', 'terrain': 'town', 'source': 'ours'},
    'baghdad-1': {'hex': '1201', 'name': 'Baghdad', 'terrain': 'city', 'aerodrome': True, 'source': 'ours (17.0: Baghdad is four city hexes)'},
    'baghdad-2': {'hex': '1202', 'name': 'Baghdad', 'terrain': 'city', 'source': 'ours'},
    'baghdad-3': {'hex': '1301', 'name': 'Baghdad', 'terrain': 'city', 'source': 'ours'},
    'baghdad-4': {'hex': '1302', 'name': 'Baghdad', 'terrain': 'city', 'source': 'ours'},
    'entry-1601': {'hex': '1601', 'name': 'hex 1601', 'terrain': 'clear', 'source': '13.1, 16.3 (Turkish arrival)'},
    'entry-2944': {'hex': '2944', 'name': 'hex 2944', 'terrain': 'clear', 'source': '13.1, 16.3 turn 4 (Turkish arrival)'},
}

# marsh (TEC: costly, prohibited to armoured cars and vans, 2.2): the Hawizeh marsh east of the
# Tigris between Amara and Qurna, the central marshes between the Tigris and the Euphrates
# above Qurna, and the Suwaikiya marsh below Kut.  Ours.
# date-palm groves along the Shatt al Arab and round Basra and Qurna.  Ours.
# seasonal lake: Hammar lake between Qurna and Suq ash Shuyukh; its hexes are impassable to
# ground units and boats move along its hexsides (15.0 added).  Ours.
DATA['terrain'] = {
    'marsh': [
        '2032-2038',
        '2133-2139',
        '2234-2239',
        '1733-1737',
        '1632-1637',
        '1531-1536',
        '1430-1434',
        '1331-1333',
        '1232-1233',
        '1720-1723',
        '1821-1824',
    ],
    'grove': ['1444', '1346-1347', '1446-1447', '1549-1551', '1650-1652', '1752', '1540-1541', '1638'],
    'lake': ['1136-1137', '1236-1237', '1336-1338', '1436-1437'],
}

# boats move along these hexsides (15.1, 15.2); ground units may not cross a river hexside
# except by bridge, HQ crossing (9.4) or ferry (15.4).  Ours.  Shatt al Hai: 2.2 errata,
# "located near hex 1223"; a river in rain turns (14.0).
DATA['water'] = {
    'tigris': {'kind': 'river', 'name': 'Tigris', 'waypoints': ['1201|1301', '1202|1302', '1205|1305', '1207|1308', '1312|1412', '1417|1518', '1518|1618', '2023|2024', '2324|2325', '1931|2031', '1639|1739', '1344|1444']},
    'shatt': {'kind': 'river', 'name': 'Shatt al Arab', 'waypoints': ['1344|1444', '1345|1445', '1548|1648', '1853|1953']},
    'euphrates': {'kind': 'seasonal', 'name': 'Euphrates (marsh channel)', 'waypoints': ['0830|0931', '1033|1133', '1538|1638', '1638|1639', '1639|1739']},
    'euphrates-upper': {'kind': 'river', 'name': 'Euphrates', 'waypoints': ['0122|0222', '0526|0626', '0830|0931']},
    'karun': {'kind': 'river', 'name': 'Karun', 'waypoints': ['2643|2644', '2046|2047', '1548|1648']},
    'shatt-al-hai': {'kind': 'wadi', 'name': 'Shatt al Hai', 'waypoints': ['1518|1519', '1223|1323', '0830|0930']},
}
