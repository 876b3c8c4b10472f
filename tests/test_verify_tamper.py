"""``pbem verify`` on a finished game, and on copies of its database tampered with.

The game is played once per module (a whole barrage duel through the CLI);
every tamper test works on its own copy of alice's database.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import string
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Duel, assert_no_traceback, assert_refused, db_bytes, invoke

PRINTABLE = [c for c in string.printable if not c.isspace()]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Duel:
    duel = Duel(tmp_path_factory.mktemp("game"), CliRunner())
    duel.files = duel.play_out()
    return duel


@pytest.fixture(scope="module")
def rows(game: Duel) -> list[tuple[int, str, str, str, str]]:
    """(seq, hash, author, kind, raw) of alice's stored envelopes."""
    con = sqlite3.connect(game.alice.db)
    try:
        return con.execute("select seq, hash, author, kind, raw from envelopes order by seq").fetchall()
    finally:
        con.close()


def copy_db(game: Duel, where: Path) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    shutil.copy(game.alice.db, where / "campaign.db")
    return where / "campaign.db"


def sql(db: Path, statement: str, *params) -> int:
    con = sqlite3.connect(db)
    try:
        n = con.execute(statement, params).rowcount
        con.commit()
        return n
    finally:
        con.close()


def verify(db: Path):
    return invoke(CliRunner(), "verify", db.parent)


# What verify says first, per check (the reason on its first stderr line).
SIGNATURE = "bad signature"
DAMAGED = "damaged turn file"  # not base64, a damaged header line or BEGIN line
HEADER = "header does not match the signed content"
NO_BLOCK = "no turn file found"
TRUNCATED = "truncated turn file"
STORED_DAMAGED = "stored envelope is damaged"  # not text, or not one armored block
INDEX = "stored envelope does not match its index columns"
GAP = "history has a gap"
DERIVED = "derived data differs from the replay"
EXTRA_DERIVED = "derived rows with no envelope"
EMPTY = "empty history"
# every check that a changed character of a stored envelope can fire
ENVELOPE_DAMAGE = (SIGNATURE, DAMAGED, HEADER, NO_BLOCK, TRUNCATED, STORED_DAMAGED, INDEX)


def assert_verify_fails(result, *entries: int, check: str | tuple[str, ...]) -> str:
    """verify refused: exit 1, 'Error: verify-failed: …' where the reason is ``check`` (or one of
    them), naming one of ``entries`` as '#N', no traceback."""
    assert_no_traceback(result)
    assert result.exit_code == 1, f"verify passed a tampered database:\n{result.output}"
    first = result.stderr.splitlines()[0]
    assert first.startswith("Error: verify-failed: "), result.stderr
    assert not result.stdout.startswith("OK"), result.stdout
    reason = re.sub(r"^entry #\d+ \([^)]*\): ", "", first[len("Error: verify-failed: "):])
    checks = (check,) if isinstance(check, str) else check
    assert reason.startswith(checks), f"expected the check {' or '.join(map(repr, checks))} to fire:\n{result.stderr}"
    if entries:
        assert any(re.search(rf"#{n}(?!\d)", result.stderr) for n in entries), \
            f"verify does not name entry {' or '.join(f'#{n}' for n in entries)}:\n{result.stderr}"
    return result.stderr


def change_char(text: str, index: int, new: str) -> str:
    assert text[index] != new and not text[index].isspace()
    return text[:index] + new + text[index + 1:]


def other_char(old: str) -> str:
    """A replacement that keeps the character class (base64 stays base64, hex stays hex)."""
    if old.isdigit():
        return "1" if old == "0" else "0"
    if old.islower():
        return "b" if old == "a" else "a"
    return "B" if old == "A" else "A"


