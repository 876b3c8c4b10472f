"""A refereed game outlives its hash chains (issue 36, point 4, for referee mode): a table-top
game refereed with chains of 64 links goes on past 64 files of the referee and of a player,
red rolling a die every round.  Red renews with a fresh chain; the referee with the one its salt
committed at genesis gives (it has no chain to choose: docs/threat-model.md, section 5).  Every
copy, `pbem verify` after the disclosure, and the independent verifier accept it; a referee
renewal with a chain of its own choosing is caught as cheating once the salt is out."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem_engine.canonical import canonical_json
from pbem_engine.protocol import match as protocol
from tests.conftest import invoke, new_player, pbem, read_envelope
from tests.test_tabletop import MINI

ROUNDS = 66  # red files past the 64 links of its first chain, and so the referee too


class Refereed:
    def __init__(self, root: Path) -> None:
        self.runner = CliRunner()
        (root / "mini").mkdir()
        (root / "mini" / "pack.toml").write_text(MINI)
        self.ref, self.red, self.blue = (new_player(self.runner, root, n, s)
                                         for n, s in (("ref", "referee"), ("alice", "red"), ("bob", "blue")))
        self.players = {"red": self.red, "blue": self.blue}
        self.run(self.ref, "new", "tabletop", "--referee", "--pack", str(root / "mini"), "--key", "ref", "--chain", "64",
                 "--player", f"red={self.red.pub}", "--player", f"blue={self.blue.pub}", "--campaign", self.ref.dir)
        invitation = next((self.ref.dir / "sent").glob("*genesis.pbem"))
        for p in (self.red, self.blue):
            self.run(p, "join", invitation, "--key", p.name, "--campaign", p.dir)
            self.run(self.ref, "ingest", "--campaign", self.ref.dir, next((p.dir / "sent").glob("*join.pbem")))
        self.adjudicate()

    def run(self, p, *args):
        return pbem(self.runner, *args, env=p.env)

    def adjudicate(self) -> str:
        out = self.run(self.ref, "play", "--campaign", self.ref.dir).output
        sent = re.findall(r"for (\w+) \(\w+\): (\S+)", out)
        assert sorted(s for s, _ in sent) == ["blue", "red"], out
        for side, path in sent:
            self.run(self.players[side], "ingest", "--campaign", self.players[side].dir, path)
        return out

    def act(self, p, *orders) -> None:
        out = self.run(p, "play", *orders, "--campaign", p.dir).output
        path = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
        self.run(self.ref, "ingest", "--campaign", self.ref.dir, path)
        self.adjudicate()


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Refereed:
    g = Refereed(tmp_path_factory.mktemp("referee-renewal"))
    for n in range(ROUNDS):
        g.act(g.red, "roll 2d6 for fire" if n % 2 else "roll d6")
    g.act(g.red, "end red withdraws")
    g.run(g.ref, "play", "--campaign", g.ref.dir)  # the referee discloses its salt and box key
    disclosure = max((g.ref.dir / "sent").glob("*-referee-turn.pbem"), key=lambda p: p.name)
    for p in (g.red, g.blue):
        g.run(p, "ingest", "--campaign", p.dir, disclosure)
    return g


def _bodies(folder: Path, author: str) -> dict[int, dict]:
    out = {}
    for path in folder.glob("*-turn.pbem"):
        env = read_envelope(path)
        if env.author == author:
            out[env.seq] = env.content["body"]
    return out


def test_the_referee_and_a_player_each_renew_once_and_go_past_their_first_chain(game):
    for author, p in (("referee", game.ref), ("red", game.red)):
        bodies = _bodies(p.dir / "sent", author)
        assert len(bodies) > 64, (author, len(bodies))  # more files than links in the first chain
        renewals = [n for n, seq in enumerate(sorted(bodies), 1) if "renew" in bodies[seq]]
        assert renewals == [64 - protocol.RENEW_BEFORE + 1], (author, renewals)
    salt = bytes.fromhex(json.loads(json.dumps(_disclosed(game)))["salt"])
    from pbem_engine.protocol.referee import renewal_anchor

    ref_bodies = _bodies(game.ref.dir / "sent", "referee")
    seq = next(s for s in sorted(ref_bodies) if "renew" in ref_bodies[s])
    game_id = read_envelope(next((game.ref.dir / "sent").glob("*genesis.pbem"))).content["game"]
    assert ref_bodies[seq]["renew"] == renewal_anchor(game_id, salt, 64 - protocol.RENEW_BEFORE + 1, 64)


def _disclosed(game) -> dict:
    bodies = _bodies(game.ref.dir / "sent", "referee")
    return bodies[max(bodies)]["disclose"]


def test_every_copy_verifies_the_renewed_refereed_game(game):
    for p in (game.ref, game.red, game.blue):
        out = game.run(p, "verify", p.dir).output
        assert out.startswith("OK: "), out
        status = game.run(p, "status", "--campaign", p.dir).output
        assert "exhausted" not in status
        audited = invoke(game.runner, "audit", p.dir, env=p.env)
        assert audited.exit_code == 0 and f"audit OK: {ROUNDS} rolls re-derived" in audited.output, audited.output


def _independent(player) -> subprocess.CompletedProcess:
    folders = [str(player.dir / "received"), str(player.dir / "sent")]
    return subprocess.run([sys.executable, "tests/independent_verifier.py", *folders], capture_output=True,
                          text=True, cwd=Path(__file__).parent.parent, timeout=300)


def test_the_independent_verifier_accepts_the_refereed_game_and_its_renewals(game):
    from tests import independent_verifier as iv

    for p in (game.ref, game.red, game.blue):
        done = _independent(p)
        assert done.returncode == 0 and done.stdout.startswith("OK: "), done.stdout + done.stderr
    texts = [f.read_text() for folder in ("received", "sent") for f in sorted((game.blue.dir / folder).glob("*.pbem"))]
    report = iv.verify_files(texts)
    assert report.renewals == {"referee": 1, "red": 1} and report.referee_renewals_checked == 1
    assert report.envelopes[-1].body.get("disclose")  # read to the end, the disclosure included
    # the referee's renewing file signed again without its anchor, and the two files after it again
    # on top of it (their public states recomputed): the referee's next reveal, from the new chain,
    # hashes to nothing it committed
    from pbem.chain.referee import public_advance
    from pbem.errors import RefusedTurn
    from pbem.play.campaign import Campaign
    from pbem.wire.envelope import seal
    from pbem.wire.keys import KeyStore

    keys = {"referee": KeyStore(game.ref.home).load("ref"), "red": KeyStore(game.red.home).load("alice")}
    seq = next(e.seq for e in report.envelopes if e.author == "referee" and "renew" in e.body)
    camp = Campaign.open(game.blue.dir, readonly=True)
    public = camp.ledger.state(seq - 1)[1]["public"]
    camp.ledger.close()
    prev = next(e for e in report.envelopes if e.seq == seq - 1).hash
    forged = []
    for original in [e for e in report.envelopes if seq <= e.seq <= seq + 2]:
        body = {k: v for k, v in original.body.items() if k != "renew" or original.seq != seq}
        content = dict(original.content, body=body, prev=prev)
        try:
            public = public_advance(public, original.seq, original.author, "turn", body)
            content["state"] = hashlib.sha256(canonical_json(public, strict=False)).hexdigest()
        except RefusedTurn:  # pbem refuses it too: its state is left as it was
            pass
        envelope = seal(keys[original.author], content)
        forged.append(envelope.raw)
        prev = envelope.hash
    before = [f.read_text() for f in sorted((game.blue.dir / "received").glob("*.pbem")) if int(f.name.split("-")[1]) < seq]
    assert len(before) == seq  # the genesis, and every envelope up to the renewing one
    assert iv.verify_files(before).envelopes[-1].seq == seq - 1
    try:
        iv.verify_files(before + forged)
    except iv.Refused as e:
        assert e.code == "bad-reveal" and e.seq == seq + 2, e
    else:
        raise AssertionError("a referee's chain switched without its renewal was accepted")


def test_a_referee_that_renews_with_a_chain_of_its_choosing_is_caught_at_disclosure(tmp_path, monkeypatch):
    """A referee running modified software picks its new chain itself (it could grind it against the
    links it holds).  The players' copies cannot tell before the salt is out; once it is, every
    copy's verify names the renewal as cheating."""
    import secrets

    from pbem_engine.protocol import referee as engine_referee

    g = Refereed(tmp_path)
    with monkeypatch.context() as m:  # the referee's modified tool: its own choice, and no check of it
        m.setattr(engine_referee, "renewal_secret", lambda salt, index: secrets.token_bytes(32))
        m.setattr(engine_referee, "check_renewal", lambda *args: None)
        for _ in range(52):  # the referee renews at its 49th file
            g.act(g.red, "roll d6")
    bodies = _bodies(g.ref.dir / "sent", "referee")
    assert any("renew" in b for b in bodies.values())
    for p in (g.red, g.blue):  # no copy can check it yet: the game goes on
        assert g.run(p, "verify", p.dir).output.startswith("OK: ")
    g.act(g.red, "end red withdraws")
    g.run(g.ref, "play", "--campaign", g.ref.dir)  # the disclosure
    disclosure = max((g.ref.dir / "sent").glob("*-referee-turn.pbem"), key=lambda p: p.name)
    for p in (g.red, g.blue):
        g.run(p, "ingest", "--campaign", p.dir, disclosure)
        out = invoke(g.runner, "verify", p.dir, env=p.env)
        assert out.exit_code == 1, out.output
        assert "cheating" in out.stderr and "its salt committed at genesis" in out.stderr, out.stderr
    done = _independent(g.blue)
    seq = next(s for s in sorted(bodies) if "renew" in bodies[s])
    assert done.returncode == 1 and done.stdout.startswith(f"REFUSED #{seq}: cheating: the referee's new chain"), \
        done.stdout + done.stderr


