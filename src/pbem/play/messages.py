"""Table talk: what the players say beside their orders, public or sealed to one party.

``say TEXT`` is read by everyone who holds the game; ``tell PARTY TEXT`` is sealed to that party
(the other side, another player, or the referee) and to its author.  A message is not an action:
it rides in the turn body's ``messages`` field (checked by ``pbem_engine.protocol.messages``),
signed with the turn, never in the state, so it never counts as a decision and never changes a
state hash.  Messages given while no turn file is being signed wait in ``secrets/talk.json``
and go with the next one (a person's or one the tool writes alone).

Sealing uses the parties' pinned Ed25519 keys, converted to X25519 (libsodium's conversion, as
``age`` and ``minisign`` users do), so no key is added to any genesis: an ephemeral X25519 key,
HKDF-SHA256 and ChaCha20-Poly1305 (``pbem.chain.referee.seal_box``, purpose ``message``) with
the game, number, author, index and addressee as associated data, the text padded to 256 bytes.
Only the holder of the addressee's (or the author's) identity opens it: the tool that holds the
identity (``pbem play``, ``pbem say``/``tell``/``messages``) opens what is addressed to its side and
keeps the texts with the secrets, where reports and replays read them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pbem_engine.protocol.messages import MESSAGE_TEXT, MESSAGES, check_messages, plain_text

from ..chain.history import pinned_key
from ..errors import PbemError, RefusedTurn
from ..store import vault
from ..wire.armor import find_blocks
from ..wire.keys import Identity

if TYPE_CHECKING:  # only for annotations: the campaign imports this module, not the other way round
    from .campaign import Campaign

TALK_NAME = "talk.json"  # in secrets/: messages waiting for a turn file, and the texts opened for us


def parties(genesis: dict[str, Any]) -> list[str]:
    """Who may be told something: every side, and the referee of a refereed game."""
    body = genesis["body"]
    return sorted(body["sides"]) + (["referee"] if body.get("mode") == "referee" else [])


def is_message(order: str, rules_say: bool = False) -> bool:
    """``say ...`` or ``tell ...``; ``say`` stays an order where the rules read it themselves
    (table-top mode's ``say``, an action in its history since its first version)."""
    words = order.strip().split(None, 1)
    return bool(words) and words[0].lower() in (("tell",) if rules_say else ("say", "tell"))


def rules_say(game: Any, state: dict[str, Any], side: str) -> bool:
    """Whether the rules take ``say TEXT`` as one of their own orders."""
    try:  # a probe: any refusal means they do not
        return bool(game.parse_order(state, side, "say -")) if hasattr(game, "parse_order") else False
    except Exception:
        return False


def parse(order: str, genesis: dict[str, Any], author: str) -> dict[str, Any]:
    """``say TEXT`` or ``tell PARTY TEXT`` (``tell PARTY: TEXT``) as ``{"to": party or None, "text"}``.

    :raises PbemError: ``bad-message``: no text, too long, control characters, no such party."""
    verb, _, rest = order.strip().partition(" ")
    to = None
    if verb.lower() == "tell":
        name, _, rest = rest.strip().partition(" ")
        name = name.rstrip(":").lower()
        others = [p for p in parties(genesis) if p != author]
        found = [p for p in others if p.lower() == name] or [p for p in others if name and p.lower().startswith(name)]
        if len(found) != 1:
            raise PbemError(f"'tell {name}': no such party", f"tell one of: {', '.join(others)} (tell PARTY TEXT)",
                            code="bad-message")
        to = found[0]
    text = rest.strip()
    if not plain_text(text):
        raise PbemError("a message must be a text of 1 to %d characters" % MESSAGE_TEXT,
                        f"got {len(text)} characters" + (" with control characters" if text else ""),
                        code="bad-message")
    return {"to": to, "text": text}


def split(orders: list[str], genesis: dict[str, Any], author: str, own_say: bool = False
          ) -> tuple[list[dict[str, Any]], list[str]]:
    """The messages among ``orders`` (parsed) and the orders left, in their order."""
    said = [parse(o, genesis, author) for o in orders if is_message(o, own_say)]
    return said, [o for o in orders if not is_message(o, own_say)]


def listen(camp: Campaign, orders: list[str], ask: Any) -> tuple[list[dict[str, Any]], list[str], Any]:
    """For ``Campaign.play``: the messages among ``orders``, the orders left, and ``ask`` taking
    messages typed at a prompt (noted, then asked again).

    :raises PbemError: ``bad-message``."""
    match = camp.match()  # (a refereed player's copy has no game state: the probe needs none)
    state = match.get("game") or (match.get("full") or {}).get("game") or {}
    own_say = camp.side in camp.game.sides and rules_say(camp.game, state, camp.side)  # table-top's say
    said, rest = split(orders, camp.genesis, camp.side, own_say)
    if ask is None:
        return said, rest, None

    def listening(prompt, events, rolls, refusal):
        while True:
            answer = ask(prompt, events, rolls, refusal)
            if answer is None or not is_message(answer, own_say):
                return answer
            try:
                said.append(parse(answer, camp.genesis, camp.side))  # the list the campaign signs with
                refusal = None
                camp.notice(f"noted, it goes with this turn file: {answer.strip()}")
            except PbemError as e:
                refusal = f"{e} ({e.detail})"
    return said, rest, listening


def heard(camp: Campaign, identity: Identity) -> list[str]:
    """Open what is sealed to us (kept for reports) and what the others said since our last file."""
    open_ours(camp, identity)
    head = camp.ledger.head()
    own = camp.ledger.last_of(camp.side, head[0]) if head else None
    return [m["line"] for m in shown(camp, camp.side, own if own is not None else -1) if m["author"] != camp.side]


# --- sealing and opening ---------------------------------------------------------------

def _x25519_public(ed25519: bytes) -> bytes:
    from nacl.bindings import crypto_sign_ed25519_pk_to_curve25519

    return crypto_sign_ed25519_pk_to_curve25519(ed25519)


def _x25519_secret(identity: Identity) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from nacl.bindings import crypto_sign_ed25519_sk_to_curve25519, crypto_sign_seed_keypair

    seed = identity.private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                          serialization.NoEncryption())
    return crypto_sign_ed25519_sk_to_curve25519(crypto_sign_seed_keypair(seed)[1])


