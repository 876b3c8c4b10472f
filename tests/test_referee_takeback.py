"""Take-backs in a refereed game (issue 37, point 2): a player asks, the referee decides.

A refereed Hill 60 by the installed ``pbem`` in three homes (``Home``, as in
tests/test_refereed_cli.py).  Allied gives an order, asks in a signed file to take it back before
the referee adjudicated anything that rolled; the referee grants it (the fork it signs is what
every copy follows: no other player countersigns) or declines it; the game goes on, and
``pbem verify`` passes on every copy, before the disclosure and after, as does the independent
verifier.  Never past a roll: the player's tool and the referee's refuse to propose it (exit 1,
the campaign byte for byte unchanged), and a fork that abandons one, or that a player signed
alone, is refused on ingest.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pbem_engine.protocol.chain import chain_step

from pbem.chain import history
from pbem.play.campaign import Campaign
from pbem.wire.envelope import read_envelopes, seal
from pbem.wire.keys import KeyStore
from tests import independent_verifier as iv
from tests.conftest import read_envelope
from tests.test_refereed_cli import Home, refereed_homes

MOVE_AUSTRALIANS, MOVE_CONNAUGHT, BOMBARD = "1", "2", "8"  # Hill 60's allied choices at the start of turn 1


def started(tmp_path: Path) -> tuple[Home, Home, Home]:
    """The referee's Hill 60 started, each player holding his first view; allied to decide."""
    ref, allied, ottoman = refereed_homes(tmp_path, "hill60")
    genesis = ref.newest(".")
    allied("join", str(genesis), "--key", "alice")
    ottoman("join", str(genesis), "--key", "bob")
    ref("ingest", str(allied.newest(".")), str(ottoman.newest(".")))
    ref("play")
    for who in (allied, ottoman):
        who("ingest", str(ref.newest(f"to-{who.name}")))
    return ref, allied, ottoman


def sent(home: Home, pattern: str) -> Path:
    [path] = sorted((home.dir / "c" / "sent").glob(pattern))
    return path


def db(home: Home) -> bytes:
    return (home.dir / "c" / "campaign.db").read_bytes()


def verified(home: Home) -> str:
    out = home("verify", "c", campaign=False)
    assert out.startswith("OK: "), out
    return out


def adjudicate(ref: Home, *players: Home) -> str:
    """The referee adjudicates; each player ingests his own file."""
    out = ref("play")
    for who in players:
        who("ingest", str(ref.newest(f"to-{who.name}")))
    return out


def every_file(*homes: Home) -> list[str]:
    return [p.read_text() for h in homes for p in sorted((h.dir / "c" / "sent").rglob("*.pbem"))]


