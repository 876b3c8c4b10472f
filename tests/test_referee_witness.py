"""Witnesses of a refereed game (issue 37, point 3), between four homes by the installed ``pbem``.

A referee runs a refereed block game (gallipoli-blocks: every block concealed as a token until
the rules open it) for Alice and Bob, and names Carol as witness.  Carol founds her copy with
``pbem watch`` and ingests every file the referee writes for the witnesses (sent/witness/: the
chain with the players' sealed orders, and the view of no side committed in each adjudication).
Before the disclosure she follows the game (status, report, replay draw the public position)
and nothing she receives or renders names a block the rules keep concealed then; after it her
copy replays the whole game; a file whose witness view was changed is refused.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from pbem.commands.demo import policy
from pbem.play.campaign import Campaign
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block, seal
from pbem.wire.keys import KeyStore
from pbem_engine.canonical import canonical_json
from tests.test_referee_hidden import concealed_now, without_composition
from tests.test_refereed_cli import Home


def play_as(home: Home, key: str) -> bool:
    """The player's turn, if it is his: the game's own player chooses (the demo's), the tool signs."""
    camp = Campaign.open(home.dir / "c")
    try:
        waiting = camp.waiting()
        if waiting is None or waiting["side"] != camp.side:
            return False
        result = camp.play(KeyStore(home.dir / "home").load(key), [], policy(camp))
        assert result.envelope is not None
        return True
    finally:
        camp.ledger.close()


def public_block(block) -> bytes:
    """A block's content as JSON; a witness view less each side's pool composition (which blocks
    and cards each side has in all, public at the table, not which are where)."""
    content = open_block(block).content
    if content["kind"] == "view":
        content = json.loads(json.dumps(content))
        content["body"]["view"] = json.loads(without_composition(canonical_json(content["body"]["view"]).decode()))
    return canonical_json(content)


def witness_bytes(folder: Path) -> bytes:
    """Everything in the witness's copy: each file (its turn files' blocks decoded), and its
    database's envelopes and stored views (the database's own bytes hold the views' public pool
    composition, looked at in the views themselves)."""
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".db":
            conn = sqlite3.connect(path)
            out += [public_block(b) for (raw,) in conn.execute("select raw from envelopes") for b in find_blocks(raw)]
            out += [without_composition(payload) for (payload,) in conn.execute("select payload from views")]
            conn.close()
        elif path.suffix in (".pbem", ".eml"):
            out += [public_block(b) for b in find_blocks(path.read_text())]
        elif not path.name.startswith("campaign.db"):
            out.append(path.read_bytes())
    return b"\n".join(out)


class Watched:
    """The game, played out; what Carol received and rendered, checked as it went."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ref, self.alice, self.bob, self.carol = (Home(root, n) for n in ("ref", "alice", "bob", "carol"))
        for home in (self.ref, self.alice, self.bob, self.carol):
            home("keys", "new", home.name, campaign=False)
            (root / f"{home.name}.pub").write_text(home("keys", "export", home.name, campaign=False))
        self.created = self.ref("new", "gallipoli-blocks", "--referee", "--key", "ref", "--player",
                                f"allied={root / 'alice.pub'}", "--player", f"ottoman={root / 'bob.pub'}",
                                "--witness", str(root / "carol.pub"), "--option", "turns=2")
        genesis = self.ref.newest(".")
        self.shown = self.alice("join", "--show", str(genesis), campaign=False)
        self.alice("join", str(genesis), "--key", "alice")
        self.bob("join", str(genesis), "--key", "bob")
        self.watched = self.carol("watch", str(genesis), "--key", "carol")
        self.ref("ingest", str(self.alice.newest(".")), str(self.bob.newest(".")))
        self.checked = 0  # concealed items looked for in Carol's bytes
        self.found_opened: set[str] = set()  # items the rules opened, found in them
        self.replays = 0
        self.followed: list[str] = []  # what Carol's status and reports said
        self.before_disclosure = b""
        self.witness_files: list[Path] = []

    def check(self, n: int) -> None:
        """Carol's bytes and renderings name no block concealed now from both players."""
        full = Campaign.open(self.ref.dir / "c", readonly=True).match()["full"]
        seen: dict[str, set[str]] = getattr(self, "_opened", {})
        self._opened = seen
        status = self.carol("status")
        report = self.carol("report") + (self.carol("report", "--html") if n % 4 == 0 else "")
        self.followed.append(status + report)
        blob = witness_bytes(self.carol.dir / "c") + status.encode() + report.encode()
        if n % 4 == 1:  # the replay page, every step as the witness saw it
            page = self.root / "replay.html"
            self.carol("replay", "-o", str(page))
            self.replays += 1
            blob += page.read_bytes()
        for army in ("allied", "ottoman"):
            secret = concealed_now(full, army, seen.setdefault(army, set()))
            self.checked += len(secret)
            for item in sorted(secret):
                assert item.encode() not in blob, f"the witness can read {army}'s concealed {item}"
            # the same search finds an item where the rules opened it to everyone
            self.found_opened |= {item for item in seen[army] if item.encode() in blob}

    def play_out(self) -> None:
        for n in range(400):
            ref = Campaign.open(self.ref.dir / "c", readonly=True)
            waiting = ref.waiting()
            ref.ledger.close()
            if waiting is None:
                return
            if waiting["side"] == "referee":
                if waiting["why"] == "disclose":  # the disclosure: the witness copy ingests it from the referee's sent/
                    self.before_disclosure = witness_bytes(self.carol.dir / "c")
                    self.ref("play")
                    self.disclosure = self.ref.newest(".")
                    self.carol("ingest", str(self.disclosure))
                    for home in (self.alice, self.bob):
                        home("ingest", str(self.disclosure))
                    continue
                self.ref("play")
                newest = self.ref.newest("witness")
                self.witness_files.append(newest)
                self.carol("ingest", str(newest))
                for side, home in (("allied", self.alice), ("ottoman", self.bob)):
                    home("ingest", str(self.ref.newest(f"to-{side}")))
                self.check(len(self.witness_files))
                continue
            home = self.alice if waiting["side"] == "allied" else self.bob
            assert play_as(home, home.name)
            self.ref("ingest", str(home.newest(".")))
        raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    game = Watched(tmp_path_factory.mktemp("referee-witness"))
    game.play_out()
    return game


def test_a_refereed_invitation_names_its_witness_and_what_it_sees(watched):
    assert "witness carol pinned with fingerprint" in watched.created
    assert "witness  carol" in watched.shown and "everything once it discloses" in watched.shown
    assert "watching game" in watched.watched and "referee is ref" in watched.watched


def test_a_players_file_is_refused_by_the_witness_naming_the_witnesses_folder(watched, tmp_path):
    fresh = fresh_witness(watched, tmp_path, "carol-wrong-file")
    before = hashlib.sha256((fresh.dir / "c" / "campaign.db").read_bytes()).digest()
    first = sorted((watched.ref.dir / "c" / "sent" / "to-allied").glob("*.pbem"))[0]
    out = fresh("ingest", str(first), code=1)
    assert "missing-view" in out and "sent/witness/" in out, out
    assert hashlib.sha256((fresh.dir / "c" / "campaign.db").read_bytes()).digest() == before


def test_the_witness_follows_the_game_before_the_disclosure(watched):
    assert len(watched.witness_files) > 5 and watched.replays > 1
    said = "\n".join(watched.followed)
    assert "witness carol" in said
    assert "a concealed block" in said or "concealed" in said  # the public position: blocks as tokens
    assert "waiting for" in said
    # the witness's views are the view of no side: no prompt, no side's own cards or chosen blocks
    camp = Campaign.open(watched.carol.dir / "c", readonly=True)
    views = [json.loads(payload) for *_, payload in camp.ledger.views("witness")]
    assert len(views) == len(watched.witness_files)
    assert all(v["prompt"] is None and "chosen" not in v for v in views)


def test_nothing_the_witness_holds_or_renders_names_a_concealed_block(watched):
    """Checked after every adjudication (``Watched.check``): the search looked for many concealed
    items and found, in the same bytes, items the rules had opened."""
    assert watched.checked > 100, watched.checked
    assert watched.found_opened, "the search never found an opened item: it proves nothing"


def test_after_the_disclosure_the_witness_replays_and_verifies_the_whole_game(watched):
    out = watched.carol("verify", "c", campaign=False)
    assert out.startswith("OK"), out
    assert "full game replayed" in out and "views you received match" in out
    audit = watched.carol("audit", "c", campaign=False)
    assert "OK" in audit or "dice" in audit, audit
    for home in (watched.ref, watched.alice, watched.bob):
        assert home("verify", "c", campaign=False).startswith("OK")
    # once disclosed, the witness's report names the blocks the game kept concealed
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS

    report = watched.carol("report", "--all")
    assert sum(name in report for name, *_ in BLOCKS.values()) > 10


def fresh_witness(watched, tmp_path: Path, name: str) -> Home:
    """Another copy of Carol's, founded from the invitation, that has ingested nothing more."""
    import shutil

    home = Home(tmp_path, name)
    shutil.copytree(watched.carol.dir / "home", home.dir / "home")
    home("watch", str(next((watched.ref.dir / "c" / "sent").glob("*-genesis.pbem"))), "--key", "carol")
    return home


@pytest.mark.parametrize("signer", ["ref", "mallory"])
def test_a_changed_witness_view_is_refused_and_the_copy_is_unchanged(watched, tmp_path, signer):
    """The first witness file with its view changed, signed again by the referee's own key (the
    adjudication did not commit to it) or by a stranger's: refused whole, nothing stored."""
    fresh = fresh_witness(watched, tmp_path, f"carol-{signer}")
    blocks = find_blocks(watched.witness_files[0].read_text())
    view = open_block(blocks[-1])
    assert view.kind == "view" and view.content["body"]["to"] == "witness"
    changed = json.loads(json.dumps(view.content))
    changed["body"]["view"]["events"].append("allied's 9th Div / 25th Rgt deploys at Krithia")
    key = KeyStore(watched.ref.dir / "home").load("ref") if signer == "ref" else \
        KeyStore(tmp_path / "mallory").create("mallory")
    bad = tmp_path / f"changed-{signer}.pbem"
    bad.write_text("".join(b.raw + "\n" for b in blocks[:-1]) + seal(key, changed).raw)
    db = fresh.dir / "c" / "campaign.db"
    before = hashlib.sha256(db.read_bytes()).digest()
    out = fresh("ingest", str(bad), code=1)
    assert ("bad-view" if signer == "ref" else "wrong-key") in out, out
    assert len(out.strip().splitlines()) <= 3, out
    assert hashlib.sha256(db.read_bytes()).digest() == before
    fresh("ingest", str(watched.witness_files[0]))  # the file as the referee wrote it is accepted


def test_the_independent_verifier_reads_what_the_witness_received(watched):
    """The witness's files, read from docs/spec.md alone: the whole chain, every state hash, and each
    witness view against the adjudication that committed to it; a changed view is refused."""
    from tests import independent_verifier as iv

    sent = watched.ref.dir / "c" / "sent"
    texts = [next(sent.glob("*-genesis.pbem")).read_text()]
    texts += [p.read_text() for p in watched.witness_files] + [watched.disclosure.read_text()]
    checked = iv.verify_files(texts)
    assert checked.witness_views == len(watched.witness_files)
    assert f"state {checked.state[:16]}" in watched.carol("verify", "c", campaign=False)
    blocks = find_blocks(texts[3])
    view = open_block(blocks[-1])
    changed = json.loads(json.dumps(view.content))
    changed["body"]["nonce"] = "00" * 16
    forged = seal(KeyStore(watched.ref.dir / "home").load("ref"), changed)
    with pytest.raises(iv.Refused) as refused:
        iv.verify_files(texts[:3] + ["".join(b.raw + "\n" for b in blocks[:-1]) + forged.raw] + texts[4:])
    assert refused.value.code == "bad-view"


def test_the_referees_mail_send_writes_the_witness_every_file_it_needs_once(watched, tmp_path):
    """What ``pbem mail send`` adds to the referee's outbox for a witness with an address (the
    invitation, each sent/witness/ file, the disclosure; once), and none from a player's; a witness
    founded from those mails alone reaches the referee's state."""
    import email
    import shutil
    from email.policy import default as default_policy

    from pbem.mailbox.witness_mail import copies

    ref, alice = Home(tmp_path, "ref"), Home(tmp_path, "alice")
    for home, original in ((ref, watched.ref), (alice, watched.alice)):
        shutil.copytree(original.dir / "c", home.dir / "c")
        said = home("witnesses", "--address", "carol", "carol@example.org")
        assert ("yours mails them nothing" in said) == (home is alice), said
    camp = Campaign.open(ref.dir / "c")
    written = copies(camp, "ref@example.org")
    assert copies(camp, "ref@example.org") == []  # once
    camp.ledger.close()
    player = Campaign.open(alice.dir / "c")
    assert copies(player, "alice@example.org") == []  # the referee's files carry the players' orders
    player.ledger.close()
    assert len(written) == 1 + len(watched.witness_files) + 1
    mails = [email.message_from_bytes(p.read_bytes(), policy=default_policy) for p in written]
    assert all(m["X-Pbem-To-Side"] == "witness:carol" and m["To"] == "carol@example.org" for m in mails)
    late = fresh_witness(watched, tmp_path, "carol-by-mail")
    late("ingest", *[str(p) for p in written[1:]])
    out = late("verify", "c", campaign=False)
    assert out.startswith("OK") and "full game replayed" in out
    assert out.rsplit("state ", 1)[1] == watched.carol("verify", "c", campaign=False).rsplit("state ", 1)[1]


@pytest.mark.parametrize("module", ["assault-on-gallipoli", "raid"])
def test_other_modules_refereed_with_a_witness_hide_what_the_players_hold(module, tmp_path):
    """A game whose decks the referee deals to private hands (Assault on Gallipoli), and one with
    hands held as tokens (Trench Raid), played out with a witness: every witness view holds no
    side's cards by name until they are played face up, and after the disclosure every view checks."""
    from pbem.chain.witnesses import OBSERVER
    from pbem.check.verify import verify_path
    from pbem.play.witness import found
    from pbem_engine.registry import get_game

    sides = get_game(module).sides
    store = KeyStore(tmp_path / "home")
    ids = {n: store.create(n) for n in ("ref", "alice", "bob", "carol")}
    ref, genesis = Campaign.new_refereed(tmp_path / "ref", module, ids["ref"],
                                         {sides[0]: (ids["alice"].public, "alice"), sides[1]: (ids["bob"].public, "bob")},
                                         witnesses=[{"name": "carol", "key": base64.b64encode(ids["carol"].public).decode()}])
    camps = {"referee": ref}
    for side, name in ((sides[0], "alice"), (sides[1], "bob")):
        camps[side], joined = Campaign.join(tmp_path / name, genesis.raw, ids[name])
        ref.ingest([(name, joined.raw)])
    watcher, _ = found(Campaign, tmp_path / "carol", genesis.raw, ids["carol"].public)
    who = {"referee": ids["ref"], sides[0]: ids["alice"], sides[1]: ids["bob"]}
    hands_checked = shown_found = 0
    for _ in range(3000):
        wait = ref.waiting()
        if wait is None:
            break
        side = wait["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        if side != "referee":
            ref.ingest([("orders", result.path.read_text())])
            continue
        if result.paths:
            for path in result.paths:
                camps[path.parent.name.removeprefix("to-")].ingest([(str(path), path.read_text())])
            watched = ref.dir / "sent" / "witness" / result.paths[0].name
            watcher.ingest([(str(watched), watched.read_text())])
            full = ref.match()["full"]
            view = canonical_json(json.loads(watcher.ledger.views(OBSERVER)[-1][4]))
            if "deal_order" in full:  # every card no side has seen played face up is named nowhere in it
                from pbem_engine.hidden.referee_deck import face_up, known

                shown = set(face_up(full["dealt"]).values())
                held = {card for s in sides for card in known(full["dealt"], full["deal_order"], s).values()}
                for card in held - shown:
                    hands_checked += 1
                    assert f'"{card}"'.encode() not in view, card
                shown_found += sum(f'"{card}"'.encode() in view for card in shown)  # the search finds those
        else:
            for camp in (*(camps[s] for s in sides), watcher):
                camp.ingest([(str(result.path), result.path.read_text())])
    else:
        raise AssertionError("the game did not end")
    assert module != "assault-on-gallipoli" or (hands_checked > 20 and shown_found > 0), (hands_checked, shown_found)
    summary = verify_path(watcher.dir).summary()
    assert summary.startswith("OK") and "full game replayed" in summary, summary


def test_a_take_back_the_referee_grants_reaches_the_witness(tmp_path):
    """The referee's fork goes to the witness with its other files: the witness's copy follows it
    (whether it held the adjudication taken back or not) and goes on with the game."""
    from pbem.mailbox.witness_mail import copies
    from tests.test_referee_takeback import MOVE_AUSTRALIANS, MOVE_CONNAUGHT

    ref, alice, bob, carol = (Home(tmp_path, n) for n in ("ref", "alice", "bob", "carol"))
    for home in (ref, alice, bob, carol):
        home("keys", "new", home.name, campaign=False)
        (tmp_path / f"{home.name}.pub").write_text(home("keys", "export", home.name, campaign=False))
    ref("new", "hill60", "--referee", "--key", "ref", "--player", f"allied={tmp_path / 'alice.pub'}",
        "--player", f"ottoman={tmp_path / 'bob.pub'}", "--witness", str(tmp_path / "carol.pub"))
    genesis = ref.newest(".")
    alice("join", str(genesis), "--key", "alice")
    bob("join", str(genesis), "--key", "bob")
    carol("watch", str(genesis), "--key", "carol")
    ref("ingest", str(alice.newest(".")), str(bob.newest(".")))
    ref("witnesses", "--address", "carol", "carol@example.org")

    def adjudicate() -> str:
        out = ref("play")
        alice("ingest", str(ref.newest("to-allied")))
        bob("ingest", str(ref.newest("to-ottoman")))
        return out

    def mailed() -> list[Path]:  # what the referee's pbem mail send adds for the witness, in order
        camp = Campaign.open(ref.dir / "c")
        try:
            return copies(camp, "ref@example.org")
        finally:
            camp.ledger.close()

    said = adjudicate()  # the referee is told where the witnesses' file is
    assert f"for the witnesses (carol): {ref.newest('witness').relative_to(ref.dir)}" in said, said
    alice("play", MOVE_AUSTRALIANS)
    ref("ingest", str(alice.newest(".")))
    adjudicate()  # #3: the Australians' move, which the witness's copy holds before the take-back
    for mail in mailed():
        carol("ingest", str(mail))
    assert "18th Australian Battalion moves" in carol("report")
    alice("takeback", "propose", "--to", "1")
    ref("ingest", str(max((alice.dir / "c" / "sent").glob("*takeback*"))))
    ref("takeback", "accept")
    [fork_mail] = mailed()
    assert "referee-fork" in fork_mail.name and "X-Pbem-To-Side: witness:carol" in fork_mail.read_text()
    assert "accepted #2 from referee (fork)" in carol("ingest", str(fork_mail))
    [fork] = (ref.dir / "c" / "sent").glob("*-referee-fork.pbem")
    for home in (alice, bob):
        home("ingest", str(fork))
    alice("play", MOVE_CONNAUGHT)
    ref("ingest", str(alice.newest(".")))
    adjudicate()
    for mail in mailed():
        carol("ingest", str(mail))
    report = carol("report")
    assert "5th Connaught Rangers moves" in report and "1 take-back(s)" in carol("verify", "c", campaign=False)
    assert carol("status").count("envelopes") == 1 and "5 envelopes" in carol("status")
