"""The audit re-derives each roll's seed from its committed inputs, not only its values from its seed.

A stored roll whose seed is replaced and whose values are redrawn from the new seed is
self-consistent: only the comparison of the seed with ``roll_seed(game, declared_in, links,
declarations)`` sees it. Each test fails when that check in ``pbem.check.audit`` is removed (see
``tools/mutate.py``). ``pbem verify`` compares the rolls table with the replay as well, so this
is the audit's own check, tested at unit level on the roll records.
"""

from __future__ import annotations

import copy

import pytest
from click.testing import CliRunner

from pbem.check.audit import REDERIVED, _replay, check_rolls, commitments
from pbem.errors import VerifyError
from pbem.store.ledger import Ledger
from pbem_engine.protocol import match as protocol
from pbem_engine.chance.dice import Dice
from tests.conftest import Duel


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory):
    """(commitments, rolls) of a finished sealed barrage duel, from alice's database."""
    duel = Duel(tmp_path_factory.mktemp("seed"), CliRunner())
    duel.play_out()
    ledger = Ledger.open(duel.alice.db, readonly=True)
    try:
        return commitments(ledger), ledger.rolls()
    finally:
        ledger.close()


def redrawn(roll: dict, seed: str) -> dict:
    """``roll`` with ``seed`` and the values (and result) that seed gives, as the audit draws them."""
    out = copy.deepcopy(roll)
    out["seed"] = seed
    dice = Dice(bytes.fromhex(seed))
    try:
        _replay(dice, out)
    except ValueError:  # the stored values are the old seed's: take the new seed's
        pass
    out["values"] = dice.rolls[-1]["values"]
    if "result" in dice.rolls[-1]:
        out["result"] = dice.rolls[-1]["result"]
    return out


def alone(rolls: list[dict], k: int) -> bool:
    """Roll ``k`` is the only roll drawn from its seed (so a new seed starts a new stream)."""
    return sum(r["seed"] == rolls[k]["seed"] for r in rolls) == 1


def assert_seed_refused(commits, rolls: list[dict], k: int) -> None:
    with pytest.raises(VerifyError) as caught:
        check_rolls(commits, rolls)
    assert str(caught.value) == "dice audit failed"
    detail = caught.value.detail
    assert detail.startswith(f"roll {k + 1} (entry #{rolls[k]['seq']}, n {rolls[k]['n']}: "), detail
    assert f"seed {rolls[k]['seed'][:16]} stored, its inputs give" in detail, detail


def test_the_honest_records_re_derive(records) -> None:
    commits, rolls = records
    assert [r.check for r in check_rolls(commits, rolls)] == [REDERIVED] * len(rolls)
    assert all(alone(rolls, k) for k in range(len(rolls)))


@pytest.mark.parametrize("k", [0, 2, -1])
def test_a_roll_with_a_chosen_seed_and_the_values_it_gives_is_refused(records, k: int) -> None:
    """Someone edits a roll to the faces of a seed of his choosing, values and all."""
    commits, rolls = records
    k = k % len(rolls)
    forged = copy.deepcopy(rolls)
    chosen = protocol.roll_seed(commits.game_id, 1, "00" * 32, "11" * 32, "22" * 32).hex()
    forged[k] = redrawn(rolls[k], chosen)
    assert forged[k]["values"] != rolls[k]["values"]  # a different roll ...
    _replay(Dice(bytes.fromhex(chosen)), copy.deepcopy(forged[k]))  # ... that its seed does give
    assert_seed_refused(commits, forged, k)


def test_a_roll_given_another_rolls_seed_and_values_is_refused(records) -> None:
    """A genuine seed of this game, with its genuine values, moved to another roll."""
    commits, rolls = records
    forged = copy.deepcopy(rolls)
    forged[1] = dict(redrawn(rolls[1], rolls[3]["seed"]), values=rolls[3]["values"], result=rolls[3].get("result"))
    assert forged[1]["spec"] == rolls[3]["spec"]
    assert_seed_refused(commits, forged, 1)