def _aad(game: str, seq: int, author: str, index: int, to: str, copy: bool) -> bytes:
    return f"pbem/v1/message|{game}|{seq}|{author}|{index}|{to}|{'copy' if copy else 'to'}".encode()


def wire(said: list[dict[str, Any]], genesis: dict[str, Any], seq: int, author: str) -> list[dict[str, Any]]:
    """The ``messages`` field of envelope ``seq`` for ``said``: public texts as they are, each
    sealed one to its addressee's pinned key and to the author's."""
    from ..chain import referee as boxes  # its sealed boxes; loaded only to seal (cryptography costs ~80 ms)

    game = genesis["game"]
    out: list[dict[str, Any]] = []
    for i, m in enumerate(said):
        if m["to"] is None:
            out.append({"say": m["text"]})
            continue
        plain = json.dumps(m["text"]).encode()
        sealed = {"to": m["to"]}
        for copy, party in ((False, m["to"]), (True, author)):
            key = pinned_key(genesis, party)
            if key is None:
                raise PbemError(f"no key is pinned for {party}", "a sealed message needs its key", code="bad-message")
            sealed["copy" if copy else "box"] = boxes.seal_box(_x25519_public(key), plain, game, "message",
                                                               _aad(game, seq, author, i, m["to"], copy))
        out.append(sealed)
    return out


def _open(secret: bytes, box: Any, game: str, seq: int, author: str, index: int, to: str, copy: bool) -> str | None:
    from ..chain import referee as boxes  # loaded only to open

    try:
        text = json.loads(boxes.open_box(secret, box, game, "message", _aad(game, seq, author, index, to, copy)))
    except (RefusedTurn, ValueError):
        return None
    return text if plain_text(text) else None


INDEX = "messages"  # ledger setting: the numbers of the envelopes that carry messages, so none is read for nothing


def index(ledger: Any, envelopes: list[Any]) -> None:
    """Inside the transaction that stores ``envelopes``: note those that carry messages."""
    seqs = [e.seq for e in envelopes if e.kind == "turn" and "messages" in e.content["body"]]
    if seqs:
        ledger.put_setting(INDEX, json.dumps(sorted(set(_indexed(ledger)) | set(seqs))))


def _indexed(ledger: Any) -> list[int]:
    try:
        seqs = json.loads(ledger.setting(INDEX) or "[]")
    except ValueError:
        return []
    return [s for s in seqs if isinstance(s, int)] if isinstance(seqs, list) else []


