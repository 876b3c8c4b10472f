"""Table-top actions are checked against their shapes before they are read (``check_shape``).

A field the handler does not read would travel signed and be stored (a side channel, and a second
meaning for the same turn); a text of megabytes or a count of millions would be read by code
that trusts a table-top's sizes. Each is refused with the reason naming the field, at the shape
check, even where a later step would refuse it too. Each test fails when its check in
``pbem_engine.games.tabletop.orders`` is removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import copy

import pytest

from pbem_engine.protocol.core import IllegalAction
from pbem_engine.games.tabletop.orders import LARGEST_NUMBER, LONGEST_TEXT, check_shape
from tests.conftest import assert_refused, db_bytes
from tests.test_hostile_input import _forge, _ingest, honest  # noqa: F401 (honest is a fixture)

TOO_LONG = "x" * (LONGEST_TEXT + 1)

SHAPE_REFUSALS = {
    "an extra field in 'say'": ({"do": "say", "text": "hello", "loud": True}, "a 'say' action has no field 'loud'"),
    "an extra field in 'pass'": ({"do": "pass", "why": "tired"}, "a 'pass' action has no field 'why'"),
    "a field of another action": ({"do": "move", "piece": "p", "to": "ford", "by": 2}, "has no field 'by'"),
    "a say of 2,001 characters": ({"do": "say", "text": TOO_LONG}, f"longer than {LONGEST_TEXT} characters"),
    "a marker of 2,001 characters": ({"do": "mark", "target": "ford", "text": TOO_LONG},
                                     f"longer than {LONGEST_TEXT} characters"),
    "a step of 1,001": ({"do": "step", "piece": "p", "by": LARGEST_NUMBER + 1}, f"beyond ±{LARGEST_NUMBER}"),
    "a step of -1,001": ({"do": "step", "piece": "p", "by": -LARGEST_NUMBER - 1}, f"beyond ±{LARGEST_NUMBER}"),
    "a draw of a million cards": ({"do": "draw", "deck": "d", "count": 10**6}, f"beyond ±{LARGEST_NUMBER}"),
    "an unknown action": ({"do": "teleport", "piece": "p"}, "unknown table-top action 'teleport'"),
    "a missing field": ({"do": "move", "piece": "p"}, "a 'move' action needs its field 'to'"),
    "a number as text": ({"do": "say", "text": 7}, "the field 'text' of a 'say' action must be text"),
    "true as a number": ({"do": "draw", "deck": "d", "count": True}, "must be a whole number"),
}


@pytest.mark.parametrize("what", SHAPE_REFUSALS)
def test_check_shape_refuses_naming_the_field(what):
    action, says = SHAPE_REFUSALS[what]
    with pytest.raises(IllegalAction) as refused:
        check_shape(action)
    assert says in str(refused.value), str(refused.value)


@pytest.mark.parametrize("action", [{"do": "say", "text": "x" * LONGEST_TEXT},
                                    {"do": "step", "piece": "p", "by": -LARGEST_NUMBER},
                                    {"do": "roll", "expr": "3d6", "purpose": "fire"}, {"do": "roll", "expr": "1d6"},
                                    {"do": "pass"}])
def test_check_shape_takes_what_is_within_bounds(action):
    check_shape(action)


# What a signed turn carries: each an honest action of red's turn changed one way.
IN_A_TURN = {
    "a 'say' with an extra field": ("say", {"loud": True}, "a 'say' action has no field 'loud'"),
    "a 'say' of 2,001 characters": ("say", {"text": TOO_LONG}, f"longer than {LONGEST_TEXT} characters"),
    "a 'mark' of 2,001 characters": ("mark", {"text": TOO_LONG}, f"longer than {LONGEST_TEXT} characters"),
    "a 'step' of 1,001": ("step", {"by": LARGEST_NUMBER + 1}, f"beyond ±{LARGEST_NUMBER}"),
    "a 'draw' of a million": ("draw", {"count": 10**6}, f"beyond ±{LARGEST_NUMBER}"),
}


@pytest.mark.parametrize("what", IN_A_TURN)
def test_a_signed_turn_with_an_action_out_of_shape_is_refused_naming_it(honest, what):  # noqa: F811
    t, identity, content, pristine = honest
    do, changes, says = IN_A_TURN[what]
    forged = copy.deepcopy(content)
    [action] = [a for a in forged["body"]["actions"] if a["do"] == do]
    action.update(changes)
    result, before, target = _ingest(t, pristine, _forge(identity, forged), "shape")
    assert_refused(result, "illegal-action")
    assert says in result.stderr, result.stderr
    assert db_bytes(target) == before
