"""A campaign database from an older pbem: upgraded when opened to write, refused with a reason
when opened read-only (verify, audit, status never write).

The old database is a real campaign's with the last two migrations undone (the tables they
add dropped, their rows removed from sqlite-utils' ``_sqlite_migrations``): what pbem
wrote before ``m004_views`` existed. Each test fails when its check in ``pbem.store.ledger`` is removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from pbem.errors import LedgerError
from pbem.store.ledger import MIGRATIONS, Ledger
from tests.conftest import Duel, assert_refused, db_bytes, invoke


def tables(db: Path) -> set[str]:
    con = sqlite3.connect(db)
    try:
        return {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    finally:
        con.close()


def applied(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("select name from _sqlite_migrations where migration_set = 'pbem' "
                                          "order by name")]
    finally:
        con.close()


def envelopes(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("select seq, hash, author, kind, raw from envelopes order by seq").fetchall()
    finally:
        con.close()


@pytest.fixture
def old(two_campaigns: Duel, tmp_path: Path) -> Path:
    """A copy of alice's campaign as pbem wrote it with migrations m001-m003 only."""
    assert MIGRATIONS[-2:] == ("m004_views", "m005_trail")
    d = two_campaigns
    d.turn("red")
    copy = tmp_path / "old"
    shutil.copytree(d.alice.dir, copy)
    db = copy / "campaign.db"
    assert applied(db) == sorted(MIGRATIONS)
    con = sqlite3.connect(db)
    try:
        con.execute("drop table views")
        con.execute("drop table trails")
        con.executemany("delete from _sqlite_migrations where migration_set = 'pbem' and name = ?",
                        [(name,) for name in MIGRATIONS[-2:]])
        con.commit()
    finally:
        con.close()
    assert applied(db) == sorted(MIGRATIONS[:-2]) and "views" not in tables(db)
    return db


def test_an_old_schema_database_is_migrated_when_opened_to_write(old: Path) -> None:
    before = envelopes(old)
    ledger = Ledger.open(old)
    try:
        assert ledger.views() == []  # the table m004 creates is there, and readable
    finally:
        ledger.close()
    assert applied(old) == sorted(MIGRATIONS)
    assert {"views", "trails"} <= tables(old)
    assert envelopes(old) == before, "a migration changed the envelopes"
    again = Ledger.open(old, readonly=True)  # nothing pending any more
    again.close()


def test_rebuild_upgrades_an_old_schema_database_and_it_then_verifies(old: Path, two_campaigns: Duel) -> None:
    result = invoke(two_campaigns.runner, "rebuild", "--campaign", old.parent, env=two_campaigns.alice.env)
    assert result.exit_code == 0 and result.output.startswith("rebuilt: OK: "), result.output
    assert applied(old) == sorted(MIGRATIONS)
    verified = invoke(two_campaigns.runner, "verify", old.parent)
    assert verified.exit_code == 0 and verified.output.startswith("OK: "), verified.output


def test_an_old_schema_database_opened_read_only_is_refused_with_a_reason(old: Path) -> None:
    before = db_bytes(old)
    with pytest.raises(LedgerError) as refused:
        Ledger.open(old, readonly=True)
    assert refused.value.code == "old-schema"
    assert "pbem rebuild --campaign" in refused.value.detail
    assert db_bytes(old) == before


def test_verify_of_an_old_schema_database_says_to_rebuild_it_and_writes_nothing(old: Path,
                                                                                two_campaigns: Duel) -> None:
    before = db_bytes(old)
    result = invoke(two_campaigns.runner, "verify", old.parent)
    assert_refused(result, "old-schema")
    assert "older pbem" in result.stderr and "pbem rebuild" in result.stderr
    assert db_bytes(old) == before
