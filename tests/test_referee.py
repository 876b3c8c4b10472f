"""Referee mode: a referee and two players, three campaign databases, files only."""

import json
import re
from pathlib import Path

import pytest

from pbem.errors import PbemError
from click.testing import CliRunner

from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from pbem.commands.demo import choose
from pbem.wire.envelope import open_block
from tests.conftest import assert_refused, invoke, new_player, pbem


class Refereed:
    def __init__(self, root: Path, module: str = "hill60"):
        self.runner = CliRunner()
        self.root = root
        self.ref = self._player("ref", "referee")
        self.alice = self._player("alice", "allied")
        self.bob = self._player("bob", "ottoman")
        self.run(self.ref, "new", module, "--referee", "--key", "ref", "--player", f"allied={self.alice.pub}",
                 "--player", f"ottoman={self.bob.pub}", "--campaign", self.ref.dir)
        invitation = next((self.ref.dir / "sent").glob("*genesis.pbem"))
        for p in (self.alice, self.bob):
            out = self.run(p, "join", invitation, "--key", p.name, "--campaign", p.dir).output
            assert "Send your join turn file to ref" in out
            self.run(self.ref, "ingest", "--campaign", self.ref.dir, next((p.dir / "sent").glob("*join.pbem")))
        self.sent_to = {"allied": [], "ottoman": []}

    def _player(self, name, side):
        return new_player(self.runner, self.root, name, side)

    def run(self, p, *args):
        return pbem(self.runner, *args, env=p.env)

    def by_side(self, side):
        return {"referee": self.ref, "allied": self.alice, "ottoman": self.bob}[side]

    def waiting(self):
        return Campaign.open(self.ref.dir).waiting()

    def step(self):
        """The party that owes the next envelope acts; its files are delivered."""
        side = self.waiting()["side"]
        p = self.by_side(side)
        if side == "referee":
            out = self.run(p, "play", "--campaign", p.dir).output
            files = re.findall(r"for (\w+) \(\w+\): (\S+)", out)
            if not files:  # the disclosure goes to everyone
                path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
                files = [("allied", path), ("ottoman", path)]
            for to, path in files:
                self.sent_to[to].append(Path(path))
                self.run(self.by_side(to), "ingest", "--campaign", self.by_side(to).dir, path)
            return side
        camp = Campaign.open(p.dir)
        from pbem.play.refereeing import latest_view

        view = latest_view(camp)
        labels = [label for label, _ in view["prompt"]["choices"]]
        from pbem_engine.protocol.core import Choice, Prompt

        order = choose(Prompt(side, "", tuple(Choice(label, {}) for label in labels)))
        out = self.run(p, "play", order, "--campaign", p.dir).output
        assert "Send it to the referee, ref" in out
        path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
        self.run(self.ref, "ingest", "--campaign", self.ref.dir, path)
        return side

    def play_out(self):
        for _ in range(300):
            if self.waiting() is None:
                return
            self.step()
        raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Refereed(tmp_path_factory.mktemp("refereed"))
    g.play_out()
    return g


def test_a_whole_refereed_game_verifies_on_all_three_databases(game):
    out = game.run(game.ref, "verify", game.ref.dir).output
    assert out.startswith("OK: ") and "full state replayed with the referee's secrets" in out
    for p in (game.alice, game.bob):
        out = game.run(p, "verify", p.dir).output
        assert out.startswith("OK: ") and "referee disclosed: full game replayed" in out
        assert re.search(r"(\d+) views you received match", out).group(1) == str(len(game.sent_to[p.side]) - 1)
    states = {re.search(r"; state (\w+)", game.run(p, "verify", p.dir).output).group(1)
              for p in (game.ref, game.alice, game.bob)}
    assert len(states) == 1


def test_each_player_gets_only_its_own_view_and_no_ones_orders(game):
    for side in ("allied", "ottoman"):
        other = "ottoman" if side == "allied" else "allied"
        for path in game.sent_to[side]:
            envelopes = [open_block(b) for b in find_blocks(path.read_text())]
            views = [e for e in envelopes if e.kind == "view"]
            assert all(v.content["body"]["to"] == side for v in views)
            for e in envelopes:
                body = e.content["body"]
                assert "actions" not in body, "orders travel sealed to the referee"
                assert other not in json.dumps(body.get("views", {})) or e.author == "referee"
            # the other player's orders cannot be opened with this player's key
            from pbem.chain import referee

            secret = Campaign.open(game.by_side(side).dir).box_secret()
            for e in envelopes:
                if e.author == other and "orders" in e.content["body"]:
                    with pytest.raises(PbemError, match="does not open"):
                        referee.open_box(secret, e.content["body"]["orders"], e.game, "orders",
                                         referee.orders_aad(e.game, e.seq, e.author))