def test_a_player_takes_back_his_orders_and_the_referee_grants_it(tmp_path: Path):
    ref, allied, ottoman = started(tmp_path)
    allied("play", MOVE_AUSTRALIANS)
    abandoned = sent(allied, "*-0002-allied-turn.pbem")
    ref("ingest", str(abandoned))
    out = allied("takeback", "propose", "--to", "1")
    assert "taking back #2..#2" in out and "Send it to referee; the referee decides." in out
    request = sent(allied, "*-0002-allied-takeback-*.pbem")
    mail = next((allied.dir / "c" / "outbox").glob(f"{request.stem}-referee.eml")).read_text()
    assert "X-Pbem-To-Side: referee" in mail and "TAKE-BACK proposed by allied: back to #1" in mail
    refused = allied("takeback", "accept", code=1)  # not the player's to grant
    assert "refereed" in refused and len(refused.strip().splitlines()) <= 2
    skipped = ottoman("ingest", str(request))  # another player's request: the referee's to answer
    assert "skipped #2 from allied: a take-back is asked of the referee" in skipped

    assert "TAKE-BACK proposed by allied: back to #1" in ref("ingest", str(request))
    assert "TAKE-BACK proposed by allied (back to #1, taking back #2..#2): pbem takeback accept" in ref("status")
    out = ref("takeback", "accept")
    assert "play goes on from #1; signed #2" in out and "Send it to allied, ottoman." in out
    fork = sent(ref, "*-0002-referee-fork.pbem")
    [carried] = read_envelopes(read_envelopes(fork.read_text())[0].content["body"]["proposal"])
    inside = [e for text in carried.content["body"]["abandon"] for e in read_envelopes(text)]
    # one file for every player: what it carries each already held (the chain), allied's orders sealed
    assert [(e.kind, e.author) for e in inside] == [("turn", "allied")] and "actions" not in inside[0].content["body"]
    assert "Australian" not in json.dumps([e.content for e in inside])
    assert {p.name for p in (ref.dir / "c" / "outbox").glob(f"{fork.stem}-*.eml")} == \
        {f"{fork.stem}-allied.eml", f"{fork.stem}-ottoman.eml"}
    for who in (allied, ottoman):  # allied held #2, ottoman did not: both follow the referee's fork
        assert "accepted #2 from referee (fork)" in who("ingest", str(fork))
    said = allied("status")
    assert "taken back by the referee's decision at #2: 1 envelope(s) abandoned, signed by the referee" in said
    assert "TAKE-BACK proposed" not in said and "waiting for you: Turn 1 of 5, Allied player: 2 operations" in said
    assert "waiting for allied" in ottoman("status")

    allied("play", MOVE_CONNAUGHT)  # another order this time, from the view he held at #1
    again = sent(allied, "*-0003-allied-turn.pbem")
    new, old = read_envelope(again).content["body"], read_envelope(abandoned).content["body"]
    game_id = read_envelope(fork).game
    assert chain_step(game_id, "allied", bytes.fromhex(new["reveal"])).hex() == old["reveal"]  # no link twice
    ref("ingest", str(again))
    said = adjudicate(ref, allied, ottoman)
    assert "5th Connaught Rangers moves" in said and "18th Australian" not in said
    assert "5th Connaught Rangers" in allied("report")
    before = db(ref)
    assert "skipped #2 from allied: taken back" in ref("ingest", str(abandoned))  # never equivocation
    assert db(ref) == before and not (ref.dir / "c" / "evidence").exists()

    states = set()
    for who in (ref, allied, ottoman):
        out = verified(who)
        assert "5 envelopes" in out and "1 take-back(s) decided by the referee (" in out
        states.add(re.search(r"; state (\w+)", out).group(1))
    assert len(states) == 1
    report = iv.verify_files(every_file(ref, allied))  # from the spec alone, the request and the abandoned too
    assert [e.kind for e in report.envelopes] == ["genesis", "turn", "fork", "turn", "turn"]

    ref("disclose")  # after the disclosure anyone replays the fork in full, from the rules
    states = {re.search(r"; state (\w+)", verified(ref)).group(1)}
    for who in (allied, ottoman):
        who("ingest", str(ref.newest(".")))
        out = verified(who)
        assert "referee disclosed: full game replayed, 2 views you received match" in out
        states.add(re.search(r"; state (\w+)", out).group(1))
    assert len(states) == 1
    assert "audit OK" in allied("audit", "c", campaign=False)
    assert len(iv.verify_files(every_file(ref, allied, ottoman)).envelopes) == 6


def test_the_referee_declines_and_the_game_goes_on(tmp_path: Path):
    ref, allied, ottoman = started(tmp_path)
    allied("play", MOVE_AUSTRALIANS)
    ref("ingest", str(sent(allied, "*-0002-allied-turn.pbem")))
    allied("takeback", "propose", "--to", "1")
    ref("ingest", str(sent(allied, "*-takeback-*.pbem")))
    out = ref("takeback", "decline")
    assert "declined the take-back" in out and "Send it to allied." in out  # only to the player who asked
    decline = sent(ref, "*-takeback-*.pbem")
    assert [p.name for p in (ref.dir / "c" / "outbox").glob(f"{decline.stem}-*.eml")] == [f"{decline.stem}-allied.eml"]
    assert "take-back declined by referee" in allied("ingest", str(decline))
    assert "TAKE-BACK" not in allied("status") and "TAKE-BACK" not in ref("status")
    assert "18th Australian Battalion moves" in adjudicate(ref, allied, ottoman)  # the order stands
    for who in (ref, allied, ottoman):
        assert "take-back" not in verified(who)


