"""Golden games (OpenSpiel "playthrough" style): one complete, committed game per module.

For every module in ``engine.registry.BUILTIN_GAMES`` a game between two fixed
TEST-ONLY identities (``tests/keys/``), with a fixed game id and fixed chain and
private secrets, played by the demo player's policy (``pbem.commands.demo.choose``), is
committed under ``tests/golden/<module>/``:

    turns/NNNN-<side>-<kind>.pbem   the signed turn files, byte for byte
    expected.txt                    per envelope: actions, events, rolls, state hash, state changes
    report-<side>.txt               ``pbem report --all`` of each side at the end

Nothing here draws randomness from the OS and Ed25519 signatures are
deterministic, so the turn files are byte-stable.  If a rule, the protocol,
the dice or the envelope format changes any state, event or roll, the diff of
expected.txt shows exactly which envelope changed and how.

Regenerate (then review ``git diff tests/golden``) with:

    .venv/bin/pytest tests/test_golden.py --update-golden

The generator builds the contents exactly as ``Campaign.new``, ``Campaign.join``
and ``Campaign.play``/``sign_turn`` do, but with the fixed secrets instead of
``secrets.token_*``; ``test_the_real_tool_writes_the_same_turn_files`` checks
that the real ``Campaign.play`` writes the very same turn files.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem_engine.protocol import match as protocol
from pbem_engine.hidden import private
from pbem_engine.canonical import canonical_json
from pbem_engine.protocol.trail import match_hash as state_hash
from pbem_engine.protocol.core import Game, find_choice
from pbem_engine.registry import BUILTIN_GAMES, get_game
from pbem.chain import history
from pbem.wire.armor import find_blocks
from pbem.play.campaign import Campaign
from pbem.cli import cli
from pbem.commands.demo import choose
from pbem.wire.envelope import Envelope, read_envelopes, seal
from pbem.errors import PbemError
from pbem.chain.hidden import public_knowledge, show_prompt
from pbem.wire.keys import Identity

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
KEYS = HERE / "keys"
# Table-top mode is built from a data pack: its golden game, over a small pack, is test_golden_tabletop.py.
# The block game's golden game is played by its own player through the real tool: test_golden_blocks.py,
# and so are Assault on Gallipoli's (test_golden_assault.py) and Blood on the Tigris's (test_golden_tigris.py,
# two turns of Scenario 2: a whole campaign of 29 turns would be too long for every run).
OWN_GOLDEN = ("gallipoli-blocks", "assault-on-gallipoli", "blood-on-the-tigris", "gallipoli-1915")
MODULES = sorted(m for m in BUILTIN_GAMES if m != "tabletop" and m not in OWN_GOLDEN)
PLAYERS = ("alice", "bob")  # alice creates the game as the module's first side, bob joins as the second
CHAIN = protocol.CHAIN_LENGTH  # what `pbem new` uses by default
MAX_ENVELOPES = 500
UPDATE_COMMAND = ".venv/bin/pytest tests/test_golden.py --update-golden"


# --- the fixed inputs ------------------------------------------------------------------

def _sha(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


@dataclass(frozen=True)
class Inputs:
    game_id: str
    chain: dict[str, bytes]  # side -> chain secret x[N]
    private: dict[str, bytes]  # side -> private-draw secret (games with private pools only)


def inputs(module: str) -> Inputs:
    game = get_game(module)
    return Inputs(
        game_id=_sha(f"golden/{module}").hex()[:32],
        chain={s: _sha(f"golden/{module}/{s}/chain") for s in game.sides},
        private={s: _sha(f"golden/{module}/{s}/private") for s in game.sides} if hasattr(game, "private_pools") else {},
    )


def key_path(player: str) -> Path:
    return KEYS / f"TEST-ONLY-{player}.pem"


def make_keys() -> None:
    """Write the TEST-ONLY keys if missing.  They are derived from a fixed, public seed (no OS
    randomness), so a deleted key file comes back identical and the golden games stay valid."""
    KEYS.mkdir(exist_ok=True)
    for player in PLAYERS:
        path = key_path(player)
        if path.exists():
            continue
        key = Ed25519PrivateKey.from_private_bytes(_sha(f"pbem/tests/golden/TEST-ONLY-{player}"))
        path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))


def identity(player: str) -> Identity:
    path = key_path(player)
    if not path.exists():
        pytest.fail(f"missing test key {path}; create it with: {UPDATE_COMMAND}")
    key = serialization.load_pem_private_key(path.read_bytes(), None)
    assert isinstance(key, Ed25519PrivateKey), path
    return Identity(f"TEST-ONLY-{player}", key)


def identities(game: Game) -> dict[str, Identity]:
    return {side: identity(player) for side, player in zip(game.sides, PLAYERS)}


def file_name(env: Envelope) -> str:
    return f"{env.seq:04d}-{env.author}-{env.kind}.pbem"


# --- the generator ---------------------------------------------------------------------

@dataclass
class Golden:
    files: dict[str, str]  # turns/ file name -> armored text, in sequence order
    applied: list[history.Applied]
    expected: str


class _Player:
    """Builds one side's envelopes as the real tool does (Campaign.new / join / play / _sign)."""

    def __init__(self, game: Game, ins: Inputs, side: str, who: Identity) -> None:
        self.game, self.ins, self.side, self.identity = game, ins, side, who
        self.links = protocol.chain_links(ins.game_id, side, ins.chain[side], CHAIN)

    def build(self) -> dict[str, Any]:  # Campaign._build
        secret = self.ins.private.get(self.side)
        return {"secret": secret} if secret else {}

    def knowledge(self, match: dict[str, Any]) -> dict[str, str]:  # Campaign.knowledge
        known = public_knowledge(self.ins.game_id, match)
        record = match.get("private", {}).get(self.side)
        if record and self.side in self.ins.private:
            _, openings = private.simulate(self.ins.game_id, self.side, record, self.ins.private[self.side])
            known.update({tok: o["item"] for tok, o in openings.items()})
        return known

    def orders(self, match: dict[str, Any], seq: int, reveal: str) -> list[dict[str, Any]]:
        """Campaign.play with the demo player's policy: choose until the decision passes."""
        game, actions = self.game, []
        while True:
            if not actions and not match["pending"]:  # Campaign.preview
                after = match
            else:
                after, _, _ = protocol.advance(game, match, seq, self.side, {"reveal": reveal, "actions": actions},
                                               self.build())
            prompt = game.prompt(after["game"])
            if after["pending"] or prompt.side != self.side:
                return actions
            if "private" in after:
                prompt = show_prompt(prompt, self.knowledge(after), game)
            actions.append(find_choice(prompt, choose(prompt)).action)
            if len(actions) > 200:
                raise AssertionError(f"{self.side} keeps deciding in envelope #{seq}: {prompt.text}")

    def turn(self, genesis: dict[str, Any], match: dict[str, Any], head: tuple[int, str],
             why: str) -> dict[str, Any]:
        seq = head[0] + 1
        reveal = self.links[match["chains"][self.side]["index"] + 1].hex()  # Campaign.next_link
        if why == "secret":  # the game is over: open every hidden draw to the opponent
            body: dict[str, Any] = {"reveal": reveal, "actions": [], "private_secret": self.ins.private[self.side].hex()}
        else:
            body = {"reveal": reveal, "actions": self.orders(match, seq, reveal)}
            after = protocol.advance(self.game, match, seq, self.side, body, self.build())[0]
            record = after.get("private", {}).get(self.side)  # turns._ends_owing_our_secret
            if record and record["log"] and record["secret"] is None and not after["pending"] \
                    and self.game.outcome(after["game"]) is not None:
                body["private_secret"] = self.ins.private[self.side].hex()
        build = self.build()  # Campaign.sign_turn
        if build:
            protocol.advance(self.game, match, seq, self.side, body, build)
            if build.get("private"):
                body = dict(body, private=build["private"])
        content = {"v": 1, "game": genesis["game"], "seq": seq, "prev": head[1], "author": self.side,
                   "kind": "turn", "engine": history.engine_stamp(self.game), "body": body, "state": ""}
        content["state"] = state_hash(protocol.advance(self.game, match, seq, self.side, body)[0])
        return content


