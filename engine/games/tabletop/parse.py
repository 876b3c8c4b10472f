"""Table-top orders as a player types them, read into actions (``pbem_engine.games.tabletop.orders``
checks and does them):

    move 86th Brigade to Krithia        step 86th -1        flip 86th        mark Krithia with smoke
    roll 3d6 for landing fire           roll 7d6>=4         roll d100        roll d10 read 0-9
    reroll die 2 because cocked         draw 2 from allied-deck             play Royal Navy Seaplanes
    deploy 1/33rd to Krithia (a concealed piece of yours)   reveal 1/33rd
    discard ...   return ...   remove ...   reshuffle allied-deck
    show hand of DECK   look at hand of DECK   take CARD (from the hand shown)   give CARD
    next phase   next turn   say <text>   note <secret text>   open note 2   pass   end <result>

Names may be abbreviated to any unambiguous prefix of a piece's, location's,
deck's or card's name or id.
"""

from __future__ import annotations

import re
from typing import Any

from pbem_engine.protocol.core import IllegalAction

from .orders import DEALT, DICE

CARD_OPS = ("play", "discard", "return", "remove")


def parse(game, state: dict[str, Any], side: str, text: str, known: dict[str, str] | None = None) -> dict[str, Any]:
    words = text.strip()
    low = words.lower()
    verb, _, rest = low.partition(" ")
    rest_raw = words[len(verb):].strip()
    if verb in ("move", "deploy"):
        m = re.match(r"^(.*?)\s+to\s+(.+)$", rest_raw, re.I)
        if not m:
            raise IllegalAction(f"say '{verb} PIECE to LOCATION'")
        if verb == "deploy":  # one of our concealed pieces: its identity travels as a commitment
            placed = set((known or {}).values())
            mine = {pid: game.piece_data[pid].get("name", pid) for pid in game.concealed_of(side) if pid not in placed}
            return {"do": "deploy", "piece": {"$hide": _match("concealed piece of yours", m.group(1), mine)},
                    "to": _location(game, m.group(2))}
        return {"do": "move", "piece": _piece(game, state, m.group(1), side, known), "to": _location(game, m.group(2))}
    if verb == "reveal":
        return {"do": "unveil", "piece": _hidden(game, state, side, rest_raw, known or {})}
    if verb == "step":
        m = re.match(r"^(.*?)\s*([+-]\d+)$", rest_raw)
        if not m:
            raise IllegalAction("say 'step PIECE -1' (or +1)")
        return {"do": "step", "piece": _shown(game, state, m.group(1), side, known, verb), "by": int(m.group(2))}
    if verb == "flip":
        return {"do": "flip", "piece": _shown(game, state, rest_raw, side, known, verb)}
    if verb in ("mark", "unmark"):
        parts = re.split(r"\s+with\s+", rest_raw, maxsplit=1, flags=re.I)
        if len(parts) != 2 or not parts[1]:
            raise IllegalAction(f"say '{verb} PIECE-OR-LOCATION with MARKER'")
        return {"do": verb, "target": _target(game, state, parts[0]), "text": parts[1]}
    if verb == "roll":
        parts = re.split(r"\s+for\s+", rest_raw, maxsplit=1, flags=re.I)
        expr = parts[0].strip().lower()
        if not DICE.match(expr):
            raise IllegalAction(f"'{parts[0]}' is not a dice expression: try 3d6, 7d6>=4, d100, d10 read 0-9")
        return {"do": "roll", "expr": expr, "purpose": parts[1].strip() if len(parts) > 1 else expr}
    if verb == "reroll":
        m = re.match(r"^die\s+(\d+)(?:\s+because\s+(.+))?$", rest_raw, re.I)
        if not m or not m.group(2):
            raise IllegalAction("say 'reroll die N because REASON' (the reason is logged)")
        return {"do": "reroll", "die": int(m.group(1)), "reason": m.group(2)}
    if verb == "draw":
        m = re.match(r"^(\d+)\s+from\s+(.+)$", rest_raw, re.I) or re.match(r"^from\s+(.+)$()", rest_raw, re.I)
        if not m:
            raise IllegalAction("say 'draw N from DECK'")
        count, deck = (int(m.group(1)), m.group(2)) if m.group(1).isdigit() else (1, m.group(1))
        return {"do": "draw", "deck": _deck(game, deck), "count": count}
    if verb in CARD_OPS:
        return {"do": verb, "card": _card(game, state, side, rest_raw, known or {})}
    if verb in ("reshuffle", "shuffle"):  # one order, two words (README, packs.md), for every deck
        return {"do": "reshuffle", "deck": _deck(game, rest_raw)}
    if verb == "show":  # a hand from a dealt deck, shown to the other side (Espionage)
        m = re.match(r"^(?:my\s+)?hand\s+(?:of|from)\s+(.+)$", rest_raw, re.I)
        if not m:
            raise IllegalAction("say 'show hand of DECK'")
        return {"do": "show", "deck": _deck(game, m.group(1))}
    if verb == "look":  # Espionage: the other side's next file shows its hand of a dealt deck
        m = re.match(r"^at\s+(?:the\s+)?(?:(?:opponent's|other)\s+)?hand\s+(?:of|from)\s+(.+)$", rest_raw, re.I)
        if not m:
            raise IllegalAction("say 'look at hand of DECK'")
        deck = _deck(game, m.group(1))
        if not game.is_dealt(deck):
            raise IllegalAction("only a hand from a deck dealt to private hands can be looked at this way")
        return {"do": "look", "deck": deck}
    if verb == "take":  # a card the other side has shown, from its hand into ours
        card = re.split(r"\s+from\s+", rest_raw, maxsplit=1, flags=re.I)[0]
        others = [s for s in game.sides if s != side]
        return {"do": "take", "card": _card(game, state, others[0], card, known or {}, dealt_only=True,
                                              hint=" (say 'look at hand of DECK' first)")}
    if verb == "give":  # a card of our hand, handed to the other side
        card = re.split(r"\s+to\s+", rest_raw, maxsplit=1, flags=re.I)[0]
        return {"do": "give", "card": _card(game, state, side, card, known or {}, dealt_only=True)}
    if low in ("next phase", "next turn"):
        return {"do": "next", "what": low.split()[1]}
    if verb == "say":
        return {"do": "say", "text": rest_raw}
    if verb == "note":  # a secret note: sealed now, opened later with 'open note N'
        if not rest_raw:
            raise IllegalAction("say 'note TEXT'")
        return {"do": "note", "text": {"$hide": rest_raw}}
    if low.startswith("open note"):
        m = re.match(r"^open note\s+(\d+)$", low)
        notes = [i for i, n in enumerate(state.get("notes", []), 1) if n["by"] == side and "text" not in n]
        if not m or int(m.group(1)) not in notes:
            raise IllegalAction(f"say 'open note N' for one of your sealed notes: {notes or 'none'}")
        return {"do": "unseal", "note": int(m.group(1))}
    if low == "pass":
        return {"do": "pass"}
    if verb == "end":
        return {"do": "end", "result": rest_raw or "the players end the game"}
    raise IllegalAction(f"'{text}' is not a table-top order: move, step, flip, mark, roll, reroll, draw, play, "
                        "discard, return, remove, reshuffle, show hand of, look at hand of, take, give, next phase, next turn, say, "
                        "pass, end")


