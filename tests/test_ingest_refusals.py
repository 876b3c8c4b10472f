"""``pbem ingest`` refuses bad input with a one-line reason and leaves the campaign exactly as it was."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import (Duel, Player, assert_no_traceback, assert_refused, blocks_of, db_bytes, forge, invoke,
                            next_state, read_envelope)


@pytest.fixture
def duel(two_campaigns: Duel) -> Duel:
    """Alice (red) has played #2 and bob has ingested it; bob has played #3, which alice has not ingested yet."""
    d = two_campaigns
    d.f2 = d.turn("alice")
    d.f3 = d.play("bob")
    return d


@pytest.fixture
def thread(duel: Duel) -> Duel:
    """As ``duel``, then: a copy of alice at #2 (``alice_at2``); alice ingests #3 and plays #4; bob plays #5.

    Alice (head #4) has not ingested #5; ``alice_at2`` has seen nothing after #2.
    """
    d = duel
    d.alice_at2 = d.snapshot("alice", "at2")
    d.deliver(d.f3, "alice")
    d.f4 = d.turn("alice")
    d.f5 = d.play("bob")
    return d


def listing(player: Player) -> list[str]:
    """Every file of a campaign but the database, with its size (turn files archived, evidence kept...)."""
    return sorted(f"{p.relative_to(player.dir)}:{p.stat().st_size}" for p in player.dir.rglob("*")
                  if p.is_file() and p.name != "campaign.db")


def assert_refused_unchanged(d: Duel, player: Player, files: list[Path], code) -> str:
    """Ingesting ``files`` is refused with ``code``; the database and the other files are unchanged."""
    before, files_before = db_bytes(player.dir), listing(player)
    result = d.ingest(player, *files)
    found = assert_refused(result, code)
    assert db_bytes(player.dir) == before, "a refused ingest changed the database"
    assert listing(player) == files_before, "a refused ingest changed the campaign's files"
    assert "accepted" not in result.output
    return found


def write(d: Duel, name: str, data: str | bytes) -> Path:
    path = d.root / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    return path


def change(text: str, index: int) -> str:
    """``text`` with the character at ``index`` changed to another of its kind (base64 stays base64)."""
    old = text[index]
    assert not old.isspace()
    new = {"+": "/", "/": "+", "=": "A", "A": "B"}.get(old, "A")
    return text[:index] + new + text[index + 1:]


def turn_content(path: Path) -> dict:
    return copy.deepcopy(read_envelope(path).content)


def forged(d: Duel, name: str, signer: Player, content: dict) -> Path:
    return forge(d.identity(signer), content, d.root / name)


# --- the cases: each builds a bad file from the duel, and names the refusal code -------

def _body_positions(text: str) -> dict[str, int]:
    lines = text.splitlines(keepends=True)
    starts = [sum(map(len, lines[:i])) for i in range(len(lines))]
    body = range(7, len(lines) - 1)

    def at(char: int) -> int:  # the char-th character of the base64 body
        for i in body:
            n = len(lines[i].rstrip("\n"))
            if char < n:
                return starts[i] + char
            char -= n
        raise IndexError(char)

    last_line = len(lines) - 2
    return {"first": at(0), "signature": at(40), "public key": at(100), "json": at(300),
            "last before END": starts[last_line] + len(lines[last_line].rstrip("\n")) - 1}


def _header_value(text: str, field: str) -> int:
    m = re.search(rf"^{field}: (\S+)$", text, re.M)
    return m.end(1) - 1


def _header_name(text: str, field: str) -> int:
    return re.search(rf"^{field}:", text, re.M).start() + 1


def _other_game_genesis(d: Duel) -> Path:
    mallory = d.new_identity("mallory", "red")
    d.run(mallory, "new", "barrage", "--as", "red", "--key", "mallory", "--opponent", d.bob.pub, "--campaign", mallory.dir)
    return d.newest_sent(mallory)


