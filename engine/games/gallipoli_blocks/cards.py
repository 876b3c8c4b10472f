"""The 54 cards (rules 2.2, 5.1-5.7): every value here is PROVISIONAL.

The rules text gives no card: only three titles and two values survive
(Royal Navy Seaplanes, 2 OPS, 8.1.1; Kitchener Tours the Battlefield,
bombardment 2, 9.1; Suvla Bay Invasion, 8.1.1).  The other 51 are placeholders
with the pack's ids and names (packs/gallipoli-blocks).  Their OPS (0-3, 8.1),
bombardment and entrenchment symbols (five at most, 5.4), asterisks (5.1),
Early/Late labels (5.2) and events are ours: a spread that lets every rule of
the text come into play.  Owners of the game replace them with the printed
values through the option ``cards`` (RULES.md), never by copying card texts here.

Event kinds the module resolves (8.2):
  reinforce  Allied blocks named on the card enter their HQ space at full
             strength, or Ottoman steps are deployed in the Ottoman HQ (8.2.1)
  suvla      opens the Suvla Region (8.1.1); may bring blocks too
  ops        the event gives more OPS than the card's value (8.1)
  hand       changes the Allied hand size (6.5, 7.1.4)
  battle     a Battle event (10.1 steps 5-6): own fire's target number -1,
             or the enemy's +1, for the rest of the battle (10.2.3)
  response   'Play in response to' an enemy event: cancels it (7.1.1-7.1.2)
  manual     an event the module cannot know: its owner writes what it does,
             logged for the opponent to see (a manual adjustment)
"""

from __future__ import annotations

from typing import Any

SOURCE = ("provisional: the rules text has no card values or texts (DIGEST 002 §4); "
          "OPS, symbols, asterisks, Early/Late and events are reconstructed placeholders")

# id: (name, army, subdeck, OPS, bombardment, entrenchment, asterisk, event)
_S10_11 = ["br-10-div-29-bde", "br-10-div-30-bde", "br-10-div-31-bde",
           "br-11-div-32-bde", "br-11-div-33-bde", "br-11-div-34-bde"]