def generate(module: str) -> Golden:
    """The golden game of ``module``, played from the fixed inputs."""
    game = get_game(module)
    ins = inputs(module)
    who = identities(game)
    creator, joiner = game.sides
    players = {s: _Player(game, ins, s, who[s]) for s in game.sides}
    envelopes: list[Envelope] = []
    applied: list[history.Applied] = []

    def sign(side: str, content: dict[str, Any]) -> None:
        env = seal(who[side], content)
        head = (envelopes[-1].seq, envelopes[-1].hash) if envelopes else None
        genesis = envelopes[0].content if envelopes else None
        applied.append(history.apply(env, genesis, applied[-1].match if applied else None, head))
        envelopes.append(env)

    # genesis: the body Campaign.new writes
    body: dict[str, Any] = {
        "mode": "sealed", "scenario": next(iter(game.scenarios)), "options": {}, "title": game.title,
        "chain": CHAIN, "anchor": players[creator].links[0].hex(), "deadline_hours": None,
        "sides": {creator: {"key": base64.b64encode(who[creator].public).decode(), "name": who[creator].name},
                  joiner: {"key": base64.b64encode(who[joiner].public).decode(), "name": who[joiner].name}}}
    if ins.private:  # Campaign._private_secret
        body["private_anchor"] = private.anchor(ins.game_id, creator, ins.private[creator])
    content = {"v": 1, "game": ins.game_id, "seq": 0, "prev": history.GENESIS_PREV, "author": creator,
               "kind": "genesis", "engine": history.engine_stamp(game), "body": body, "state": ""}
    content["state"] = state_hash(protocol.start(game, ins.game_id, creator, body))
    sign(creator, content)
    genesis = envelopes[0]

    # join: the body Campaign.join writes
    body = {"anchor": players[joiner].links[0].hex()}
    if ins.private:
        body["private_anchor"] = private.anchor(ins.game_id, joiner, ins.private[joiner])
    content = {"v": 1, "game": ins.game_id, "seq": 1, "prev": genesis.hash, "author": joiner, "kind": "join",
               "engine": genesis.content["engine"], "body": body, "state": ""}
    content["state"] = state_hash(protocol.join(applied[-1].match, joiner, body))
    sign(joiner, content)

    # turns: whoever is waited for plays (Campaign.play), until nobody is
    while (waiting := protocol.waiting_for(game, applied[-1].match)) is not None:
        if len(envelopes) >= MAX_ENVELOPES:
            raise AssertionError(f"the golden {module} game did not end within {MAX_ENVELOPES} envelopes")
        side = waiting["side"]
        head = (envelopes[-1].seq, envelopes[-1].hash)
        sign(side, players[side].turn(genesis.content, applied[-1].match, head, waiting["why"]))

    files = {file_name(env): env.raw for env in envelopes}
    return Golden(files, applied, render_expected(module, applied))


