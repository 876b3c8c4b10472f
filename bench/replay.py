"""The block game's replay and verify against their per-envelope floors, and beside Rally the Troops.

Several complete games of the block game are played by its own player (two campaigns exchanging
real signed turn files, sealed dice). Then, over the same histories, in turn, round after round:

* **replay**: every turn envelope applied again by ``pbem_engine.protocol.match.advance`` from the
  genesis (the rules' legality checks, the state applied, the private draws and openings checked)
  and the state hashed as verify hashes it (``pbem_engine.canonical.state_hash``, once per envelope);
* **its floor**: the same states' canonical JSON (the project's encoder) and SHA-256, once per
  envelope: the least a replay that checks each envelope's state hash must do;
* **verify**: ``pbem verify`` of one of the two campaigns (signatures, the hash chain, every state
  hash and every derived row), in one process;
* **its floor**: the replay's floor plus each envelope's Ed25519 signature checked by libsodium.

Targets (issue "Honest benchmarks"): replay at most 1.2x its floor, verify at most 1.5x. Microseconds
per action are printed beside Rally the Troops' replay of whole Hammer of the Scots games (legality,
rules, a JSON snapshot and SHA-256 per action), timed in the same run under Node from the user's copy
of its rules (bench/rally.py), and the canonical state's size over each game, its first half against its second
(what grows with the history belongs in the ledger, not in every hashed state).

A second line times the ``pbem replay`` page (``pbem.view.replay``) of two barrage histories,
1,000 and 10,000 envelopes (``bench.build``'s, a long ``rounds`` option), each in a process of
its own that opens the campaign, builds the page and writes it, as the command does: the time
ratio (target: under 10 for ten times the envelopes, the page built in one pass) and the peak
memory of each; and the bytes per envelope of the golden block game's page (target: at most
4 KB), where the checkout's tests/golden is at hand (installed from it, or run in it).
"""

from __future__ import annotations

import hashlib
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPLAY_TARGET = 1.2
VERIFY_TARGET = 1.5
PAGE_LENGTHS = (1000, 10000)  # barrage envelopes of the two histories `pbem replay` is timed on
PAGE_GROWTH = 10  # ten times the envelopes: under ten times the time
PAGE_BYTES = 4096  # the golden block game's page, per envelope
CHECKOUT = Path(__file__).resolve().parent.parent  # tests/golden, where pbem runs from its checkout


def _games(root: Path, games: int) -> list[Path]:
    """``games`` complete block games by the game's own player; the first side's campaign of each."""
    from pbem.bench.handovers import play_one

    out = []
    for seed in range(games):
        where = root / f"game-{seed}"
        play_one("gallipoli-blocks", {"turns": 4}, 100 + seed, where)
        out.append(where / "a")
    return out


def _history(campaign: Path) -> tuple[dict[str, Any], list[tuple[int, str, dict[str, Any]]], Any, list[bytes]]:
    """The genesis body, each later envelope (seq, author, body), the game module, and each
    envelope's signed payload (what verify checks the signature of)."""
    from pbem.wire.armor import find_blocks
    from pbem.play.campaign import Campaign
    from pbem.wire.envelope import open_block

    camp = Campaign.open(campaign, readonly=True)
    try:
        blocks = [(seq, author, find_blocks(raw)[0]) for seq, _, author, _, raw, _ in camp.ledger.envelopes()]
        envelopes = [(seq, author, open_block(block).content) for seq, author, block in blocks]
        return envelopes[0][2], envelopes[1:], camp.game, [block.payload for _, _, block in blocks]
    finally:
        camp.ledger.close()


def _replay(genesis: dict[str, Any], rest: list[tuple[int, str, dict[str, Any]]], game: Any,
            states: list[Any] | None = None) -> int:
    """Every envelope applied from the genesis and its state hashed, as verify does (each match
    handed over to the next envelope, its state changed in place); the number of actions.
    ``states``: a list to take a copy of each envelope's match into (then nothing is handed over)."""
    from pbem_engine.canonical import state_hash
    from pbem_engine.protocol import match as protocol, trail
    from pbem_engine.protocol.core import copy_state

    match = protocol.start(game, genesis["game"], genesis["author"], genesis["body"])
    actions = 0
    for seq, author, content in rest:
        if content["kind"] == "join":
            match = protocol.join(match, author, content["body"], game, seq)
        else:
            match, _, _ = protocol.advance(game, match, seq, author, content["body"], own=states is None)
            actions += len(content["body"].get("actions", []))
        state_hash(trail.hashed(match))
        if states is not None:
            states.append(copy_state(trail.hashed(match)))
    return actions


