"""Assault on Gallipoli through the command line, as two players run it: new, join, play (orders
in words, the odds shown before a fire), report (text and HTML with the map: Killing Time,
Morale Advantage, VP cubes, fresh and exhausted units), verify, audit and replay; a bad order is
refused with a reason, exit 1, no traceback and the campaign unchanged."""

from __future__ import annotations

import re

import pytest

from tests.conftest import assert_refused, db_bytes, invoke, new_player, pbem


def newest(player):
    return max((player.dir / "sent").glob("*.pbem"))


@pytest.fixture
def game(tmp_path, runner, home):
    alice = new_player(runner, tmp_path, "alice", "anzac")
    bob = new_player(runner, tmp_path, "bob", "turkish")
    pbem(runner, "new", "assault-on-gallipoli", "--as", "anzac", "--key", "alice", "--opponent", bob.pub,
         "--scenario", "turkish-counter-attack", "--option", "turns=1", "--option", "hamilton=true",
         "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", newest(alice), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob), env=alice.env)
    return runner, alice, bob


def test_games_lists_the_module_its_scenarios_and_options(runner, home):
    out = pbem(runner, "games").output
    assert "assault-on-gallipoli" in out
    for text in ("lone-pine", "sari-bair", "august-offensive", "turkish-counter-attack", "von_sanders", "maclagan"):
        assert text in out, text


def test_play_shows_the_odds_before_a_fire_and_the_report_the_tracks(game):
    """The game's own player takes both sides' turns until a side must pick a fire's target;
    then `pbem play` lists each target with the exact odds of its hits."""
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from pbem.wire.keys import KeyStore

    runner, alice, bob = game
    players = {"anzac": alice, "turkish": bob}
    keys = {s: KeyStore(p.home).load(p.name) for s, p in players.items()}
    camps = {s: Campaign.open(p.dir) for s, p in players.items()}
    try:
        for _ in range(200):
            side = camps["anzac"].waiting()["side"]
            match = camps[side].match()
            prompt = camps[side].game.prompt(match["game"])
            fire = [c.label for c in prompt.choices if c.action.get("do") == "fire"]
            if prompt.side == side and match["game"]["frames"][-1]["k"] == "round" and fire:
                break
            result = camps[side].play(keys[side], [], policy(camps[side]))
            camps["turkish" if side == "anzac" else "anzac"].ingest([("f", result.envelope.raw)])
        else:
            pytest.fail("no fire in 200 turn files")
    finally:
        for camp in camps.values():
            camp.ledger.close()
    me = players[side]
    pbem(runner, "play", "--campaign", me.dir, "--no-interactive", fire[0], env=me.env)
    listed = pbem(runner, "play", "--campaign", me.dir, "--no-interactive", env=me.env).output
    first = re.search(r"^\s*\d+[.)]?\s+(with .+?)$", listed, re.M)
    assert first, listed
    pbem(runner, "play", "--campaign", me.dir, "--no-interactive", first.group(1).strip(), env=me.env)
    listed = pbem(runner, "play", "--campaign", me.dir, "--no-interactive", env=me.env).output
    odds = [line for line in listed.splitlines() if "fire at" in line]
    assert odds and all(re.search(r"d10 at -?\d+ or less: expect [\d.]+ hits?", line) for line in odds), listed
    report = pbem(runner, "report", "--campaign", me.dir, env=me.env).output
    assert "Killing Time" in report and "Morale Advantage" in report


def test_a_bad_order_is_refused_and_changes_nothing(game):
    runner, alice, bob = game
    pbem(runner, "play", "--campaign", alice.dir, env=alice.env)  # the creator's opening reveal
    pbem(runner, "ingest", "--campaign", bob.dir, newest(alice), env=bob.env)
    before = db_bytes(bob.dir)
    result = invoke(runner, "play", "--campaign", bob.dir, "march on constantinople", env=bob.env)
    assert_refused(result)
    assert "march on constantinople" in result.stderr
    assert db_bytes(bob.dir) == before


