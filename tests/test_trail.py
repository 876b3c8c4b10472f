"""Protocol 3: the private logs leave the hashed state (pbem_engine.protocol.trail).

A side's private log (every draw, hidden choice and item put back) grows with the game. Hashed
with every envelope, it made the state of a full block game 190-250 kB and a game's hashing grow
with the square of its length. From protocol 3 each record keeps a running digest of its log
(``trail``) in the hashed state, and the ledger stores each envelope's new entries beside its
state. Played here as the bench plays it: two campaigns exchanging real signed turn files.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pbem_engine.canonical import canonical_json, digest
from pbem_engine.protocol import match as protocol
from pbem_engine.protocol import trail
from pbem_engine.registry import get_game
from pbem.bench.handovers import play_one
from pbem.play.campaign import Campaign
from tests.conftest import db_bytes


@pytest.fixture(scope="module")
def block_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-turn block game by the module's own player; the first side's campaign."""
    root = tmp_path_factory.mktemp("trail")
    play_one("gallipoli-blocks", {"turns": 2}, 3, root)
    return root / "a"


def _rows(campaign: Path) -> list[tuple[int, dict, list | None]]:
    con = sqlite3.connect(campaign / "campaign.db")
    try:
        return [(seq, json.loads(state), json.loads(added).get("private") if added else None)
                for seq, state, added in con.execute("select s.seq, s.state, t.added from states s "
                                                     "left join trails t on t.seq = s.seq order by s.seq")]
    finally:
        con.close()


def _match(campaign: Path, seq: int | None = None) -> dict:
    camp = Campaign.open(campaign, readonly=True)
    try:
        return camp.ledger.state(seq)[1]
    finally:
        camp.ledger.close()


def test_the_stored_state_keeps_a_digest_of_the_private_logs_and_not_the_logs(block_game: Path) -> None:
    rows = _rows(block_game)
    assert all("log" not in r for _, state, _ in rows for r in state["private"].values())
    entries = sum(len(e) for _, _, added in rows if added for e in added.values())
    assert entries > 20, "the game drew and hid too little to show anything"
    # what does not grow: each record but its openings (the items the rules have shown), at the
    # first turn and at the last before the secrets are revealed (each then publishes its hidden
    # choices once), differs only in its counters' digits and sizes
    playing = [state["private"] for _, state, _ in rows if all(r["secret"] is None for r in state["private"].values())]
    first = next(p for p in playing if all(r["trail"] for r in p.values()))  # each side has drawn
    last = playing[-1]
    for side in first:
        size = [len(canonical_json({k: v for k, v in r[side].items() if k != "opened"})) for r in (first, last)]
        assert abs(size[1] - size[0]) < 24, (side, size)
    stored = sum(len(canonical_json(added)) for _, _, added in rows if added)
    assert stored > 2000  # the entries are kept once, beside the states, not in each of them


def test_the_digest_covers_every_entry_in_order_and_a_read_state_has_its_log_back(block_game: Path) -> None:
    match = _match(block_game)
    for side, record in match["private"].items():
        running = ""
        for entry in record["log"]:
            running = digest("trail", running, canonical_json(entry)).hex()
        assert record["trail"] == running, side
    # the log read back up to an earlier state is that state's: what its envelopes had added
    seq = len(_rows(block_game)) // 2
    earlier = _match(block_game, seq)
    for side, record in earlier["private"].items():
        assert all(e["envelope"] <= seq for e in record["log"])
        assert record["log"] == [e for e in match["private"][side]["log"] if e["envelope"] <= seq]


def _pbem(*args: object) -> subprocess.CompletedProcess:
    """The installed ``pbem``, as a player runs it."""
    return subprocess.run([str(Path(sys.executable).parent / "pbem"), *map(str, args)], capture_output=True, text=True)


def _first_entry(entries: dict) -> dict | None:
    """A side's first private log entry: its ``n`` changed."""
    return next(iter(next(iter(entries.get("private", {}).values()), [])), None)