def _floor(states: list[Any], payloads: list[bytes] | None = None) -> float:
    """The project's canonical JSON and SHA-256 of each envelope's state; with ``payloads``, each
    envelope's Ed25519 signature checked by libsodium too (verify's floor)."""
    from nacl.bindings import crypto_sign_open
    from pbem_engine.canonical import canonical_json
    from pbem.wire.envelope import DOMAIN

    start = time.perf_counter()
    for state in states:
        hashlib.sha256(canonical_json(state, strict=False)).hexdigest()
    for p in payloads or ():
        crypto_sign_open(p[:64] + DOMAIN + p[96:], p[64:96])
    return time.perf_counter() - start


def measure(games: int = 3, repeat: int = 7) -> dict[str, Any]:
    """Each game's replay, its floor, verify and its floor measured in turn, ``repeat`` rounds, the
    best of each kept: on a shared machine the four are taken under the same load, not one of them
    in a quiet moment and another in a busy one."""
    from pbem_engine.canonical import canonical_json
    from pbem.check.verify import verify_ledger
    from pbem.store.ledger import Ledger

    with tempfile.TemporaryDirectory(prefix="pbem-bench-replay-") as tmp:
        campaigns = _games(Path(tmp), games)
        histories = [_history(c) for c in campaigns]
        states: list[list[Any]] = [[] for _ in campaigns]  # the floors' states, taken once
        counts = [_replay(*h[:3], states=s) for h, s in zip(histories, states)]
        sizes = [[len(canonical_json(state, strict=False)) for state in s] for s in states]
        halves = [(statistics.mean(z[1:len(z) // 2]), statistics.mean(z[len(z) // 2:])) for z in sizes]
        best = [[float("inf")] * 4 for _ in campaigns]  # per game: replay, its floor, verify, its floor
        for _ in range(repeat):
            for g, ((genesis, rest, game, payloads), campaign) in enumerate(zip(histories, campaigns)):
                took = []
                start = time.perf_counter()
                _replay(genesis, rest, game)
                took += [time.perf_counter() - start, _floor(states[g])]
                start = time.perf_counter()
                ledger = Ledger.open(campaign / "campaign.db", readonly=True)
                verify_ledger(ledger, worker=False)  # one process: the headline (a worker needs a free core)
                ledger.close()
                took += [time.perf_counter() - start, _floor(states[g], payloads)]
                best[g] = [min(b, t) for b, t in zip(best[g], took)]
        replay, floor, verify, verify_floor = (sum(b[i] for b in best) for i in range(4))
        actions = sum(counts)
        envelopes = sum(len(s) for s in states)
    return {"games": games, "actions": actions, "envelopes": envelopes, "replay_ratio": replay / floor,
            "verify_ratio": verify / verify_floor, "replay_us": replay / actions * 1e6,
            "verify_us": verify / actions * 1e6, "floor_us": floor / actions * 1e6,
            "state_first": min(z[0] for z in sizes), "state_last": max(z[-1] for z in sizes),
            "state_early": statistics.mean(h[0] for h in halves), "state_late": statistics.mean(h[1] for h in halves)}


# One `pbem replay` in a process of its own: the seconds it took and the peak memory in kB (VmHWM
# where there is one: ru_maxrss of a process started by a large one counts the large one).
_PAGE = """import re, resource, sys, time
from pathlib import Path
from pbem.play.campaign import Campaign
from pbem.view import replay_page  # imported before the clock, like the command's own modules
from pbem.view.replay import render
start = time.perf_counter()
camp = Campaign.open(Path(sys.argv[1]), readonly=True)
Path(sys.argv[2]).write_text(render(camp), encoding="utf-8")
took = time.perf_counter() - start
try:
    peak = int(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1))
except (OSError, AttributeError):  # no /proc, or no VmHWM in it
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(took, peak)
"""


def _page_run(campaign: Path, out: Path) -> tuple[float, float]:
    """(seconds, peak MiB) of one replay page of ``campaign`` written to ``out``."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _PAGE, str(campaign), str(out)], check=True, capture_output=True,
                          text=True)
    took, peak = done.stdout.split()
    return float(took), int(peak) / 1024


def golden_page_bytes(root: Path) -> tuple[int, int] | None:
    """(bytes, envelopes) of alice's replay page of the golden block game, its campaign built from
    the committed turn files as the tests build it (``tests.test_replay.golden_campaign``); None
    where the checkout's tests are not at hand (an installed pbem)."""
    import sys

    # the checkout this bench was installed from (an editable install), else the folder it runs in
    checkout = next((c for c in (CHECKOUT, Path.cwd()) if (c / "tests" / "test_replay.py").is_file()), None)
    if checkout is None:
        return None
    if str(checkout) not in sys.path:
        sys.path.append(str(checkout))
    try:
        from tests.test_replay import golden_campaign
    except ImportError:  # pytest, which the tests import, is a test extra
        return None
    from pbem.view.replay import render

    camp = golden_campaign("gallipoli-blocks", root / "golden-blocks")
    try:
        return len(render(camp).encode("utf-8")), camp.ledger.head()[0] + 1
    finally:
        camp.ledger.close()


def measure_pages(lengths: tuple[int, int] = PAGE_LENGTHS, repeat: int = 3) -> dict[str, float]:
    """``pbem replay`` of a barrage history of each of ``lengths`` envelopes, best of ``repeat``
    runs taken in turn (each history's first run in a process that reads the database cold too);
    the golden block game's page in bytes per envelope (0 where it is not at hand)."""
    from . import build

    with tempfile.TemporaryDirectory(prefix="pbem-bench-page-") as tmp:
        root = Path(tmp)
        campaigns = []
        for n in lengths:
            build(root / f"barrage-{n}", n, n)
            campaigns.append(root / f"barrage-{n}" / "red")
        best = [(float("inf"), 0.0)] * len(lengths)
        for _ in range(repeat):
            for i, campaign in enumerate(campaigns):
                took, peak = _page_run(campaign, root / f"page-{i}.html")
                best[i] = (min(best[i][0], took), max(best[i][1], peak))
        size = (root / f"page-{len(lengths) - 1}.html").stat().st_size
        golden = golden_page_bytes(root)
    (small, small_peak), (big, big_peak) = best
    return {"small": lengths[0], "big": lengths[1], "small_s": small, "big_s": big, "ratio": big / small,
            "small_mib": small_peak, "big_mib": big_peak, "big_bytes": size / lengths[1],
            "golden_bytes": golden[0] / golden[1] if golden else 0.0, "golden_envelopes": golden[1] if golden else 0}


def report(echo: Callable[[str], None], games: int = 3, lengths: tuple[int, int] = PAGE_LENGTHS,
           rally: Path | None = None) -> dict[str, Any]:
    from . import rally as peer

    m = measure(games)
    echo(f"block game, {m['games']} games by its own player, {m['actions']} actions in {m['envelopes']} envelopes: "
         f"replay {m['replay_ratio']:.2f}x its floor (the project's canonical JSON + SHA-256 of each envelope's "
         f"state; target <= {REPLAY_TARGET}) {'OK' if m['replay_ratio'] <= REPLAY_TARGET else 'MISSED'}, verify in one "
         f"process {m['verify_ratio']:.2f}x its floor (the same + each envelope's signature by libsodium; target <= "
         f"{VERIFY_TARGET}) {'OK' if m['verify_ratio'] <= VERIFY_TARGET else 'MISSED'}; per action: replay "
         f"{m['replay_us']:.0f} µs (hashing included), verify {m['verify_us']:.0f} µs, hashing alone "
         f"{m['floor_us']:.0f} µs; the hashed state {m['state_first'] / 1000:.0f} kB at the genesis, then on average "
         f"{m['state_early'] / 1000:.1f} kB over the first half of a game and {m['state_late'] / 1000:.1f} kB over the "
         f"second, {m['state_last'] / 1000:.1f} kB at the end at most")
    r = peer.measure(rally)
    if isinstance(r, str):
        echo(f"  Rally the Troops' replay: {r}")
    else:
        ok = m["replay_us"] <= r["warm_us"]
        echo(f"  Rally the Troops' replay, timed in this run (Hammer of the Scots, {r['games']} whole games by random "
             f"legal actions, {r['actions']} actions: legality, rules, a JSON snapshot and SHA-256 per action): "
             f"{r['warm_us']:.1f} µs per action warm, {r['cold_us']:.1f} cold; ours {m['replay_us']:.1f}: "
             f"{m['replay_us'] / r['warm_us']:.2f}x (target <= 1) {'OK' if ok else 'MISSED'}")
        m.update(rally_warm_us=r["warm_us"], rally_cold_us=r["cold_us"])
    p = measure_pages(lengths)
    growth = p["big"] / p["small"]
    ok = p["ratio"] < PAGE_GROWTH * growth / 10
    golden = (f"the golden block game's page {p['golden_bytes']:.0f} bytes per envelope ({p['golden_envelopes']} "
              f"envelopes; target <= {PAGE_BYTES}) {'OK' if p['golden_bytes'] <= PAGE_BYTES else 'MISSED'}"
              if p["golden_envelopes"] else "the golden block game's page: not measured (no checkout's tests here)")
    echo(f"pbem replay (a process each, best of 3), barrage {p['small']} and {p['big']} envelopes: "
         f"{p['small_s']:.2f} s and {p['big_s']:.2f} s, ratio {p['ratio']:.2f} for {growth:.0f}x the envelopes "
         f"(target < {PAGE_GROWTH * growth / 10:.0f}) {'OK' if ok else 'MISSED'}; peak memory {p['small_mib']:.0f} and "
         f"{p['big_mib']:.0f} MiB; {p['big_bytes']:.0f} bytes per envelope at {p['big']}; {golden}")
    m.update({f"page_{k}": v for k, v in p.items()})
    return m
