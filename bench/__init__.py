"""``pbem bench``: verify and ingest timed against floors measured in the same run.

Targets (reported, never asserted by a timed test; the methods: docs/benchmarks.md):
  * verify of a long history, in one process, within 1.5x the bare cost of the same Ed25519
    verifications (by libsodium, the faster of the two libraries pbem has) and HMAC-SHA256
    derivations; the time with its signature worker on a second core is printed beside it,
    labelled as needing a free core;
  * verify's peak memory flat in the history: at most 1.2x from the small
    history to the long one;
  * cold ``pbem status``, ``report``, ``play`` (which signs a turn file and writes its mail) and
    ``ingest`` within 1.3x of their own import floors (bench/cold.py, bench/floors.py: Python
    importing exactly what that command imports from outside pbem), each timed in turn with its
    floor; ingest not growing with the length of the history (100 vs 10,000 envelopes: at most 1.15x);
  * the block game (bench/replay.py): replay of whole games, hashing included, at most 1.2x and
    verify at most 1.5x their per-envelope floors, and per action beside Rally the Troops'
    replay timed in the same run (bench/rally.py, where a copy of its rules is given);
  * every game as quick as the others (bench/pages.py): Blood on the Tigris's play page and a
    click within 1.5x the block game's, its cold ``pbem status`` within 1.3x.

``PARTS`` name what a run may be limited to (``pbem bench --only replay,report``).

Cold processes run as an installed pbem does: with its modules' bytecode cached
(here in a temporary folder, written by one untimed run first, whatever
PYTHONDONTWRITEBYTECODE says), on a database already on disk (synced).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import state_hash
from pbem_engine.games.barrage import GAME as BARRAGE
from pbem.chain import history
from pbem.play.campaign import Campaign
from pbem.wire.envelope import Envelope, seal
from pbem.wire.keys import Identity
from pbem.store.ledger import Ledger
from pbem.check.verify import verify_ledger

from . import verify_parts

TARGET = 1.5
PARTS = ("verify", "memory", "ingest", "report", "handovers", "decks", "replay", "pages")
MEMORY = 1.2  # verify's peak RSS, long history to short


def build(directory: Path, envelopes: int, dice: int) -> tuple[Path, Envelope]:
    """A barrage campaign of ``envelopes`` stored envelopes holding about
    ``dice`` dice, plus one more envelope (not stored) to ingest.  Red's identity is kept
    in ``directory / "home"`` (unencrypted), for a ``pbem play`` in red's campaign."""
    from pbem.wire.keys import KeyStore

    per_turn = max(1, dice // max(1, envelopes - 2))
    rounds = envelopes // 2 + 2
    red, blue = KeyStore(directory / "home").create("red"), Identity("blue", Ed25519PrivateKey.generate())
    chain = max(rounds * 2 + 4, 64)  # 64: the shortest chain an invitation may ask for
    camp, genesis = Campaign.new(directory / "red", "barrage", "red", red, blue.public, "blue",
                                 options={"rounds": rounds, "dice": per_turn}, chain=chain)
    other, joined = Campaign.join(directory / "blue", genesis.raw, blue)
    camp.ingest([("join", joined.raw)])
    links = {}
    for c in (camp, other):
        import json

        data = json.loads((c.dir / "secrets" / "chain.json").read_text())
        links[data["side"]] = protocol.chain_links(data["game"], data["side"], bytes.fromhex(data["secret"]), chain)
    identities = {"red": red, "blue": blue}
    genesis_content = camp.genesis
    seq, match = camp.ledger.state()
    head = camp.ledger.head()
    batch: list[history.Applied] = []
    extra = None
    while True:
        waiting = protocol.waiting_for(BARRAGE, match)
        side = waiting["side"]
        body = {"reveal": links[side][match["chains"][side]["index"] + 1].hex(), "actions": []}
        after = protocol.advance(BARRAGE, match, head[0] + 1, side, body)[0] if match["pending"] else match
        if BARRAGE.prompt(after["game"]).side == side:
            body["actions"] = [{"do": "fire"}]
        new, _, _ = protocol.advance(BARRAGE, match, head[0] + 1, side, body)
        content = {"v": 1, "game": genesis_content["game"], "seq": head[0] + 1, "prev": head[1], "author": side,
                   "kind": "turn", "engine": history.engine_stamp(BARRAGE), "body": body,
                   "state": state_hash(new)}
        env = seal(identities[side], content)
        if head[0] + 1 >= envelopes:
            extra = env
            break
        applied = history.apply(env, genesis_content, match, head)
        batch.append(applied)
        match, head = applied.match, (env.seq, env.hash)
        if len(batch) >= 2000:
            camp.store(batch)
            batch = []
    camp.store(batch)
    camp.ledger.close()
    other.ledger.close()
    return camp.dir / "campaign.db", extra


def _verify_floor(db: Path, rounds: int = 3) -> tuple[float, float, int, int, float, dict[str, float]]:
    """Time verify, the same Ed25519 verifications and HMAC derivations alone, verify in one
    process (no signature worker) and each part of it alone (bench/verify_parts.py): the best of
    ``rounds`` rounds of them all, taken in turn (on a machine others share, the least disturbed
    run of each is the one that measures it)."""
    import pbem_engine.chance.dice as dice_mod

    ledger = Ledger.open(db, readonly=True)
    calls = 0
    real = dice_mod.hmac.digest

    def counting(key, msg, digest):  # count the HMAC derivations verify needs (untimed run)
        nonlocal calls
        calls += 1
        return real(key, msg, digest)

    dice_mod.hmac.digest = counting
    try:
        result = verify_ledger(ledger, worker=False)
    finally:
        dice_mod.hmac.digest = real
    parts = verify_parts.runs(ledger, calls)

    def floor_run() -> None:  # libsodium, as verify checks them (the faster library's), and the HMACs
        parts["signatures"]()
        parts["hmac"]()

    runs = {"verify": lambda: verify_ledger(ledger), "floor": floor_run,
            "alone": lambda: verify_ledger(ledger, worker=False), **parts}
    timed: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            timed[name].append(time.perf_counter() - start)
    ledger.close()
    best = {name: min(times) for name, times in timed.items()}
    return best["verify"], best["floor"], calls, result.dice, best["alone"], best


# VmHWM where there is one: ru_maxrss of a process started by a large one counts the large one.
_RSS = """import re, resource, sys
from pathlib import Path
from pbem.store.ledger import Ledger
from pbem.check.verify import verify_ledger
verify_ledger(Ledger.open(Path(sys.argv[1]), readonly=True))
try:
    print(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1))
except (OSError, AttributeError):  # no /proc, or no VmHWM in it
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _verify_rss(db: Path) -> float:
    """Peak RSS in MiB of a process that verifies ``db`` (its signature worker is a fork of it,
    sharing its pages)."""
    out = subprocess.run([sys.executable, "-c", _RSS, str(db)], check=True, capture_output=True, text=True, env=_env())
    return int(out.stdout.split()[-1]) / 1024


_PYCACHE: Path | None = None


def _env() -> dict[str, str]:
    """A cold process's environment: bytecode cached (as an installed pbem has it) in a folder of ours."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if _PYCACHE is not None:
        env["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    return env


def run(envelopes: int, dice: int, small: int, echo: Callable[[str], None], repeat: int = 7,
        only: set[str] | None = None, rally: Path | None = None) -> dict[str, float]:
    """Every part of the bench, or those ``only`` names (``PARTS``); the figures measured."""
    parts = set(PARTS) if not only else set(only)
    unknown = sorted(parts - set(PARTS))
    if unknown:
        raise ValueError(f"no bench part {unknown[0]!r}; the parts: {', '.join(PARTS)}")
    global _PYCACHE
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        root = Path(tmp)
        _PYCACHE = root / "pycache"
        if parts & {"verify", "memory", "ingest", "report"}:
            echo(f"building a synthetic campaign of {envelopes} envelopes and ~{dice} dice ...")
            start = time.perf_counter()
            big_db, big_extra = build(root / "big", envelopes, dice)
            small_db, small_extra = build(root / "small", small, small * max(1, dice // max(1, envelopes)))
            echo(f"  built in {time.perf_counter() - start:.1f} s")

        if "verify" in parts:
            verify_time, floor, calls, dice_checked, alone, parts_best = _verify_floor(big_db)
            v_ratio, a_ratio = verify_time / floor, alone / floor
            echo(f"verify (one process): {envelopes} envelopes, {dice_checked} dice in {alone:.3f} s; floor "
                 f"({envelopes} Ed25519 verifications by libsodium + {calls} HMAC-SHA256) {floor:.3f} s; "
                 f"ratio {a_ratio:.2f} (target <= {TARGET}) {'OK' if a_ratio <= TARGET else 'MISSED'} (best of 3 "
                 f"runs each, taken in turn)")
            echo(f"  with its signature worker on a second core (needs a free core; PBEM_VERIFY_WORKER=0 turns it "
                 f"off): {verify_time:.3f} s, ratio {v_ratio:.2f}")
            echo(verify_parts.line(parts_best, alone, envelopes))
            out.update(verify_ratio=v_ratio, verify_ratio_one_process=a_ratio)
        if "memory" in parts:
            rss_small, rss_big = _verify_rss(small_db), _verify_rss(big_db)
            m_ratio = rss_big / rss_small
            echo(f"verify peak memory (RSS): history {small}: {rss_small:.0f} MiB, history {envelopes}: {rss_big:.0f} MiB; "
                 f"ratio {m_ratio:.2f} (target <= {MEMORY}) {'OK' if m_ratio <= MEMORY else 'MISSED'}")
            out.update(memory_ratio=m_ratio)

        if parts & {"ingest", "report"}:  # cold commands, each in turn with its own import floor
            from . import cold

            timed = cold.measure((big_db, big_extra), (small_db, small_extra), root / "cold", 3 * repeat, _env(),
                                 parts & {"ingest", "report"})
            out.update(cold.report(timed, envelopes, small, echo))
        if "handovers" in parts:
            from .handovers_report import report as handovers_report

            games = 3 if envelopes >= 1000 else 1  # a small run (the test's) plays one game of each
            echo(f"hand-overs per game turn, {games} seeded game(s) of each by its own player (bench/handovers.py: "
                 "human = files that needed a person, floor = the rules' own, files = all, days = simulated, "
                 "each person answering once a day at 09:00):")
            start = time.perf_counter()
            handovers_report(echo, games)
            echo(f"  played in {time.perf_counter() - start:.0f} s")
        if "decks" in parts:
            from .decks import report as decks_report  # shared decks: ratios to built-in pow

            decks_report(echo)
            from .decks import report_files as deck_files  # shared decks: the turn files a draw costs

            deck_files(echo)
        if "replay" in parts:
            from .replay import report as replay_report  # the block game, to per-envelope floors and beside Rally

            m = replay_report(echo, rally=rally)
            out.update(block_replay_ratio=m["replay_ratio"], block_verify_ratio=m["verify_ratio"])
        if "pages" in parts:
            from .pages import report as pages_report  # every game as quick as the block game

            out.update(pages_report(echo, env=_env()))
        return out

