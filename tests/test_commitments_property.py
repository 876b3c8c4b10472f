"""Hypothesis: changing any committed value — a draw token, an opening, a revealed secret,
a chain link — is detected, and named as cheating where it is one."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_engine.protocol import match as protocol
from pbem_engine.hidden import private
from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.raid import GAME

GID = "5a" * 16
SECRETS = {"allied": b"A" * 32, "ottoman": b"O" * 32}
CHAINS = {s: protocol.chain_links(GID, s, s.encode().ljust(32, b"."), 40) for s in ("allied", "ottoman")}


def _flip(hex_text: str, position: int) -> str:
    i = position % len(hex_text)
    return hex_text[:i] + ("0" if hex_text[i] != "0" else "1") + hex_text[i + 1:]


def played():
    """A whole Trench Raid between two honest tools, envelope bodies as they would be signed."""
    body = {"mode": "sealed", "scenario": "standard", "options": {}, "sides": {"allied": {}, "ottoman": {}},
            "anchor": CHAINS["allied"][0].hex(), "private_anchor": private.anchor(GID, "allied", SECRETS["allied"])}
    m = protocol.start(GAME, GID, "allied", body)
    m = protocol.join(m, "ottoman", {"anchor": CHAINS["ottoman"][0].hex(),
                                     "private_anchor": private.anchor(GID, "ottoman", SECRETS["ottoman"])})
    bodies = []
    seq = 1
    while (w := protocol.waiting_for(GAME, m)) is not None:
        side, seq = w["side"], seq + 1
        turn = {"reveal": CHAINS[side][m["chains"][side]["index"] + 1].hex(), "actions": []}
        if w["why"] == "secret":
            turn["private_secret"] = SECRETS[side].hex()
        else:
            prompt = GAME.prompt(m["game"])
            turn["actions"] = [prompt.choices[0].action]
            build = {"secret": SECRETS[side]}
            protocol.advance(GAME, m, seq, side, turn, build)
            if build["private"]:
                turn["private"] = build["private"]
        bodies.append((seq, side, turn))
        m = protocol.advance(GAME, m, seq, side, turn)[0]
    return bodies, m


BODIES, FINAL = played()


def replay(bodies):
    body = {"mode": "sealed", "scenario": "standard", "options": {}, "sides": {"allied": {}, "ottoman": {}},
            "anchor": CHAINS["allied"][0].hex(), "private_anchor": private.anchor(GID, "allied", SECRETS["allied"])}
    m = protocol.start(GAME, GID, "allied", body)
    m = protocol.join(m, "ottoman", {"anchor": CHAINS["ottoman"][0].hex(),
                                     "private_anchor": private.anchor(GID, "ottoman", SECRETS["ottoman"])})
    for seq, side, turn in bodies:
        m = protocol.advance(GAME, m, seq, side, turn)[0]
    return m


def test_the_honest_game_replays_and_checks_out():
    m = replay(BODIES)
    assert all(r["secret"] for r in m["private"].values())
    assert GAME.outcome(m["game"]) is not None


def _mutations():
    """(envelope index, path into the body, kind) for every committed value in the game."""
    out = []
    for i, (_, _, turn) in enumerate(BODIES):
        out.append((i, ("reveal",), "link"))
        for j, draw in enumerate(turn.get("private", {}).get("draws", [])):
            for k in range(len(draw)):
                out.append((i, ("private", "draws", j, k), "token"))
        for tok in turn.get("private", {}).get("open", {}):
            for field in ("nonce", "item", "n"):
                out.append((i, ("private", "open", tok, field), "opening"))
        if "private_secret" in turn:
            out.append((i, ("private_secret",), "secret"))
    return out


MUTATIONS = _mutations()


@given(st.sampled_from(MUTATIONS), st.integers(0, 63))
@settings(max_examples=150, deadline=None)
def test_any_changed_commitment_is_detected(mutation, position):
    index, path, kind = mutation
    bodies = json.loads(json.dumps(BODIES))
    target = bodies[index][2]
    for key in path[:-1]:
        target = target[key]
    last = path[-1]
    value = target[last]
    if kind == "opening" and last == "item":
        target[last] = value.rsplit("-", 1)[0] + "-" + str(int(value.rsplit("-", 1)[1]) % 9 + 1)
    elif kind == "opening" and last == "n":
        target[last] = value + 1
    else:
        target[last] = _flip(value, position)
    with pytest.raises((protocol.ProtocolError, IllegalAction)) as e:
        replay(bodies)
    if kind == "token" and isinstance(e.value, IllegalAction):
        assert "cannot do" in str(e.value)  # the changed card is later played: the hand no longer holds it
    elif kind in ("token", "opening", "secret"):
        assert e.value.code in ("cheating", "bad-opening", "bad-private", "bad-secret"), e.value
        if kind in ("secret", "opening"):
            assert e.value.code == "cheating"
    if kind == "link":
        assert getattr(e.value, "code", "") == "bad-reveal"


def test_the_mutation_list_covers_every_kind():
    assert {kind for _, _, kind in MUTATIONS} == {"link", "token", "opening", "secret"}
