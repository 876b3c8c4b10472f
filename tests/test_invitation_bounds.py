"""Each bound of an invitation's parties and options, refused by ``invitation.check`` with its reason.

Several of these would be refused later too (a game module that knows only sides red and blue),
but by code that has already used the value: a side's name in a file name, a key decoded, a
name printed to the joiner. ``invitation.check`` refuses them first, naming the field; the tests
assert that reason, so each fails when its check is removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import base64
import copy

import pytest

from pbem.chain import invitation
from pbem.errors import RefusedTurn
from tests.conftest import assert_refused, forge, invoke
from tests.test_hostile_invitation import invite  # noqa: F401 (a fixture)


def _sides(n: int):
    def change(body):
        entry = body["sides"]["blue"]
        body["sides"] = {"red": body["sides"]["red"], **{f"s{i}": dict(entry) for i in range(n - 1)}}
    return change


def _rename(new: str):
    def change(body):
        body["sides"][new] = body["sides"].pop("blue")
    return change


def _entry(field: str, value):
    def change(body):
        body["sides"]["blue"][field] = value
    return change


def _options(body):
    body["options"] = {"padding": "x" * (invitation.MAX_OPTIONS_BYTES + 1)}


BOUNDS = {
    "one side": (_sides(1), "'sides' must name two to eight sides"),
    "nine sides": (_sides(9), "'sides' must name two to eight sides"),
    "a side called ../blue": (_rename("../blue"), "side name '../blue' must be 1-32 lowercase letters"),
    "a side called Blue": (_rename("Blue"), "side name 'Blue' must be 1-32 lowercase letters"),
    "a side name of 33 letters": (_rename("b" * 33), "must be 1-32 lowercase letters"),
    "a key of 31 bytes": (_entry("key", base64.b64encode(b"k" * 31).decode()), "side blue: 'key' must be an Ed25519"),
    "a key of 33 bytes": (_entry("key", base64.b64encode(b"k" * 33).decode()), "side blue: 'key' must be an Ed25519"),
    "a key that is not base64": (_entry("key", "not base64!"), "side blue: 'key' must be an Ed25519"),
    "an empty name": (_entry("name", ""), "side blue: 'name' must be printable text of 1 to 100"),
    "a name of 101 characters": (_entry("name", "b" * 101), "side blue: 'name' must be printable text"),
    "a name with a terminal escape": (_entry("name", "bob\x1b[2J"), "side blue: 'name' must be printable text"),
    "options over 256 KB": (_options, "the options are larger than 256 KB"),
}


@pytest.mark.parametrize("what", BOUNDS)
def test_an_invitation_out_of_bounds_is_refused_by_the_check_naming_the_field(invite, runner, what):  # noqa: F811
    make, alice_id, bob, root = invite
    honest = make("new", "barrage")
    invitation.check(honest)
    change, says = BOUNDS[what]
    content = copy.deepcopy(honest)
    change(content["body"])
    with pytest.raises(RefusedTurn) as refused:
        invitation.check(content)
    assert refused.value.code == "bad-genesis" and str(refused.value) == "invitation refused"
    assert says in refused.value.detail, refused.value.detail
    # and as the joiner sees it, before anything is written
    path = forge(alice_id, content, root / "hostile.pbem")
    target = root / "bob-campaign"
    result = invoke(runner, "join", path, "--key", "bob", "--campaign", target, env=bob.env)
    assert_refused(result, "bad-genesis")
    assert result.stderr.startswith("Error: bad-genesis: invitation refused"), result.stderr
    assert says in result.stderr, result.stderr
    assert not target.exists() or not (target / "campaign.db").exists()