def _first_opening(entries: dict) -> dict | None:
    """A protocol-4 opening: another item shown to the player for that token."""
    return next((e for log in entries.get("private", {}).values() for e in log if "open" in e), None)


def _first_gone(entries: dict) -> dict | None:
    """A block of the game's frozen map of eliminated blocks: another place it died at."""
    return next(iter(entries.get("frozen", {}).get("gone", [])), [None, None])[1]


@pytest.mark.parametrize("find, change", [(_first_entry, lambda e: e.update(n=e["n"] + 1)),
                                          (_first_opening, lambda e: e.update(item="ott-dummy-1")),
                                          (_first_gone, lambda e: e.update(at="krithia", died=1))])
def test_a_tampered_entry_beside_the_states_is_found_by_verify_and_mended_by_rebuild(
        block_game: Path, tmp_path: Path, find, change) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(block_game, copy)
    db = copy / "campaign.db"
    con = sqlite3.connect(db)
    try:
        for seq, added in con.execute("select seq, added from trails order by seq").fetchall():
            entries = json.loads(added)
            entry = find(entries)
            if entry is not None:
                change(entry)
                con.execute("update trails set added = ? where seq = ?", (json.dumps(entries), seq))
                break
        else:
            pytest.fail("no such entry to tamper with")
        con.commit()
    finally:
        con.close()
    before = db_bytes(db)
    refused = _pbem("verify", copy)
    assert refused.returncode == 1 and "derived data differs" in refused.stderr and "trails" in refused.stderr
    assert "Traceback" not in refused.stderr and db_bytes(db) == before
    mended = _pbem("rebuild", "--campaign", copy)
    assert mended.returncode == 0, mended.stderr
    assert _pbem("verify", copy).returncode == 0


def test_a_state_read_back_is_the_replayed_one_logs_and_deck_messages_included(block_game: Path,
                                                                              tmp_path: Path) -> None:
    from pbem.check.verify import verify_path

    play_one("assault-on-gallipoli", {"turns": 1}, 4, tmp_path)  # a shared deck dealt to private hands
    for campaign in (block_game, tmp_path / "a"):
        replayed = verify_path(campaign).match
        read = _match(campaign)
        assert read == replayed
        stored = _rows(campaign)[-1][1]
        for kind, fields in trail.BESIDE.items():
            for name, record in stored.get(kind, {}).items():
                assert not set(fields) & set(record)  # the logs are beside, their digests in
                assert len(record["trail"]) == (64 if read[kind][name]["log"] else 0)
    decks = read["decks"]
    assert sum(len(r["log"]) for r in decks.values()) > 5 and all(
        len(r["log"]) == len(r["envelopes"]) for r in decks.values())


def test_histories_of_earlier_protocols_keep_the_log_in_the_hashed_state() -> None:
    game = get_game("raid")
    body = {"mode": "sealed", "scenario": next(iter(game.scenarios)), "options": {}, "anchor": "0" * 64,
            "private_anchor": "1" * 64, "sides": {s: {} for s in game.sides}}
    for version, kept in ((1, False), (2, False), (3, True), (4, True)):
        match = protocol.start(game, "g" * 32, game.sides[0], dict(body, protocol=version))
        assert trail.kept_beside(match) is kept
        hashed = trail.hashed(match)
        assert all(("log" in r) is not kept for r in hashed["private"].values())
        assert all(("opened" in r) is (version < 4) for r in hashed["private"].values())
        assert (hashed is match) is not kept  # before protocol 3 the match itself is what is hashed


