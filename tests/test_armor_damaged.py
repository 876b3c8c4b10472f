"""A damaged BEGIN line never drops a turn file silently, and a turn file is measured before it
is decoded.

In a file, a block whose BEGIN line is damaged refuses the whole file with a reason naming the
block; in a mailbox, where a message may quote other games' mail, that block is reported as
refused and the rest of the message is read.
"""

from __future__ import annotations

import mailbox
import re
import time
from email.message import EmailMessage

import pytest

from pbem.wire.armor import BEGIN, find_blocks
from pbem.errors import PbemError
from tests.conftest import assert_no_traceback, assert_refused, db_bytes, forge, invoke, read_envelope

DAMAGED_BEGIN = {
    "a dash lost": "-----BEGIN PBEM TURN----",
    "a letter changed": "-----BEGIN PBEM TRUN-----",
    "lower case": "-----begin pbem turn-----",
    "the line lost": None,
}


@pytest.fixture
def turns(two_campaigns):
    """Alice has played #2; bob has ingested it and played #3; alice has ingested nothing of bob's since his join.

    Returns the duel, bob's join file and his turn #3 file."""
    d = two_campaigns
    d.deliver(d.play("red"), "bob")
    return d, d.join_file.read_text(), d.play("blue").read_text()


def damage(text: str, how: str) -> str:
    new = DAMAGED_BEGIN[how]
    return text.replace(BEGIN + "\n", "" if new is None else new + "\n", 1)


@pytest.mark.parametrize("how", sorted(DAMAGED_BEGIN))
def test_a_file_with_a_damaged_block_is_refused_naming_it(turns, tmp_path, how):
    d, join, turn3 = turns
    path = tmp_path / "both.pbem"
    path.write_text(join + "\n" + damage(turn3, how))  # the join (already known) and bob's #3, damaged
    before = db_bytes(d.alice.dir)
    result = d.ingest("alice", path)
    assert_refused(result, {"bad-armor", "truncated"})
    reason = result.stderr.splitlines()[0]
    assert "turn file #3 from blue" in reason and "BEGIN line" in reason, reason
    assert str(path) in result.stderr.splitlines()[1]
    assert db_bytes(d.alice.dir) == before
    assert "accepted" not in result.output


def test_the_damaged_block_first_and_the_good_one_after(turns, tmp_path):
    d, join, turn3 = turns
    path = tmp_path / "both.pbem"
    path.write_text(damage(join, "a dash lost") + turn3)
    before = db_bytes(d.alice.dir)
    result = d.ingest("alice", path)
    assert_refused(result, "bad-armor")
    assert "turn file #1 from blue: its BEGIN line is damaged" in result.stderr
    assert db_bytes(d.alice.dir) == before


def test_scan_reports_the_damaged_block_and_keeps_the_others(turns):
    from pbem.wire.armor import scan

    _, join, turn3 = turns
    text = "Hello,\n\n" + damage(join, "a letter changed") + "\nand\n\n" + turn3 + "\n" + damage(turn3, "the line lost")
    found = scan(text)
    assert [b.headers["Seq"] for b in found.blocks] == ["3"]
    assert [d.line for d in found.damaged] == [3, len(text.splitlines())]  # the second: at its END line
    assert "turn file #1 from blue" in str(found.damaged[0].error)
    assert "turn file #3 from blue" in str(found.damaged[1].error)
    with pytest.raises(PbemError) as e:
        find_blocks(text)
    assert "#1 from blue" in str(e.value)


def test_prose_that_names_the_markers_is_not_a_damaged_block(turns):
    _, _, turn3 = turns
    prose = ("Please send the file whole, from\n-----BEGIN PBEM TURN----- to -----END PBEM TURN-----), thanks.\n"
             "> -----BEGIN PGP SIGNATURE-----\n> abc\n> -----END PGP SIGNATURE-----\n")
    assert [b.headers["Seq"] for b in find_blocks(prose + turn3)] == ["3"]


def test_in_a_mailbox_the_damaged_block_is_refused_and_the_rest_read(turns, tmp_path):
    d, join, turn3 = turns
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "bob@example.org", "alice@example.org", "my turn"
    msg.set_content("An old one, mangled by my mail program:\n\n" + damage(join, "a dash lost") + "\nMy turn:\n\n" + turn3)
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(msg)
    result = invoke(d.runner, "mail", "fetch", "--maildir", tmp_path / "Maildir", "--campaign", d.alice.dir,
                    env=d.alice.env)
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output + result.stderr
    assert "accepted #3 from blue" in result.output
    assert re.search(r"REFUSED a message from bob@example.org .*bad-armor: damaged turn file #1 from blue: "
                     r"its BEGIN line is damaged", result.stderr), result.stderr


# --- size, before decoding ---------------------------------------------------------------

def test_a_turn_file_with_a_huge_field_is_refused_before_it_is_read(turns, tmp_path):
    """A turn file signed by its real author, its body carrying a 2 MB field: refused on its size."""
    d, _, turn3 = turns
    path = tmp_path / "turn3.pbem"
    path.write_text(turn3)
    content = read_envelope(path).content
    content["body"]["padding"] = "x" * 2_000_000
    big = forge(d.identity(d.bob), content, tmp_path / "big.pbem")
    assert big.stat().st_size > 2_000_000
    before = db_bytes(d.alice.dir)
    started = time.monotonic()
    result = d.ingest("alice", big)
    assert_refused(result, "too-large")
    assert "turn file #3 from blue too large" in result.stderr
    assert "PBEM_MAX_TURN_FILE_BYTES" in result.stderr
    assert db_bytes(d.alice.dir) == before
    assert time.monotonic() - started < 10
    # the bound can be raised: then the file is read, and refused for what it holds
    raised = invoke(d.runner, "ingest", "--campaign", d.alice.dir, big,
                    env=dict(d.alice.env, PBEM_MAX_TURN_FILE_BYTES="5000000"))
    assert raised.exit_code == 1 and "too-large" not in raised.stderr
    assert db_bytes(d.alice.dir) == before


def test_a_bad_limit_setting_is_refused_with_a_reason(turns, tmp_path):
    d, _, turn3 = turns
    path = tmp_path / "turn3.pbem"
    path.write_text(turn3)
    result = invoke(d.runner, "ingest", "--campaign", d.alice.dir, path,
                    env=dict(d.alice.env, PBEM_MAX_TURN_FILE_BYTES="lots"))
    assert_refused(result, "bad-config")
    assert "PBEM_MAX_TURN_FILE_BYTES" in result.stderr


def test_a_file_too_large_to_read_is_refused(turns, tmp_path):
    d, _, turn3 = turns
    path = tmp_path / "long.pbem"
    path.write_text("notes\n" * 40_000 + turn3)
    before = db_bytes(d.alice.dir)
    result = invoke(d.runner, "ingest", "--campaign", d.alice.dir, path,
                    env=dict(d.alice.env, PBEM_MAX_MAIL_BYTES="100000"))
    assert_refused(result, "too-large")
    assert "PBEM_MAX_MAIL_BYTES" in result.stderr
    assert db_bytes(d.alice.dir) == before
