"""Shared fixtures: identities, two players' campaigns, and CLI helpers.

Every helper drives the real ``pbem`` command line in-process (click's
CliRunner), so what the tests see is what a player sees: exit codes, the
one-line reason on stderr, the files written to ``sent/``.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pbem.cli import cli

BEGIN = "-----BEGIN PBEM TURN-----"
END = "-----END PBEM TURN-----"


# --- plain helpers ------------------------------------------------------------

def invoke(runner: CliRunner, *args: Any, env: dict[str, str] | None = None, input: str | bytes | None = None) -> Result:
    """Run ``pbem ARGS`` the way a user would, exceptions caught (failure tests check for tracebacks)."""
    return runner.invoke(cli, [str(a) for a in args], env=env, input=input, catch_exceptions=True)


def pbem(runner: CliRunner, *args: Any, **kwargs: Any) -> Result:
    """Run ``pbem ARGS`` and insist it succeeded (for setting up a scenario)."""
    result = invoke(runner, *args, **kwargs)
    assert result.exit_code == 0, f"pbem {' '.join(map(str, args))} failed:\n{result.output}\n{result.exception!r}"
    return result


def assert_no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert "Traceback" not in result.stderr


def assert_refused(result: Result, code: str | set[str] | tuple[str, ...] | None = None) -> str:
    """A refused input: exit 1, 'Error: CODE: reason' then a line of detail on stderr, no traceback.

    Returns the code found.
    """
    assert_no_traceback(result)
    assert result.exit_code == 1, f"exit {result.exit_code}; output:\n{result.output}"
    lines = result.stderr.splitlines()
    assert len(lines) >= 2, f"expected a reason and a detail line on stderr, got:\n{result.stderr}"
    m = re.match(r"^Error: ([a-z][a-z0-9-]*): \S", lines[0])
    assert m, f"first stderr line is not 'Error: <code>: <reason>': {lines[0]!r}"
    assert lines[1].strip(), f"second stderr line (the detail) is empty: {result.stderr!r}"
    if code is not None:
        codes = {code} if isinstance(code, str) else set(code)
        assert m.group(1) in codes, f"expected code {sorted(codes)}, got {m.group(1)!r}: {lines[0]}"
    return m.group(1)


def db_path(path: Path) -> Path:
    path = Path(path)
    return path if path.suffix == ".db" else path / "campaign.db"


def db_bytes(path: Path) -> bytes:
    """The bytes of a campaign's database (``path``: the campaign directory or the .db file)."""
    return db_path(path).read_bytes()


def blocks_of(text: str) -> list[str]:
    """The armored blocks in ``text``, each from its BEGIN line to its END line plus a newline."""
    return [BEGIN + part.split(END)[0] + END + "\n" for part in text.split(BEGIN)[1:]]


# --- fixtures -------------------------------------------------------------------

@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty PBEM_HOME (where identities live) for this test."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("PBEM_HOME", str(path))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return path


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="module")
def chromium():
    """Debian's chromium driven by Playwright, one per test module (``tests.browser.launched``);
    the module's tests skip, saying why, where it cannot be had."""
    from tests import browser

    yield from browser.launched()


@dataclass
class Player:
    name: str
    side: str
    home: Path  # this player's own PBEM_HOME: his keys never leave it
    dir: Path  # this player's campaign directory

    @property
    def env(self) -> dict[str, str]:
        return {"PBEM_HOME": str(self.home)}

    @property
    def db(self) -> Path:
        return self.dir / "campaign.db"

    @property
    def pub(self) -> Path:
        return self.home.parent / f"{self.name}.pub"


def new_player(runner: CliRunner, root: Path, name: str, side: str) -> Player:
    """A player with a fresh identity in its own home, its public key exported beside the homes."""
    player = Player(name, side, root / "homes" / name, root / name)
    player.home.mkdir(parents=True)
    pbem(runner, "keys", "new", name, env=player.env)
    pbem(runner, "keys", "export", name, "-o", player.pub, env=player.env)
    return player


def sent(player: Player) -> Path:
    """The newest turn file ``player`` sent."""
    return max((player.dir / "sent").glob("*.pbem"))


def two_homes(runner: CliRunner, root: Path, module: str, sides: tuple[str, str], *new: Any) -> tuple[Player, Player]:
    """Alice (``sides[0]``) starts ``module`` with ``pbem new ... NEW``, Bob (``sides[1]``) joins from
    his own home, and Alice ingests the join: each player as he would type it."""
    alice, bob = new_player(runner, root, "alice", sides[0]), new_player(runner, root, "bob", sides[1])
    pbem(runner, "new", module, "--as", sides[0], "--key", "alice", "--opponent", bob.pub, *new,
         "--campaign", alice.dir, env=alice.env)
    pbem(runner, "join", sent(alice), "--key", "bob", "--campaign", bob.dir, env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, sent(bob), env=alice.env)
    return alice, bob