def positions(raw: str) -> dict[str, int]:
    """Named character positions of an armored envelope: header fields, body start/middle/end, markers."""
    lines = raw.splitlines(keepends=True)
    starts = [sum(len(line) for line in lines[:i]) for i in range(len(lines))]
    body = [i for i, line in enumerate(lines) if i > 0 and line.strip() and ":" not in line and "-----" not in line]
    out = {}
    for i, line in enumerate(lines[1:6], 1):
        name = line.split(":")[0]
        out[f"header {name} value"] = starts[i] + len(line.rstrip("\n")) - 1
    out["header Seq name"] = starts[2]
    out["body first char"] = starts[body[0]]
    middle = body[len(body) // 2]
    out["body middle"] = starts[middle] + len(lines[middle].rstrip("\n")) // 2
    out["body last char before END"] = starts[body[-1]] + len(lines[body[-1]].rstrip("\n")) - 1
    out["BEGIN line"] = 12
    out["END line"] = starts[-1] + 9
    return out


# --- a clean history ------------------------------------------------------------

def test_verify_a_finished_game(game: Duel) -> None:
    summaries = []
    for player in (game.alice, game.bob):
        before = db_bytes(player.dir)
        result = invoke(CliRunner(), "verify", player.dir)
        assert_no_traceback(result)
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert len(lines) == 1, result.output
        # 3 rounds: genesis, join, 6 barrages; 6 dice in each barrage.  No closing reveal: every barrage
        # but the first is a forced action, sealed at once by the link just before it (match.at_once).
        assert re.match(r"^OK: 8 envelopes, 6 actions, 36 dice checked; state [0-9a-f]{16}$", lines[0]), lines[0]
        assert db_bytes(player.dir) == before, "verify changed the database"
        summaries.append(lines[0])
    assert summaries[0] == summaries[1], "both players' copies must replay to the same final state"


def test_verify_accepts_the_database_file_path(game: Duel) -> None:
    result = invoke(CliRunner(), "verify", game.bob.db)
    assert result.exit_code == 0 and result.output.startswith("OK: 8 envelopes"), result.output


def test_game_is_over_after_play_out(game: Duel) -> None:
    result = invoke(CliRunner(), "status", "--campaign", game.bob.dir, env=game.bob.env)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output


# --- one changed character in a stored envelope ---------------------------------------

CHANGED_AT = {  # where one character changes -> the check that fires
    "header Game value": HEADER, "header Seq value": HEADER, "header From value": HEADER,
    "header Kind value": HEADER, "header Signer value": HEADER,
    "header Seq name": "damaged turn file header",
    "body first char": SIGNATURE, "body middle": SIGNATURE,
    "body last char before END": (SIGNATURE, DAMAGED),  # the last base64 character may not decode
    "BEGIN line": NO_BLOCK, "END line": TRUNCATED,
}


@pytest.mark.parametrize("where", CHANGED_AT)
def test_every_row_with_one_changed_character_is_refused(game: Duel, rows, tmp_path: Path, where: str) -> None:
    assert [r[0] for r in rows] == list(range(8))
    for seq, _, _, _, raw in rows:
        index = positions(raw)[where]
        db = copy_db(game, tmp_path / f"row{seq}")
        tampered = change_char(raw, index, other_char(raw[index]))
        assert sql(db, "update envelopes set raw = ? where seq = ?", tampered, seq) == 1
        assert_verify_fails(verify(db), seq, check=CHANGED_AT[where])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_changed_character_in_any_row_is_refused(game: Duel, rows, data) -> None:
    seq, _, _, _, raw = data.draw(st.sampled_from(rows), label="row")
    index = data.draw(st.sampled_from([i for i, c in enumerate(raw) if not c.isspace()]), label="index")
    new = data.draw(st.sampled_from([c for c in PRINTABLE if c != raw[index]]), label="new char")
    with tempfile.TemporaryDirectory() as tmp:
        db = copy_db(game, Path(tmp) / "copy")
        sql(db, "update envelopes set raw = ? where seq = ?", change_char(raw, index, new), seq)
        assert_verify_fails(verify(db), seq, check=ENVELOPE_DAMAGE)


# --- the index columns and the rows themselves --------------------------------------

@pytest.mark.parametrize("seq", [0, 1, 4, 7])
def test_changed_hash_column_is_refused(game: Duel, rows, tmp_path: Path, seq: int) -> None:
    db = copy_db(game, tmp_path / "c")
    digest = rows[seq][1]
    sql(db, "update envelopes set hash = ? where seq = ?", other_char(digest[0]) + digest[1:], seq)
    assert_verify_fails(verify(db), seq, check=INDEX)


@pytest.mark.parametrize("seq", [0, 3, 6])
def test_changed_author_column_is_refused(game: Duel, rows, tmp_path: Path, seq: int) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "update envelopes set author = ? where seq = ?", "blue" if rows[seq][2] == "red" else "red", seq)
    assert_verify_fails(verify(db), seq, check=INDEX)


def test_changed_kind_column_is_refused(game: Duel, tmp_path: Path) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "update envelopes set kind = 'join' where seq = 5")
    assert_verify_fails(verify(db), 5, check=INDEX)


@pytest.mark.parametrize("seq, new", [(5, 50), (7, 8), (0, -1), (2, 100)])
def test_changed_seq_column_is_refused(game: Duel, tmp_path: Path, seq: int, new: int) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "update envelopes set seq = ? where seq = ?", new, seq)
    assert_verify_fails(verify(db), seq, new, check=GAP)


