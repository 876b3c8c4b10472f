"""``pbem audit``: every roll re-derived from its committed inputs, dice statistics, and the p-value.

One sealed and one unsealed barrage duel are played through the CLI (once per
module); tamper tests work on copies of alice's database or of its roll records.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem_engine.protocol import match as protocol
from pbem_engine.chance.dice import Dice
from pbem.check.audit import (REDERIVED, REPLAY_ONLY, AuditedRoll, audit, audit_path, check_rolls, chi2_sf, chi_square,
                        commitments, gammq, render, rederive, statistics)
from pbem.errors import VerifyError
from pbem.store.ledger import Ledger
from tests.conftest import Duel, assert_no_traceback, assert_refused, db_bytes, invoke

ROLL_LINE = re.compile(r"^roll (\d+): #(\d+)->#(\d+) (\w+) (SEALED|UNSEALED|SCRIPTED) links (.*?) decl ([0-9a-f]{16}) ")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Duel:
    duel = Duel(tmp_path_factory.mktemp("sealed"), CliRunner())
    duel.play_out()
    return duel


@pytest.fixture(scope="module")
def unsealed_game(tmp_path_factory: pytest.TempPathFactory) -> Duel:
    duel = Duel(tmp_path_factory.mktemp("unsealed"), CliRunner(), "--dice", "unsealed")
    duel.play_out()
    return duel


def stored_rolls(db: Path) -> list[dict]:
    ledger = Ledger.open(db, readonly=True)
    try:
        return ledger.rolls()
    finally:
        ledger.close()


def stored_commitments(db: Path):
    ledger = Ledger.open(db, readonly=True)
    try:
        return commitments(ledger)
    finally:
        ledger.close()


def run_audit(path: Path, *args) -> tuple:
    result = invoke(CliRunner(), "audit", path, *args)
    return result, result.stdout.splitlines()


# --- the audit of a played game ------------------------------------------------------

def test_audit_lists_every_roll_with_its_inputs(game: Duel):
    before = db_bytes(game.alice.dir)
    result, lines = run_audit(game.alice.dir)
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    rolls = stored_rolls(game.alice.db)
    con = sqlite3.connect(game.alice.db)
    try:
        assert con.execute("select count(*) from rolls").fetchone()[0] == len(rolls) == 6
    finally:
        con.close()
    roll_lines = [line for line in lines if line.startswith("roll ")]
    assert len(roll_lines) == len(rolls)
    for line, roll in zip(roll_lines, rolls):
        m = ROLL_LINE.match(line)
        assert m, line
        assert (int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)) == (
            roll["declared_in"], roll["seq"], roll["actor"], "SEALED")
        for link in roll["links"]:
            assert f"{link['side']}[{link['index']}]={link['link'][:16]}" in m.group(6)
        assert m.group(7) == roll["declarations"][:16]
        assert f"seed {roll['seed'][:16]}" in line
        assert roll["purpose"] in line and roll["spec"] in line
        assert " ".join(map(str, roll["values"])) in line
        assert line.endswith("| re-derived")
    # the header: game, module, mode, envelopes, rolls, dice
    dice = sum(len(r["values"]) for r in rolls)
    assert re.search(rf"module barrage .*dice sealed, \d+ envelopes, {len(rolls)} rolls, {dice} dice", lines[0])
    # per-side statistics for d6 add up to the dice rolled, and each side's to its own dice
    stats = {m.group(1): int(m.group(2)) for line in lines if (m := re.match(r"^(red|blue)\s+d6\s+(\d+)\s", line))}
    assert set(stats) == {"red", "blue"}
    assert sum(stats.values()) == dice
    for side, count in stats.items():
        assert count == sum(len(r["values"]) for r in rolls if r["actor"] == side)
    assert "sample too small" in result.output  # 18 dice a side: 3 expected per face
    assert lines[-1] == f"audit OK: {len(rolls)} rolls re-derived from their committed inputs"
    assert db_bytes(game.alice.dir) == before  # opened read-only


def test_both_copies_and_the_db_path_give_the_same_audit(game: Duel):
    alice, _ = run_audit(game.alice.db)
    bob, _ = run_audit(game.bob.dir)
    assert alice.exit_code == bob.exit_code == 0
    rows = lambda out: [line for line in out.splitlines() if line.startswith("roll ")]  # noqa: E731
    assert rows(alice.output) == rows(bob.output)


def test_library_audit_result(game: Duel):
    result = audit_path(game.alice.dir)
    assert result.rederived == len(result.rolls) == 6 and result.unsealed == 0
    assert [s.dice for s in result.stats] == [18, 18]
    for s in result.stats:
        assert sum(c for _, c in s.counts) == s.dice and [f for f, _ in s.counts] == [1, 2, 3, 4, 5, 6]
        assert s.df == 5 and 0 <= s.p <= 1 and s.small


# --- tampering -------------------------------------------------------------------------

def test_tampered_roll_value_in_a_copy_is_refused(game: Duel, tmp_path: Path):
    copy_dir = tmp_path / "copy"
    copy_dir.mkdir()
    db = copy_dir / "campaign.db"
    shutil.copy(game.alice.db, db)
    con = sqlite3.connect(db)
    try:
        seq, n, values = con.execute("select seq, n, dice from rolls order by seq, n limit 1 offset 2").fetchone()
        values = json.loads(values)
        values[0] = values[0] % 6 + 1
        con.execute("update rolls set dice = ? where seq = ? and n = ?", (json.dumps(values), seq, n))
        con.commit()
    finally:
        con.close()
    result, _ = run_audit(copy_dir)
    assert_refused(result, "verify-failed")
    assert f"#{seq}" in result.stderr
    assert "audit OK" not in result.output


def _tamper_values(roll):
    roll["values"][0] = roll["values"][0] % 6 + 1


def _tamper_seed(roll):
    roll["seed"] = ("0" if roll["seed"][0] != "0" else "1") + roll["seed"][1:]


def _tamper_actor_link(roll):
    roll["links"][0]["link"] = "ab" * 32


def _tamper_other_link(roll):
    link = bytes.fromhex(roll["links"][1]["link"])
    roll["links"][1]["link"] = bytes([link[0] ^ 1]).hex() + link[1:].hex()


def _tamper_link_index(roll):
    roll["links"][1]["index"] += 1


def _tamper_declarations(roll):
    roll["declarations"] = protocol.declarations_hash([{"do": "something else"}])


def _tamper_result(roll):
    roll["result"] += 1


def _tamper_declared_in(roll):
    roll["declared_in"] -= 2


def _tamper_actor(roll):
    roll["actor"] = "blue" if roll["actor"] == "red" else "red"


def _tamper_mode(roll):
    roll["mode"] = "unsealed"


@pytest.mark.parametrize("tamper, says", [
    (_tamper_values, "values"),
    (_tamper_seed, "seed"),
    (_tamper_actor_link, "does not hash down the chain"),
    (_tamper_other_link, "does not hash down the chain"),
    (_tamper_link_index, "does not hash down the chain"),
    (_tamper_declarations, "declarations hash"),
    (_tamper_result, "result"),
    (_tamper_declared_in, "envelope #"),
    (_tamper_actor, "links must be"),
    (_tamper_mode, "mode"),
], ids=lambda x: getattr(x, "__name__", x))
def test_rederivation_catches_an_altered_roll_record(game: Duel, tamper, says):
    commits = stored_commitments(game.alice.db)
    rolls = stored_rolls(game.alice.db)
    assert [r.check for r in check_rolls(commits, rolls)] == [REDERIVED] * len(rolls)
    for k in (0, 3, len(rolls) - 1):
        bad = copy.deepcopy(rolls)
        tamper(bad[k])
        with pytest.raises(VerifyError) as caught:
            check_rolls(commits, bad)
        assert str(caught.value) == "dice audit failed"
        assert caught.value.detail.startswith(f"roll {k + 1} (entry #{rolls[k]['seq']}, n {rolls[k]['n']}: "
                                              f"{rolls[k]['purpose']}"), caught.value.detail
        assert says in caught.value.detail, caught.value.detail


def _reseed(commits, roll) -> None:
    """Make a forged record self-consistent: its seed from its (forged) inputs, its values from that seed."""
    actor, other = roll["links"]
    seed = protocol.roll_seed(commits.game_id, roll["declared_in"], actor["link"], other["link"], roll["declarations"])
    roll["seed"] = seed.hex()
    dice = Dice(seed)
    roll["result"] = dice.pool(len(roll["values"]), 6, 5, roll["purpose"])
    roll["values"] = dice.rolls[-1]["values"]


def test_a_self_consistent_forgery_is_caught_by_what_was_signed(game: Duel):
    """Seed and values recomputed from forged inputs: the inputs are not the ones the envelopes committed."""
    commits = stored_commitments(game.alice.db)
    rolls = stored_rolls(game.alice.db)
    # declarations nobody signed
    bad = copy.deepcopy(rolls)
    bad[2]["declarations"] = protocol.declarations_hash([{"do": "fire"}, {"do": "fire"}])
    _reseed(commits, bad[2])
    with pytest.raises(VerifyError, match="dice audit failed") as caught:
        check_rolls(commits, bad)
    assert caught.value.detail.startswith("roll 3 ") and "not the hash of actions signed" in caught.value.detail
    # a genuine later link of the other side (known to whoever saw the next envelope): not the one that sealed it
    bad = copy.deepcopy(rolls)
    bad[1]["links"][1] = dict(rolls[3]["links"][1])
    _reseed(commits, bad[1])
    with pytest.raises(VerifyError) as caught:
        check_rolls(commits, bad)
    assert caught.value.detail.startswith("roll 2 ") and "is not the one revealed in envelope" in caught.value.detail


def test_rederive_a_stream_with_every_kind_of_draw():
    seed = "5e" * 32
    dice = Dice(bytes.fromhex(seed))
    dice.total(3, 6, "landing fire")
    dice.pool(5, 6, 4, "fire on 4+")
    dice.pool(4, 6, 2, "morale, low is good", at_most=True)
    dice.shuffle(["a", "b", "c", "d"], "deck")
    dice.d10("surprise", zero_based=True)
    dice.d10("weather")
    dice.draw(["x", "y", "z"], 2, "chits")
    dice.d100("event")
    dice.d100("event table", zero_based=True)
    dice.coin("who starts")
    dice.roll(8, "a d8")
    records = copy.deepcopy(dice.rolls)
    checks = rederive(seed, records)
    assert checks == [REDERIVED, REDERIVED, REDERIVED, REPLAY_ONLY, REDERIVED, REDERIVED, REPLAY_ONLY,
                      REDERIVED, REDERIVED, REDERIVED, REDERIVED]
    # after a shuffle and a draw the stream is still in step: a changed later value is caught
    records[-2]["values"] = ["tails" if records[-2]["values"] == ["heads"] else "heads"]
    with pytest.raises(VerifyError) as caught:
        rederive(seed, records)
    assert caught.value.detail.startswith("roll 10 (who starts, coin)")
    with pytest.raises(VerifyError, match="dice audit failed"):
        rederive(seed, [dict(records[0], spec="3d7")])
    known = Dice(b"pbem known answer")
    known.dice(20, 6, "kat")
    record = copy.deepcopy(known.rolls[0])
    assert rederive(b"pbem known answer".hex(), [record]) == [REDERIVED]
    record["values"][record["values"].index(1)] = True  # JSON true is not the face 1
    with pytest.raises(VerifyError, match="dice audit failed"):
        rederive(b"pbem known answer".hex(), [record])
    with pytest.raises(VerifyError, match="dice audit failed"):
        rederive(seed, [dict(records[0], spec="a mystery die")])


# --- statistics ------------------------------------------------------------------------

@pytest.mark.parametrize("x, df, p", [(3.84, 1, 0.0500), (11.07, 5, 0.0500), (5.99, 2, 0.0500), (6.63, 1, 0.0100),
                                      (2.0, 10, 0.99634), (1.0, 2, 0.60653), (15.09, 5, 0.0100), (4.3515, 5, 0.5)])
def test_chi2_p_value_known_values(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, abs=2e-4)


def test_chi2_p_value_edges():
    for k in (1, 2, 5, 9, 99):
        assert chi2_sf(0, k) == 1.0
    assert chi2_sf(100, 5) < 1e-15
    assert chi2_sf(1e4, 99) < 1e-300 or chi2_sf(1e4, 99) == 0.0
    assert gammq(1, 2.5) == pytest.approx(2.718281828459045 ** -2.5, rel=1e-12)  # Q(1, x) = exp(-x)
    with pytest.raises(ValueError):
        chi2_sf(1, 0)


def test_fair_dice_pass_and_loaded_dice_fail():
    values = Dice(b"pbem audit: a long fair run").dice(60_000, 6, "long run")
    stat, df = chi_square([values.count(face) for face in range(1, 7)])
    assert df == 5 and chi2_sf(stat, df) > 0.01
    stat, df = chi_square([10_000, 10_000, 10_000, 10_000, 10_000, 10_600])  # sixes 6% too often
    assert chi2_sf(stat, df) < 0.001
    assert chi_square([5, 5, 5, 5]) == (0.0, 3)


def _roll(actor: str, die: str, faces: tuple, values: list) -> AuditedRoll:
    return AuditedRoll(1, 3, 0, "p", "spec", values, None, actor, 2, 3, "SEALED", [], "0" * 64, "0" * 64, REDERIVED,
                       die, faces)


def test_statistics_per_side_and_die_type():
    rolls = [_roll("blue", "d10 (0-9)", tuple(range(10)), [0, 0, 9]),
             _roll("red", "d6", tuple(range(1, 7)), [6, 6, 1]),
             _roll("red", "d2 (coin)", ("heads", "tails"), ["heads"] * 30 + ["tails"] * 10),
             _roll("red", None, (), ["a", "b"])]  # a shuffle: not counted
    stats = statistics(rolls, ("red", "blue"))
    assert [(s.side, s.die, s.dice) for s in stats] == [("red", "d2 (coin)", 40), ("red", "d6", 3),
                                                       ("blue", "d10 (0-9)", 3)]
    coin, d6, d10 = stats
    assert coin.mean is None and coin.counts == [("heads", 30), ("tails", 10)] and not coin.small
    assert coin.chi2 == pytest.approx(10.0) and coin.df == 1 and coin.p == pytest.approx(chi2_sf(10, 1))
    assert d6.mean == pytest.approx(13 / 3) and d6.fair_mean == 3.5 and d6.small and "too small" in d6.note
    assert d10.counts[0] == (0, 2) and d10.counts[9] == (9, 1) and sum(c for _, c in d10.counts) == 3


# --- HTML ------------------------------------------------------------------------------

def test_html_has_a_histogram_per_side_and_die_and_no_script(game: Duel, tmp_path: Path):
    out = tmp_path / "audit.html"
    result, lines = run_audit(game.alice.dir, "--html", out)
    assert result.exit_code == 0, result.output
    assert lines[-1].startswith("audit OK")  # "wrote FILE" goes to stderr
    assert f"wrote {out}" in result.stderr
    html = out.read_text()
    figures = re.findall(r'<figure class="histogram" data-side="(\w+)" data-die="([^"]+)">', html)
    assert sorted(figures) == [("blue", "d6"), ("red", "d6")]
    assert html.count("<svg") == 2 and html.count('class="expected"') == 2
    assert html.count('<tr class="roll">') == 6
    assert "<script" not in html.lower() and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "audit OK: 6 rolls re-derived" in html


def test_html_escapes_what_it_shows(game: Duel):
    result = audit_path(game.alice.dir)
    result.rolls[0].purpose = '<script>alert("dice")</script>'
    html = render(result, "html")
    assert "<script" not in html and "&lt;script&gt;" in html
    assert '<script>alert("dice")</script>' in render(result, "text")  # plain text is not escaped


def test_html_to_an_unwritable_place_is_refused(game: Duel, tmp_path: Path):
    result, _ = run_audit(game.alice.dir, "--html", tmp_path / "no" / "such" / "dir" / "a.html")
    assert_refused(result, "unwritable")


# --- unsealed games and refusals ----------------------------------------------------------

def test_unsealed_rolls_are_labelled_and_counted(unsealed_game: Duel):
    result, lines = run_audit(unsealed_game.alice.dir)
    assert result.exit_code == 0, result.output
    rolls = stored_rolls(unsealed_game.alice.db)
    roll_lines = [line for line in lines if line.startswith("roll ")]
    assert len(roll_lines) == len(rolls) == 6
    for line, roll in zip(roll_lines, rolls):
        m = ROLL_LINE.match(line)
        assert m and m.group(5) == "UNSEALED", line
        assert m.group(2) == m.group(3) == str(roll["seq"])  # declared and seeded in the same envelope
    assert "dice unsealed" in lines[0]
    assert lines[-1].startswith("audit OK: 6 rolls re-derived from their committed inputs; 6 UNSEALED")


def test_unsealed_other_link_must_be_the_last_revealed(unsealed_game: Duel):
    commits = stored_commitments(unsealed_game.alice.db)
    rolls = stored_rolls(unsealed_game.alice.db)
    assert len(check_rolls(commits, rolls)) == 6
    bad = copy.deepcopy(rolls)
    bad[4]["links"][1] = dict(rolls[0]["links"][1])  # an older, genuine link of the other side
    _reseed(commits, bad[4])
    with pytest.raises(VerifyError) as caught:
        check_rolls(commits, bad)
    assert caught.value.detail.startswith("roll 5 ") and "not the one revealed" in caught.value.detail


def test_audit_of_nothing_is_refused(tmp_path: Path):
    result, _ = run_audit(tmp_path)
    assert_refused(result, "no-campaign")


def test_audit_of_a_game_without_rolls(two_campaigns: Duel):
    result, lines = run_audit(two_campaigns.alice.dir)
    assert result.exit_code == 0, result.output
    assert "(no shared-dice rolls in this history)" in result.output and "No dice to count." in result.output
    assert lines[-1] == "audit OK: 0 rolls re-derived from their committed inputs"
    ledger = Ledger.open(two_campaigns.alice.db, readonly=True)
    try:
        assert audit(ledger).stats == []
    finally:
        ledger.close()
