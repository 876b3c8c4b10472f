"""Every game and mode played through by the installed ``pbem`` command, as people play by e-mail:
each party in its own home and folder, only the files in sent/ and the public keys passing
between them, every order typed as a number printed by ``pbem play`` (or in the words the
prompt shows where it lists none), for two game turns or to the end (issue 29, item 14).

What each step checks is in ``tests/playthrough.py``.  Each mode prints its time and counts
(``pytest -s``)."""

from __future__ import annotations

import os
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from importlib.resources import files
from pathlib import Path

import pytest

from .playthrough import Listing, Party, Playthrough, bot, hurried, preferring, tabletop


def hill60(pt: Playthrough, party: Party, listing: Listing) -> int | str:
    """Hill 60: an assault (or any operation) first, then the turn ended: two game turns in few files."""
    if "operation left" in listing.heading:
        return preferring("end turn", often=1)(pt, party, listing)
    return preferring("assault", often=0.7)(pt, party, listing)


ACTION_CARDS = [card["name"] for card in tomllib.loads(
    (files("pbem.packs") / "assault-on-gallipoli" / "pack.toml").read_text())["card"]]
# Table-top orders as the README writes them, hand-over after hand-over: two game turns, then the end
TABLETOP = {
    "anzac": [["shuffle Action Card deck", "draw 3 from Action Card deck"],
              ["move ANZAC 7th Battalion (VIC) to ANZAC Cove", "roll 2d10 for fire", "pass"],
              ["play {card}", "next turn", "move ANZAC 7th Battalion (VIC) to Shrapnel Green", "pass"],
              ["end draw"]],
    "turkish": [["draw 2 from Action Card deck"],
                ["move 3/27th Regiment battalion to Lone Pine", "play {card}", "pass"],
                ["roll 1d10 for morale", "pass"]],
}

# mode: (module, pbem new arguments, chooser, game turn marker (pattern, the turn to stop at) or None: to the end)
MODES = {
    "hill60": ("hill60", [], hill60, (r"\bTurn (\d+) of \d+", 3)),
    "gallipoli-blocks": ("gallipoli-blocks", ["--option", "turns=2"], bot, None),
    # Scenario 2 from its turn 13: the armies in contact from the first order (as the demo plays it);
    # a movement phase ended early most of the time, so that fewer of its units move one by one
    "blood-on-the-tigris": ("blood-on-the-tigris", ["--scenario", "turning-point", "--option", "turns=14"],
                            hurried(bot, "end movement", often=0.6), None),
    # Scenario 3 (no landing to plan boat by boat); most Rounds passed: both passing ends the phase (4)
    "assault-on-gallipoli": ("assault-on-gallipoli", ["--scenario", "lone-pine", "--option", "turns=2"],
                             hurried(bot, "pass", often=0.9), None),
    # the Assault on Gallipoli pack: its Action Card deck is shared and dealt to private hands
    "tabletop": ("tabletop", ["--pack", "assault-on-gallipoli"], tabletop(TABLETOP, ACTION_CARDS), None),
}
SIDES = {"tabletop": ["anzac", "turkish"]}  # the pack's sides
# the longest first: two at a time, they end together
ENABLED = [(m, r) for m in ("gallipoli-blocks", "assault-on-gallipoli", "blood-on-the-tigris", "tabletop", "hill60") for r in (True, False)]
WORKERS = min(2, os.cpu_count() or 1)


def play(root: Path, mode: str, refereed: bool) -> tuple[Playthrough, float]:
    """One mode played through; its problems, or what stopped it, as an AssertionError."""
    module, options, chooser, until = MODES[mode]
    start = time.perf_counter()
    pt = Playthrough(root, module, refereed, chooser, options=options, seed=14,
                     words_every=3, status_every=3, report_every=8)
    try:
        pt.setup(SIDES.get(mode) or pt.sides_of())
        pt.end(pt.play_game(until=until))
        pt.verify_all()
    except Exception as e:
        raise AssertionError(f"{e}\n\nproblems before it:\n" + "\n".join(p.what for p in pt.problems)) from e
    return pt, time.perf_counter() - start


@pytest.fixture(scope="session")
def playthroughs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """Every selected mode, started at once, ``WORKERS`` at a time (each is a chain of commands,
    one after the other: two chains keep two cores busy)."""
    selected = [(item.callspec.params["mode"], item.callspec.params["refereed"]) for item in request.session.items
                if getattr(item, "originalname", None) == "test_playthrough"]
    with ThreadPoolExecutor(WORKERS) as pool:
        yield {key: pool.submit(play, tmp_path_factory.mktemp(f"{key[0]}-{'ref' if key[1] else '2p'}"), *key)
               for key in selected}
        pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize(("mode", "refereed"), ENABLED,
                         ids=[f"{m}-{'refereed' if r else 'two-player'}" for m, r in ENABLED])
def test_playthrough(playthroughs, mode: str, refereed: bool) -> None:
    pt, seconds = playthroughs[mode, refereed].result()
    print(f"\n{mode} {'refereed' if refereed else 'two-player'}: {seconds:.1f} s ({WORKERS} at a time), "
          f"{len(pt.log)} commands, {pt.decisions} numbers or orders typed, {pt.files} files mailed")
    pt.finish()
