"""Hypothesis: random table-top orders never crash the engine, and the owner's tool (which
knows its secrets) and the opponent's (which sees only the signed body) agree on every state."""

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import canonical_json, state_hash
from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.tabletop import TableTop
from pbem_engine.hidden.private import anchor
from tests.test_tabletop import CONCEALED

PACK = tomllib.loads(CONCEALED)
GAME = TableTop(PACK)
GID = "7e" * 16
SECRETS = {"red": b"R" * 32, "blue": b"B" * 32}
CHAINS = {s: protocol.chain_links(GID, s, s.encode().ljust(32, b"-"), 400) for s in ("red", "blue")}

ORDERS = ["move red guard to ford", "move red guard to hill", "move blue lancers to hill", "step red guard -1",
          "flip blue lancers", "mark hill with smoke", "unmark hill with smoke", "roll 3d6 for fire", "roll 7d6>=4",
          "roll d100", "roll d10 read 0-9", "reroll die 1 because cocked", "draw 1 from red orders",
          "draw 1 from events", "play charge", "play rally", "discard charge", "return rally", "remove charge",
          "reshuffle red orders", "reshuffle events", "deploy spy one to hill", "deploy spy two to ford",
          "move spy one to ford", "reveal spy one", "reveal spy two", "next phase", "next turn", "say hi",
          "pass", "move nobody to nowhere", "roll lots"]


def start():
    body = {"mode": "unsealed", "scenario": "standard", "options": {"pack": PACK}, "sides": {"red": {}, "blue": {}},
            "anchor": CHAINS["red"][0].hex(), "private_anchor": anchor(GID, "red", SECRETS["red"])}
    m = protocol.start(GAME, GID, "red", body)
    return protocol.join(m, "blue", {"anchor": CHAINS["blue"][0].hex(),
                                     "private_anchor": anchor(GID, "blue", SECRETS["blue"])})


def known(m, side, chosen):
    from pbem_engine.hidden.private import simulate

    _, openings = simulate(GID, side, m["private"][side], SECRETS[side], chosen[side])
    return {tok: o["item"] for tok, o in openings.items()}


@given(st.lists(st.sampled_from(ORDERS), min_size=1, max_size=60))
@settings(max_examples=60, deadline=None)
def test_random_orders_never_crash_and_both_tools_agree(orders):
    m = start()
    seq = 1
    chosen = {"red": {}, "blue": {}}
    for text in orders:
        w = protocol.waiting_for(GAME, m)
        if w is None:
            break
        side = w["side"]
        reveal = CHAINS[side][m["chains"][side]["index"] + 1].hex()
        if w["why"] == "reveal":  # the creator's opening reveal
            seq += 1
            m = protocol.advance(GAME, m, seq, side, {"reveal": reveal, "actions": []})[0]
            continue
        try:
            action = GAME.parse_order(m["game"], side, text, known(m, side, chosen))
            build = {"secret": SECRETS[side], "chosen": chosen[side]}
            body = {"reveal": reveal, "actions": [action]}
            mine = protocol.advance(GAME, m, seq + 1, side, body, build)[0]
        except (IllegalAction, protocol.ProtocolError):
            continue  # refused: nothing changes
        from pbem_engine.protocol.match import swap_hidden

        signed = {"reveal": reveal, "actions": swap_hidden([action], [t for t, _ in build["chosen_out"]])}
        if build["private"]:
            signed["private"] = build["private"]
        theirs = protocol.advance(GAME, m, seq + 1, side, signed)[0]
        assert state_hash(theirs) == state_hash(mine)
        canonical_json(theirs)  # plain JSON only
        chosen[side].update(dict(build["chosen_out"]))
        seq += 1
        m = theirs
        for piece in m["game"]["pieces"].values():
            assert piece["at"] in GAME.locations or piece["at"] == "off-map"