@cache
def generated(module: str) -> Golden:
    return generate(module)


# --- replaying committed files (the ingest path, not the generator) --------------------

def committed_files(module: str) -> dict[str, str]:
    turns = GOLDEN / module / "turns"
    return {p.name: p.read_bytes().decode("utf-8") for p in sorted(turns.glob("*.pbem"))}


def replay(files: dict[str, str]) -> list[history.Applied]:
    """history.apply from genesis over the files in name order; every signed state hash checked."""
    applied: list[history.Applied] = []
    for name, text in files.items():
        envs = read_envelopes(text)
        assert len(envs) == 1, f"{name} holds {len(envs)} turn files"
        [env] = envs
        assert file_name(env) == name, f"{name} holds envelope {file_name(env)}"
        prev = applied[-1] if applied else None
        try:
            result = history.apply(env, applied[0].envelope.content if applied else None, prev.match if prev else None,
                                   (prev.envelope.seq, prev.envelope.hash) if prev else None)
        except PbemError as e:
            pytest.fail(f"the committed turns/{name} no longer replays: {e.code}: {e}\n  {e.detail}\n"
                        "test_generator_reproduces_the_committed_game shows what play now does differently; "
                        f"if the change is intended: {UPDATE_COMMAND}")
        assert result.state_hash == env.content["state"], name  # apply refuses a mismatch too
        applied.append(result)
    return applied


# --- expected.txt ----------------------------------------------------------------------

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _short(value: Any) -> str:
    if isinstance(value, str) and _HEX64.match(value):
        value = value[:16] + ".."
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _flatten(value: Any, path: str, out: dict[str, Any]) -> dict[str, Any]:
    if isinstance(value, dict) and value:
        for key in sorted(value):
            _flatten(value[key], f"{path}.{key}" if path else key, out)
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            _flatten(item, f"{path}[{i}]", out)
    else:
        out[path] = value
    return out


