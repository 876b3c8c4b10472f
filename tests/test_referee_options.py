"""`pbem new --referee` applies `--option` (it was accepted and silently dropped)."""

from __future__ import annotations

from tests.conftest import assert_refused, invoke, new_player, pbem, read_envelope


def test_options_reach_a_refereed_genesis_and_bad_ones_are_refused(tmp_path, runner):
    ref, a, b = (new_player(runner, tmp_path, n, s) for n, s in (("ref", "referee"), ("alice", "red"), ("bob", "blue")))
    pbem(runner, "new", "barrage", "--referee", "--key", "ref", "--player", f"red={a.pub}", "--player", f"blue={b.pub}",
         "--option", "rounds=2", "--campaign", tmp_path / "game", env=ref.env)
    genesis = read_envelope(next((tmp_path / "game" / "sent").glob("*genesis.pbem")))
    assert genesis.content["body"]["options"] == {"rounds": 2}
    bad = invoke(runner, "new", "barrage", "--referee", "--key", "ref", "--player", f"red={a.pub}", "--player",
                 f"blue={b.pub}", "--option", "no_such_option=1", "--campaign", tmp_path / "bad", env=ref.env)
    assert_refused(bad)
    assert not (tmp_path / "bad" / "campaign.db").exists()
