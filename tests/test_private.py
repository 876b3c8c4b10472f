"""Private draws: hidden hands that only their owner sees, checked against its secret at the end."""

import json
import re
import secrets

import pytest
from click.testing import CliRunner

from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from tests.conftest import Duel, assert_refused, db_bytes, forge, next_state, read_envelope

ALLIED_CARDS = [f"allied-raid-card-{v}" for v in range(1, 10)]
OTTOMAN_CARDS = [f"ottoman-raid-card-{v}" for v in range(1, 10)]


class RaidDuel(Duel):
    """alice (allied) against bob (ottoman) at Trench Raid."""

    def __init__(self, root, runner):
        self.root, self.runner = root, runner
        self.alice = self.new_identity("alice", "allied")
        self.bob = self.new_identity("bob", "ottoman")
        a, b = self.alice, self.bob
        self.run(a, "new", "raid", "--as", "allied", "--key", "alice", "--opponent", b.pub, "--campaign", a.dir)
        self.run(b, "join", self.newest_sent(a), "--key", "bob", "--campaign", b.dir)
        self.run(a, "ingest", "--campaign", a.dir, self.newest_sent(b))

    def play(self, who):
        p = self.player(who)
        for _ in range(5):  # the first choice until the turn file is signed
            out = self.run(p, "play", "1", "--campaign", p.dir).output
            m = re.search(r"signed turn file #(\d+): (\S+)", out)
            if m:
                return m.group(2)
            assert "drafted" in out, out
        raise AssertionError(out)

    def turn(self, who):
        path = self.play(who)
        self.deliver(path, self.other(who))
        return path


@pytest.fixture
def raid(tmp_path):
    return RaidDuel(tmp_path, CliRunner())


def decoded(path) -> str:
    return "\n".join(block.payload[96:].decode() for block in find_blocks(open(path).read()))


def test_each_side_sees_its_own_hand_and_not_the_other(raid):
    raid.turn("allied")  # allied draws 3, plays one (opened), draws a replacement
    bob_report = raid.run(raid.bob, "report", "--campaign", raid.bob.dir).output
    alice_report = raid.run(raid.alice, "report", "--campaign", raid.alice.dir, "--all").output
    hand_line = next(line for line in bob_report.splitlines() if line.startswith("allied hand:"))
    assert hand_line.count("a concealed item") == 3 and "raid card" not in hand_line
    mine = next(line for line in alice_report.splitlines() if line.startswith("allied hand:"))
    assert mine.count("raid card") == 3 and "concealed" not in mine
    assert "allied plays raid card" in bob_report  # a played card is opened to everyone


def test_no_file_sent_holds_a_hidden_card(raid):
    """Search the bytes: the only card of a side in its turn files is the one the rules open there."""
    files = raid.play_out()
    for path in files:
        env = read_envelope(path)
        text = decoded(path) + open(path).read()
        opened = {o["item"] for o in env.content["body"].get("private", {}).get("open", {}).values()}
        own = ALLIED_CARDS if env.author == "allied" else OTTOMAN_CARDS
        enemy = OTTOMAN_CARDS if env.author == "allied" else ALLIED_CARDS
        if "private_secret" in env.content["body"]:
            continue  # the end-of-game reveal opens everything, by design
        assert not any(card in text for card in enemy)
        assert {card for card in own if card in text} == opened, path


def test_whole_game_verifies_every_hidden_draw(raid):
    raid.play_out()
    for p in (raid.alice, raid.bob):
        out = raid.run(p, "verify", p.dir).output
        assert "allied's 7 hidden draws checked against its secret" in out
        assert "ottoman's 7 hidden draws checked against its secret" in out


def test_before_the_end_draws_are_shown_as_not_yet_checked(raid):
    raid.turn("allied")
    assert "NOT YET CHECKED" in raid.run(raid.bob, "verify", raid.bob.dir).output


def _forged_turn(raid, change, restate=True):
    """Alice's next turn, built honestly, then changed by ``change(body)`` and re-signed with her key."""
    honest = raid.play("allied")
    env = read_envelope(honest)
    content = json.loads(json.dumps(env.content))
    change(content["body"])
    if restate:
        content["state"] = next_state(raid.bob.dir, content)
    return forge(raid.identity(raid.alice), content, raid.root / "forged.pbem")


def test_a_false_draw_is_caught_as_cheating_when_the_secret_is_revealed(raid):
    # alice commits her replacement draw to a token her secret does not give
    forged = _forged_turn(raid, lambda body: body["private"]["draws"][-1].__setitem__(0, secrets.token_hex(32)))
    raid.deliver(forged, "bob")  # bob cannot tell yet: he does not know alice's secret
    secret = Campaign.open(raid.alice.dir).private_secret()
    bob = Campaign.open(raid.bob.dir)
    record = bob.match()["private"]["allied"]
    from pbem_engine.protocol import match as protocol

    with pytest.raises(protocol.ProtocolError) as e:  # what bob's tool does when the secret arrives
        protocol._reveal_secret(bob.genesis["game"], "allied", json.loads(json.dumps(record)), secret)
    assert e.value.code == "cheating" and "allied's private draw #3 in envelope #2" in str(e.value)


