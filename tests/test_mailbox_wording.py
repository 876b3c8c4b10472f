"""Wording a wargamer expects, in what pbem prints around mail and referees (issue 17, item 9)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from tests.conftest import new_player, pbem


def test_one_envelope_no_double_full_stop_and_the_referee_named_once(tmp_path):
    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    created = pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
                   "--campaign", alice.dir, env=alice.env).output
    assert "(pbem mail address ottoman ADDRESS, then pbem mail send)" in created
    status = pbem(runner, "status", "--campaign", alice.dir, env=alice.env).output
    assert ", 1 envelope\n" in status  # not "1 envelopes"
    invitation = next((alice.dir / "sent").glob("*genesis.pbem"))
    joined = pbem(runner, "join", invitation, "--key", "bob", "--campaign", bob.dir, env=bob.env).output
    assert re.search(r"^Now allied's decision: .*operation\.$", joined, re.MULTILINE) and ".." not in joined, joined

    ref = new_player(runner, tmp_path / "r", "referee", "referee")  # a referee whose name is "referee"
    carol, dave = (new_player(runner, tmp_path / "r", n, s) for n, s in (("carol", "allied"), ("dave", "ottoman")))
    pbem(runner, "new", "hill60", "--referee", "--key", "referee", "--player", f"allied={carol.pub}",
         "--player", f"ottoman={dave.pub}", "--campaign", ref.dir, env=ref.env)
    invitation = next((ref.dir / "sent").glob("*genesis.pbem"))
    for p in (carol, dave):
        out = pbem(runner, "join", invitation, "--key", p.name, "--campaign", p.dir, env=p.env).output
        assert "Send your join turn file to the referee: " in out
        pbem(runner, "ingest", "--campaign", ref.dir, next((p.dir / "sent").glob("*join.pbem")), env=ref.env)
    out = pbem(runner, "play", "--campaign", ref.dir, env=ref.env).output
    for path in re.findall(r"for \w+ \(\w+\): (\S+)", out):
        p = carol if "to-allied" in path else dave
        pbem(runner, "ingest", "--campaign", p.dir, path, env=p.env)
    played = pbem(runner, "play", "1", "--campaign", carol.dir, env=carol.env).output
    assert "Send it to the referee.\n" in played and "the referee, referee" not in played


def test_keys_new_speaks_of_the_referee_and_the_demo_calls_the_referee_a_referee(tmp_path, monkeypatch):
    runner = CliRunner()
    out = pbem(runner, "keys", "new", "ref", env={"PBEM_HOME": str(tmp_path / "home")}).output
    assert "to your opponent, or to the referee in a refereed game" in out
    monkeypatch.chdir(tmp_path)
    demo = pbem(runner, "demo", "--referee", "--dir", tmp_path / "demo", env={"PBEM_HOME": str(tmp_path / "h")}).output
    assert "umpire" not in demo and "the referee creates a refereed game" in demo
    assert re.search(r"#\d+ allied: \d+ order\(s\) sealed to the referee", demo)


def test_dice_statistics_count_each_roll_for_the_side_whose_roll_it_is():
    from pbem.check.audit import AuditedRoll, statistics

    def roll(purpose: str, actor: str, values: list[int]) -> AuditedRoll:
        return AuditedRoll(1, 3, len(values), purpose, f"{len(values)}d6", values, None, actor, 3, 4, "SEALED", [],
                           "", "", "REDERIVED", "d6", (1, 2, 3, 4, 5, 6))

    rolls = [roll("Hill 60: allied fire (hits on 5)", "allied", [5, 6, 1]),
             roll("Hill 60: ottoman return fire (hits on 6)", "allied", [2, 2]),  # in the Allied turn file
             roll("naval bombardment of Hill 60 (hits on 6)", "allied", [4])]
    counts = {s.side: s.dice for s in statistics(rolls, ("allied", "ottoman"))}
    assert counts == {"allied": 4, "ottoman": 2}
