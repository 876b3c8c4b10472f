"""`pbem undo` names the order it takes back (pbem.play.turns.take_back shows the events the order
made): every movement order of Blood on the Tigris makes an event saying what moved where, or
what it did: a move, a sail, a depot flipped, the end of the movement."""

from __future__ import annotations

from pbem_engine.protocol.core import step
from pbem_engine.chance.dice import ScriptedDice
from pbem_engine.games.blood_on_the_tigris import GAME
from tests.conftest import new_player, pbem

MODULE = "blood-on-the-tigris"


def newest(player):
    return max((player.dir / "sent").glob("*.pbem"))


def test_undo_names_each_movement_order(tmp_path, runner, home):
    alice = new_player(runner, tmp_path, "alice", "british")
    bob = new_player(runner, tmp_path, "bob", "turkish")
    pbem(runner, "new", MODULE, "--as", "british", "--key", "alice", "--opponent", bob.pub, "--scenario", "campaign",
         "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", newest(alice), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob), env=alice.env)
    for order, named in (("move 16th Brigade to 1752", "16th Brigade moves 1853 -> 1752"),
                         ("sail HMS Odin and Espiegle to 1752|1753", "HMS Odin and Espiegle sail 1852|1853 -> 1752|1753 (15.0)"),
                         ("flip the depot", "the british depot at 1853 (Fao) (d2) turns static (12.3)")):
        pbem(runner, "play", "--campaign", alice.dir, "--no-interactive", order, env=alice.env)
        took = pbem(runner, "undo", "--campaign", alice.dir, env=alice.env).output
        assert f"took back: {named}" in took, (order, took)


def test_ending_the_movement_says_so():
    state = GAME.setup("campaign", {})
    _, events = step(GAME, state, "british", {"do": "end"}, ScriptedDice([]))
    assert events[0]["text"] == "british end their movement (3.21)"


def test_embarking_and_landing_say_who_and_where():
    from pbem_engine.games.blood_on_the_tigris.position import position

    state = position({"units": {"1314|1414": ["br-steamer-1"], "1314": ["br-16-6"]}}).state
    dice = ScriptedDice([])
    state, said = step(GAME, state, "british", {"do": "embark", "unit": "br-16-6", "steamer": "br-steamer-1"}, dice)
    assert [e["text"] for e in said] == ["16th Brigade embarks on British steamer 1 at 1314|1414 (15.3)"]
    state, said = step(GAME, state, "british", {"do": "land", "unit": "br-16-6", "hex": "1414"}, dice)
    assert "16th Brigade lands at 1414 (15.3)" in [e["text"] for e in said]