def _changes(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """Every leaf of the match state that this envelope added, changed or removed."""
    old = _flatten(before, "", {}) if before is not None else {}
    new = _flatten(after, "", {})
    lines = []
    for path, value in new.items():
        if path not in old:
            lines.append(f"  + {path}: {_short(value)}")
        elif old[path] != value:
            lines.append(f"  ~ {path}: {_short(old[path])} -> {_short(value)}")
    for path, value in old.items():
        if path in new:
            continue
        if value in (None, [], {}) and any(p.startswith((path + ".", path + "[")) for p in new):
            continue  # an empty leaf that now holds the children listed above
        lines.append(f"  - {path}: {_short(value)}")
    return lines


def _roll(r: dict[str, Any]) -> str:
    values = " ".join(str(v) for v in r["values"])
    result = f" = {r['result']}" if r.get("result") is not None else ""
    tags = ", scripted" if r.get("scripted") else ""
    return (f"roll: {r['purpose']} | {r['spec']}: {values}{result} | declared in #{r['declared_in']}, "
            f"{r['mode']}{tags}, seed {r['seed'][:16]}..")


def render_expected(module: str, applied: list[history.Applied]) -> str:
    genesis = applied[0].envelope.content
    game = history.game_of(genesis)
    sides = genesis["body"]["sides"]
    out = [f"# Golden game of {module}: {game.title}",
           f"# Regenerate with: {UPDATE_COMMAND}",
           f"# game {genesis['game']}, engine {canonical_json(genesis['engine']).decode()}",
           *(f"# {s}: {sides[s]['name']}" for s in game.sides),
           ""]
    before: dict[str, Any] | None = None
    for a in applied:
        env, c = a.envelope, a.envelope.content
        out.append(f"== #{c['seq']} {c['author']} {c['kind']} (turns/{file_name(env)}) ==")
        out.append(f"envelope: {env.hash}")
        body = dict(c["body"])
        if c["kind"] == "turn":
            out.append(f"reveal: {c['author']} link #{a.match['chains'][c['author']]['index']}")
            actions = body.pop("actions", [])
            out += [f"action {i}: {canonical_json(action).decode()}" for i, action in enumerate(actions, 1)]
            if not actions:
                out.append("actions: none")
            body.pop("reveal", None)
        if body:
            out += [f"body {path}: {_short(value)}" for path, value in _flatten(body, "", {}).items()]
        for e in a.events:
            to = f" [to {', '.join(e['to'])}]" if e.get("to") is not None else ""
            out.append(f"event{to}: {e['text']}")
        out += [_roll(r) for r in a.rolls]
        out.append(f"state: {a.state_hash}")
        out.append("changes:")
        out += _changes(before, a.match)
        waiting = protocol.waiting_for(game, a.match)
        out.append(f"next: {waiting['text'] if waiting else 'nobody: the game is over'}")
        out.append("")
        before = a.match
    final = applied[-1].match
    outcome = game.outcome(final["game"])
    out.append("== end ==")
    out.append(f"envelopes: {len(applied)}")
    out.append(f"outcome: {outcome.result} (winner: {outcome.winner or 'none'}) -- {outcome.reason}"
               if outcome else "outcome: none (the game did not end)")
    out.append(f"final state: {applied[-1].state_hash}")
    return "\n".join(out) + "\n"


# --- real campaigns with the golden secrets --------------------------------------------

def campaign_of(directory: Path, module: str, side: str, genesis: Envelope) -> Campaign:
    """A real campaign of one side holding the golden genesis, with that side's golden secrets.

    ``pbem new``/``pbem join`` draw fresh secrets, so the campaign is made the way they make
    theirs (Campaign.start_new), with the fixed ones.
    """
    ins = inputs(module)
    who = identities(get_game(module))[side]
    camp = Campaign.start_new(directory, side, who.name, ins.game_id, ins.chain[side], CHAIN, ins.private.get(side))
    camp.store([history.apply(genesis, None, None, None)])
    return camp


def _cli(*args: Any, home: Path) -> Any:
    result = CliRunner().invoke(cli, [str(a) for a in args], env={"PBEM_HOME": str(home)}, catch_exceptions=True)
    assert result.exit_code == 0, f"pbem {' '.join(map(str, args))} failed ({result.exit_code}):\n" \
                                  f"{result.output}\n{result.exception!r}"
    return result


def ingest_and_verify(module: str, files: dict[str, Path], root: Path) -> dict[str, str]:
    """Each side's campaign ingests every turn file with `pbem ingest` and passes `pbem verify`;
    returns each side's `pbem report --all`."""
    game = get_game(module)
    [genesis] = read_envelopes(next(iter(files.values())).read_text())
    reports = {}
    for side in game.sides:
        directory = root / side
        campaign_of(directory, module, side, genesis).ledger.close()
        out = _cli("ingest", "--campaign", directory, *files.values(), home=root / "home").stdout
        accepted = re.findall(r"^accepted #(\d+) from ", out, re.M)
        assert accepted == [str(n) for n in range(1, len(files))], out
        assert "skipped #0" in out and "already ingested" in out, out
        out = _cli("verify", directory, home=root / "home").stdout
        assert out.startswith(f"OK: {len(files)} envelopes"), out
        reports[side] = _cli("report", "--all", "--campaign", directory, home=root / "home").stdout
    return reports


# --- updating ----------------------------------------------------------------------------

_UPDATED: set[str] = set()


def update(module: str, root: Path) -> None:
    if module in _UPDATED:
        return
    _UPDATED.add(module)
    make_keys()
    golden = generated(module)
    directory = GOLDEN / module
    turns = directory / "turns"
    turns.mkdir(parents=True, exist_ok=True)
    for old in turns.glob("*.pbem"):
        if old.name not in golden.files:
            old.unlink()
    for name, raw in golden.files.items():
        (turns / name).write_bytes(raw.encode("utf-8"))
    (directory / "expected.txt").write_bytes(golden.expected.encode("utf-8"))
    reports = ingest_and_verify(module, {n: turns / n for n in golden.files}, root)
    for old in directory.glob("report-*.txt"):
        old.unlink()
    for side, text in reports.items():
        (directory / f"report-{side}.txt").write_bytes(text.encode("utf-8"))


@pytest.fixture(params=MODULES)
def module(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    name = request.param
    if request.config.getoption("--update-golden", default=False):
        update(name, tmp_path_factory.mktemp(f"update-{name}"))
    if not (GOLDEN / name / "expected.txt").exists():
        pytest.fail(f"module {name} has no golden game in {GOLDEN / name}; create it with: {UPDATE_COMMAND}")
    return name


# --- failure messages --------------------------------------------------------------------

def _diff(expected: str, actual: str, what: str, limit: int = 300) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), f"committed {what}",
                                      f"regenerated {what}", lineterm="", n=3))
    more = f"\n... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more + f"\n(if the change is intended: {UPDATE_COMMAND}, and review git diff)"