def play_whole(root, scenario: str, options: dict):
    """Both sides played to the end by the game's own player through real turn files."""
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from tests.test_golden import identity
    from tests.test_golden_blocks import entropy

    alice, bob = identity("alice"), identity("bob")
    anzac, genesis = Campaign.new(root / "alice", "assault-on-gallipoli", "anzac", alice, bob.public, bob.name,
                                  scenario, options, entropy=entropy("aog-alice"))
    turkish, joined = Campaign.join(root / "bob", genesis.raw, bob, entropy=entropy("aog-bob"))
    anzac.ingest([("join", joined.raw)])
    camps, who = {"anzac": anzac, "turkish": turkish}, {"anzac": alice, "turkish": bob}
    sent = []
    while (waiting := anzac.waiting()) is not None:
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        sent.append((side, result))
        camps["turkish" if side == "anzac" else "anzac"].ingest([("f", result.envelope.raw)])
        assert len(sent) < 600, "the game does not end"
    return camps, sent


def test_a_whole_game_reports_verifies_audits_and_replays(runner, home, tmp_path):
    camps, sent = play_whole(tmp_path, "anzac-landing", {"turns": 2})
    for camp in camps.values():
        camp.ledger.close()
    text = "\n".join(r.events and "\n".join(e["text"] for e in r.events) or "" for _, r in sent)
    for what in ("landing roll", "fire from", "close combat at", "wins the close combat"):
        assert what in text, what
    alice = tmp_path / "alice"
    html = tmp_path / "report.html"
    pbem(runner, "report", "--html", "-o", html, "--campaign", alice)
    page = html.read_text()
    for what in ("Killing Time", "Morale Advantage", 'class="cube"', "Battleship Hill", "The Nek", "exhausted"):
        assert what in page, what
    assert pbem(runner, "verify", alice).output.startswith("OK")
    assert "chi" in pbem(runner, "audit", alice).output.lower()
    replay = tmp_path / "replay.html"
    pbem(runner, "replay", "-o", replay, "--campaign", alice)
    assert "Killing Time" in replay.read_text()


def test_a_players_own_data_from_a_directory_is_played_by_both_sides(tmp_path, runner, home):
    """`pbem pack template` writes our tables; the owner puts his values in two of them and
    deletes the rest; `pbem new --pack DIR` carries them in the invitation, the opponent's tool
    plays by them too (it has no copy of the files), and both reports say whose data is in use."""
    alice = new_player(runner, tmp_path, "alice", "anzac")
    bob = new_player(runner, tmp_path, "bob", "turkish")
    mine = tmp_path / "my-aog"
    out = pbem(runner, "pack", "template", "assault-on-gallipoli", mine).output
    assert sorted(p.name for p in mine.iterdir()) == ["counters.toml", "fire.toml", "map.toml", "scenarios.toml"]
    assert "wrote" in out and "PROVISIONAL" in (mine / "map.toml").read_text()
    again = invoke(runner, "pack", "template", "assault-on-gallipoli", mine)
    assert_refused(again, "exists")  # never overwrites the player's work
    counters = (mine / "counters.toml").read_text()
    (mine / "counters.toml").write_text(counters.replace('name = "Col Kemal"', 'name = "Lt Col Mustafa Kemal"'))
    (mine / "fire.toml").write_text("base = 5\n")
    (mine / "map.toml").unlink()
    (mine / "scenarios.toml").unlink()
    checked = pbem(runner, "pack", "check", "--game", "assault-on-gallipoli", mine).output
    assert "your counters, fire for assault-on-gallipoli; map, scenarios stay ours, provisional" in checked
    pbem(runner, "new", "assault-on-gallipoli", "--as", "anzac", "--key", "alice", "--opponent", bob.pub,
         "--scenario", "turkish-counter-attack", "--pack", mine, "--campaign", alice.dir, env=alice.env)
    joined = pbem(runner, "join", newest(alice), "--key", "bob", "--campaign", bob.dir, env=bob.env).output
    assert re.search(r"options  data=<a table of counters, fire; \d+ bytes>", joined), joined  # not 10 KB of it
    pbem(runner, "ingest", "--campaign", alice.dir, newest(bob), env=alice.env)
    for player in (alice, bob):  # Kemal starts on Baby 700 in Scenario 2
        assert "Lt Col Mustafa Kemal" in pbem(runner, "report", "--campaign", player.dir, env=player.env).output
    from pbem.play.campaign import Campaign
    from pbem.commands.demo import policy
    from pbem.wire.keys import KeyStore

    players = {"anzac": alice, "turkish": bob}
    keys = {s: KeyStore(p.home).load(p.name) for s, p in players.items()}
    camps = {s: Campaign.open(p.dir) for s, p in players.items()}
    try:
        for _ in range(30):  # both tools play by the data in the invitation (the opponent has no file)
            side = camps["anzac"].waiting()["side"]
            result = camps[side].play(keys[side], [], policy(camps[side]))
            camps["turkish" if side == "anzac" else "anzac"].ingest([("f", result.envelope.raw)])
    finally:
        for camp in camps.values():
            camp.ledger.close()
    for player in (alice, bob):
        report = pbem(runner, "report", "--campaign", player.dir, env=player.env).output
        assert "data: counters, fire the player's own; map, scenarios ours, provisional" in report
        notes = report.split("PROVISIONAL DATA")[1].split("What happened")[0]  # what is still ours, and only that
        assert "- map:" in notes and "- scenarios:" in notes and "- counters:" not in notes \
            and "- fire combat:" not in notes, notes
        pbem(runner, "verify", player.dir, env=player.env)


