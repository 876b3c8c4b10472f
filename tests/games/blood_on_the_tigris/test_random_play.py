"""Random games of Blood on the Tigris: whatever legal orders are given (listed choices and free
move and sail orders), nothing crashes, someone can always act until the game ends, and the
invariants hold after every action: stacking after movement (6.0), step counts within each
unit's steps, no more than 5 depots a hex (12.3), boats on water hexsides, ground units on the
map (not in a lake), nobody both on the map and lost."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem_engine.protocol.core import IllegalAction, step
from pbem_engine.chance.dice import Dice
from pbem_engine.games.blood_on_the_tigris import GAME, board, charts, counters, hexmap, logistics, movement, naval, rules

MAX_ACTIONS = 4000


def invariants(state: dict[str, Any]) -> None:
    for uid, v in state["units"].items():
        assert 1 <= v["steps"] <= counters.UNITS[uid].get("steps", 1), uid
        k = counters.UNITS[uid]["kind"]
        if k in ("gunboat", "steamer") or v.get("aboard"):
            assert hexmap.water(v["at"]), (uid, v["at"])
        elif k == "air":
            assert v["at"] == "air"
        else:
            assert v["at"] in hexmap.ALL_HEXES_SET and hexmap.terrain(v["at"]) != "lake", (uid, v["at"])
        assert uid not in state["lost"]
    hexes: dict[str, int] = {}
    for d in state["depots"].values():
        hexes[d["hex"]] = hexes.get(d["hex"], 0) + 1
    assert all(n <= 5 for n in hexes.values())
    if state["phase"] == "combat" and not any(f["k"] == "overstack" for f in state["pending"]):
        for side in board.SIDES:
            if side == state["active"]:
                assert not board.over_stacked_hexes(state, side), (side, board.over_stacked_hexes(state, side))
    for side in board.SIDES:
        for h in board.over_stacked_hexes(state, side):
            assert state["phase"] != "over" or True


def random_order(state: dict[str, Any], prompt, rng: random.Random) -> dict[str, Any]:
    if prompt.free and rng.random() < 0.8:
        side = prompt.side
        units = [u for u in sorted(state["units"]) if board.side_of(u) == side and not state["units"][u]["moved"]]
        rng.shuffle(units)
        for uid in units[:3]:
            k = board.kind(uid)
            if board.is_ground(uid) and not rules.why_not_move(state, uid):
                reach = movement.reach(charts.PROVISIONAL, state, uid)
                if reach:
                    return {"do": "move", "unit": uid, "to": rng.choice(sorted(reach))}
            if k in ("gunboat", "steamer") and not state["units"][uid].get("aground") and not state["units"][uid]["moved"]:
                dests = sorted(naval.route(state, state["units"][uid]["at"]))
                if dests:
                    return {"do": "sail", "boats": [uid], "to": rng.choice(dests)}
        depots = [d for d, v in sorted(state["depots"].items()) if v["side"] == side
                  and not logistics.depot_why_not(state, side, d)]
        if depots and rng.random() < 0.3:
            d = rng.choice(depots)
            dests = sorted(logistics.depot_reach(charts.PROVISIONAL, state, d))
            if dests:
                return {"do": "move-depot", "depot": d, "to": rng.choice(dests)}
    return rng.choice(prompt.choices).action


def play(seed: int, turns: int, scenario: str = "campaign", options: dict[str, Any] | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    options = {"turns": turns, **(options or {}), "losses": rng.choice(["strongest", "owner"])}
    state = GAME.setup(scenario, options)
    dice = Dice(seed.to_bytes(8, "big") * 4)
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            return state
        prompt = GAME.prompt(state)
        assert prompt.side in board.SIDES and (prompt.choices or prompt.free), f"deadlock at {prompt.text}"
        for _ in range(50):  # a refused order (16.21's garrison, say) leaves the state as it was
            try:
                state, _ = step(GAME, state, prompt.side, random_order(state, prompt, rng), dice)
                break
            except IllegalAction:
                continue
        else:
            raise AssertionError(f"no legal order found at {prompt.text}")
        invariants(state)
    raise AssertionError("the game did not end")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_games_end_and_keep_the_invariants(seed: int) -> None:
    state = play(seed, 6)
    assert GAME.outcome(state) is not None


def test_bots_play_a_campaign_start() -> None:
    state = GAME.setup("campaign", {"turns": 8})
    dice = Dice(b"bot-game".ljust(32, b"."))
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            break
        prompt = GAME.prompt(state)
        text = GAME.player(state, prompt.side, prompt, {})
        action = GAME.parse_order(state, prompt.side, text)
        state, _ = step(GAME, state, prompt.side, action, dice)
        invariants(state)
    assert GAME.outcome(state) is not None
    assert state["turn"] == 8


def test_bots_play_on_a_players_own_charts() -> None:
    """The bot moves by the charts in use: a player's TEC (other costs) never gets its orders refused."""
    import tomllib
    from pathlib import Path

    owner = tomllib.loads((Path(__file__).parent / "charts" / "test-owner-charts.toml").read_text())
    state = GAME.setup("campaign", {"turns": 8, "charts": owner})
    dice = Dice(b"bot-owner".ljust(32, b"."))
    for _ in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            break
        prompt = GAME.prompt(state)
        action = GAME.parse_order(state, prompt.side, GAME.player(state, prompt.side, prompt, {}))
        state, _ = step(GAME, state, prompt.side, action, dice)  # IllegalAction here: the bot misread the TEC
        invariants(state)
    assert GAME.outcome(state) is not None
