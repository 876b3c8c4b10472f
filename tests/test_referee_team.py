"""Team sides in a refereed game (issue 37, point 5), between six homes by the installed ``pbem``.

A referee runs a refereed block game for Alice (allied) and Bob (ottoman); Carol is a member of the
allied side, Dave of the ottoman side, and any member may sign.  Each member's copy comes from its
side's player (``pbem team export`` / ``import``) and reads the side's views with the side's box
key.  Carol gives every allied order (Alice follows), Bob every ottoman one (Dave follows); each
copy ingests its side's file from the referee.  Nothing Carol holds or renders names an ottoman
block the rules conceal, nor anything Dave holds an allied one; Carol cannot open the ottoman file;
every copy verifies the whole game after the disclosure; a turn signed by a stranger, or by a
member where only the commander signs, is refused with the campaign unchanged.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from pbem.play.campaign import Campaign
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block, seal
from pbem.wire.keys import KeyStore
from tests.test_referee_hidden import concealed_now
from tests.test_referee_witness import play_as, witness_bytes
from tests.test_refereed_cli import Home

SIDES = ("allied", "ottoman")


def digest(home: Home) -> bytes:
    return hashlib.sha256((home.dir / "c" / "campaign.db").read_bytes()).digest()


def founded(root: Path, signs: str, members: dict[str, str]) -> dict[str, Home]:
    """The referee's game with ``members`` ({name: side}), every player joined, the game started,
    each member's copy imported from its side's player.  The homes by name."""
    homes = {n: Home(root, n) for n in ("ref", "alice", "bob", *members)}
    for home in homes.values():
        home("keys", "new", home.name, campaign=False)
        (root / f"{home.name}.pub").write_text(home("keys", "export", home.name, campaign=False))
    teams = [a for name, side in members.items() for a in ("--team", f"{side}={root / (name + '.pub')}")]
    homes["ref"]("new", "gallipoli-blocks", "--referee", "--key", "ref", "--player", f"allied={root / 'alice.pub'}",
                 "--player", f"ottoman={root / 'bob.pub'}", *teams, "--team-signs", signs, "--option", "turns=2")
    genesis = str(homes["ref"].newest("."))
    for name in ("alice", "bob"):
        homes[name]("join", genesis, "--key", name)
    homes["ref"]("ingest", str(homes["alice"].newest(".")), str(homes["bob"].newest(".")))
    homes["ref"]("play")
    for name, side in (("alice", "allied"), ("bob", "ottoman")):
        homes[name]("ingest", str(homes["ref"].newest(f"to-{side}")))
    for name, side in members.items():
        player = homes["alice" if side == "allied" else "bob"]
        player("team", "export", "--to", name, "-o", str(root / f"{name}.team"))
        homes[name]("team", "import", str(root / f"{name}.team"), "--key", name)
    return homes


class TeamGame:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.homes = founded(root, "any", {"carol": "allied", "dave": "ottoman"})
        self.ref = self.homes["ref"]
        self.copies = {"allied": [self.homes["alice"], self.homes["carol"]],
                       "ottoman": [self.homes["bob"], self.homes["dave"]]}
        self.plays = {"allied": self.homes["carol"], "ottoman": self.homes["bob"]}
        self.checked = {"carol": 0, "dave": 0}
        self.opened: dict[str, set[str]] = {}
        self.reports: dict[str, list[str]] = {"carol": [], "dave": []}
        self.files = {"allied": [], "ottoman": []}
        self.before_carol: tuple[Home, Path] | None = None

    def check(self) -> None:
        """What each member holds and renders names no block of the other side concealed now."""
        full = Campaign.open(self.ref.dir / "c", readonly=True).match()["full"]
        for name, side in (("carol", "allied"), ("dave", "ottoman")):
            other = next(s for s in SIDES if s != side)
            home = self.homes[name]
            report = home("report")
            self.reports[name].append(report)
            blob = witness_bytes(home.dir / "c") + report.encode()
            secret = concealed_now(full, other, self.opened.setdefault(other, set()))
            self.checked[name] += len(secret)
            for item in sorted(secret):
                assert item.encode() not in blob, f"{name} ({side}) can read {other}'s concealed {item}"

    def play_out(self) -> None:
        for _ in range(400):
            camp = Campaign.open(self.ref.dir / "c", readonly=True)
            waiting = camp.waiting()
            camp.ledger.close()
            if waiting is None:
                return
            if waiting["side"] != "referee":
                home = self.plays[waiting["side"]]
                assert play_as(home, home.name)
                if home.name == "carol" and self.before_carol is None:  # the referee's copy as it stood then
                    snapshot = Home(self.root, "ref-before")
                    shutil.copytree(self.ref.dir / "c", snapshot.dir / "c")
                    shutil.copytree(self.ref.dir / "home", snapshot.dir / "home")
                    self.before_carol = (snapshot, home.newest("."))
                    self.behind = Home(self.root, "alice-behind")  # the commander's copy, left behind here
                    for part in ("c", "home"):
                        shutil.copytree(self.homes["alice"].dir / part, self.behind.dir / part)
                self.ref("ingest", str(home.newest(".")))
                continue
            disclosing = waiting["why"] == "disclose"
            self.ref("play")
            for side in SIDES:
                path = self.ref.newest(".") if disclosing else self.ref.newest(f"to-{side}")
                self.files[side].append(path)
                for home in self.copies[side]:
                    home("ingest", str(path))
            if not disclosing:
                self.check()
        raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def team_game(tmp_path_factory):
    game = TeamGame(tmp_path_factory.mktemp("referee-team"))
    game.play_out()
    return game


def test_a_member_gives_the_sides_orders_and_each_file_names_its_signer(team_game):
    g = team_game
    carol = KeyStore(g.homes["carol"].dir / "home").load("carol").public
    alice = KeyStore(g.homes["alice"].dir / "home").load("alice").public
    camp = Campaign.open(g.ref.dir / "c", readonly=True)
    allied = [open_block(find_blocks(raw)[0]) for _, _, author, kind, raw, _ in camp.ledger.envelopes()
              if author == "allied" and kind == "turn"]
    assert len(allied) >= 2 and all(e.public == carol != alice for e in allied)
    shown = g.ref("team", "show")
    assert f"member carol" in shown and f"{len(allied)} files signed" in shown.split("member carol", 1)[1]


def test_every_copy_verifies_the_whole_game_after_the_disclosure(team_game):
    g = team_game
    states = set()
    for name, home in g.homes.items():
        out = home("verify", "c", campaign=False)
        assert out.startswith("OK") and "full game replayed" in out or name == "ref" and out.startswith("OK"), out
        states.add(out.rsplit("state ", 1)[1].strip())
    assert len(states) == 1


def test_a_member_reads_its_sides_views_and_never_the_others(team_game):
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    g = team_game
    assert g.checked["carol"] > 40 and g.checked["dave"] > 40, g.checked
    # the same reports name the member's own side's blocks: it opened its side's views
    for name, army in (("carol", "allied"), ("dave", "ottoman")):
        said = "\n".join(g.reports[name])
        named = [b for b, (block, owner, *_) in BLOCKS.items() if owner == army and block in said]
        assert len(named) > 5, (name, named)
    # the other side's file: its view is sealed to a box key carol never holds; her copy skips it,
    # and a copy of hers that lacks those envelopes refuses the file for want of her own view
    carol = g.homes["carol"]
    assert "a view for ottoman" in carol("ingest", str(g.files["ottoman"][3]))
    stored = Campaign.open(carol.dir / "c", readonly=True).ledger.views()
    assert {side for _, _, side, _, _ in stored} == {"allied"}
    again = Home(g.root, "carol-again")
    shutil.copytree(carol.dir / "home", again.dir / "home")
    again("team", "import", str(g.root / "carol.team"), "--key", "carol")
    before = digest(again)
    refused = again("ingest", str(g.files["ottoman"][0]), code=1)
    assert "missing-view" in refused
    assert digest(again) == before
    sealed = open_block(find_blocks(g.files["ottoman"][3].read_text())[-1])
    assert sealed.kind == "view" and sealed.content["body"]["to"] == "ottoman"
    from pbem.chain.referee import open_box, view_aad
    from pbem.errors import RefusedTurn

    box = bytes.fromhex(Campaign.open(carol.dir / "c", readonly=True).box_secret().hex())
    with pytest.raises(RefusedTurn):
        open_box(box, sealed.content["body"]["box"], sealed.game, "view", view_aad(sealed.game, sealed.seq, "ottoman"))


def test_a_turn_signed_by_a_key_not_on_the_team_is_refused(team_game, tmp_path):
    """Carol's first turn file signed again by a stranger, given to the referee's copy as it stood
    then: refused (wrong key, one line, exit 1), the campaign unchanged; Carol's own is accepted."""
    g = team_game
    snapshot, path = g.before_carol
    signed = open_block(find_blocks(path.read_text())[0])
    forged = tmp_path / "forged.pbem"
    forged.write_text(seal(KeyStore(tmp_path / "mallory").create("mallory"), signed.content).raw)
    before = digest(snapshot)
    out = snapshot("ingest", str(forged), code=1)
    assert "wrong-key" in out and len(out.strip().splitlines()) <= 3, out
    assert digest(snapshot) == before
    assert "accepted" in snapshot("ingest", str(path))