def test_the_referee_takes_back_on_its_own_and_every_view_goes_back(tmp_path: Path):
    ref, allied, ottoman = started(tmp_path)
    allied("play", MOVE_AUSTRALIANS)
    ref("ingest", str(sent(allied, "*-0002-allied-turn.pbem")))
    adjudicate(ref, allied, ottoman)  # #3: no roll; both players hold its view
    assert "1 operation left" in allied("status")
    out = ref("takeback", "propose", "--to", "1")  # the referee decides: at once, no one to ask
    assert "took back to #1 (#2..#3 abandoned): signed #2" in out and "Send it to allied, ottoman." in out
    fork = sent(ref, "*-0002-referee-fork.pbem")
    for who in (allied, ottoman):
        assert "accepted #2 from referee (fork)" in who("ingest", str(fork))
        assert "taken back by the referee's decision at #2: 2 envelope(s) abandoned" in who("status")
    assert "waiting for you: Turn 1 of 5, Allied player: 2 operations left" in allied("status")  # #1's view again
    allied("play", MOVE_CONNAUGHT)
    ref("ingest", str(sent(allied, "*-0003-allied-turn.pbem")))
    assert "5th Connaught Rangers moves" in adjudicate(ref, allied, ottoman)
    for who in (ref, allied, ottoman):
        assert "1 take-back(s) decided by the referee (" in verified(who)
    assert [e.kind for e in iv.verify_files(every_file(ref, allied)).envelopes] == \
        ["genesis", "turn", "fork", "turn", "turn"]


def rolled(tmp_path: Path) -> tuple[Home, Home, Home]:
    """Allied bombards (#2); the referee's adjudication (#3) rolls, and both players see it."""
    ref, allied, ottoman = started(tmp_path)
    allied("play", BOMBARD)
    ref("ingest", str(sent(allied, "*-0002-allied-turn.pbem")))
    adjudicate(ref, allied, ottoman)
    return ref, allied, ottoman


def test_never_past_a_roll_neither_the_player_nor_the_referee(tmp_path: Path):
    ref, allied, ottoman = rolled(tmp_path)
    for who, why in ((allied, "the referee's envelope #3 told you of a roll"),
                     (ref, "envelope #3 (referee) settled a roll")):
        before = db(who)
        refused = who("takeback", "propose", "--to", "1", code=1)
        assert "past-roll" in refused and why in refused and len(refused.strip().splitlines()) == 2
        assert db(who) == before and not list((who.dir / "c" / "sent").glob("*takeback*"))
        assert not list((who.dir / "c" / "sent").glob("*fork*"))
    before = db(allied)
    refused = allied("takeback", "propose", "--to", "2", code=1)  # the referee owed an adjudication after #2
    assert "bad-target" in refused and db(allied) == before


def forged(ref: Home, signer: str, key: str, to: int, upto: int, fork: bool = True) -> str:
    """A fork back to ``to`` abandoning ``to+1..upto`` (or only its proposal), as the referee's tool
    would make it from the referee's copy, but signed by ``signer`` with ``key`` without the tool's
    checks.  The path of the file."""
    camp = Campaign.open(ref.dir / "c", readonly=True)
    try:
        rows = {seq: (digest, raw) for seq, digest, _, _, raw, _ in camp.ledger.envelopes()}
        at, after = camp.ledger.state(to)[1], camp.ledger.state(upto)[1]
    finally:
        camp.ledger.close()
    identity = KeyStore(ref.dir.parent / signer / "home").load(key)
    [head] = read_envelopes(rows[upto][1])
    base = {"v": 1, "game": head.game, "author": "referee" if signer == "ref" else signer,
            "engine": head.content["engine"]}
    prop = seal(identity, dict(base, seq=upto, prev=rows[upto][0], kind="takeback", state=head.content["state"],
                               body={"to": to, "to_hash": rows[to][0],
                                     "abandon": [rows[s][1] for s in range(to + 1, upto + 1)]}))
    path = ref.dir / f"forged-{signer}-{to}-{'fork' if fork else 'proposal'}.pbem"
    if not fork:
        path.write_text(prop.raw)
        return str(path)
    chains = history.fork_chains(at["public"], after["public"])
    signed = seal(identity, dict(base, seq=to + 1, prev=rows[to][0], kind="fork",
                               state=history.match_hash(history.fork_public(at["public"], chains, to + 1)),
                               body={"proposal": prop.raw, "chains": {s: {"index": r["index"], "link": r["link"]}
                                                                      for s, r in chains.items()}}))
    path.write_text(signed.raw)
    return str(path)


