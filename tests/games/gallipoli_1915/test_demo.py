"""`pbem demo --game gallipoli-1915`: the module's own players play Cape Helles's first three turns
by real turn files, and both sides verify to one state."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.cli import cli
from pbem.play.campaign import Campaign


def test_demo_plays_helles_first_turns_and_both_sides_verify(tmp_path):
    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path / "d"), "--game", "gallipoli-1915"])
    assert result.exit_code == 0, result.output
    verified = [line for line in result.output.splitlines() if line.startswith("verify ")]
    assert len(verified) == 2 and all(": OK: " in line for line in verified), verified
    assert len({line.rsplit("state ", 1)[1] for line in verified}) == 1  # both sides reach the same state
    camp = Campaign.open(tmp_path / "d" / "alice", readonly=True)
    try:
        log = "\n".join(e["text"] for e in camp.ledger.events())
    finally:
        camp.ledger.close()
    for what in ("turn 2, 6-8 am 25 April (day): Amphibious Assault Phase", "draws a Naval Gunfire chit",
                 "ottoman Coastal Defense fire", "steps of capacity left this turn", "return to their cups unseen",
                 "turn 3, 8-10 am 25 April (day) was the scenario's last", "ottoman accepts"):
        assert what in log, what
    page = (tmp_path / "d" / "alice" / "report.html").read_text()
    assert "Sedd el Bahr (hex 8.2)" in page  # the pack's places at the book's hex numbers
    assert "1/Royal Dublin Fusiliers (6.2)" in page and "3/26th Regiment (8.2)" in page  # counters where moved
