"""Turn files reach every player of a team side by mail (``pbem.mailbox.team_mail``): a member's
file goes to its teammates, the side's player forwards what the opponent sent it, and a referee
mails a side's own file to its members; each copy then holds the whole game and verifies it."""

from __future__ import annotations

import email
from email.policy import default as default_policy
from pathlib import Path

from click.testing import CliRunner

from pbem.mailbox.team_mail import copies
from pbem.play.campaign import Campaign
from tests.conftest import assert_refused, invoke, pbem
from tests.test_teams import END, MOVE, ingest, play, team_game


def mailed(player) -> list[tuple[str, str, list[str]]]:
    """What ``pbem mail send`` adds to ``player``'s outbox for the team: (to side, to, files)."""
    camp = Campaign.open(player.dir)
    try:
        written = copies(camp, f"{player.name}@example.org")
        assert copies(camp, f"{player.name}@example.org") == []  # once
    finally:
        camp.ledger.close()
    out = []
    for path in written:
        msg = email.message_from_bytes(path.read_bytes(), policy=default_policy)
        out.append((msg["X-Pbem-To-Side"], msg["To"], [p.get_filename() for p in msg.iter_attachments()]))
    return out


def test_a_members_file_reaches_the_commander_and_the_opponents_reach_the_member(tmp_path: Path):
    runner = CliRunner()
    alice, bob, carol = team_game(runner, tmp_path, "any")
    refused = invoke(runner, "team", "address", "zed", "z@example.org", "--campaign", alice.dir, env=alice.env)
    assert_refused(refused, "bad-member")
    pbem(runner, "team", "address", "alice", "alice@example.org", "--campaign", carol.dir, env=carol.env)
    pbem(runner, "team", "address", "carol", "carol@example.org", "--campaign", alice.dir, env=alice.env)
    c2 = play(runner, carol, MOVE, END)  # Carol plays the allied turn: it goes to Bob, and to Alice
    assert mailed(carol) == [("member:alice", "alice@example.org", [c2.name])]
    ingest(runner, bob, c2)
    ingest(runner, alice, c2)
    b3 = play(runner, bob, "1", "6")
    ingest(runner, alice, b3)  # Bob mails the allied side's address: Alice's
    a4 = play(runner, alice, MOVE, END)
    sent = mailed(alice)  # Bob's file forwarded, and her own; never Carol's own file back to her
    assert sorted(f for _, _, files in sent for f in files) == sorted([b3.name, a4.name])
    assert all((side, to) == ("member:carol", "carol@example.org") for side, to, _ in sent)
    for path in sorted((alice.dir / "outbox").glob("*-member-carol.eml")):
        ingest(runner, carol, path)  # the mails as they come, saved
    assert pbem(runner, "verify", carol.dir, env=carol.env).output.startswith("OK: 5 envelopes")
    assert mailed(bob) == []  # a side without members mails no one more


def referee_copies(ref) -> list[Path]:
    """What the referee's ``pbem mail send`` adds for the teams (its campaign let go on return)."""
    camp = Campaign.open(ref.dir / "c")
    try:
        return copies(camp, "ref@example.org")
    finally:
        camp.ledger.close()


def test_the_referee_mails_a_sides_file_to_its_members_too(tmp_path: Path):
    from tests.test_referee_team import founded

    homes = founded(tmp_path, "any", {"carol": "allied"})
    ref, carol = homes["ref"], homes["carol"]
    ref("team", "address", "carol", "carol@example.org")
    written = referee_copies(ref)
    messages = [email.message_from_bytes(p.read_bytes(), policy=default_policy) for p in written]
    # the side's own file of each adjudication so far, to the allied member; nothing of the ottoman's
    assert [m["X-Pbem-To-Side"] for m in messages] == ["member:carol"] * len(messages) and messages
    names = [p.get_filename() for m in messages for p in m.iter_attachments()]
    assert names == sorted(p.name for p in (ref.dir / "c" / "sent" / "to-allied").glob("*.pbem"))
    for path in written:  # the member's copy takes them (it holds them already: nothing new, nothing refused)
        carol("ingest", str(path))
    from tests.test_referee_witness import play_as

    assert play_as(homes["bob"], "bob")  # the ottoman's orders, then the referee's next file
    ref("ingest", str(homes["bob"].newest(".")))
    ref("play")
    [new] = referee_copies(ref)  # only the new file
    assert "accepted" in carol("ingest", str(new))  # from the mail alone: the member follows the game
    assert carol("verify", "c", campaign=False).startswith("OK: ")
    assert "4 envelopes" in carol("status")  # #0-#1, the ottoman orders #2, the referee's #3