class Duel:
    """Two players, alice (red) and bob (blue), each with a home and a campaign, playing barrage.

    Bob's join is already ingested by alice: red (alice) is to play #2.
    """

    def __init__(self, root: Path, runner: CliRunner, *new_args: str) -> None:
        self.root = root
        self.runner = runner
        self.alice = self.new_identity("alice", "red")
        self.bob = self.new_identity("bob", "blue")
        a, b = self.alice, self.bob
        self.run(a, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", b.pub,
                 "--scenario", "standard", "--campaign", a.dir, *new_args)
        self.invitation = self.newest_sent(a)
        self.run(b, "join", self.invitation, "--key", "bob", "--campaign", b.dir)
        self.join_file = self.newest_sent(b)
        self.run(a, "ingest", "--campaign", a.dir, self.join_file)

    # identities and commands ------------------------------------------------
    def new_identity(self, name: str, side: str = "") -> Player:
        """A player with a fresh identity in its own home, and its public key exported next to the homes."""
        return new_player(self.runner, self.root, name, side)

    def identity(self, player: Player):
        """The player's signing identity, loaded from his key store (for forging tests)."""
        from pbem.wire.keys import KeyStore

        return KeyStore(player.home).load(player.name)

    def run(self, player: Player, *args: Any) -> Result:
        return pbem(self.runner, *args, env=player.env)

    def invoke(self, player: Player, *args: Any) -> Result:
        return invoke(self.runner, *args, env=player.env)

    def player(self, who: str | Player) -> Player:
        if isinstance(who, Player):
            return who
        for p in (self.alice, self.bob):
            if who in (p.name, p.side):
                return p
        raise KeyError(who)

    def other(self, who: str | Player) -> Player:
        return self.bob if self.player(who) is self.alice else self.alice

    # playing ----------------------------------------------------------------
    @staticmethod
    def newest_sent(player: Player) -> Path:
        """The newest turn file in the player's sent/ (names carry the sequence number)."""
        return max((player.dir / "sent").glob("*.pbem"), key=lambda p: p.name)

    def play(self, who: str | Player) -> Path:
        """``pbem play 1`` for one side (fire; a reveal-only reply when the game has ended); its turn file."""
        p = self.player(who)
        result = self.run(p, "play", "1", "--campaign", p.dir)
        m = re.search(r"signed turn file #(\d+): (\S+)", result.output)
        assert m, result.output
        path = self.newest_sent(p)
        assert path == Path(m.group(2)), (path, m.group(2))
        return path

    def ingest(self, who: str | Player, *files: Path | str) -> Result:
        """``pbem ingest`` by a player (not asserted: callers check the result)."""
        p = self.player(who)
        return self.invoke(p, "ingest", "--campaign", p.dir, *files)

    def deliver(self, path: Path, to: str | Player) -> Result:
        result = self.ingest(to, path)
        assert result.exit_code == 0, result.output
        assert "accepted" in result.output, result.output
        return result

    def turn(self, who: str | Player) -> Path:
        """One side plays and the other ingests its turn file (one e-mail)."""
        path = self.play(who)
        self.deliver(path, self.other(who))
        return path

    def waiting_side(self) -> str | None:
        from pbem.play.campaign import Campaign

        camp = Campaign.open(self.alice.dir, readonly=True)
        try:
            waiting = camp.waiting()
        finally:
            camp.ledger.close()
        return waiting["side"] if waiting else None

    def play_out(self) -> list[Path]:
        """Play until the game is over, delivering every file; the turn files in order."""
        files = []
        while (side := self.waiting_side()) is not None:
            files.append(self.turn(side))
            assert len(files) < 50, "the game does not end"
        return files

    # copies ---------------------------------------------------------------------
    def snapshot(self, who: str | Player, label: str) -> Player:
        """A copy of a player's campaign as it is now (same identity, another directory)."""
        p = self.player(who)
        copy = Player(p.name, p.side, p.home, self.root / f"{p.name}-{label}")
        shutil.copytree(p.dir, copy.dir)
        return copy


@pytest.fixture
def two_campaigns(tmp_path: Path, runner: CliRunner) -> Duel:
    return Duel(tmp_path, runner)


# --- forging envelopes -----------------------------------------------------------

def read_envelope(path: Path):
    from pbem.wire.envelope import read_envelopes

    [env] = read_envelopes(Path(path).read_text())
    return env


def next_state(campaign_dir: Path, content: dict[str, Any]) -> str:
    """The state hash a turn ``content`` leads to from the head of a campaign (what an honest signer writes)."""
    from pbem_engine.protocol import match as protocol
    from pbem_engine.protocol.trail import match_hash as state_hash
    from pbem.play.campaign import Campaign

    camp = Campaign.open(campaign_dir, readonly=True)
    try:
        new, _, _ = protocol.advance(camp.game, camp.match(), content["seq"], content["author"], content["body"])
    finally:
        camp.ledger.close()
    return state_hash(new)


def forge(identity, content: dict[str, Any], path: Path) -> Path:
    """Sign ``content`` with ``identity`` and write the turn file to ``path``."""
    from pbem.wire.envelope import seal

    path.write_text(seal(identity, content).raw)
    return path


# --- golden games (tests/test_golden.py) ----------------------------------------------

def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite tests/golden/ (turn files, expected.txt, reports) from the golden generator.")


def hill60_pair(runner: CliRunner, root: Path) -> tuple[Player, Player]:
    """Alice (allied) and Bob (ottoman) in a Hill 60 game, Bob's join ingested: Alice decides first
    (Hill 60 has choices; barrage's every barrage is the only legal one)."""
    alice, bob = new_player(runner, root, "alice", "allied"), new_player(runner, root, "bob", "ottoman")
    pbem(runner, "new", "hill60", "--as", "allied", "--key", "alice", "--opponent", bob.pub, "--campaign", alice.dir,
         env=alice.env)
    pbem(runner, "join", next((alice.dir / "sent").glob("*genesis.pbem")), "--key", "bob", "--campaign", bob.dir,
         env=bob.env)
    pbem(runner, "ingest", "--campaign", alice.dir, next((bob.dir / "sent").glob("*join.pbem")), env=alice.env)
    return alice, bob
