"""verify reads the derived rows in step with the envelopes (its memory does not grow with the
history) and still refuses every row that belongs to no envelope, wherever it sorts."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from pbem.bench import build
from pbem.errors import VerifyError
from pbem.store.ledger import Ledger
from pbem.check.verify import verify_ledger


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db, _ = build(tmp_path_factory.mktemp("bench"), 24, 200)
    return db


def tampered(campaign: Path, tmp_path: Path, *statements: str) -> Ledger:
    db = tmp_path / "campaign.db"
    shutil.copy(campaign, db)
    con = sqlite3.connect(db)
    for statement in statements:
        con.execute(statement)
    con.commit()
    con.close()
    return Ledger.open(db, readonly=True)


def test_an_untouched_copy_verifies(campaign: Path, tmp_path: Path) -> None:
    ledger = tampered(campaign, tmp_path)
    assert verify_ledger(ledger).envelopes == 24


@pytest.mark.parametrize("seq", ["-1", "'seven'", "null", "24", "1000"])
@pytest.mark.parametrize("table", ["states", "events", "rolls"])
def test_a_derived_row_of_no_envelope_is_refused(campaign: Path, tmp_path: Path, table: str, seq: str) -> None:
    if table == "states" and seq in ("'seven'", "null"):
        pytest.skip("states.seq is the rowid: a whole number")
    ledger = tampered(campaign, tmp_path,  # a copy of the table's last row, under another seq
                      f"create temp table last as select * from {table} where seq = (select max(seq) from {table})",
                      f"update last set seq = {seq}", f"insert into {table} select * from last")
    with pytest.raises(VerifyError, match="derived rows with no envelope") as refused:
        verify_ledger(ledger)
    shown = {"'seven'": "'seven'", "null": "None"}.get(seq, seq)
    assert refused.value.detail.startswith(f"entry #{shown}: "), refused.value.detail


@pytest.mark.parametrize("table", ["states", "events", "rolls"])
def test_a_derived_row_moved_to_another_envelope_is_refused(campaign: Path, tmp_path: Path, table: str) -> None:
    ledger = tampered(campaign, tmp_path, f"delete from {table} where seq = 5",
                      f"update {table} set seq = 5 where seq = 6")
    with pytest.raises(VerifyError, match="derived data differs from the replay") as refused:
        verify_ledger(ledger)
    assert "entry #5" in refused.value.detail and f"the {table} table" in refused.value.detail


def test_the_derived_columns_are_written_as_json_dumps_writes_them() -> None:
    """ledger.dumps (the C encoder made once) gives json.dumps's text: what older copies hold."""
    import json

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from pbem.store import ledger

    values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                          max_leaves=30)

    @settings(max_examples=500, deadline=None)
    @given(values)
    def check(value):
        assert ledger.dumps(value) == json.dumps(value)

    check()


@pytest.mark.parametrize("how", ["cast(state as blob)", "state || ' '", "null", "length(state)"])
def test_a_state_row_of_another_type_or_text_is_refused(campaign: Path, tmp_path: Path, how: str) -> None:
    """verify compares the stored state's bytes with the replayed state's, without decoding it, and
    its column type too: the same bytes stored as a BLOB are refused, as a changed text is."""
    ledger = tampered(campaign, tmp_path, f"update states set state = {how} where seq = 7")
    with pytest.raises(VerifyError, match="derived data differs from the replay") as refused:
        verify_ledger(ledger)
    assert "entry #7" in refused.value.detail and "the states table" in refused.value.detail


def test_a_bad_bound_setting_refuses_verify_with_its_reason(campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounds a stored envelope is read within are read once per verify: a bad setting is
    refused with the setting's own reason, before any envelope is read."""
    from pbem.errors import PbemError

    monkeypatch.setenv("PBEM_MAX_TURN_FILE_BYTES", "lots")
    with pytest.raises(PbemError, match="PBEM_MAX_TURN_FILE_BYTES is not a positive whole number"):
        verify_ledger(Ledger.open(campaign, readonly=True))
    monkeypatch.setenv("PBEM_MAX_TURN_FILE_BYTES", "100")  # a bound in force: every envelope is past it
    with pytest.raises(VerifyError, match="entry #0"):
        verify_ledger(Ledger.open(campaign, readonly=True))