def test_a_false_opening_is_refused_at_once(raid):
    def swap(body):
        tok, opening = next(iter(body["private"]["open"].items()))
        value = int(opening["item"].rsplit("-", 1)[1])
        opening["item"] = f"allied-raid-card-{value % 9 + 1}"

    forged = _forged_turn(raid, swap, restate=False)
    before = db_bytes(raid.bob.dir)
    result = raid.ingest("bob", forged)
    assert_refused(result, "cheating")
    assert "allied's opening of hidden item" in result.stderr and "does not match its commitment" in result.stderr
    assert db_bytes(raid.bob.dir) == before
    evidence = list((raid.bob.dir / "evidence").glob("*.pbem"))  # the signed lie is kept
    assert len(evidence) == 1 and evidence[0].read_text() == forged.read_text()


def test_a_secret_other_than_the_committed_one_is_cheating(raid):
    raid.play_out()
    camp = Campaign.open(raid.bob.dir)
    record = camp.match()["private"]["allied"]
    from pbem_engine.protocol import match as protocol

    with pytest.raises(protocol.ProtocolError) as e:
        protocol._reveal_secret(camp.genesis["game"], "allied", dict(record, secret=None), secrets.token_hex(32))
    assert e.value.code == "cheating"


def test_raid_demo_verifies_both_sides(tmp_path):
    result = CliRunner().invoke(__import__("pbem.cli", fromlist=["cli"]).cli, ["demo", "--game", "raid", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("hidden draws checked against its secret") == 4


def test_a_joiner_never_draws_on_the_anchor_it_saw_before_committing(tmp_path):
    """Ottoman creates, allied joins and must draw first: ottoman owes an opening reveal,
    and allied's draws use a link ottoman revealed after the join."""
    d = RaidDuel.__new__(RaidDuel)
    d.root, d.runner = tmp_path, CliRunner()
    d.alice = d.new_identity("alice", "ottoman")
    d.bob = d.new_identity("bob", "allied")
    d.run(d.alice, "new", "raid", "--as", "ottoman", "--key", "alice", "--opponent", d.bob.pub, "--campaign", d.alice.dir)
    d.run(d.bob, "join", d.newest_sent(d.alice), "--key", "bob", "--campaign", d.bob.dir)
    d.run(d.alice, "ingest", "--campaign", d.alice.dir, d.newest_sent(d.bob))
    status = d.run(d.bob, "status", "--campaign", d.bob.dir).output
    assert "waiting for ottoman's opening reveal" in status and "waiting for ottoman: waiting" not in status
    refused = d.invoke(d.bob, "play", "1", "--campaign", d.bob.dir)
    assert_refused(refused, "not-your-turn")
    opening = d.play("ottoman")  # a reveal-only envelope
    assert read_envelope(opening).content["body"]["actions"] == []
    d.deliver(opening, "allied")
    first = read_envelope(d.turn("allied"))
    draw = Campaign.open(d.bob.dir).match()["private"]["allied"]["log"][0]
    ottoman_link = Campaign.open(d.bob.dir).ledger.state(2)[1]["chains"]["ottoman"]
    assert draw["link"] == ottoman_link["link"] and ottoman_link["index"] == 1
    assert first.seq == 3
    d.play_out()
    assert "hidden draws checked" in d.run(d.bob, "verify", d.bob.dir).output


def test_the_engine_refuses_a_draw_on_the_creators_anchor():
    from pbem_engine.protocol import match as protocol
    from pbem_engine.games.raid import GAME
    from pbem_engine.hidden.private import anchor

    gid = "cd" * 16
    chains = {s: protocol.chain_links(gid, s, s.encode() * 8, 10) for s in ("allied", "ottoman")}
    body = {"mode": "sealed", "scenario": "standard", "options": {}, "sides": {"allied": {}, "ottoman": {}},
            "anchor": chains["ottoman"][0].hex(), "private_anchor": anchor(gid, "ottoman", b"o" * 32)}
    m = protocol.start(GAME, gid, "ottoman", body)
    m = protocol.join(m, "allied", {"anchor": chains["allied"][0].hex(),
                                    "private_anchor": anchor(gid, "allied", b"a" * 32)})
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.advance(GAME, m, 2, "allied", {"reveal": chains["allied"][1].hex(), "actions": [{"do": "draw"}]},
                         {"secret": b"a" * 32})
    assert e.value.code == "too-early"