def test_with_commander_signing_a_members_orders_are_refused(tmp_path):
    homes = founded(tmp_path, "commander", {"carol": "allied"})
    ref, alice, bob, carol = homes["ref"], homes["alice"], homes["bob"], homes["carol"]
    bob("play", "deploy 25th 3 krithia", "deploy 57th 3 kilia liman", "done")
    ref("ingest", str(bob.newest(".")))
    ref("play")
    for home in (alice, carol):
        home("ingest", str(ref.newest("to-allied")))
    before = digest(carol)
    refused = carol("play", "1", code=1)
    assert "only allied's commander signs its turn files" in refused and len(refused.strip().splitlines()) <= 3
    assert digest(carol) == before and not list((carol.dir / "c" / "sent").glob("*-allied-turn.pbem"))
    # the same orders signed by carol's key (as a tool that skipped the check would): refused by the referee
    assert play_as(alice, "alice")
    signed = open_block(find_blocks(alice.newest(".").read_text())[0])
    assert signed.kind == "turn" and signed.author == "allied"
    by_carol = tmp_path / "by-carol.pbem"
    by_carol.write_text(seal(KeyStore(carol.dir / "home").load("carol"), signed.content).raw)
    before = digest(ref)
    out = ref("ingest", str(by_carol), code=1)
    assert "wrong-key" in out and "not signed by a key the invitation lets sign for that side" in out, out
    assert digest(ref) == before
    assert "accepted" in ref("ingest", str(alice.newest(".")))


