"""The rules side of pbem: a pure, deterministic library.

Nothing under ``engine`` reads files, clocks, the network, the environment or
the global ``random``; ``tests/test_engine_purity.py`` enforces it.  The same
history therefore gives the same state, byte for byte, on every machine.

Its rooms, each importing only those before it (``tests/test_architecture.py``):

    canonical   canonical JSON and the state hash
    chance/     the dice and their odds
    hidden/     private pools, shared decks, the referee's hidden items and decks
    protocol/   the game contract (core), hash chains, the two-player and refereed match
    games/      one package per game, rules by the rulebook's sequence of play
    registry    finds a game module by name

It installs as ``pbem_engine``; the folder is named ``engine`` in the repository.  Imported
under any other name (``import engine`` from a checkout) it would be a second copy of the
rules, whose refusals the first copy's code does not recognise: that fails at once.
"""

if __name__ != "pbem_engine":
    raise ImportError(f"the rules library is imported as 'pbem_engine' (install pbem: pip install .), "
                      f"not as '{__name__}': a second copy of the rules would not match the first")

from pbem_engine.canonical import canonical_json, digest, state_hash
from pbem_engine.protocol.core import Choice, Game, IllegalAction, Outcome, Prompt, RulesError, step
from pbem_engine.chance.dice import Dice, DiceNotReady, NoDice, ScriptedDice, ScriptExhausted
from pbem_engine.registry import get_game, list_games

__all__ = [
    "Choice", "Dice", "DiceNotReady", "Game", "IllegalAction", "NoDice", "Outcome",
    "Prompt", "RulesError", "ScriptExhausted", "ScriptedDice", "canonical_json",
    "digest", "get_game", "list_games", "state_hash", "step",
]
