"""The tamper sweep: every byte of eight turn files changed four ways, each result checked the
way ingest checks it (armor, signature, canonical content, the chain, the rules, the state hash)
against the history before it. No altered payload may be accepted, and nothing may raise
anything but a refusal. The counts are printed (``pytest -s``).

The four ways: the byte replaced by another of its kind (base64 stays base64), its lowest bit
flipped, the byte deleted, the byte doubled. A change the armor absorbs (a line break moved, a
trailing space) leaves the signed payload identical, and is accepted as the same file.
"""

from __future__ import annotations

import collections

import pytest

from pbem.chain import history
from pbem.wire.armor import find_blocks
from pbem.wire.envelope import open_block
from pbem.errors import PbemError
from tests.conftest import Duel

FILES = 8


def _other(ch: str) -> str:
    if ch.isdigit():
        return "1" if ch == "0" else "0"
    if ch.islower():
        return "b" if ch == "a" else "a"
    if ch.isupper():
        return "B" if ch == "A" else "A"
    return "A"


def _ways(text: str, i: int):
    ch = text[i]
    yield "replace", text[:i] + _other(ch) + text[i + 1:]
    flipped = chr(ord(ch) ^ 1)
    yield "flip", text[:i] + flipped + text[i + 1:]
    yield "delete", text[:i] + text[i + 1:]
    yield "double", text[:i] + ch + text[i:]


@pytest.fixture(scope="module")
def history_of_a_game(tmp_path_factory):
    from click.testing import CliRunner

    d = Duel(tmp_path_factory.mktemp("sweep"), CliRunner())
    d.play_out()
    from pbem.play.campaign import Campaign

    camp = Campaign.open(d.alice.dir, readonly=True)
    try:
        rows = [(seq, raw) for seq, _, _, _, raw, _ in camp.ledger.envelopes()]
    finally:
        camp.ledger.close()
    envelopes = [open_block(find_blocks(raw)[0]) for _, raw in rows]
    before = []  # (match, head) before each envelope
    genesis = envelopes[0].content
    match, head = None, None
    for env in envelopes:
        before.append((match, head))
        applied = history.apply(env, None if env.seq == 0 else genesis, match, head)
        match, head = applied.match, (env.seq, env.hash)
    return envelopes, before, genesis


def test_every_byte_of_eight_turn_files_changed_four_ways(history_of_a_game):
    envelopes, before, genesis = history_of_a_game
    targets = envelopes[-FILES:]  # the join and every turn file of the game
    assert len(targets) == FILES
    counts = collections.Counter()
    for env in targets:
        match, head = before[env.seq]
        text = env.raw
        for i in range(len(text)):
            for way, changed in _ways(text, i):
                counts["cases"] += 1
                try:
                    blocks = find_blocks(changed)
                    if len(blocks) != 1:
                        counts["refused"] += 1
                        continue
                    got = open_block(blocks[0])
                    history.apply(got, None if env.seq == 0 else genesis, match, head)
                except PbemError:
                    counts["refused"] += 1
                    continue
                assert got.payload == env.payload, f"altered payload accepted: #{env.seq} byte {i} {way}"
                counts["same file accepted"] += 1
    print(f"\ntamper sweep: {counts['cases']} changed files ({FILES} turn files, every byte, 4 ways): "
          f"{counts['refused']} refused, {counts['same file accepted']} accepted as the same signed file "
          f"(armor whitespace), 0 altered payloads accepted, 0 tracebacks")
    assert counts["cases"] > 10_000