def test_players_report_from_their_views(game):
    report = game.run(game.alice, "report", "--all", "--campaign", game.alice.dir).output
    assert "report for allied (alice)" in report and "RESULT:" in report and "roll:" in report
    status = game.run(game.bob, "status", "--campaign", game.bob.dir).output
    assert "game over" in status


def test_a_tampered_received_view_is_caught_after_disclosure(game, tmp_path):
    import shutil
    import sqlite3

    copy = tmp_path / "alice"
    shutil.copytree(game.alice.dir, copy)
    with sqlite3.connect(copy / "campaign.db") as c:
        seq, payload = c.execute("select seq, payload from views order by seq desc limit 1").fetchone()
        data = json.loads(payload)
        data["events"].append("the referee says you won")
        c.execute("update views set payload = ? where seq = ?", (json.dumps(data), seq))
    result = invoke(game.runner, "verify", copy, env=game.alice.env)
    assert result.exit_code == 1 and "bad-view" in result.output


def test_a_lying_referee_is_caught_by_every_player_at_disclosure(tmp_path, monkeypatch):
    from pbem.chain import referee

    g = Refereed(tmp_path)
    g.step()  # the referee starts the game honestly
    real = referee.commitment
    monkeypatch.setattr(referee, "commitment", lambda full, seq, salt: real(dict(full, seq=full["seq"] + 1), seq, salt))
    g.step()  # allied orders; the referee then commits to a state it did not reach ...
    g.step()
    monkeypatch.setattr(referee, "commitment", real)
    g.play_out()  # the players cannot tell yet: they never see the full state
    for p in (g.alice, g.bob):
        result = invoke(g.runner, "verify", p.dir, env=p.env)
        assert result.exit_code == 1 and "bad-commit" in result.output, result.output
        assert "#3" in result.output


def test_misuse_and_refusals(tmp_path):
    g = Refereed(tmp_path)
    r = invoke(g.runner, "new", "hill60", "--referee", "--key", "ref", "--player", "allied", "--campaign",
               tmp_path / "x", env=g.ref.env)
    assert r.exit_code == 2
    r = invoke(g.runner, "play", "1", "--campaign", g.alice.dir, env=g.alice.env)
    assert_refused(r, "not-your-turn")
    r = invoke(g.runner, "new", "tabletop", "--referee", "--key", "ref", "--player", f"allied={g.alice.pub}",
               "--player", f"ottoman={g.bob.pub}", "--campaign", tmp_path / "tt", env=g.ref.env)
    assert r.exit_code == 2 and "--pack NAME-OR-DIR" in r.output  # table-top is refereed with its pack, as in two-player
    assert not (tmp_path / "tt").exists()
    g.step()  # the referee starts: each player gets its own file
    before = (g.alice.dir / "campaign.db").read_bytes()
    r = invoke(g.runner, "ingest", "--campaign", g.alice.dir, g.sent_to["ottoman"][0], env=g.alice.env)
    assert r.exit_code == 0 and "a view for ottoman" in r.output  # bob's view is not alice's to read
    assert (g.alice.dir / "campaign.db").read_bytes() == before


def test_dice_audit_of_a_refereed_game(game, tmp_path):
    ref = game.run(game.ref, "audit", game.ref.dir).output
    alice = game.run(game.alice, "audit", game.alice.dir).output
    count = re.search(r"audit OK: (\d+) rolls re-derived", ref).group(1)
    assert re.search(r"audit OK: (\d+) rolls re-derived", alice).group(1) == count
    assert "REFEREE" in alice and "referee[" in alice


def test_no_audit_before_disclosure_and_disclose_on_demand(tmp_path):
    g = Refereed(tmp_path)
    g.step()
    early = invoke(g.runner, "audit", g.alice.dir, env=g.alice.env)
    assert_refused(early, "not-disclosed")
    out = g.run(g.ref, "disclose", "--campaign", g.ref.dir).output
    path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
    g.run(g.alice, "ingest", "--campaign", g.alice.dir, path)
    assert "referee disclosed" in g.run(g.alice, "verify", g.alice.dir).output
    r = invoke(g.runner, "play", "1", "--campaign", g.alice.dir, env=g.alice.env)
    assert r.exit_code == 1  # nothing follows a disclosure


def test_sealed_orders_are_padded_so_their_length_says_little():
    from pbem.chain import referee

    secret, public = referee.box_keypair()
    short = referee.seal_box(public, b'[{"do":"end"}]', "ab" * 16, "orders", b"aad")
    longer = referee.seal_box(public, b'[{"do":"move","to":"Kabak Kuyu","unit":"18aus"}]', "ab" * 16, "orders", b"aad")
    assert len(short["ct"]) == len(longer["ct"])
    assert referee.open_box(secret, short, "ab" * 16, "orders", b"aad").rstrip() == b'[{"do":"end"}]'