def in_chain(camp: Campaign, since: int = -1, upto: int | None = None) -> list[dict[str, Any]]:
    """Every message of the chain after ``since`` (up to ``upto``), as signed: ``{seq, author,
    index, to, text}``, ``text`` None where sealed, ``box`` and ``copy`` kept for opening."""
    out: list[dict[str, Any]] = []
    for seq in _indexed(camp.ledger):
        raw = None if seq <= since or (upto is not None and seq > upto) else camp.ledger.raw(seq)
        if raw is None:
            continue
        # stored, so checked when it came: the signed JSON is read as it is (signature | key | JSON)
        content = json.loads(find_blocks(raw)[0].payload[96:])
        author, said = content["author"], content["body"].get("messages") or []
        try:  # a referee game's copies check only the chain's public part: the shape is checked here
            check_messages(said, parties(camp.genesis), author)
        except ValueError as e:
            out.append({"seq": seq, "author": author, "index": 0, "to": None, "text": None, "bad": str(e)})
            continue
        for i, m in enumerate(said):
            if "say" in m:
                out.append({"seq": seq, "author": author, "index": i, "to": None, "text": m["say"]})
            else:
                out.append({"seq": seq, "author": author, "index": i, "to": m["to"], "text": None,
                            "box": m["box"], "copy": m["copy"]})
    return out


def _key(seq: int, index: int, box: dict[str, str]) -> str:
    """Where an opened text is kept: its place in the chain and its box (a box copied elsewhere
    is not the same message; a draft signed again seals afresh)."""
    return f"{seq}/{index}/{box['epk']}"


def open_ours(camp: Campaign, identity: Identity) -> int:
    """Open every sealed message to or from our side not opened yet and keep the texts with our
    secrets (reports and replays read them there); how many were opened now."""
    talk = read_talk(camp)
    opened = dict(talk.get("opened") or {})
    secret = None
    game, side = camp.genesis["game"], camp.side
    for m in in_chain(camp):
        if m["text"] is not None or "bad" in m or side not in (m["to"], m["author"]):
            continue
        key = _key(m["seq"], m["index"], m["box"])
        if key in opened:
            continue
        secret = secret or _x25519_secret(identity)
        copy = m["author"] == side
        text = _open(secret, m["copy" if copy else "box"], game, m["seq"], m["author"], m["index"], m["to"], copy)
        opened[key] = text if text is not None else ""  # "" : it does not open (damaged or not for us)
    if len(opened) == len(talk.get("opened") or {}):
        return 0
    keep_talk(camp, dict(talk, opened=opened))
    return len(opened) - len(talk.get("opened") or {})


def shown(camp: Campaign, side: str, since: int = -1, upto: int | None = None) -> list[dict[str, Any]]:
    """The messages ``side`` may read, for reports, replays and the page: ``{seq, author, to,
    sealed, text, line}``.  A sealed message's text only in our own side's copy (opened with our
    identity); to anyone else, that it was sent, never what it says."""
    opened = (read_talk(camp).get("opened") or {}) if side == camp.side and camp.secrets_readable() else {}
    out = []
    for m in in_chain(camp, since, upto):
        sealed = m["to"] is not None
        text = m["text"]
        if "bad" in m:  # never printed: it might steer the terminal
            out.append({"seq": m["seq"], "author": m["author"], "to": None, "sealed": False, "text": None,
                        "line": f"{m['author']}'s messages are malformed and not shown ({m['bad'][:120]})"})
            continue
        if sealed and side in (m["to"], m["author"]):
            got = opened.get(_key(m["seq"], m["index"], m["box"]))
            text = got or None
            hint = "it does not open: damaged, or sealed to another key" if got == "" else \
                "sealed; 'pbem messages' opens it"
        if not sealed:
            line = f"{m['author']} says: {text}"
        elif text is not None:
            line = f"{m['author']} to {m['to']} (sealed): {text}"
        elif side in (m["to"], m["author"]):
            line = f"{m['author']} to {m['to']}: a message ({hint})"
        else:
            line = f"{m['author']} sent a sealed message to {m['to']}"
        out.append({"seq": m["seq"], "author": m["author"], "to": m["to"], "sealed": sealed, "text": text,
                    "line": line})
    return out


# --- waiting for a turn file -----------------------------------------------------------

def waiting(camp: Campaign) -> list[dict[str, Any]]:
    """The messages given that wait for our next turn file."""
    return _queue(camp, read_talk(camp))


def _queue(camp: Campaign, talk: dict[str, Any]) -> list[dict[str, Any]]:
    """What waits, unless the envelope it was being signed into is stored as ours (a command killed
    between storing it and emptying the queue): then it went out, and is not sent twice."""
    signing = talk.get("signing")
    if isinstance(signing, int) and signing in _indexed(camp.ledger) \
            and (camp.ledger.envelope_index(signing) or ("", ""))[1] == camp.side:
        return []
    return list(talk.get("queue") or [])