def test_swapped_seq_of_two_rows_is_refused(game: Duel, tmp_path: Path) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "update envelopes set seq = -3 where seq = 3")
    sql(db, "update envelopes set seq = 3 where seq = 5")
    sql(db, "update envelopes set seq = 5 where seq = -3")
    assert_verify_fails(verify(db), 3, check=INDEX)


@pytest.mark.parametrize("seq", [1, 4, 6])
def test_deleted_row_in_the_middle_is_refused(game: Duel, tmp_path: Path, seq: int) -> None:
    db = copy_db(game, tmp_path / "c")
    assert sql(db, "delete from envelopes where seq = ?", seq) == 1
    assert_verify_fails(verify(db), seq, check=GAP)


def test_deleted_genesis_is_refused(game: Duel, tmp_path: Path) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "delete from envelopes where seq = 0")
    assert_verify_fails(verify(db), 0, check=GAP)


@pytest.mark.parametrize("a, b", [(3, 5), (2, 4), (0, 1), (6, 7)])
def test_swapped_raw_of_two_rows_is_refused(game: Duel, rows, tmp_path: Path, a: int, b: int) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "update envelopes set raw = ? where seq = ?", rows[b][4], a)
    sql(db, "update envelopes set raw = ? where seq = ?", rows[a][4], b)
    assert_verify_fails(verify(db), a, check=INDEX)


def test_whole_row_swapped_with_consistent_index_columns_is_refused(game: Duel, rows, tmp_path: Path) -> None:
    """Moving #4 to #6 with every other column rewritten to match: the number it was signed with tells."""
    db = copy_db(game, tmp_path / "c")
    sql(db, "delete from envelopes where seq in (4, 6)")
    for target, source in ((4, 6), (6, 4)):
        _, digest, author, kind, raw = rows[source]
        sql(db, "insert into envelopes (seq, hash, author, kind, raw, received_at) values (?, ?, ?, ?, ?, '')",
            target, digest, author, kind, raw)
    assert_verify_fails(verify(db), 4, check=INDEX)


def test_empty_history_is_refused(game: Duel, tmp_path: Path) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "delete from envelopes")
    assert_verify_fails(verify(db), check=EMPTY)


def test_not_a_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "c" / "campaign.db"
    db.parent.mkdir()
    db.write_bytes(b"this is not sqlite\n" * 100)
    result = verify(db)
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: bad-campaign: "), result.stderr


# --- the derived tables ------------------------------------------------------------------

# Each forgery changes the hash whatever it was (a fixed prefix left 1 hash in 256 as it was: a test
# that failed by chance in CI): its first digit is swapped for another.
FLIP = "(case when substr(hash, 1, 1) = 'a' then 'b' else 'a' end) || substr(hash, 2)"
DETECTED = {
    "state hash changed": f"update states set hash = {FLIP} where seq = 4",
    "last state hash changed": f"update states set hash = {FLIP} where seq = 7",
    "state row deleted": "delete from states where seq = 6",
}

# Forged derived data that status/report show, but verify does not compare (see the BUG reasons).
SHOWN_TO_PLAYER = {
    "state json changed": "update states set state = replace(state, '\"hits\":{\"blue\":', '\"hits\":{\"blue\":1') "
                          "where seq = 7",
    "extra state row after the last envelope": "insert into states (seq, hash, state) select 9, hash, "
                                               "replace(state, '\"hits\":{\"blue\":', '\"hits\":{\"blue\":1') "
                                               "from states where seq = 7",
    "rolls changed": "update rolls set dice = '[6,6,6,6,6,6]', result = '6' where seq = 4",
    "events changed": "update events set text = 'blue surrenders' where seq = 4",
}

SHOWN_CHECK = {"state json changed": DERIVED, "extra state row after the last envelope": EXTRA_DERIVED,
               "rolls changed": DERIVED, "events changed": DERIVED}
SHOWN_TABLE = {"state json changed": "states table", "extra state row after the last envelope": "past the last envelope",
               "rolls changed": "rolls table", "events changed": "events table"}

TAMPERS = {**DETECTED, **SHOWN_TO_PLAYER}


@pytest.mark.parametrize("name", DETECTED)
def test_tampered_states_table_is_refused(game: Duel, tmp_path: Path, name: str) -> None:
    db = copy_db(game, tmp_path / "c")
    assert sql(db, DETECTED[name]) == 1
    stderr = assert_verify_fails(verify(db), int(re.search(r"seq = (\d)", DETECTED[name]).group(1)), check=DERIVED)
    assert "states table" in stderr and "pbem rebuild" in stderr, stderr


