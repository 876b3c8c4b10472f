"""Orders a side seals now and its own tool opens later (``discards``, ``initiative``): the value
as an action carries it, and the seal.

May import: ``pbem_engine.chance``, the standard library."""

from __future__ import annotations

from typing import Any

from pbem_engine.chance.dice import NoPrivateItems


def sealable(value: Any, limit: int) -> bool:
    """``{"$hide": text}`` in its author's tool (text of at most ``limit`` characters), the 64-hex
    token in every other: a sealed value as an action may carry it."""
    return (isinstance(value, str) and len(value) == 64
            or isinstance(value, dict) and set(value) == {"$hide"} and isinstance(value["$hide"], str)
            and len(value["$hide"]) <= limit)


def seal(dice: Any, side: str, value: Any) -> dict[str, str]:
    """``{"sealed": token}``, or ``{"plain": text}`` in shared-dice play (random play), where the
    hands are public anyway."""
    try:
        return {"sealed": dice.seal(side, value)}
    except NoPrivateItems:
        return {"plain": value["$hide"] if isinstance(value, dict) else value}


def opened(dice: Any, side: str, order: dict[str, str]) -> str:
    """The text of an order ``seal`` made (its author's tool opens it; the envelope carries it)."""
    return dice.reveal(side, order["sealed"]) if "sealed" in order else order["plain"]