def waiting_lines(camp: Campaign) -> list[dict[str, Any]]:
    """What waits for our next turn file, in words (none where our secrets are locked)."""
    if not camp.secrets_readable():
        return []
    return [{"to": m["to"], "text": m["text"], "line": f"say: {m['text']}" if m["to"] is None
             else f"to {m['to']} (sealed): {m['text']}"} for m in waiting(camp)]


def wait(camp: Campaign, said: list[dict[str, Any]]) -> None:
    """Keep ``said`` for our next turn file (after what already waits).

    :raises PbemError: ``bad-message``, more than one turn file carries."""
    if not said:
        return
    talk = read_talk(camp)
    queue = _queue(camp, talk) + said
    if len(queue) > MESSAGES:
        raise PbemError(f"at most {MESSAGES} messages go with one turn file",
                        f"{len(queue) - len(said)} already wait for your next one ('pbem messages' lists them)",
                        code="bad-message")
    keep_talk(camp, {**{k: v for k, v in talk.items() if k != "signing"}, "queue": queue})
    camp.notice(f"{len(queue)} message(s) wait for your next turn file")


def give(camp: Campaign, order: str) -> dict[str, Any]:
    """``say TEXT`` / ``tell PARTY TEXT`` given outside a turn (``pbem say``, the play page): kept
    for our next turn file; the message as parsed.

    :raises PbemError: ``game-over`` (no turn file of ours will carry it), ``bad-message``."""
    if camp.waiting() is None:
        raise PbemError("the game is over", "no turn file of yours will carry a message now", code="game-over")
    said = parse(order, camp.genesis, camp.side)
    wait(camp, [said])
    return said


def withdraw(camp: Campaign) -> int:
    """Take back every message that waits (not yet signed); how many there were."""
    talk = read_talk(camp)
    queue = _queue(camp, talk)
    if talk.get("queue"):
        keep_talk(camp, dict(talk, queue=[]))
    return len(queue)


def outgoing(camp: Campaign, said: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The ``messages`` field of our envelope ``seq``: what waits, then ``said``.

    :raises PbemError: ``bad-message``, more than one turn file carries."""
    every = waiting(camp) + said
    if len(every) > MESSAGES:
        raise PbemError(f"at most {MESSAGES} messages go with one turn file", f"{len(every)} given",
                        code="bad-message")
    return wire(every, camp.genesis, seq, camp.side) if every else []


def attach(camp: Campaign, body: dict[str, Any], seq: int) -> dict[str, Any]:
    """``body`` of our envelope ``seq`` with the messages that wait and those given with its orders.

    :raises PbemError: ``bad-message``."""
    said = outgoing(camp, camp.said, seq)
    if not said:
        return body
    talk = read_talk(camp)
    queue = _queue(camp, talk)
    texts = [m["text"] for m in queue + camp.said]
    ours = {_key(seq, i, m["box"]): text for i, (m, text) in enumerate(zip(said, texts)) if "box" in m}
    if ours or queue:  # our own sealed words, kept to show us; and which envelope takes the queue
        keep_talk(camp, dict(talk, opened={**(talk.get("opened") or {}), **ours}, signing=seq))
    return dict(body, messages=said)


def drafted(camp: Campaign, result: Any) -> Any:
    """After ``play``: messages given with orders that were only drafted wait for the file."""
    if result.envelope is None and camp.said:
        wait(camp, camp.said)
        camp.notice(f"{len(waiting(camp))} message(s) wait for your next turn file")
    camp.said = []
    return result


def sent(camp: Campaign, envelopes: list[Any]) -> None:
    """Stored: if one is our turn file with messages, what waited went with it."""
    if any(e.author == camp.side and "messages" in e.content["body"] for e in envelopes):
        talk = read_talk(camp)
        if talk.get("queue") or "signing" in talk:
            keep_talk(camp, {**{k: v for k, v in talk.items() if k != "signing"}, "queue": []})


def read_talk(camp: Campaign) -> dict[str, Any]:
    """Our messages waiting for a turn file and the sealed texts opened for us (secrets/talk.json)."""
    path = camp.dir / "secrets" / TALK_NAME
    data = vault.read(path, camp.secrets_key) if path.exists() else {}
    return data if isinstance(data, dict) else {}


def keep_talk(camp: Campaign, data: dict[str, Any]) -> None:
    vault.write(camp.dir / "secrets" / TALK_NAME, data, camp.secrets_key())