def test_a_fork_past_a_roll_is_refused_on_ingest_even_signed_by_the_referee(tmp_path: Path):
    ref, allied, ottoman = rolled(tmp_path)
    # signed with the referee's own key by a changed tool: the players refuse it from the roll their
    # views showed, the referee's copy from the full replay, as every copy will after the disclosure
    past = forged(ref, "ref", "ref", 1, 3)
    for who in (allied, ottoman, ref):
        before = db(who)
        refused = who("ingest", past, code=1)
        assert "past-roll" in refused and len(refused.strip().splitlines()) == 2 and db(who) == before
    for who in (ref, allied, ottoman):
        assert "take-back" not in verified(who)


def test_a_request_past_a_roll_can_only_be_declined(tmp_path: Path):
    ref, allied, ottoman = rolled(tmp_path)
    request = forged(ref, "allied", "alice", 1, 3, fork=False)  # a changed tool asks past the roll
    out = ref("ingest", request)
    assert "it cannot be granted: a take-back cannot go back past a roll" in out
    assert "envelope #3 (referee) settled a roll" in ref("status")
    before = db(ref)
    refused = ref("takeback", "accept", code=1)
    assert "past-roll" in refused and db(ref) == before and not list((ref.dir / "c" / "sent").glob("*fork*"))
    assert "Send it to allied." in ref("takeback", "decline")
    assert "TAKE-BACK" not in ref("status")
    # (allied's own tool never made this request: his copy has none waiting for the answer)
    assert "declines no take-back waiting here" in allied("ingest", str(sent(ref, "*-takeback-*.pbem")))


def test_a_fork_a_player_signed_alone_is_refused_everywhere(tmp_path: Path):
    ref, allied, ottoman = started(tmp_path)
    allied("play", MOVE_AUSTRALIANS)
    ref("ingest", str(sent(allied, "*-0002-allied-turn.pbem")))
    own = forged(ref, "allied", "alice", 1, 2)  # no roll: only who signed it is wrong
    for who in (ottoman, ref, allied):
        before = db(who)
        refused = who("ingest", own, code=1)
        assert "bad-takeback" in refused and "the referee's to decide" in refused and db(who) == before
    try:
        iv.verify_files(every_file(ref, allied) + [Path(own).read_text()])
        raise AssertionError("the independent verifier took a fork a player signed alone")
    except iv.Refused as e:
        assert (e.code, e.seq) == ("bad-takeback", 2)


def test_the_other_player_gets_the_fork_before_or_with_the_files_it_takes_back(tmp_path: Path):
    """Mail keeps no order: the ottoman player may get the referee's fork before the adjudication it
    takes back (and the allied orders inside it), or both in one ingest.  Either way the taken-back
    files are skipped, never a conflict, and his copy goes on from the fork."""
    import shutil

    ref, allied, ottoman = started(tmp_path)
    allied("play", MOVE_AUSTRALIANS)
    ref("ingest", str(allied.newest(".")))
    ref("play")  # adjudicates the allied orders (#2) as #3; no roll
    allied("ingest", str(ref.newest("to-allied")))
    allied("takeback", "propose", "--to", "1")
    ref("ingest", str(sent(allied, "*takeback*")))
    ref("takeback", "accept")
    adjudication, fork = ref.newest("to-ottoman"), sent(ref, "*-fork.pbem")
    shutil.copytree(ottoman.dir / "c", ottoman.dir / "both")
    out = ottoman("ingest", str(adjudication), str(fork), "--campaign", "both", campaign=False)
    assert "accepted #2 from referee (fork)" in out and "skipped #3 from referee" in out
    out = ottoman("ingest", str(fork))  # the fork first
    assert "accepted #2 from referee (fork)" in out
    out = ottoman("ingest", str(adjudication))  # then what it took back, which he never held
    assert "skipped #2 from allied: taken back before it came here" in out
    assert "skipped #3 from referee: taken back before it came here" in out
    for where in ("c", "both"):
        assert ottoman("verify", where, campaign=False).startswith("OK: 3 envelopes")
    allied("ingest", str(fork))
    allied("play", MOVE_CONNAUGHT)  # the game goes on from the fork on every copy
    ref("ingest", str(allied.newest(".")))
    adjudicate(ref, allied, ottoman)
    assert verified(ottoman).startswith("OK: 5 envelopes")