def _match(kind: str, text: str, entries: dict[str, str]) -> str:
    """The id whose name or id ``text`` names (case-insensitive, unambiguous prefix)."""
    t = " ".join(text.split()).lower()
    exact = [i for i, name in entries.items() if t in (i.lower(), name.lower())]
    if len(exact) == 1:
        return exact[0]
    prefix = [i for i, name in entries.items() if i.lower().startswith(t) or name.lower().startswith(t)]
    if len(prefix) == 1:
        return prefix[0]
    if prefix:
        raise IllegalAction(f"'{text}' is ambiguous: {', '.join(sorted(entries[i] for i in prefix)[:8])}")
    raise IllegalAction(f"no {kind} '{text}'")


def _piece(game, state, text, side=None, known=None):
    names = {pid: game.piece_data.get(pid.rsplit("-", 1)[0] if pid not in game.piece_data else pid, {}).get("name", pid)
             for pid in state["pieces"]}
    own = {tok: known[tok] for tok, hidden in state.get("hidden", {}).items()
           if hidden["side"] == side and tok in (known or {})}
    names.update((tok, game.item_name(item)) for tok, item in own.items())  # our own concealed pieces, by name
    by_id = [tok for tok, item in own.items() if item.lower() == " ".join(text.split()).lower()]
    if len(by_id) == 1:  # or by the id its deployment named ('deploy ott-dummy-1 to ...')
        return by_id[0]
    return _match("piece", text, names)


def _shown(game, state, text, side, known, verb):
    """A piece face up on the map: one of our concealed pieces is named, and turned away with why."""
    pid = _piece(game, state, text, side, known)
    if pid in state.get("hidden", {}):
        raise IllegalAction(f"{game.item_name(known[pid])} is concealed: 'reveal {game.item_name(known[pid])}' "
                            f"first, then {verb} it")
    return pid


def _hidden(game, state, side, text, known):
    names = {tok: game.item_name(known[tok]) for tok, h in state.get("hidden", {}).items()
             if h["side"] == side and tok in known}
    return _match("concealed piece of yours on the map", text, names)


def _location(game, text):
    return _match("location", text, {i: loc.get("name", i) for i, loc in game.locations.items()} | {"off-map": "off-map"})


def _target(game, state, text):
    try:
        return _piece(game, state, text)
    except IllegalAction:
        return _location(game, text)


def _deck(game, text):
    return _match("deck", text, {i: d.get("name", i) for i, d in game.decks.items()})


def _card(game, state, side, text, known, dealt_only=False, hint=""):
    """A card in ``side``'s hand that we can name (ours, or the other's once shown)."""
    hand = state["hands"][side]  # a dealt card we cannot read yet (its keys are on their way) is not offered
    names = {item: game.item_name(known.get(item, item)) for item in hand
             if (not item.startswith(DEALT) and not dealt_only) or item in known}
    if dealt_only and not names:
        raise IllegalAction(f"{side} holds no card of a dealt deck that you can see" + hint)
    t = " ".join(text.split()).lower()
    same = [i for i, name in names.items() if name.lower().startswith(t) or i.lower().startswith(t)]
    if len(same) > 1 and len({names[i] for i in same}) == 1:
        return same[0]  # identical cards: any of them will do
    return _match("card in your hand" if not dealt_only or not hint else f"card of {side}'s hand shown to you",
                  text, names)