def _decoded(text: str) -> str:
    """A turn file as its readable header and pretty-printed signed JSON (for diffs)."""
    try:
        [block] = find_blocks(text)
        content = json.loads(block.payload[96:])
    except Exception:  # show whatever is there
        return text
    header = "\n".join(f"{k}: {v}" for k, v in block.headers.items())
    return header + "\n" + json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False)


# --- the tests ---------------------------------------------------------------------------

def test_generator_reproduces_the_committed_game(module: str) -> None:
    """(1) The same fixed inputs give the same turn files, byte for byte, and the same expected.txt."""
    golden = generated(module)
    committed = committed_files(module)
    expected = (GOLDEN / module / "expected.txt").read_bytes().decode("utf-8")
    problems = []
    if golden.expected != expected:
        problems.append(_diff(expected, golden.expected, f"{module}/expected.txt"))
    missing = sorted(set(committed) - set(golden.files))
    extra = sorted(set(golden.files) - set(committed))
    if missing or extra:
        problems.append(f"turn files no longer made: {missing}; new turn files: {extra}")
    for name in sorted(set(committed) & set(golden.files)):
        if committed[name] != golden.files[name]:
            problems.append(f"turns/{name} differs:\n" + _diff(_decoded(committed[name]), _decoded(golden.files[name]),
                                                                f"{module}/turns/{name}", 80))
            break  # every later file differs too (the chain links them): the first one says where
    if problems:
        pytest.fail("\n\n".join(problems))