def test_the_spec_s_referee_renewal_vector_holds_for_the_protocol_and_the_independent_verifier():
    """docs/vectors/primitives.json, referee_renewal: the secret is the salt's HMAC of the index,
    the anchor its chain's first link back, the first new link hashes to it; the independent
    verifier's own arithmetic gives the same anchor."""
    import hmac as hmac_mod

    from pbem_engine.protocol.referee import renewal_anchor
    from tests import independent_verifier as iv
    from tests import independent_verifier_referee as ivr

    v = json.loads((Path(__file__).parent.parent / "docs" / "vectors" / "primitives.json").read_text())["referee_renewal"]
    salt = bytes.fromhex(v["salt"])
    assert hmac_mod.digest(salt, b"pbem/v1/referee-renew\x00" + v["index"].to_bytes(8, "big"), "sha256").hex() == v["secret"]
    assert renewal_anchor(v["game"], salt, v["index"], v["length"]) == v["anchor"]
    assert ivr._renewal_anchor(v["game"], salt, v["index"], v["length"], iv) == v["anchor"]
    assert iv.H("chain", v["game"], "referee", bytes.fromhex(v["first_link"])).hex() == v["anchor"]
    assert renewal_anchor(v["game"], salt, v["index"] + 1, v["length"]) != v["anchor"]  # the index counts
