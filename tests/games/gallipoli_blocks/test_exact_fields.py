"""Every order a free prompt takes (one the rules module checks itself, not matched whole against
a listed choice) carries exactly its own fields: one with a field more, or an order the frame does
not take, is refused before it changes anything, so that nothing unknown is signed and accepted."""

from __future__ import annotations

import pytest

from pbem_engine.protocol.core import IllegalAction, copy_state, step
from pbem_engine.games.gallipoli_blocks import GAME
from pbem_engine.games.gallipoli_blocks.rules import FREE_ORDERS
from pbem_engine.games.gallipoli_blocks.position import position

BATTLE = {"k": "battle", "att": "allied", "from": "alexi", "to": "krithia"}
BLOCKS = {"alexi": ["A1=br-29-div-86-bde:4", "A2=br-29-div-87-bde:4"], "krithia": ["T1=ott-9-div-25-rgt:2"]}
FRAMES = {  # a state whose free prompt takes the orders FREE_ORDERS lists for it
    "bid": {"start": "setup", "frames": [{"k": "bid", "seat": "allied"}]},
    "deploy": {"frames": [{"k": "deploy", "army": "ottoman", "origin": "setup", "placed": 0, "spaces": ["krithia"]}]},
    "allied-setup": {"frames": [{"k": "allied-setup", "army": "allied"}]},
    "reinforce": {"frames": [{"k": "reinforce", "army": "allied", "card": "allied-card-01",
                              "blocks": ["br-29-div-86-bde"]}]},
    "manual": {"frames": [{"k": "manual", "army": "allied", "card": "allied-card-01"}]},
    "supply": {"frames": [{"k": "supply", "army": "allied", "cut": ["A1"]}]},
    **{s: {"frames": [{"k": "ops", "army": "allied", "left": 0}, dict(BATTLE, step=s)]}
       for s in ("lead-att", "lead-def", "plan-att", "plan-def")},
    "conceal": {"frames": [{"k": "ops", "army": "allied", "left": 1}], "standing": {"allied": ["A1"]},
                "blocks": {"alexi": ["A1=br-29-div-86-bde:4 open", "A2=br-29-div-87-bde:4"]}},
}
ORDERS = [(frame, do) for frame, orders in FREE_ORDERS.items() for do in orders] + [("conceal", "conceal")]


def refused(frame: str, action: dict) -> str:
    pos = position({"blocks": BLOCKS, **FRAMES[frame]})
    state = pos.state
    prompt = GAME.prompt(state)
    assert prompt.free and prompt.side is not None, (frame, prompt)
    untouched = copy_state(state)
    with pytest.raises(IllegalAction) as e:
        step(GAME, state, prompt.side, action, pos.dice())
    assert state == untouched
    return str(e.value)


def test_every_free_prompt_is_covered():
    assert set(FRAMES) == set(FREE_ORDERS) | {"conceal"}


@pytest.mark.parametrize("frame, do", ORDERS, ids=[f"{f}:{d}" for f, d in ORDERS])
def test_an_order_with_a_field_more_is_refused(frame, do):
    fields = FREE_ORDERS.get(frame, {}).get(do) or {"spaces"}
    action = {"do": do, **{f: [] for f in fields}, "extra": "signed, never read"}
    assert "has no field 'extra'" in refused(frame, action)


@pytest.mark.parametrize("frame", list(FRAMES))
def test_an_order_the_frame_does_not_take_is_refused(frame):
    why = refused(frame, {"do": "teleport"})
    assert "no 'teleport' order here" in why or (frame == "conceal" and "first 'stand up'" in why), why
