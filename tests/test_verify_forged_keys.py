"""``pbem verify`` re-checks who signed each stored envelope, not only that a signature verifies.

Ingest has its own check of the signer (campaign.py), so only a database edited afterwards can
show whether verify makes it too. Each test plants, in a copy of alice's database, an envelope
that is validly signed and says exactly what the honest one says (same content, same hash, so
every index column and derived row still matches): only the signer differs, or the game it
names, or its author; the same for a timeout claim. Each fails when its check in
``pbem.chain.history`` is removed (see ``tools/mutate.py``).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block, seal
from tests.conftest import Duel, assert_no_traceback, assert_refused, db_bytes, invoke


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Duel:
    duel = Duel(tmp_path_factory.mktemp("forged-keys"), CliRunner())
    for _ in range(3):
        duel.turn(duel.waiting_side())
    return duel


def stored(db: Path, seq: int) -> tuple[str, str, str]:
    """(hash, author, raw) of stored envelope ``seq``."""
    con = sqlite3.connect(db)
    try:
        return con.execute("select hash, author, raw from envelopes where seq = ?", (seq,)).fetchone()
    finally:
        con.close()


def last_seq(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("select max(seq) from envelopes").fetchone()[0]
    finally:
        con.close()


def plant(game: Duel, where: Path, seq: int, identity, changes: dict | None = None) -> tuple[Path, dict, str]:
    """A copy of alice's campaign whose envelope ``seq`` is re-signed by ``identity`` with ``changes``
    to its content; the row's index columns are rewritten to match. (db, content, hash)."""
    shutil.copytree(game.alice.dir, where)
    db = where / "campaign.db"
    _, _, raw = stored(db, seq)
    content = dict(open_block(find_blocks(raw)[0]).content, **(changes or {}))
    envelope = seal(identity, content)
    con = sqlite3.connect(db)
    try:
        assert con.execute("update envelopes set raw = ?, hash = ?, author = ? where seq = ?",
                           (envelope.raw, envelope.hash, content["author"], seq)).rowcount == 1
        con.commit()
    finally:
        con.close()
    return db, content, envelope.hash


def verify_refusal(db: Path, check: str, seq: int) -> str:
    """``pbem verify`` refused naming entry ``seq`` and the ``check`` that fired; its stderr."""
    result = invoke(CliRunner(), "verify", db.parent)
    assert_no_traceback(result)
    assert result.exit_code == 1, f"verify passed a forged database:\n{result.output}"
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"Error: verify-failed: entry #{seq} "), result.stderr
    assert check in first, f"expected the check {check!r} to fire:\n{result.stderr}"
    return result.stderr


def test_the_honest_copy_verifies(game: Duel) -> None:
    result = invoke(CliRunner(), "verify", game.alice.dir)
    assert result.exit_code == 0 and result.output.startswith("OK: "), result.output


def test_a_turn_signed_by_the_other_sides_key_with_this_sides_name_is_refused_by_verify(game: Duel, tmp_path):
    """Bob signs red's turn #2, word for word (author red): the content and its hash are alice's, the
    signature verifies, but the key is not the one the genesis pins for red."""
    honest_hash, author, _ = stored(game.alice.db, 2)
    assert author == "red"
    db, content, digest = plant(game, tmp_path / "c", 2, game.identity(game.bob))
    assert digest == honest_hash and content["author"] == "red"
    stderr = verify_refusal(db, "signed by the wrong key", 2)
    assert "not the one pinned for red at genesis" in stderr


def test_a_genesis_signed_by_another_key_than_the_one_it_pins_for_its_author_is_refused(game: Duel, tmp_path):
    """Bob re-signs the genesis as it is (alice's key pinned for red, red its author)."""
    honest_hash, _, _ = stored(game.alice.db, 0)
    db, content, digest = plant(game, tmp_path / "c", 0, game.identity(game.bob))
    assert digest == honest_hash and content["author"] == "red"
    verify_refusal(db, "genesis not signed by its author's key", 0)


def test_a_genesis_signed_by_its_authors_key_passes_that_check(game: Duel, tmp_path):
    """The control: the same re-signing with alice's own key changes nothing (Ed25519 is deterministic)."""
    db, _, digest = plant(game, tmp_path / "c", 0, game.identity(game.alice))
    assert digest == stored(game.alice.db, 0)[0]
    result = invoke(CliRunner(), "verify", db.parent)
    assert result.exit_code == 0 and result.output.startswith("OK: "), result.output


def test_an_envelope_of_an_author_the_genesis_does_not_name_is_refused(game: Duel, tmp_path):
    """The last envelope re-signed as a third party 'green' (its own key): no key is pinned for it."""
    seq = last_seq(game.alice.db)
    db, _, _ = plant(game, tmp_path / "c", seq, game.identity(game.alice), {"author": "green"})
    verify_refusal(db, "unknown author", seq)


def test_the_last_envelope_naming_another_game_is_refused(game: Duel, tmp_path):
    """Re-signed by its own author with another game id: the replay would reach the same state
    (the state does not read the envelope's game), so only the game check sees it."""
    seq = last_seq(game.alice.db)
    _, author, _ = stored(game.alice.db, seq)
    signer = game.identity(game.alice if author == "red" else game.bob)
    db, _, _ = plant(game, tmp_path / "c", seq, signer, {"game": "f" * 32})
    verify_refusal(db, "turn file of another game", seq)


def test_a_timeout_claim_signed_by_the_other_sides_key_is_caught_by_verify(tmp_path):
    """A well-founded claim by red (blue owes its reveal past the deadline), but signed by bob's key:
    ingest refuses it (its own check), and verify catches it when it is planted in the claims table."""
    from tests.test_forged_claims import _claim

    d = Duel(tmp_path, CliRunner(), "--deadline", "1")
    d.deliver(d.play("red"), "bob")  # blue owes since #2
    content = _claim(d, "blue", 2)
    honest = seal(d.identity(d.alice), content)
    forged = seal(d.identity(d.bob), content)
    assert forged.hash == honest.hash and forged.content["author"] == "red"
    (tmp_path / "forged-claim.pbem").write_text(forged.raw)
    before = db_bytes(d.bob.dir)
    assert_refused(d.ingest("bob", tmp_path / "forged-claim.pbem"), "wrong-key")
    assert db_bytes(d.bob.dir) == before
    for envelope, passes in ((honest, True), (forged, False)):
        copy = tmp_path / f"bob-{passes}"
        shutil.copytree(d.bob.dir, copy)
        with sqlite3.connect(copy / "campaign.db") as con:
            con.execute("insert into claims (hash, seq, author, raw, received_at) values (?, ?, ?, ?, ?)",
                        (envelope.hash, envelope.seq, "red", envelope.raw, "2026-01-01T00:00:00+00:00"))
        con.close()
        result = invoke(CliRunner(), "verify", copy)
        assert_no_traceback(result)
        if passes:
            assert result.exit_code == 0 and "1 timeout claim(s)" in result.output, result.output
        else:
            assert result.exit_code == 1, result.output
            first = result.stderr.splitlines()[0]
            assert first.startswith("Error: verify-failed: timeout claim ") and "signed by the wrong key" in first, \
                result.stderr
