"""What ``pbem serve`` shows one player and the few things its page may do, as a library.

Nothing here implements a rule or signs by itself.  A click on a choice is ``Campaign.play``
with that choice's number, as ``pbem play N`` is; a typed order is ``pbem play "ORDER"``; the
button that sends a reveal (or, for a referee, starts, adjudicates or discloses) is ``pbem play``
with no order; undo is ``turns.take_back`` as ``pbem undo``; a dropped file goes through
``Campaign.ingest`` read as ``pbem ingest`` reads a file; the map and the report are
``pbem.view.report``'s.  The signed turn file owes its outbox mail exactly as ``pbem play`` does.

A choice that would sign a turn file asks first: ``play`` is rehearsed with an identity that
stops it at the moment it would sign.  Nothing is stored or written before ``play`` signs (the
ledger is the point of no return, see ``pbem.play.campaign``), so a rehearsal that stops there has
changed nothing; one that does not stop has drafted, which is what the click asked for.

The identity and the secrets' passphrase live in a ``Seat``, in this process: nothing it
returns holds them, and no method takes a passphrase (the command asks it in the terminal).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import PbemError
from ..play import messages as talk
from ..play.campaign import Campaign, PlayResult
from ..play.unattended import needs_person
from ..wire.keys import Identity

SIGN_BUTTONS = {  # waiting["why"] -> the button that signs what is owed (pbem play with no order)
    "reveal": "Send your reveal",
    "deck": "Send your deck keys or shuffle step",
    "secret": "Reveal your private secret (the game is over)",
    "start": "Start the game",
    "adjudicate": "Adjudicate",
    "disclose": "Disclose the game",
}
NOTHING_TO_DECIDE = "Sign the turn file (nothing to decide: the rules leave one choice)"
FOLDERS = ("sent", "outbox")  # what the page may offer to download: turn files and ready-to-send mail
_TOKEN = re.compile(r"^[0-9a-f]{64}$")


class _WouldSign(Exception):
    """Raised by a rehearsal identity where ``play`` would sign."""


class _Rehearsal:
    """An identity that stops ``play`` where it would sign (see the module's docstring)."""

    def __init__(self, identity: Identity) -> None:
        self.name, self.public = identity.name, identity.public

    def sign(self, message: bytes) -> bytes:
        raise _WouldSign()


def refusal(e: PbemError) -> dict[str, str]:
    """A refusal as the command line prints it: ``code: reason`` and a line of detail."""
    return {"code": e.code, "reason": str(e), "detail": e.detail}


def _words(value: Any) -> set[str]:
    """The short words inside a choice's action (location ids, verbs), never a hidden token."""
    if isinstance(value, dict):
        return {w for v in value.values() for w in _words(v)}
    if isinstance(value, list):
        return {w for v in value for w in _words(v)}
    if isinstance(value, str) and len(value) <= 40 and not _TOKEN.match(value):
        return {value}
    return set()


def _choices(prompt: Any, svg: str) -> list[dict[str, Any]]:
    """The legal choices for the page, each with the words of its action that the map can light:
    location ids, and the ids of the pieces the map names (a block's token among them, which the
    map shows only for the player's own blocks and revealed ones)."""
    pieces = set(re.findall(r'data-piece="([^"]+)"', svg))
    out = []
    for i, c in enumerate(prompt.choices, 1):
        words = _words(c.action) | (_tokens(c.action) & pieces)
        out.append({"n": i, "label": c.label, "words": sorted(words)})
    return out


def _tokens(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {w for v in value.values() for w in _tokens(v)}
    if isinstance(value, list):
        return {w for v in value for w in _tokens(v)}
    return {value} if isinstance(value, str) and _TOKEN.match(value) else set()


def _templates(text: str, free: bool, tabletop: bool) -> list[str]:
    """Orders to fill in, for a decision taken in words (``free``): the ones its prompt quotes
    ('deploy BLOCK STEPS SPACE'), and in table-top mode the orders ``pbem play`` shows there."""
    if not free:
        return []
    found = [t for t in re.findall(r"'([A-Za-z][^']{1,59})'", text) if not t.endswith(" ")]
    if tabletop:
        from ..play.plays import FREE_ORDERS

        found += [re.sub(r"\s*\[[^]]*\]", "", part).strip() for part in FREE_ORDERS.split("e.g.:", 1)[-1].split(";")]
    return list(dict.fromkeys(t for t in found if t))


class Seat:
    """One player's seat at one campaign, for the page: reads and the actions it may take.

    Every call opens the campaign and closes it before returning (an action takes the campaign
    lock for its own length only, so ``pbem`` commands run beside the page); calls are serialised,
    as the lock is counted within one process, not between its threads.
    """

    def __init__(self, campaign: Path, identity: Identity, secrets_passphrase: bytes | None = None,
                 sender: Callable[[], str] = lambda: "") -> None:
        self.path = Path(campaign)
        self._identity = identity
        self._passphrase = secrets_passphrase
        self._sender = sender
        self._mutex = threading.RLock()
        camp = self._open(readonly=True)
        try:
            self.dir = camp.dir
            self.side = camp.side
            self.title = camp.game.title
            self.game_id = camp.genesis["game"]
            if identity.public != _pinned(camp):
                raise PbemError("wrong identity for this campaign", f"{camp.side} plays with '{camp.identity_name}'",
                                code="wrong-key")
        finally:
            camp.close()

    # -- opening ----------------------------------------------------------------------
    def _open(self, readonly: bool = False) -> Campaign:
        from ..mailbox.mail import write_outbox_again

        try:
            camp = Campaign.open(self.path, readonly=readonly, outbox=write_outbox_again)
        except sqlite3.DatabaseError as e:
            raise PbemError("the campaign database cannot be read", str(e), code="bad-campaign") from None
        camp.unlock = lambda: self._passphrase
        return camp

    def _with(self, readonly: bool, work: Callable[[Campaign], Any]) -> Any:
        with self._mutex:
            camp = self._open(readonly)
            try:
                return work(camp)
            except sqlite3.DatabaseError as e:
                raise PbemError("the campaign database cannot be read", str(e), code="bad-campaign") from None
            finally:
                camp.close()

    # -- reading ------------------------------------------------------------------------
    def version(self) -> str:
        """Changes whenever the campaign does (a turn stored, a draft, a message, mail written or sent), by
        this page or by a ``pbem`` command: the page polls it to know when to redraw."""
        parts = []
        for path in (self.dir / "campaign.db", self.dir / "campaign.db-wal", self.dir / "campaign.db-journal",
                     self.dir / "secrets" / "draft.json", self.dir / "secrets" / talk.TALK_NAME,
                     self.dir / "sent", self.dir / "outbox",
                     self.dir / "outbox" / "sent"):
            try:
                st = path.stat()
                parts.append(f"{path.name}:{st.st_mtime_ns}:{st.st_size}")
            except OSError:
                parts.append(f"{path.name}:-")
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]

    def page(self) -> dict[str, Any]:
        """Everything the page shows: the report of our own view (its map after our draft), the
        decision asked now with its legal choices, the draft, what is ready to send, and the table
        talk (what is sealed to us opened first, as pbem play opens it)."""
        if self._sealed_unopened():
            self._with(False, lambda camp: talk.open_ours(camp, self._identity))
        return self._with(True, self._page)

    def _sealed_unopened(self) -> bool:
        """Whether a message sealed to or by us has not been opened yet (then the page opens it,
        which writes; otherwise a page load stays read-only)."""
        def check(camp: Campaign) -> bool:
            return camp.secrets_readable() and any(
                m["sealed"] and m["text"] is None and camp.side in (m["to"], m["author"])
                and "does not open" not in m["line"] for m in talk.shown(camp, camp.side))

        return self._with(True, check)

    def _page(self, camp: Campaign) -> dict[str, Any]:
        from ..play.turns import drafted, shown_prompt
        from ..view import report

        version = self.version()
        out = report.context(camp)
        waiting = camp.waiting()
        mine = waiting is not None and waiting["side"] == camp.side
        decision: dict[str, Any] = {"text": "", "choices": [], "free": False, "templates": [], "button": None}
        draft: dict[str, Any] = {"count": 0, "events": [], "rolls": []}
        if mine and not camp.refereed and waiting["why"] in ("decide", "reveal"):
            actions, events, rolls, match = drafted(camp)
            if actions:
                out.update(report.map_after(camp, match))
            draft = {"count": len(actions), "events": [e["text"] for e in events], "rolls": rolls}
            prompt = shown_prompt(camp)
            if prompt.side == camp.side:
                decision.update(text=prompt.text, free=prompt.free, choices=_choices(prompt, out.get("map_svg", "")),
                                templates=_templates(prompt.text, prompt.free, camp.game.name == "tabletop"))
        elif mine and camp.refereed and waiting["why"] == "decide":
            from ..play.referee_orders import decision as drafted_decision
            from ..play.referee_orders import follows_rules
            from ..play.refereeing import latest_view

            view = latest_view(camp)
            prompt, count = drafted_decision(camp, view) if view and follows_rules(camp, view) else (None, 0)
            if prompt is not None:  # our orders so far, run on our view: the decision after them
                draft["count"] = count
                decision.update(text=prompt.text, free=prompt.free, choices=_choices(prompt, out.get("map_svg", "")),
                                templates=_templates(prompt.text, prompt.free, camp.game.name == "tabletop"))
            else:
                decision.update(text=out["prompt"], choices=[{"n": i, "label": label, "words": []}
                                                             for i, label in enumerate(out["choices"], 1)])
        if mine and waiting["why"] in SIGN_BUTTONS and not (decision["choices"] or decision["free"]):
            decision["button"] = SIGN_BUTTONS[waiting["why"]]  # (a reveal a decision follows goes with it)
        elif mine and not camp.refereed and waiting["why"] == "decide" and not (decision["choices"] or decision["free"]):
            decision["button"] = NOTHING_TO_DECIDE  # forced choices only: pbem play takes them
        return {**out, "version": version, "waiting": waiting, "mine": mine, "decision": decision,
                "draft": draft, "ready": self._ready(camp, mine), "refereed": camp.refereed,
                "names": self._names(camp), "talk_to": [p for p in talk.parties(camp.genesis) if p != camp.side]}

    @staticmethod
    def _names(camp: Campaign) -> dict[str, str]:
        body = camp.genesis["body"]
        names = {side: entry["name"] for side, entry in body["sides"].items()}
        if camp.refereed:
            names["referee"] = body["referee"]["name"]
        return names

    def _ready(self, camp: Campaign, mine: bool) -> dict[str, Any]:
        """The mail written and not yet sent, and (while we wait) our last turn file(s) to send."""
        from ..mailbox.mail_send import pending_outbox

        mail = [str(p.relative_to(camp.dir)) for p in pending_outbox(camp)]
        files: list[str] = []
        sent = camp.dir / "sent"
        if not mine and sent.is_dir():
            newest = max(sent.glob("*.pbem"), key=lambda p: p.name, default=None)
            if newest is not None:
                views = sorted(sent.glob(f"to-*/{newest.name}"))  # a referee: one file per player
                files = [str(p.relative_to(camp.dir)) for p in (views or [newest])]
        return {"mail": mail, "files": files}

    def report_html(self) -> str:
        """The whole report, as ``pbem report --html`` writes it."""
        from ..view.report import render

        return self._with(True, lambda camp: render(camp, "html"))

    def download(self, relative: str) -> Path:
        """A turn file (sent/) or a ready-to-send message (outbox/) of this campaign, by its
        path in the campaign folder; nothing else (never the secrets or the database).

        :raises PbemError: ``not-found``.
        """
        parts = Path(relative).parts
        try:  # a NUL byte or an overlong name in the URL is refused like any other path
            path = (self.dir / relative).resolve()
            ok = (parts and parts[0] in FOLDERS and ".." not in parts and path.suffix in (".pbem", ".eml")
                  and self.dir.resolve() in path.parents and path.is_file())
        except (OSError, ValueError):
            ok = False
        if not ok:
            raise PbemError("no such file", f"{relative}: only turn files in sent/ and mail in outbox/", code="not-found")
        return path

    # -- acting ---------------------------------------------------------------------------
    def choose(self, order: str, confirm: bool = False) -> dict[str, Any]:
        """``pbem play ORDER``: draft it, or (``confirm``) sign when the decision passes with it.
        Without ``confirm``, an order that would sign a turn file asks first and changes nothing."""
        order = " ".join(str(order).split())
        if not order:
            raise PbemError("no order given", "click a choice or type an order", code="no-order")

        def work(camp: Campaign) -> dict[str, Any]:
            camp.mail_outbox = True  # what it signs owes its mail, as with pbem play
            if not confirm:
                try:
                    result = camp.play(_Rehearsal(self._identity), [order])  # type: ignore[arg-type]
                except _WouldSign:
                    return {"ok": False, "confirm": f"'{order}' ends your decision: your turn file is signed now "
                                                     "and cannot be taken back. Sign it?"}
            else:
                result = camp.play(self._identity, [order])
            return self._after(camp, result)

        return self._with(False, work)

    def send(self) -> dict[str, Any]:
        """``pbem play`` with no order: sign what is owed (a reveal, forced choices; a referee's
        start, adjudication or disclosure)."""
        def work(camp: Campaign) -> dict[str, Any]:
            waiting = camp.waiting()
            alone = waiting is not None and not camp.refereed and waiting["why"] == "decide" and \
                waiting["side"] == camp.side and not needs_person(camp)  # forced choices only
            if waiting is None or waiting["side"] != camp.side or waiting["why"] not in SIGN_BUTTONS and not alone:
                raise PbemError("nothing to send now", waiting["text"] if waiting else "the game is over",
                                code="not-your-turn")
            camp.mail_outbox = True
            return self._after(camp, camp.play(self._identity, []))

        return self._with(False, work)

    def _after(self, camp: Campaign, result: PlayResult) -> dict[str, Any]:
        if result.envelope is None:  # what the draft does is on the page, under "Your draft"
            return {"ok": True, "signed": False,
                    "lines": [f"{len(result.drafted)} action(s) drafted, not yet signed"]}
        lines = [e["text"] for e in result.events]
        from ..mailbox.mail import write_outbox

        lines.append(f"signed turn file #{result.envelope.seq}: {result.path}")
        messages = write_outbox(camp, result, self._sender())
        camp.exported(result.envelope)
        lines += [f"ready to send: {m}" for m in messages]
        return {"ok": True, "signed": True, "lines": lines}

    def say(self, to: str, text: str) -> dict[str, Any]:
        """``pbem say TEXT`` (``to`` empty) or ``pbem tell TO TEXT``: kept for our next turn file."""
        order = f"tell {to} {text}" if to else f"say {text}"

        def work(camp: Campaign) -> dict[str, Any]:
            said = talk.give(camp, order)
            whom = "everyone who holds the game" if said["to"] is None else f"{said['to']} alone (sealed)"
            return {"ok": True, "lines": [f"your next turn file carries it, for {whom}: {said['text']}"]}

        return self._with(False, work)

    def undo(self) -> dict[str, Any]:
        """``pbem undo``: take back the last drafted action."""
        from ..play.turns import take_back

        def work(camp: Campaign) -> dict[str, Any]:
            taken = take_back(camp)
            if taken is None:
                raise PbemError("nothing to take back", "there is no unsigned draft; a signed turn file stands",
                                code="no-draft")
            return {"ok": True, "lines": [f"took back: {taken}; {len(camp.draft())} drafted action(s) remain"]}

        return self._with(False, work)

    def ingest(self, name: str, data: bytes) -> dict[str, Any]:
        """``pbem ingest FILE`` for a file dropped on the page: all or nothing, the same messages."""
        from ..mailbox.mailbox_in import (
            input_texts,  # read as 'pbem ingest FILE' reads it: the same bound and refusals
        )

        name = re.sub(r"[\x00-\x1f\x7f/\\]", "_", Path(name or "dropped file").name)[:120] or "dropped file"
        texts, mail = input_texts(name, data)

        def work(camp: Campaign) -> dict[str, Any]:
            result = camp.ingest(texts, skip_other_games=mail)
            lines = [f"skipped #{env.seq} from {env.author}: {why}" for env, why in result.skipped]
            lines += [f"accepted #{env.seq} from {env.author} ({env.kind})" for env in result.accepted]
            for env in result.claims:
                body = env.content["body"]
                lines.append(f"recorded a TIMEOUT CLAIM by {env.author} against {body['owed_by']}: envelope "
                             f"#{body['since'] + 1} owed since {body['hours']} h (claimed {body['claimed_at']})")
            if result.accepted:
                waiting = camp.waiting()
                lines.append("The game is over." if waiting is None else "Your move." if waiting["side"] == camp.side
                             else f"Now {camp.worded(waiting['text'])}.")
            return {"ok": True, "lines": lines}

        return self._with(False, work)


def _pinned(camp: Campaign) -> bytes | None:
    from ..chain.history import pinned_key

    return pinned_key(camp.genesis, camp.side)
