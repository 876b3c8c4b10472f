"""The built-in game modules, imported lazily by name."""

from __future__ import annotations

import importlib

from pbem_engine.protocol.core import Game

BUILTIN_GAMES: dict[str, str] = {
    "assault-on-gallipoli": "pbem_engine.games.assault_on_gallipoli:GAME",
    "barrage": "pbem_engine.games.barrage:GAME",
    "blood-on-the-tigris": "pbem_engine.games.blood_on_the_tigris:GAME",
    "gallipoli-1915": "pbem_engine.games.gallipoli_1915:GAME",
    "gallipoli-blocks": "pbem_engine.games.gallipoli_blocks:GAME",
    "hill60": "pbem_engine.games.hill60:GAME",
    "raid": "pbem_engine.games.raid:GAME",
    "tabletop": "pbem_engine.games.tabletop:TableTop",  # a class: built from a data pack (tabletop_game)
}


class UnknownGame(LookupError):
    pass


def get_game(name: str) -> Game:
    """The game module registered as ``name`` (case-insensitive).

    :raises UnknownGame: no such module; the message lists the known ones.
    """
    key = name.lower()
    if key not in BUILTIN_GAMES:
        raise UnknownGame(f"no game module '{name}'; known: {', '.join(sorted(BUILTIN_GAMES))}")
    module_name, attr = BUILTIN_GAMES[key].split(":")
    return getattr(importlib.import_module(module_name), attr)


def list_games() -> list[Game]:
    """The rules modules (table-top mode is built from a pack: see ``tabletop_game``)."""
    return [get_game(name) for name in sorted(BUILTIN_GAMES) if name != "tabletop"]


def tabletop_game(pack: dict) -> Game:
    """Table-top mode for the game a data pack describes."""
    from .games.tabletop import TableTop

    return TableTop(pack)
