"""The block game's history gives the same state hash in every process: other hash seeds (set and
dict order), a disturbed global random, states read back from canonical JSON (the driver does)."""

import os
import random
import subprocess
import sys
from pathlib import Path

from pbem_engine.canonical import state_hash

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ("import sys; sys.path.insert(0, {root!r}); "
          "from tests.games.gallipoli_blocks.test_determinism import final_hash; print(final_hash())")


def final_hash(disturb: bool = False) -> str:
    from tests.games.gallipoli_blocks.driver import Table

    t = Table(options={"turns": 2}, mode="sealed", seed=7)
    while t.step():
        if disturb:
            random.random()
    assert t.state["result"] is not None
    return state_hash(t.m)


def test_same_game_same_hash_across_hash_seeds_and_a_disturbed_random():
    here = final_hash()
    assert here == final_hash(disturb=True)
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(ROOT))], env=env, capture_output=True,
                             text=True, check=True, cwd=ROOT)
        assert out.stdout.strip() == here, f"PYTHONHASHSEED={seed}"
