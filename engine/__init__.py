"""The rules side of pbem: a pure, deterministic library.

Nothing under ``engine`` reads files, clocks, the network, the environment or
the global ``random``; ``tests/test_engine_purity.py`` enforces it.  The same
history therefore gives the same state, byte for byte, on every machine.
"""

from .canonical import canonical_json, digest, state_hash
from .core import Choice, Game, IllegalAction, Outcome, Prompt, RulesError, step
from .dice import Dice, DiceNotReady, NoDice, ScriptedDice, ScriptExhausted
from .registry import get_game, list_games

__all__ = [
    "Choice", "Dice", "DiceNotReady", "Game", "IllegalAction", "NoDice", "Outcome",
    "Prompt", "RulesError", "ScriptExhausted", "ScriptedDice", "canonical_json",
    "digest", "get_game", "list_games", "state_hash", "step",
]