@pytest.mark.parametrize("name", SHOWN_TO_PLAYER)
def test_tampered_derived_data_that_reports_show_is_refused(game: Duel, tmp_path: Path, name: str) -> None:
    db = copy_db(game, tmp_path / "c")
    assert sql(db, SHOWN_TO_PLAYER[name]) >= 1
    # the forgery is visible to the player ...
    shown = invoke(CliRunner(), "report", "--all", "--campaign", db.parent, env=game.alice.env).output + \
        invoke(CliRunner(), "status", "--campaign", db.parent, env=game.alice.env).output
    honest = invoke(CliRunner(), "report", "--all", "--campaign", game.alice.dir, env=game.alice.env).output + \
        invoke(CliRunner(), "status", "--campaign", game.alice.dir, env=game.alice.env).output
    assert shown != honest
    # ... so verify must not call the database OK, and says which table
    stderr = assert_verify_fails(verify(db), check=SHOWN_CHECK[name])
    assert SHOWN_TABLE[name] in stderr and "pbem rebuild" in stderr, stderr


@pytest.mark.parametrize("name", TAMPERS)
def test_rebuild_repairs_derived_only_tampering(game: Duel, tmp_path: Path, name: str) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, TAMPERS[name])
    result = invoke(CliRunner(), "rebuild", "--campaign", db.parent, env=game.alice.env)
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("rebuilt: OK: 8 envelopes, 6 actions, 36 dice checked"), result.output
    assert verify(db).output == verify(game.alice.db).output
    assert verify(db).exit_code == 0
    for command in ("status", "report"):
        args = [command] + (["--all"] if command == "report" else [])
        repaired = invoke(CliRunner(), *args, "--campaign", db.parent, env=game.alice.env)
        honest = invoke(CliRunner(), *args, "--campaign", game.alice.dir, env=game.alice.env)
        assert repaired.exit_code == honest.exit_code == 0, repaired.output
        beside = lambda out: "\n".join(x for x in out.splitlines() if "outbox" not in x)  # noqa: E731
        assert beside(repaired.output) == beside(honest.output)  # the copy holds the database, not the outbox


def test_rebuild_refuses_a_tampered_envelope_and_changes_nothing(game: Duel, rows, tmp_path: Path) -> None:
    db = copy_db(game, tmp_path / "c")
    raw = rows[4][4]
    index = positions(raw)["body middle"]
    sql(db, "update envelopes set raw = ? where seq = 4", change_char(raw, index, other_char(raw[index])))
    before = db_bytes(db)
    result = invoke(CliRunner(), "rebuild", "--campaign", db.parent, env=game.alice.env)
    assert_verify_fails(result, 4, check=SIGNATURE)
    assert db_bytes(db) == before


@pytest.mark.parametrize("value", [b"\x00\x01binary", 12345])
def test_a_stored_envelope_that_is_not_text_is_refused(game: Duel, tmp_path: Path, value) -> None:
    db = copy_db(game, tmp_path / "c")
    sql(db, "update envelopes set raw = ? where seq = 3", value)
    assert_verify_fails(verify(db), 3, check=STORED_DAMAGED)


@pytest.mark.parametrize("how", ["cast(raw as blob)", "length(raw)"])  # a number is stored as its digits' text
def test_a_genesis_stored_as_a_blob_or_a_number_is_refused_by_every_reader(game: Duel, tmp_path: Path, how) -> None:
    where = tmp_path / "c"
    shutil.copytree(game.alice.dir, where)
    sql(where / "campaign.db", f"update envelopes set raw = {how} where seq = 0")
    before = db_bytes(where)
    assert_verify_fails(verify(where / "campaign.db"), 0, check=STORED_DAMAGED)
    for command in (["status"], ["report"], ["replay", "-o", tmp_path / "r.html"], ["play", "1"], ["resend"]):
        result = invoke(CliRunner(), *command, "--campaign", where, env=game.alice.env)
        assert_refused(result, "bad-campaign")
        assert "is damaged" in result.stderr.splitlines()[0]
    assert_refused(invoke(CliRunner(), "audit", where, env=game.alice.env), ("bad-campaign", "verify-failed"))
    assert db_bytes(where) == before


def test_events_in_other_words_are_said_to_leave_the_turn_files_unquestioned(game: Duel, tmp_path: Path) -> None:
    """An update of pbem that rewords events leaves the stored words behind: verify still refuses
    the database, and says the turn files are not in question (rebuild); a changed roll is not."""
    words = copy_db(game, tmp_path / "w")
    assert sql(words, SHOWN_TO_PLAYER["events changed"]) >= 1
    assert "only the words of its events differ" in assert_verify_fails(verify(words), check=DERIVED)
    rolls = copy_db(game, tmp_path / "r")
    assert sql(rolls, SHOWN_TO_PLAYER["rolls changed"]) >= 1
    assert "only the words" not in assert_verify_fails(verify(rolls), check=DERIVED)
