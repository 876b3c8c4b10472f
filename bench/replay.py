"""The block game's replay and verify, per action, against a stdlib floor measured in the same run.

Several complete games of the block game are played by its own player (two campaigns exchanging
real signed turn files, sealed dice). Then, over the same histories:

* **replay**: every turn envelope applied again by ``pbem_engine.protocol.match.advance`` from the genesis (the
  rules' legality checks, the state applied, the private draws and openings checked);
* **verify**: ``pbem verify`` of one of the two campaigns (signatures, the hash chain, every state
  hash and every derived row);
* **the floor**: for each action of those games, ``json.dumps(state, sort_keys=True)`` of the game
  state after it, and SHA-256 of those bytes: the least any tool that keeps a JSON state and
  hashes it per action does.

Targets (issue "Verify and replay at the speed of the best peer"): replay at most 0.6x the floor,
verify at most 1.2x. Microseconds per action are printed too, beside Rally the Troops' published
figures for replaying a recorded block game (36 µs warm, 54 µs cold, legality checked).

A second line times the ``pbem replay`` page (``pbem.view.replay``) of two barrage histories,
1,000 and 10,000 envelopes (``bench.build``'s, a long ``rounds`` option), each in a process of
its own that opens the campaign, builds the page and writes it, as the command does: the time
ratio (target: under 10 for ten times the envelopes, the page built in one pass) and the peak
memory of each; and the bytes per envelope of the golden block game's page (target: at most
4 KB), where the checkout's tests/golden is at hand (installed from it, or run in it).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPLAY_TARGET = 0.6
VERIFY_TARGET = 1.2
RALLY_THE_TROOPS = (36, 54)  # µs per action, warm and cold, as published
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


def _history(campaign: Path) -> tuple[dict[str, Any], list[tuple[int, str, dict[str, Any]]], Any]:
    """The genesis body, each later envelope (seq, author, body), and the game module."""
    from pbem.wire.armor import find_blocks
    from pbem.play.campaign import Campaign
    from pbem.wire.envelope import open_block

    camp = Campaign.open(campaign, readonly=True)
    try:
        envelopes = [(seq, author, open_block(find_blocks(raw)[0]).content)
                     for seq, _, author, _, raw, _ in camp.ledger.envelopes()]
        return envelopes[0][2], envelopes[1:], camp.game
    finally:
        camp.ledger.close()


def _replay(genesis: dict[str, Any], rest: list[tuple[int, str, dict[str, Any]]], game: Any,
            states: list[Any] | None = None) -> int:
    """Every envelope applied from the genesis, as verify applies them (each match handed over to
    the next envelope, its state changed in place); the number of actions.  ``states``: a list to
    take a copy of the game state after each envelope into (then nothing is handed over)."""
    from pbem_engine.protocol import match as protocol

    match = protocol.start(game, genesis["game"], genesis["author"], genesis["body"])
    actions = 0
    for seq, author, content in rest:
        if content["kind"] == "join":
            match = protocol.join(match, author, content["body"], game, seq)
            continue
        match, _, _ = protocol.advance(game, match, seq, author, content["body"], own=states is None)
        if states is not None:
            states.append(match["game"])
        actions += len(content["body"].get("actions", []))
    return actions


def _floor(states: list[Any], actions: int) -> float:
    """json.dumps(state, sort_keys=True) and SHA-256 of it, once per action (the states after the
    envelopes, each taken as many times as its envelope held actions, at least once)."""
    per = max(1, round(actions / max(1, len(states))))
    start = time.perf_counter()
    for state in states:
        for _ in range(per):
            hashlib.sha256(json.dumps(state, sort_keys=True).encode()).digest()
    return time.perf_counter() - start


def measure(games: int = 3, repeat: int = 7) -> dict[str, float]:
    """Each game's replay, floor and verify measured in turn, ``repeat`` rounds, and the best of each
    kept: on a shared machine the three are taken under the same load, not one of them in a quiet
    moment and another in a busy one (the ratios moved by 0.4 from run to run when each was
    measured in a block of its own)."""
    from pbem.check.verify import verify_path

    with tempfile.TemporaryDirectory(prefix="pbem-bench-replay-") as tmp:
        campaigns = _games(Path(tmp), games)
        histories = [_history(c) for c in campaigns]
        states: list[list[Any]] = [[] for _ in campaigns]  # the floor's states, taken once
        counts = [_replay(*h, states=s) for h, s in zip(histories, states)]
        best = [[float("inf")] * 3 for _ in campaigns]  # per game: replay, floor, verify
        for _ in range(repeat):
            for g, ((genesis, rest, game), campaign) in enumerate(zip(histories, campaigns)):
                start = time.perf_counter()
                _replay(genesis, rest, game)
                took = [time.perf_counter() - start, _floor(states[g], counts[g])]
                start = time.perf_counter()
                verify_path(campaign)
                took.append(time.perf_counter() - start)
                best[g] = [min(b, t) for b, t in zip(best[g], took)]
        replay, floor, verify = (sum(b[i] for b in best) for i in range(3))
        actions = sum(counts)
    return {"games": games, "actions": actions, "replay_ratio": replay / floor, "verify_ratio": verify / floor,
            "replay_us": replay / actions * 1e6, "verify_us": verify / actions * 1e6, "floor_us": floor / actions * 1e6}


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


def report(echo: Callable[[str], None], games: int = 3, lengths: tuple[int, int] = PAGE_LENGTHS
           ) -> dict[str, float]:
    m = measure(games)
    warm, cold = RALLY_THE_TROOPS
    echo(f"block game, {m['games']} games by its own player, {m['actions']} actions: replay "
         f"{m['replay_ratio']:.2f}x the stdlib floor (json.dumps sorted + SHA-256 per action; target "
         f"{REPLAY_TARGET}x), verify {m['verify_ratio']:.2f}x (target {VERIFY_TARGET}x); "
         f"{m['replay_us']:.0f} µs per action replayed, {m['verify_us']:.0f} µs verified, floor "
         f"{m['floor_us']:.0f} µs (Rally the Troops publishes {warm} µs warm, {cold} µs cold)")
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
