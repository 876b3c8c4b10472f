"""Planned orders through the command line, two players in their own homes (plans.py; RULES.md,
"Hand-overs"): the Entente types his next landings with his activations; the file the Ottoman
receives names no beach; the Entente's next `pbem play` asks him nothing and signs the draw and
the landings alone; the Ottoman's report then shows them, and his CD fire binds."""

from __future__ import annotations

from pbem.commands.demo import policy
from pbem.play.campaign import Campaign
from pbem.play.turns import ahead
from pbem.wire.envelope import read_envelopes
from pbem.wire.keys import KeyStore
from tests.conftest import pbem, sent, two_homes

PLAN = "plan assault: land 3 steps at W Beach; done"


def test_the_entente_plans_his_landings_and_his_tool_lands_them_alone(tmp_path, runner, home):
    alice, bob = two_homes(runner, tmp_path, "gallipoli-1915", ("entente", "ottoman"), "--scenario", "helles",
                           "--option", "last_turn=4")
    players = {"entente": alice, "ottoman": bob}
    keys = {s: KeyStore(p.home).load(p.name) for s, p in players.items()}
    camps = {s: Campaign.open(p.dir) for s, p in players.items()}
    try:  # the game's own players up to the Entente's Activations Phase of turn 2
        for _ in range(60):
            side = camps["entente"].waiting()["side"]
            match, prompt, _ = ahead(camps[side])
            state = match["game"]
            if side == "entente" and prompt.side == "entente" and (state["turn"], state["phase"]) == (2, "activations"):
                break
            result = camps[side].play(keys[side], [], policy(camps[side]))
            camps["ottoman" if side == "entente" else "entente"].ingest([("f", result.envelope.raw)])
    finally:
        for c in camps.values():
            c.ledger.close()
    pbem(runner, "play", PLAN, "roll 2d10 for fire, then done until assault", "--campaign", alice.dir, env=alice.env)
    sealed = sent(alice)
    assert b"W Beach" not in read_envelopes(sealed.read_text())[0].payload
    pbem(runner, "ingest", "--campaign", bob.dir, sealed, env=bob.env)
    pbem(runner, "play", "--campaign", bob.dir, env=bob.env)  # his tool: the roll's reveal
    pbem(runner, "ingest", "--campaign", alice.dir, sent(bob), env=alice.env)
    status = pbem(runner, "status", "--campaign", alice.dir, env=alice.env).output
    assert "nothing to decide" in status, status
    played = pbem(runner, "play", "--campaign", alice.dir, env=alice.env).output
    assert "carry out the planned orders" in played and "draw naval gunfire" in played, played
    pbem(runner, "ingest", "--campaign", bob.dir, sent(alice), env=bob.env)
    report = pbem(runner, "report", "--campaign", bob.dir, env=bob.env).output
    assert "entente opens its planned orders for the Amphibious Assault Phase" in report, report
    assert "entente lands 3 step(s) at W Beach" in report
    status = pbem(runner, "status", "--campaign", bob.dir, env=bob.env).output
    assert "waiting for you: turn 3" in status and "activations: ottoman" in status, status  # after his CD fire
    played = pbem(runner, "play", "roll 2d10 for fire, then done until activations", "--campaign", bob.dir,
                  env=bob.env).output
    assert "cd fire 3 steps at the landing, then done" in played, played  # bound: his tool's, no question
    assert "Coastal Defense fire at the landing: 3 step(s)" in played, played  # sealed at once, in his file