def test_bad_data_is_refused_with_every_problem_and_nothing_written(tmp_path, runner, home):
    alice = new_player(runner, tmp_path, "alice", "anzac")
    bob = new_player(runner, tmp_path, "bob", "turkish")
    mine = tmp_path / "my-aog"
    pbem(runner, "pack", "template", "assault-on-gallipoli", mine)
    (mine / "fire.toml").write_text("base = 4.5\nmorale = 1\n")
    (mine / "map.toml").write_text((mine / "map.toml").read_text().replace('[areas.mal-tepe]', '[areas.mal-tepee]'))
    (mine / "notes.toml").write_text("x = 1\n")

    def new(*extra):
        return invoke(runner, "new", "assault-on-gallipoli", "--as", "anzac", "--key", "alice", "--opponent", bob.pub,
                      *extra, "--campaign", alice.dir, env=alice.env)

    result = new("--pack", mine)
    assert_refused(result, "bad-data")
    assert "notes.toml: not a part" in result.stderr and "fire.base: not a whole number" in result.stderr
    assert not alice.dir.exists()
    (mine / "notes.toml").unlink()
    (mine / "fire.toml").write_text("base = 4\nmorale = 1\n")
    result = new("--pack", mine)
    assert_refused(result, "bad-data")
    assert "fire.morale: not a modifier the rules know" in result.stderr
    (mine / "fire.toml").write_text("base = 4\n")  # the ids the rules name are checked once the shapes are right
    result = new("--pack", mine)
    assert_refused(result, "bad-data")
    assert "map.edges[60]: no area 'mal-tepe'" in result.stderr
    assert not alice.dir.exists()
    (mine / "scenarios.toml").write_text("[lone-pine\n")  # not TOML at all
    assert "scenarios.toml: cannot read it" in new("--pack", mine).stderr
    assert_refused(new("--pack", tmp_path / "nowhere"), "bad-data")
    assert_refused(new("--pack", tmp_path), "bad-data")  # no data files there
    assert not alice.dir.exists()
    result = invoke(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub,
                    "--pack", mine, "--campaign", alice.dir, env=alice.env)
    assert result.exit_code == 2 and "takes no data of yours" in result.stderr