def test_protocol_4_keeps_what_the_logs_give_beside_the_hashed_state_too(block_game: Path, tmp_path: Path) -> None:
    """The items opened, the hidden choices published at the end, each shuffle's locked cards,
    key hashes and released keys, and a game's maps that only grow grew with the game in protocol
    3's hashed state: in protocol 4 they are read back from the logs, so a full game's stored
    state stays small."""
    play_one("assault-on-gallipoli", {"turns": 1}, 4, tmp_path)  # a shared deck dealt to private hands
    blocks, assault = _rows(block_game), _rows(tmp_path / "a")
    read = _match(block_game)
    assert all(r["logged"] == ["chosen", "opened"] for r in read["private"].values())
    assert sum(len(r["opened"]) for r in read["private"].values()) > 5 and any("chosen" in r for r in read["private"].values())
    for _, state, _ in blocks + assault:
        for record in state.get("private", {}).values():
            assert "opened" not in record and "chosen" not in record
    # the block game's eliminated and re-concealed blocks, which only grow, are digested, not kept
    assert all("gone" not in state["game"] and "again" not in state["game"] for _, state, _ in blocks)
    assert read["frozen"]["gone"]["n"] == len(read["game"]["gone"]) > 5 and read["game"]["again"]
    assert blocks[-1][1]["frozen"]["gone"]["trail"] != blocks[len(blocks) // 2][1]["frozen"]["gone"]["trail"]
    assert len(canonical_json(blocks[-1][1])) < 10_000
    shuffles = [sh for _, state, _ in assault for r in state["decks"].values() for sh in r["state"]["shuffles"]]
    assert shuffles and not any({"deck", "hashes", "keys"} & set(sh) for sh in shuffles)
    deck = _match(tmp_path / "a")["decks"]
    kept = [sh for r in deck.values() for sh in r["state"]["shuffles"]]
    assert all(len(sh["deck"]) == len(sh["sources"]) for sh in kept) and any(sh["keys"][s] for sh in kept for s in sh["keys"])
    # the Action deck's 2048-bit locks and keys went to the log: the last state is a few kB, not 60-80
    con = sqlite3.connect(tmp_path / "a" / "campaign.db")
    try:
        beside = con.execute("select sum(length(added)) from trails").fetchone()[0]
    finally:
        con.close()
    assert len(canonical_json(assault[-1][1])) < 20_000 < beside


@pytest.mark.parametrize("table, column", [("trails", "added"), ("states", "state")])
def test_a_damaged_row_is_named_by_status_and_left_as_it_was(block_game: Path, tmp_path: Path, table: str,
                                                             column: str) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(block_game, copy)
    db = copy / "campaign.db"
    con = sqlite3.connect(db)
    try:
        con.execute(f"update {table} set {column} = 'not json' where seq = (select max(seq) from {table})")
        con.commit()
    finally:
        con.close()
    before = db_bytes(db)
    status = _pbem("status", "--campaign", copy)
    assert status.returncode == 1 and "Traceback" not in status.stderr, status.stderr
    assert "a stored state is damaged" in status.stderr and "pbem rebuild" in status.stderr
    assert db_bytes(db) == before
    assert _pbem("rebuild", "--campaign", copy).returncode == 0
    assert _pbem("status", "--campaign", copy).returncode == 0


def test_a_protocol_3_game_keeps_its_hashes_under_protocol_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game begun before protocol 4 goes on and verifies as it began: its stored states keep the
    openings and each shuffle's locks in the hashed state (no ``logged``), as their hashes say."""
    from pbem.check.verify import verify_path

    with monkeypatch.context() as m:
        m.setattr(protocol, "PROTOCOLS", (1, 2, 3))  # the pbem that began it
        play_one("assault-on-gallipoli", {"turns": 1}, 4, tmp_path)
    assert protocol.PROTOCOLS[-1] == 4
    verified = verify_path(tmp_path / "a")  # by this pbem
    stored = _rows(tmp_path / "a")[-1][1]
    assert all("opened" in r and "logged" not in r for r in stored["private"].values())
    assert all("deck" in sh for r in stored["decks"].values() for sh in r["state"]["shuffles"])
    assert _match(tmp_path / "a") == verified.match
