"""Gallipoli 1915 played by a team (the game book's "Players may divide their commands to allow
for team play"), through the installed ``pbem`` command between separate homes.

Alice commands the Entente with Carol on her team (``--team-signs any``: Carol has the W Beach
landing and signs those orders herself); Bob plays the Ottoman alone.  Carol's copy comes from
``pbem team export``/``import``; her files carry the side's draws from its Naval Gunfire cup
(103.14), which her copy makes from the side's secrets and Alice's copy knows by name; Bob's copy
never holds a chit still face down; every copy verifies, and the independent verifier reads the
history.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pbem.wire.keys import KeyStore, fingerprint
from tests import independent_verifier as iv
from tests.conftest import read_envelope

PBEM = Path(sys.executable).with_name("pbem")  # the console script installed beside this Python


class Home:
    """One person: his own PBEM_HOME (his keys never leave it) and his campaign."""

    def __init__(self, root: Path, name: str) -> None:
        self.name, self.home, self.dir = name, root / "homes" / name, root / name
        self.home.mkdir(parents=True)
        self.pub = root / f"{name}.pub"
        self.run("keys", "new", name)
        self.run("keys", "export", name, "-o", self.pub)

    def run(self, *args: object) -> str:
        env = dict(os.environ, PBEM_HOME=str(self.home))
        done = subprocess.run([str(PBEM), *map(str, args)], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"pbem {' '.join(map(str, args))}: {done.stdout}{done.stderr}"
        assert "Traceback" not in done.stderr
        return done.stdout

    def refused(self, *args: object) -> str:
        env = dict(os.environ, PBEM_HOME=str(self.home))
        done = subprocess.run([str(PBEM), *map(str, args)], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        return done.stderr

    def play(self, *orders: str) -> Path:
        out = self.run("play", "--campaign", self.dir, *orders)
        seq = int(out.split("signed turn file #")[1].split(":")[0])
        [path] = sorted((self.dir / "sent").glob(f"*-{seq:04d}-*-turn.pbem"))
        return path

    def ingest(self, *files: Path) -> str:
        return self.run("ingest", "--campaign", self.dir, *files)


def deliver(path: Path, *to: Home) -> None:
    for home in to:
        assert f"accepted #{read_envelope(path).seq}" in home.ingest(path)


def signer(home: Home) -> str:
    return fingerprint(KeyStore(home.home).public(home.name))


def test_a_team_member_signs_the_entente_orders_and_every_copy_verifies(tmp_path: Path):
    alice, bob, carol = Home(tmp_path, "alice"), Home(tmp_path, "bob"), Home(tmp_path, "carol")
    out = alice.run("new", "gallipoli-1915", "--scenario", "helles", "--option", "last_turn=3", "--as", "entente",
                    "--key", "alice", "--opponent", bob.pub, "--team", f"entente={carol.pub}", "--team-signs", "any",
                    "--campaign", alice.dir)
    assert "entente member carol pinned" in out
    joined = bob.run("join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir)
    assert "member carol" in joined and "may sign for the side" in joined
    alice.ingest(next((bob.dir / "sent").glob("*join.pbem")))
    alice.run("team", "export", "--to", "carol", "--campaign", alice.dir, "-o", tmp_path / "carol.team")
    carol.run("team", "import", tmp_path / "carol.team", "--key", "carol", "--campaign", carol.dir)

    # the opening reveal of the side that invited, then the set-up, the Ottoman first (101.3); the
    # Entente's part signed by Carol, who stands by until the Amphibious Assault Phase (cadence.py)
    deliver(alice.play(), bob, carol)
    deliver(bob.play("move 3/26th Regiment to 8.2", "done"), alice, carol)
    c = carol.play("move 1/Royal Dublin Fusiliers to 6.2", "done", "done until assault")
    assert f"Signer: {signer(carol)}" in c.read_text() and read_envelope(c).author == "entente"
    deliver(c, alice, bob)
    before = (bob.dir / "campaign.db").read_bytes()  # a reach the module cannot read: refused, nothing changed
    assert "done until PHASE" in bob.refused("play", "--campaign", bob.dir, "done until lunch")
    assert (bob.dir / "campaign.db").read_bytes() == before and len(list((bob.dir / "sent").glob("*"))) == 2
    deliver(bob.play("done until activations"), alice, carol)
    deliver(carol.play("land 3 steps at W Beach", "done"), alice, bob)  # Carol's beach; Bob is woken
    deliver(bob.play("cd fire 3 steps at W Beach, then done"), alice, carol)
    deliver(alice.play("roll 2d10 for fire (series 17), then done"), bob, carol)  # the commander, too
    deliver(bob.play("roll 2d10 for fire (series 17), then done until activations"), alice, carol)
    # turn 2, daylight: Carol's tool draws the side's Naval Gunfire chit before she is asked (103.14);
    # her orders reach through the phases the Ottoman stands by in to the landings
    c = carol.play("done until assault", "land river clyde", "done")
    body = read_envelope(c).content["body"]
    assert body["private"]["draws"] and any(a.get("do") == "draw-ngf" for a in body["actions"])
    deliver(c, alice, bob)
    # the commander's copy names the chit his teammate drew; the Ottoman's shows it face down
    mine = alice.run("report", "--campaign", alice.dir)
    seen = mine.split("helles Naval Gunfire chit: ")[1].split()[0]
    assert seen.split("#")[0] in ("no-fire", "commanded-fire", "counter-battery", "opportunity-fire"), mine
    theirs = bob.run("report", "--campaign", bob.dir)
    assert "helles Naval Gunfire chit: " in theirs and seen not in theirs and "no-fire" not in theirs

    for home in (alice, bob, carol):
        assert home.run("verify", home.dir).startswith("OK: ")
    files = sorted({p.name: p for h in (alice, bob) for f in ("sent", "received") for p in (h.dir / f).glob("*.pbem")}
                   .items())
    assert [e.seq for e in iv.verify_files([p.read_text() for _, p in files]).envelopes] == list(range(len(files)))
    received = b"".join(p.read_bytes() for p in (bob.dir / "received").glob("*.pbem"))
    assert b"no-fire" not in received and seen.encode() not in received
    shown = bob.run("team", "show", "--campaign", bob.dir)
    assert f"member carol ({signer(carol)}); 3 files signed" in shown