def _second_game_join(d: Duel) -> Path:
    """Bob's join of a second game alice made with him: a file from the right people, of the wrong game."""
    a2 = Player("alice", "red", d.alice.home, d.root / "alice-g2")
    b2 = Player("bob", "blue", d.bob.home, d.root / "bob-g2")
    d.run(a2, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", d.bob.pub, "--campaign", a2.dir)
    d.run(b2, "join", d.newest_sent(a2), "--key", "bob", "--campaign", b2.dir)
    return d.newest_sent(b2)


def _signed_by_mallory(d: Duel) -> Path:
    mallory = d.new_identity("mallory")
    return forged(d, "mallory-3.pbem", mallory, turn_content(d.f3))


def _with(d: Duel, name: str, edit: Callable[[dict], None], signer: str = "bob") -> Path:
    content = turn_content(d.f3)
    edit(content)
    return forged(d, name, d.player(signer), content)


def _next_link(player: Player) -> str:
    """The chain link a player's next envelope must reveal (from its secret, as pbem itself derives it)."""
    import json

    from pbem_engine.protocol.match import chain_links
    from pbem.play.campaign import Campaign

    secret = json.loads((player.dir / "secrets" / "chain.json").read_text())
    camp = Campaign.open(player.dir, readonly=True)
    try:
        index = camp.match()["chains"][player.side]["index"] + 1
    finally:
        camp.ledger.close()
    return chain_links(secret["game"], secret["side"], bytes.fromhex(secret["secret"]), secret["length"])[index].hex()


def _red_out_of_turn(d: Duel) -> Path:
    """Alice signs a #3 of her own, with her real next link, while her barrage of #2 waits for bob's reveal."""
    def edit(c: dict) -> None:
        c.update(author="red", body={"reveal": _next_link(d.alice), "actions": [{"do": "fire"}]})
    return _with(d, "red3.pbem", edit, signer="alice")


def _with_state(content: dict, state: str) -> None:
    content["state"] = state


CASES: dict[str, tuple[Callable[[Duel], Path], str | set[str]]] = {
    "garbage text": (lambda d: write(d, "garbage.txt", "Dear Alice,\n\nI fire everything I have.\nBob\n"), "no-turn-file"),
    "empty file": (lambda d: write(d, "empty.pbem", ""), "no-turn-file"),
    "only whitespace": (lambda d: write(d, "blank.pbem", "\n  \r\n\t\n"), "no-turn-file"),
    "binary with NUL bytes": (lambda d: write(d, "turn.bin", b"\x00\x01PK\x03\x04" + bytes(range(256)) * 4), "no-turn-file"),
    "random bytes, not UTF-8": (lambda d: write(d, "random.bin", bytes(random.Random(7).randrange(1, 256) for _ in range(2000)) + b"\xff\xfe"), "no-turn-file"),
    "a turn file inside binary data": (lambda d: write(d, "mixed.bin", b"\x00\x00" + d.f3.read_bytes()), "no-turn-file"),
    "END line removed": (lambda d: write(d, "noend.pbem", d.f3.read_text().replace("-----END PBEM TURN-----\n", "")), "truncated"),
    "cut after the header": (lambda d: write(d, "cut1.pbem", "".join(d.f3.read_text().splitlines(keepends=True)[:7])), "truncated"),
    "cut in the middle of a line": (lambda d: write(d, "cut2.pbem", d.f3.read_text()[:len(d.f3.read_text()) // 2]), "truncated"),
    "BEGIN line removed": (lambda d: write(d, "nobegin.pbem", d.f3.read_text().replace("-----BEGIN PBEM TURN-----\n", "")), "no-turn-file"),
    "body line lost": (lambda d: write(d, "lost.pbem", "".join(l for i, l in enumerate(d.f3.read_text().splitlines(keepends=True)) if i != 9)), {"bad-armor", "bad-signature"}),
    **{f"base64 changed: {where}": (
        (lambda where: lambda d: write(d, f"b64-{where}.pbem", change(d.f3.read_text(), _body_positions(d.f3.read_text())[where])))(where),
        "bad-signature" if where != "last before END" else {"bad-armor", "bad-signature"})
       for where in ("first", "signature", "public key", "json", "last before END")},
    **{f"header {field} value changed": (
        (lambda field: lambda d: write(d, f"hv-{field}.pbem", change(d.f3.read_text(), _header_value(d.f3.read_text(), field))))(field),
        "header-mismatch") for field in ("Game", "Seq", "From", "Kind", "Signer")},
    **{f"header {field} name changed": (
        (lambda field: lambda d: write(d, f"hn-{field}.pbem", change(d.f3.read_text(), _header_name(d.f3.read_text(), field))))(field),
        "bad-armor") for field in ("Game", "Seq", "From", "Kind", "Signer")},
    "header From says red": (lambda d: write(d, "from-red.pbem", d.f3.read_text().replace("From: blue", "From: red")), "header-mismatch"),
    "signed by a key not pinned for blue": (_signed_by_mallory, "wrong-key"),
    "blue's turn signed by red's key": (lambda d: forged(d, "red-signs-3.pbem", d.alice, turn_content(d.f3)), "wrong-key"),
    "another game's invitation": (_other_game_genesis, "wrong-game"),
    "another game's join by the same players": (_second_game_join, "wrong-game"),
    "illegal action": (lambda d: _with(d, "retreat.pbem", lambda c: c["body"].update(actions=[{"do": "retreat"}])), "illegal-action"),
    # bob's forced barrage is sealed at once (match.at_once), so the second one is alice's to fire
    "two barrages in one turn": (lambda d: _with(d, "twice.pbem", lambda c: c["body"].update(actions=[{"do": "fire"}, {"do": "fire"}])), "illegal-action"),
    "wrong state hash": (lambda d: _with(d, "state.pbem", lambda c: _with_state(c, ("1" if c["state"][0] != "1" else "2") + c["state"][1:])), "state-mismatch"),
    "bad chain reveal": (lambda d: _with(d, "reveal.pbem", lambda c: c["body"].update(reveal=random.Random(3).randbytes(32).hex())), "bad-reveal"),
    "no reveal": (lambda d: _with(d, "noreveal.pbem", lambda c: c["body"].pop("reveal")), "bad-reveal"),
    "broken link to #2": (lambda d: _with(d, "prev.pbem", lambda c: c.update(prev="0" * 64)), "bad-prev"),
    "unknown author": (lambda d: _with(d, "green.pbem", lambda c: c.update(author="green")), "unknown-author"),
    "a join after the start": (lambda d: _with(d, "join3.pbem", lambda c: c.update(kind="join", body={"anchor": "ab" * 32})), "bad-join"),
    "a second genesis": (lambda d: _with(d, "genesis3.pbem", lambda c: c.update(kind="genesis")), "bad-kind"),
    "red plays again while her roll waits for blue": (_red_out_of_turn, "owes-reveal"),
    **{f"a view for {to}, in a game with no referee": (
        (lambda to: lambda d: _with(d, f"view-{to}.pbem", lambda c: c.update(kind="view", body={"to": to, "box": {}})))(to),
        "bad-kind") for to in ("red", "blue")},
}


@pytest.mark.parametrize("case", CASES)
def test_refused_input_changes_nothing(duel: Duel, case: str) -> None:
    make, code = CASES[case]
    bad = make(duel)
    assert_refused_unchanged(duel, duel.alice, [bad], code)
    # the refusal left the campaign usable: bob's real turn file is still accepted
    duel.deliver(duel.f3, "alice")


def test_views_given_to_a_game_with_no_referee_are_refused(duel: Duel) -> None:
    """Two signed views (a referee's kind of file) for a two-player game: refused, not skipped."""
    views = [_with(duel, f"view-{to}.pbem", lambda c, to=to: c.update(kind="view", body={"to": to, "box": {}}))
             for to in ("red", "blue")]
    assert_refused_unchanged(duel, duel.alice, views, "bad-kind")
    result = duel.ingest(duel.alice, *views)
    assert result.stderr.splitlines()[0] == "Error: bad-kind: a view is for a refereed game"
    assert_refused_unchanged(duel, duel.alice, [duel.f3, *views], "bad-kind")  # not even beside a good turn


def test_refusal_detail_says_which_file(duel: Duel) -> None:
    bad = CASES["garbage text"][0](duel)
    result = duel.ingest("alice", bad)
    assert_refused(result, "no-turn-file")
    assert str(bad) in result.stderr.splitlines()[1]


def test_illegal_action_detail_says_what_is_legal(duel: Duel) -> None:
    bad = CASES["illegal action"][0](duel)
    result = duel.ingest("alice", bad)
    assert_refused(result, "illegal-action")
    detail = result.stderr.splitlines()[1]
    assert "#3" in detail and "retreat" in detail and "fire 6 dice" in detail, detail


def test_wrong_key_for_a_sequence_already_stored_is_refused(duel: Duel) -> None:
    """Mallory re-signs bob's #3 after alice stored it: refused as the wrong key, and no evidence against bob."""
    duel.deliver(duel.f3, "alice")
    bad = CASES["signed by a key not pinned for blue"][0](duel)
    assert_refused_unchanged(duel, duel.alice, [bad], "wrong-key")
    assert not (duel.alice.dir / "evidence").exists() or not any((duel.alice.dir / "evidence").iterdir())


def test_gap_in_the_sequence(thread: Duel) -> None:
    """Alice's copy at #2 gets bob's #5: #3 and #4 are missing."""
    d = thread
    assert_refused_unchanged(d, d.alice_at2, [d.f5], "gap")
    result = d.ingest(d.alice_at2, d.f5)
    assert "#5" in result.stderr and "#3" in result.stderr, result.stderr


def test_ingest_the_same_file_twice(duel: Duel) -> None:
    d = duel
    d.deliver(d.f3, "alice")
    before, files = db_bytes(d.alice.dir), listing(d.alice)
    result = d.ingest("alice", d.f3)
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    assert re.search(r"skipped #3 from blue", result.output), result.output
    assert "accepted" not in result.output
    assert db_bytes(d.alice.dir) == before and listing(d.alice) == files


def test_resending_a_rewrapped_quoted_copy_is_skipped(duel: Duel) -> None:
    d = duel
    d.deliver(d.f3, "alice")
    before = db_bytes(d.alice.dir)
    quoted = write(d, "reply.txt", "You sent:\n" + "".join("> " + line + "\r\n" for line in d.f3.read_text().splitlines()))
    result = d.ingest("alice", quoted)
    assert result.exit_code == 0 and "skipped #3" in result.output, result.output
    assert db_bytes(d.alice.dir) == before


def test_bob_replaying_from_a_backup_signs_the_same_file(two_campaigns: Duel) -> None:
    """Restoring a backup and playing the same turn again is not equivocation: the file is identical."""
    d = two_campaigns
    d.turn("alice")
    backup = d.snapshot("bob", "backup")
    first = d.play("bob")
    d.deliver(first, "alice")
    again = d.play(backup)
    assert again.read_bytes() == first.read_bytes()
    before = db_bytes(d.alice.dir)
    result = d.ingest("alice", again)
    assert result.exit_code == 0 and "skipped #3" in result.output, result.output
    assert db_bytes(d.alice.dir) == before
    assert not (d.alice.dir / "evidence").exists()


def test_equivocation_is_refused_and_kept_as_evidence(duel: Duel) -> None:
    d = duel
    # bob's other #3: a reveal without a barrage, signed with his real key, legal and correctly hashed
    content = turn_content(d.f3)
    content["body"] = {"reveal": content["body"]["reveal"], "actions": []}
    content["state"] = next_state(d.alice.dir, content)
    other = forged(d, "bob-other-3.pbem", d.bob, content)
    assert other.read_text() != d.f3.read_text()
    # on its own, it would be accepted: it is a valid turn file
    alone = d.snapshot("alice", "alone")
    assert "accepted #3 from blue" in d.ingest(alone, other).output

    d.deliver(d.f3, "alice")
    before = db_bytes(d.alice.dir)
    result = d.ingest("alice", other)
    assert_refused(result, "equivocation")
    assert "blue" in result.stderr and "#3" in result.stderr
    assert db_bytes(d.alice.dir) == before
    evidence = list((d.alice.dir / "evidence").iterdir())
    assert len(evidence) == 1
    assert "blue" in evidence[0].name and "0003" in evidence[0].name
    assert evidence[0].read_text() == other.read_text()
    assert str(evidence[0]) in result.stderr
    status = d.run(d.alice, "status", "--campaign", d.alice.dir)
    assert "EVIDENCE" in status.output and evidence[0].name in status.output
    # the game goes on from the envelope alice stored first
    assert "OK: 4 envelopes" in d.run(d.alice, "verify", d.alice.dir).output


# --- several files, several blocks: all or nothing -----------------------------------------

def test_last_file_unreadable_stores_nothing(thread: Duel) -> None:
    d = thread
    garbage = CASES["garbage text"][0](d)
    assert_refused_unchanged(d, d.alice_at2, [d.f3, d.f4, garbage], "no-turn-file")


def test_last_file_refused_by_the_rules_stores_nothing(thread: Duel) -> None:
    d = thread
    content = turn_content(d.f5)
    content["state"] = "0" * 64
    bad5 = forged(d, "bad-5.pbem", d.bob, content)
    assert_refused_unchanged(d, d.alice_at2, [d.f3, d.f4, bad5], "state-mismatch")
    assert_refused_unchanged(d, d.alice_at2, [d.f3, d.f5], "gap")
    # the good files, in any order, are accepted together
    result = d.ingest(d.alice_at2, d.f5, d.f3, d.f4)
    assert result.exit_code == 0, result.output
    assert re.findall(r"accepted #(\d)", result.output) == ["3", "4", "5"]


def test_one_bad_block_in_a_message_stores_nothing(thread: Duel) -> None:
    d = thread
    f5 = d.f5.read_text()
    damaged = change(f5, _body_positions(f5)["json"])
    mail = write(d, "mail.txt", "Hi\n" + d.f3.read_text() + "\n" + d.f4.read_text() + "\n" + damaged + "bye\n")
    assert_refused_unchanged(d, d.alice_at2, [mail], {"bad-armor", "bad-signature"})


def test_a_message_holding_several_blocks(thread: Duel) -> None:
    """Bob's mail: his #3, alice's #4 quoted, his #5, with text around them."""
    d = thread
    quoted4 = "".join("> " + line + "\n" for line in d.f4.read_text().splitlines())
    mail = write(d, "mail.txt", "Hi Alice,\n\nmy lost turn:\n\n" + d.f3.read_text() + "\nYou wrote:\n" + quoted4
                 + "\nand my next one:\n" + d.f5.read_text() + "\n-- \nBob\n")
    result = d.ingest(d.alice_at2, mail)
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    assert re.findall(r"accepted #(\d)", result.output) == ["3", "4", "5"]
    assert "OK: 6 envelopes" in d.run(d.alice_at2, "verify", d.alice_at2.dir).output


def test_two_of_bobs_turns_in_one_file(thread: Duel) -> None:
    """Alice (at #4) gets a file with bob's #3 (already stored) and #5: one skipped, one accepted."""
    d = thread
    both = write(d, "both.pbem", "resending:\n" + d.f3.read_text() + "\n\nnew:\n" + d.f5.read_text() + "\nend\n")
    assert len(blocks_of(both.read_text())) == 2
    result = d.ingest("alice", both)
    assert result.exit_code == 0, result.output
    assert "skipped #3 from blue" in result.output and "accepted #5 from blue" in result.output


@pytest.mark.parametrize("how", ["same file twice", "a message quoting the block it holds"])
def test_the_same_new_turn_twice_in_one_command_is_accepted_once(duel: Duel, how: str) -> None:
    d = duel
    if how == "same file twice":
        files = [d.f3, d.f3]
    else:
        text = d.f3.read_text()
        files = [write(d, "mail.txt", "my turn:\n" + text + "\n> " + text.replace("\n", "\n> ") + "\n")]
    result = d.ingest("alice", *files)
    assert not (d.alice.dir / "evidence").exists(), "bob is accused of equivocation for sending one turn"
    assert result.exit_code == 0, result.stderr
    assert result.output.count("accepted #3") == 1


# --- no campaign, no file ---------------------------------------------------------------------

def test_ingest_without_a_campaign_or_a_readable_file(home: Path, runner, tmp_path: Path) -> None:
    mail = tmp_path / "mail.txt"
    mail.write_text("no turn in here\n")
    result = invoke(runner, "ingest", "--campaign", tmp_path / "nowhere", tmp_path / "missing.pbem")
    assert_refused(result, "unreadable")
    assert "missing.pbem" in result.stderr
    (tmp_path / "empty-dir").mkdir()
    result = invoke(runner, "ingest", "--campaign", tmp_path / "empty-dir", mail)
    assert_refused(result, "no-campaign")
    assert not (tmp_path / "empty-dir" / "campaign.db").exists(), "ingest must not create a campaign"