CARDS: dict[str, tuple[str, str, str, int, int, int, bool, dict[str, Any]]] = {
    "royal-navy-seaplanes": ("Royal Navy Seaplanes", "allied", "early", 2, 2, 0, False, {"kind": "manual"}),
    "suvla-bay-invasion": ("Suvla Bay Invasion", "allied", "late", 1, 1, 0, True,
                           {"kind": "suvla", "blocks": _S10_11}),
    "allied-card-01": ("Allied card 01", "allied", "early", 1, 1, 1, True, {"kind": "reinforce", "group": "k"}),
    "allied-card-02": ("Allied card 02", "allied", "early", 2, 1, 0, False, {"kind": "battle", "own": -1}),
    "allied-card-03": ("Allied card 03", "allied", "early", 3, 0, 1, False, {"kind": "manual"}),
    "allied-card-04": ("Allied card 04", "allied", "early", 1, 2, 0, True, {"kind": "reinforce", "group": "e"}),
    "allied-card-05": ("Allied card 05", "allied", "early", 2, 1, 1, False, {"kind": "battle", "enemy": 1}),
    "allied-card-06": ("Allied card 06", "allied", "early", 0, 3, 0, False, {"kind": "ops", "ops": 4}),
    "allied-card-07": ("Allied card 07", "allied", "early", 2, 0, 2, True, {"kind": "response"}),
    "allied-card-08": ("Allied card 08", "allied", "early", 1, 2, 0, True, {"kind": "reinforce", "group": "f"}),
    "allied-card-09": ("Allied card 09", "allied", "early", 3, 1, 0, False, {"kind": "manual"}),
    "allied-card-10": ("Allied card 10", "allied", "early", 2, 1, 1, True, {"kind": "hand", "delta": 1}),
    "allied-card-11": ("Allied card 11", "allied", "early", 1, 1, 2, False, {"kind": "battle", "own": -1}),
    "allied-card-12": ("Allied card 12", "allied", "early", 2, 2, 0, False, {"kind": "manual"}),
    "allied-card-13": ("Allied card 13", "allied", "early", 1, 0, 1, False, {"kind": "ops", "ops": 3}),
    "allied-card-14": ("Allied card 14", "allied", "late", 2, 1, 0, True, {"kind": "reinforce", "group": "l"}),
    "allied-card-15": ("Allied card 15", "allied", "late", 3, 1, 1, False, {"kind": "manual"}),
    "allied-card-16": ("Allied card 16", "allied", "late", 1, 2, 0, True,
                       {"kind": "reinforce", "blocks": ["br-13-div-38-bde", "br-13-div-39-bde", "br-13-div-40-bde"]}),
    "allied-card-17": ("Allied card 17", "allied", "late", 2, 0, 2, False, {"kind": "battle", "enemy": 1}),
    "allied-card-18": ("Allied card 18", "allied", "late", 1, 1, 0, True, {"kind": "reinforce", "group": "n"}),
    "allied-card-19": ("Allied card 19", "allied", "late", 3, 0, 0, False, {"kind": "manual"}),
    "allied-card-20": ("Allied card 20", "allied", "late", 2, 2, 0, True,
                       {"kind": "reinforce", "blocks": ["br-53-div-158-bde", "br-53-div-159-bde", "br-53-div-160-bde",
                                                        "br-54-div-161-bde", "br-54-div-162-bde", "br-54-div-163-bde"]}),
    "allied-card-21": ("Allied card 21", "allied", "late", 1, 1, 1, False, {"kind": "battle", "own": -1}),
    "allied-card-22": ("Allied card 22", "allied", "late", 2, 1, 0, False, {"kind": "ops", "ops": 4}),
    "allied-card-23": ("Allied card 23", "allied", "late", 0, 3, 1, False, {"kind": "manual"}),
    "allied-card-24": ("Allied card 24", "allied", "late", 2, 0, 1, True, {"kind": "hand", "delta": 1}),
    "allied-card-25": ("Allied card 25", "allied", "late", 1, 2, 0, False, {"kind": "manual"}),
    "kitchener-tours-the-battlefield": ("Kitchener Tours the Battlefield", "ottoman", "early", 1, 2, 1, False,
                                        {"kind": "manual"}),
    "ottoman-card-01": ("Ottoman card 01", "ottoman", "early", 1, 0, 2, True, {"kind": "reinforce", "steps": 4}),
    "ottoman-card-02": ("Ottoman card 02", "ottoman", "early", 2, 1, 1, False, {"kind": "battle", "own": -1}),
    "ottoman-card-03": ("Ottoman card 03", "ottoman", "early", 3, 0, 1, False, {"kind": "manual"}),
    "ottoman-card-04": ("Ottoman card 04", "ottoman", "early", 1, 1, 2, True, {"kind": "reinforce", "steps": 6}),
    "ottoman-card-05": ("Ottoman card 05", "ottoman", "early", 2, 0, 3, False, {"kind": "battle", "enemy": 1}),
    "ottoman-card-06": ("Ottoman card 06", "ottoman", "early", 0, 1, 3, False, {"kind": "ops", "ops": 3}),
    "ottoman-card-07": ("Ottoman card 07", "ottoman", "early", 2, 0, 2, True, {"kind": "response"}),
    "ottoman-card-08": ("Ottoman card 08", "ottoman", "early", 1, 2, 0, True, {"kind": "reinforce", "steps": 4}),
    "ottoman-card-09": ("Ottoman card 09", "ottoman", "early", 3, 0, 0, False, {"kind": "manual"}),
    "ottoman-card-10": ("Ottoman card 10", "ottoman", "early", 2, 0, 2, True, {"kind": "hand", "delta": -1}),
    "ottoman-card-11": ("Ottoman card 11", "ottoman", "early", 1, 0, 3, False, {"kind": "battle", "own": -1}),
    "ottoman-card-12": ("Ottoman card 12", "ottoman", "early", 2, 1, 1, False, {"kind": "manual"}),
    "ottoman-card-13": ("Ottoman card 13", "ottoman", "early", 1, 0, 2, True, {"kind": "reinforce", "steps": 8}),
    "ottoman-card-14": ("Ottoman card 14", "ottoman", "late", 2, 1, 1, True, {"kind": "reinforce", "steps": 6}),
    "ottoman-card-15": ("Ottoman card 15", "ottoman", "late", 3, 0, 1, False, {"kind": "manual"}),
    "ottoman-card-16": ("Ottoman card 16", "ottoman", "late", 1, 0, 3, False, {"kind": "battle", "enemy": 1}),
    "ottoman-card-17": ("Ottoman card 17", "ottoman", "late", 2, 2, 0, True, {"kind": "reinforce", "steps": 8}),
    "ottoman-card-18": ("Ottoman card 18", "ottoman", "late", 1, 1, 2, False, {"kind": "ops", "ops": 3}),
    "ottoman-card-19": ("Ottoman card 19", "ottoman", "late", 3, 0, 0, False, {"kind": "manual"}),
    "ottoman-card-20": ("Ottoman card 20", "ottoman", "late", 2, 0, 2, True, {"kind": "hand", "delta": -1}),
    "ottoman-card-21": ("Ottoman card 21", "ottoman", "late", 1, 1, 2, False, {"kind": "battle", "own": -1}),
    "ottoman-card-22": ("Ottoman card 22", "ottoman", "late", 2, 0, 3, True, {"kind": "reinforce", "steps": 6}),
    "ottoman-card-23": ("Ottoman card 23", "ottoman", "late", 0, 2, 2, False, {"kind": "manual"}),
    "ottoman-card-24": ("Ottoman card 24", "ottoman", "late", 2, 1, 1, False, {"kind": "manual"}),
    "ottoman-card-25": ("Ottoman card 25", "ottoman", "late", 1, 0, 2, True, {"kind": "response"}),
    "ottoman-card-26": ("Ottoman card 26", "ottoman", "late", 2, 1, 1, False, {"kind": "ops", "ops": 4}),
}

FIELDS = ("name", "army", "subdeck", "ops", "bombardment", "entrenchment", "asterisk", "event")
KINDS = ("reinforce", "suvla", "ops", "hand", "battle", "response", "manual")


def table(override: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The cards as dicts, with the option ``cards`` (owner-supplied values) laid over them."""
    out = {cid: dict(zip(FIELDS, row)) for cid, row in CARDS.items()}
    for cid, values in sorted((override or {}).items()):
        if cid not in out:
            raise ValueError(f"option cards: no card {cid!r} (ids are those of the gallipoli-blocks pack)")
        unknown = sorted(set(values) - set(FIELDS) - {"source"})
        if unknown:
            raise ValueError(f"option cards: {cid}: unknown fields {', '.join(unknown)}")
        out[cid].update(values)
        out[cid]["supplied"] = True
    for cid, card in out.items():
        ok = (card["army"] in ("allied", "ottoman") and card["subdeck"] in ("early", "late")
              and card["ops"] in range(4) and card["bombardment"] >= 0 and card["entrenchment"] >= 0
              and card["bombardment"] + card["entrenchment"] <= 5 and card["event"].get("kind") in KINDS)
        if not ok:
            raise ValueError(f"option cards: {cid} breaks rules 5.2-5.4 or names an unknown event kind")
    return out


DEFAULT = table()  # the provisional values, built once
