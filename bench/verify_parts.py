"""Where one-process ``pbem verify`` spends its time, part by part, so that its ratio to the
libsodium floor can be judged: each part is the same work verify does, done alone over the same
stored history, and timed in turn with verify and its floor (``bench._verify_floor``).

* the signatures (libsodium) and the dice's HMAC-SHA256 derivations: the floor itself;
* reading the stored envelopes and their armor (``find_blocks``);
* parsing each envelope and checking it is canonical JSON with its fields in bounds
  (``open_block`` with the signature taken as checked);
* the rules and the protocol's checks (chain links, reveals, seeds, each die re-derived) and the
  state hash (``chain.history.apply``), its HMAC derivations taken out (they are in the floor);
* the rest: verify's total less all of the above. It holds the derived tables compared with the
  replay (about 16 µs an envelope alone) and the loop's own steps, but mostly the parts' slower
  pace when verify runs them one after the other for each envelope than when each runs alone
  over the whole history: timed inside verify's loop, each was 30-50% slower than alone (the
  caches and branch predictors one part warms, the next one's work evicts). Checking the
  signatures of 256 envelopes at a time ahead of their replay, to keep libsodium's work apart,
  gained under 10%, within this machine's noise, and was left out.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

from nacl.bindings import crypto_sign_open

from pbem.chain import history
from pbem.store.ledger import Ledger
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import DOMAIN, open_block

PARTS = ("signatures", "hmac", "read", "parse", "rules")


def runs(ledger: Ledger, calls: int) -> dict[str, Callable[[], Any]]:
    """Each part as a run over the whole history (``calls``: the HMAC derivations verify makes)."""
    rows = list(ledger.envelopes())
    blocks = [find_blocks(row[4])[0] for row in rows]
    payloads = [b.payload for b in blocks]
    envelopes = [open_block(b) for b in blocks]

    def signatures() -> None:  # libsodium, as verify checks them
        for p in payloads:
            crypto_sign_open(p[:64] + DOMAIN + p[96:], p[64:96])

    def derivations() -> None:
        key = bytes(32)
        for counter in range(calls):
            hmac.digest(key, counter.to_bytes(8, "big"), "sha256")

    def read() -> None:
        for row in ledger.envelopes():
            find_blocks(row[4])

    def parse() -> None:
        for block in blocks:
            open_block(block, signature_checked=True)

    def rules() -> None:  # the replay as verify runs it: each match handed on, changed in place
        genesis = match = head = None
        for env in envelopes:
            applied = history.apply(env, genesis, match, head, None, own=True)
            genesis = genesis or env.content
            match, head = applied.match, (env.seq, env.hash)

    return {"signatures": signatures, "hmac": derivations, "read": read, "parse": parse, "rules": rules}


def line(best: dict[str, float], alone: float, envelopes: int) -> str:
    """The breakdown in words, in µs per envelope."""
    us = {name: best[name] / envelopes * 1e6 for name in PARTS}
    rules = max(0.0, us["rules"] - us["hmac"])  # its HMAC derivations are the floor's
    rest = alone / envelopes * 1e6 - us["signatures"] - us["hmac"] - us["read"] - us["parse"] - rules
    return (f"  where one-process verify's {alone / envelopes * 1e6:.0f} µs an envelope go (each part alone, in turn "
            f"with it; bench/verify_parts.py): signature {us['signatures']:.0f} and HMAC {us['hmac']:.0f} (the "
            f"floor), reading and armor {us['read']:.0f}, parsing and the canonical check {us['parse']:.0f}, the "
            f"rules, the protocol's checks and the state hash {rules:.0f}, the rest {rest:.0f} (the derived tables "
            f"compared with the replay, and each part slower interleaved than alone)")