def test_committed_turn_files_replay_to_expected(module: str) -> None:
    """(2) The committed files, replayed through history.apply from genesis, give expected.txt."""
    files = committed_files(module)
    assert files, f"no turn files in {GOLDEN / module / 'turns'}"
    applied = replay(files)
    game = get_game(module)
    assert [a.envelope.seq for a in applied] == list(range(len(applied)))
    assert [a.envelope.kind for a in applied[:2]] == ["genesis", "join"]
    assert protocol.waiting_for(game, applied[-1].match) is None, "the golden game is not over"
    assert game.outcome(applied[-1].match["game"]) is not None
    pinned = {s: history.pinned_key(applied[0].envelope.content, s) for s in game.sides}
    assert pinned == {s: i.public for s, i in identities(game).items()}, "the golden game is not signed by tests/keys"
    expected = (GOLDEN / module / "expected.txt").read_bytes().decode("utf-8")
    replayed = render_expected(module, applied)
    if replayed != expected:
        pytest.fail(_diff(expected, replayed, f"{module}/expected.txt (replayed)"))


def test_real_campaigns_ingest_verify_and_report(module: str, tmp_path: Path) -> None:
    """(3) Each side's real campaign ingests the committed files with `pbem ingest`; `pbem verify`
    says OK; `pbem report --all` gives the committed report."""
    turns = GOLDEN / module / "turns"
    files = {name: turns / name for name in committed_files(module)}
    reports = ingest_and_verify(module, files, tmp_path)
    for side, text in reports.items():
        path = GOLDEN / module / f"report-{side}.txt"
        assert path.exists(), f"missing {path}; create it with: {UPDATE_COMMAND}"
        expected = path.read_bytes().decode("utf-8")
        if text != expected:
            pytest.fail(_diff(expected, text, f"{module}/report-{side}.txt"))


def test_the_real_tool_writes_the_same_turn_files(module: str, tmp_path: Path) -> None:
    """The turns of the golden game, played by Campaign.play with the demo policy on campaigns holding
    the golden secrets (as `pbem demo` does), are the committed files byte for byte: the generator
    builds what the real tool builds."""
    game = get_game(module)
    who = identities(game)
    committed = list(committed_files(module).items())
    [genesis] = read_envelopes(committed[0][1])
    camps = {s: campaign_of(tmp_path / s, module, s, genesis) for s in game.sides}
    try:
        for camp in camps.values():
            camp.ingest([committed[1]])  # the join (its secrets are the golden ones)
        n = 2
        while (waiting := camps[game.sides[0]].waiting()) is not None:
            assert n < len(committed), f"the real tool plays on past the golden game's {len(committed)} envelopes"
            side = waiting["side"]
            result = camps[side].play(who[side], [], lambda prompt, events, rolls, refusal: choose(prompt))
            assert result.envelope is not None
            name, text = committed[n]
            if (file_name(result.envelope), result.envelope.raw) != (name, text):
                pytest.fail(f"Campaign.play wrote a different #{n} than the committed turns/{name}:\n"
                            + _diff(_decoded(text), _decoded(result.envelope.raw), f"{module}/turns/{name}", 80))
            other = camps[next(s for s in game.sides if s != side)]
            other.ingest([(name, result.envelope.raw)])
            n += 1
        assert n == len(committed), f"the real tool's game ended after {n} envelopes, the golden one has {len(committed)}"
    finally:
        for camp in camps.values():
            camp.ledger.close()


def test_every_module_has_a_golden_game(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    if request.config.getoption("--update-golden", default=False):
        for name in MODULES:
            update(name, tmp_path_factory.mktemp(f"update-{name}"))
    missing = []
    for name in MODULES:
        directory = GOLDEN / name
        game = get_game(name)
        needed = [directory / "expected.txt", *(directory / f"report-{s}.txt" for s in game.sides)]
        missing += [str(p.relative_to(HERE)) for p in needed if not p.is_file()]
        if not any((directory / "turns").glob("*.pbem")):
            missing.append(str((directory / "turns").relative_to(HERE)) + "/*.pbem")
    assert not missing, f"modules without a complete golden game: {missing}; create them with: {UPDATE_COMMAND}"
    stale = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and p.name not in BUILTIN_GAMES)
    assert not stale, f"golden games of modules no longer in the registry: {stale}"


def test_golden_keys_are_test_only_ed25519(request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--update-golden", default=False):
        make_keys()
    pems = sorted(p.name for p in KEYS.glob("*.pem"))
    assert pems == sorted(key_path(p).name for p in PLAYERS), pems
    for player in PLAYERS:
        data = key_path(player).read_bytes()
        assert data.startswith(b"-----BEGIN PRIVATE KEY-----"), "PKCS8, unencrypted"
        assert identity(player).name.startswith("TEST-ONLY-")
