"""The end-of-game audit of a shared deck: every message recomputed from the revealed secrets.

While the game runs, pbem_engine.hidden.deck checks what can be checked without secrets: sizes, group
membership, duplicates, released keys against their hashes, cards played against both keys.
What it cannot see is a shuffler that replaced or copied a card under its own lock, or
re-keyed with keys other than the ones it hashed: the values are still valid group elements.
Once both sides have revealed their secrets (the committed private secrets of pbem_engine.hidden.private)
every shuffle, re-keying and key release is a pure function of public inputs and a known
secret, so the audit recomputes each one and names the first message that differs, its side
and its step.  Because each step is checked against the honest function of its own published
input, a clean audit also proves the deck was complete: every position held one card of its
shuffle, each exactly once.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.hidden import deck as D
from pbem_engine.hidden.private import anchor

STEPS = ("lock", "shuffle", "shuffle-rekey", "rekey")


def audit(start: dict[str, Any], log: list[dict[str, Any]], secrets: dict[str, bytes],
          anchors: dict[str, str] | None = None) -> dict[str, Any]:
    """Replay ``log`` from the public ``start`` (pbem_engine.hidden.deck.new_deck) with both secrets.

    ``anchors`` (side -> the private anchor it committed at genesis) checks that each
    secret is the one its side committed to before anything was dealt.

    :raises DeckError: code ``cheating`` (or the refusal ``apply`` gives), with ``side`` and
        ``step`` naming the first message that does not check out.
    """
    for side in start["sides"]:
        if side not in secrets:
            raise D.DeckError("no-secret", f"the audit needs {side}'s revealed secret", side)
        if anchors and anchor(start["game"], side, secrets[side]) != anchors.get(side):
            raise D.DeckError("bad-secret", f"{side}'s revealed secret is not the one it committed to", side)
    state = start
    counts = {"messages": 0, "shuffles": 0, "keys": 0, "plays": 0}
    for n, msg in enumerate(log, 1):
        op, side = msg.get("op"), msg.get("side")
        step = f"#{n} {op}" + (f" of shuffle {msg['number']}" if "number" in msg else "")
        try:
            if op in STEPS:
                _check_step(state, msg, secrets[side])
                counts["shuffles"] += op == "rekey"
            elif op == "keys":
                for s, i, key in msg["keys"]:
                    _check_key(state, side, secrets[side], [s, i], key)
                counts["keys"] += len(msg["keys"])
            elif op == "play":
                _check_key(state, side, secrets[side], msg["ref"], msg["key"])
                counts["plays"] += 1
            state = D.apply(state, msg)
        except D.DeckError as e:
            raise D.DeckError(e.code, f"{step}: {e}", e.side or side, step) from None
        counts["messages"] += 1
    return {"state": state, **counts}


def _check_step(state: dict[str, Any], msg: dict[str, Any], secret: bytes) -> None:
    side, kind = msg["side"], msg["op"]
    honest = D.step(state, side, secret, msg.get("nonce", ""))
    if honest["op"] != kind:
        raise D.DeckError("out-of-turn", f"the next step is {honest['op']}, not {kind}", side)
    for j, (ours, theirs) in enumerate(zip(honest["deck"], msg.get("deck") or [])):
        if ours != theirs:
            raise D.DeckError("cheating", f"{side}'s {kind} is not what its secret gives from its input: "
                              f"position {j} differs (a card replaced, copied or tampered)", side)
    if honest.get("hashes", []) != msg.get("hashes", []):
        raise D.DeckError("cheating", f"{side}'s {kind} publishes key hashes that are not those of the keys "
                          f"its secret gives", side)


def _check_key(state: dict[str, Any], side: str, secret: bytes, ref: list[int], key: str) -> None:
    honest = D.release(state, side, secret, [ref])["keys"][0][2]
    if key != honest:
        raise D.DeckError("cheating", f"{side}'s key for position {ref} is not the one its secret gives", side)
