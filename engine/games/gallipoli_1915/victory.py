"""The end of a scenario: sudden death (104.3 Anzac Major, 104.4 Entente Major end the game at
once) and the victory levels, judged at the table against the book's conditions (Good Order,
Perimeter, Viable Beach: series rules and the map) and agreed by both sides; the Peninsula's
player victory is the module's arithmetic: each landing's level weighted and averaged, the
fraction rounded toward the Helles result (104.5, p.16)."""

from __future__ import annotations

from typing import Any

from pbem_engine.chance.dice import Dice

from . import data
from .procedures import need, other

State = dict[str, Any]
LEVEL_OF = {w: level for level, w in data.WEIGHTS.items()}


def peninsula(anzac: str, helles: str) -> tuple[str, str]:
    """104.5: (the player result, how it was reached)."""
    a, h = data.WEIGHTS[anzac], data.WEIGHTS[helles]
    total = a + h
    if total % 2 == 0:
        value = total // 2
    else:  # a half: round toward the Helles result
        low, high = (total - 1) // 2, (total + 1) // 2
        value = high if h > low else low
    return LEVEL_OF[value], f"Anzac {anzac} ({a:+d}), Helles {helles} ({h:+d}): ({a:+d} {h:+d}) / 2 = " \
                           f"{total / 2:+g}, rounded toward Helles: {value:+d}"


def result_of(scenario: str, claim: dict[str, str]) -> tuple[str | None, str, str]:
    """(winner, result, reason) of an agreed claim."""
    if scenario == "peninsula":
        level, reason = peninsula(claim["anzac"], claim["helles"])
    else:
        level, reason = claim["level"], "agreed at the table"
    winner = "entente" if level.startswith("entente") else "ottoman" if level.startswith("ottoman") else None
    if scenario == "kemal" and level == "ottoman-medium":  # 102.2: Ottoman Medium is the player draw
        winner = None
    return winner, level.replace("-", " ").title(), reason


def check_claim(state: State, claim: dict[str, str]) -> None:
    levels = data.LEVELS[state["scenario"]]
    keys = ("anzac", "helles") if state["scenario"] == "peninsula" else ("level",)
    need(set(claim) == set(keys), "claim " + (" and ".join(f"the {k} level" for k in keys) if len(keys) > 1
                                            else "one level") + f": {', '.join(levels)}")
    for k in keys:
        need(claim[k] in levels, f"{claim[k]!r} is not a level of this scenario: {', '.join(levels)}")
    for landing in state["sudden"] or ():
        need(claim.get(landing, claim.get("level")) == "entente-major",
             f"the {landing} landing ended the game by sudden death: its level is entente-major")


def do_claim(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    need(state["phase"] == "victory", f"victory is judged after turn {state['last']} "
                                      f"(or by sudden death: 'sudden death LANDING')")
    claim = dict(a["claim"])
    check_claim(state, claim)
    state["claim"] = {"by": side, **claim}
    state["active"] = other(side)
    shown = ", ".join(v if k == "level" else f"{k} {v}" for k, v in claim.items())
    extra = f" (104.5: {peninsula(claim['anzac'], claim['helles'])[0]})" if state["scenario"] == "peninsula" else ""
    return [f"{side} claims {shown}{extra}; {other(side)} accepts it or claims another"]


def do_accept(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    claim = state.get("claim")
    need(bool(claim) and claim["by"] != side, "there is no claim of the other side's to accept")
    if claim.get("sudden"):
        return accept_sudden(state, side, claim)
    found = {k: v for k, v in claim.items() if k != "by"}
    winner, result, reason = result_of(state["scenario"], found)
    state["over"] = {"winner": winner, "result": result, "reason": reason}
    state["claim"] = None
    return [f"{side} accepts: {result} ({reason})"]


def do_sudden(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    landing = a["landing"]
    allowed = data.SUDDEN_DEATH.get(state["scenario"], ())
    need(landing in allowed, "no sudden death in this scenario" if not allowed else
         f"sudden death here: {', '.join(allowed)} (104.3 Anzac Major, 104.4 Entente Major)")
    need(side == "entente", "sudden death is the Entente's Major victory (104.3, 104.4)")
    need(state["phase"] != "victory", "the game is at its end already")
    state["claim"] = {"by": side, "sudden": landing}
    state["active"] = "ottoman"
    why = ("all five Anzac Major conditions (104.3)" if landing == "anzac"
           else "two Brigades exited off the north edge in Good Order with a Viable Beach held (104.4)")
    return [f"entente claims sudden death at {landing}: {why}; the ottoman accepts, or disputes and play goes on"]


def accept_sudden(state: State, side: str, claim: dict[str, Any]) -> list[str]:
    landing = claim["sudden"]
    state["claim"] = None
    if state["scenario"] != "peninsula":
        state["over"] = {"winner": "entente", "result": "Entente Major",
                         "reason": f"sudden death at {landing} on {data.label(state['turn'])}"}
        return [f"{side} accepts: the game ends at once, Entente Major"]
    state["sudden"] = [landing]
    state["phase"], state["active"], state["done"] = "victory", "entente", []
    return [f"{side} accepts: the game ends at once ({landing} Entente Major); the other landing's level "
            f"is judged now and the two weighted (104.5)"]


def do_dispute(state: State, side: str, a: dict[str, Any], dice: Dice) -> list[str]:
    claim = state.get("claim")
    need(bool(claim) and claim["by"] != side, "there is no claim of the other side's to dispute")
    state["claim"] = None
    if claim.get("sudden"):
        state["active"] = "entente"
        return [f"{side} disputes the sudden death at {claim['sudden']}: play goes on"]
    state["active"] = other(side)
    return [f"{side} disputes the claim: {other(side)} claims again"]