def test_the_independent_verifier_accepts_the_members_turns_and_refuses_a_strangers(team_game, tmp_path):
    """The allied files (the whole chain, Carol's turns in it), read from docs/spec.md alone."""
    from tests import independent_verifier as iv

    g = team_game
    texts = [next((g.ref.dir / "c" / "sent").glob("*-genesis.pbem")).read_text()]
    texts += [p.read_text() for p in sorted((g.ref.dir / "c" / "sent" / "to-allied").glob("*.pbem"))]
    texts.append(g.files["allied"][-1].read_text())  # the disclosure
    checked = iv.verify_files(texts)
    assert f"state {checked.state[:16]}" in g.homes["carol"]("verify", "c", campaign=False)
    snapshot, path = g.before_carol
    signed = open_block(find_blocks(path.read_text())[0])
    forged = seal(KeyStore(tmp_path / "mallory").create("mallory"), signed.content).raw
    with pytest.raises(iv.Refused) as refused:
        iv.verify_files([t.replace(signed.raw, forged) if signed.raw in t else t for t in texts])
    assert refused.value.code == "wrong-key"


def test_a_commander_left_behind_catches_up_from_a_members_copy(team_game):
    """Alice's copy as it stood at Carol's first turn takes the rest of the game, its files and the
    side's views, from a team copy Carol exports to her, and verifies the whole game."""
    g = team_game
    behind = g.behind
    before = Campaign.open(behind.dir / "c", readonly=True).ledger.head()[0]
    g.homes["carol"]("team", "export", "--to", "alice", "-o", str(g.root / "to-alice.team"))
    out = behind("team", "import", str(g.root / "to-alice.team"), "--key", "alice")
    head = Campaign.open(behind.dir / "c", readonly=True).ledger.head()[0]
    assert f"{head - before} turn file(s) added" in out and head - before > 5
    verified = behind("verify", "c", campaign=False)
    assert verified.startswith("OK") and "views you received match" in verified
    assert verified.rsplit("state ", 1)[1] == g.homes["alice"]("verify", "c", campaign=False).rsplit("state ", 1)[1]
