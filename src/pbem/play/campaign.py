"""A campaign: one side's copy of one game, in a directory.

    campaign.db      the ledger (envelopes as received + derived tables)
    sent/            every turn file this side wrote
    received/        every turn file this side accepted
    evidence/        second, different envelopes for a sequence number (equivocation)
    secrets/         this side's secrets, mode 0700, files 0600, maybe encrypted: chain.json holds the
                     chain seed (never sent); for hidden pools the private secret (sent when the game
                     ends); for a referee its salt and box key (published when it discloses).
                     draft.json holds the actions chosen but not yet signed (a player may take them
                     back), encrypted when chain.json is
    campaign.lock    taken (flock) by every command that writes here: one writer at a time (pbem.store.lock)

Every change to the ledger goes through ``store``: one transaction, after
every check has passed, so a refused input leaves the database as it was.

Crash safety.  Every file is replaced in one step (``pbem.store.files.atomic_write``) and the
ledger is the point of no return: a turn is written to sent/ (received/) only after the
transaction that stores it, and that transaction also records which files it owes
(setting ``owed-files``; for ``pbem play``, ``owed-outbox``, the mail).  The next command
that opens the campaign for writing writes whatever an interrupted one still owed
(``pbem.play.recovery``), so a kill at any point loses nothing signed.  ``pbem new``/``join``
(``pbem.play.founding``) build the database under a temporary name and rename it into place last:
a campaign.db is always whole.
"""

from __future__ import annotations

import json
import os
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol.core import Game, Prompt

from ..chain import history
from ..errors import PbemError
from ..store import vault
from ..store.files import atomic_write
from ..store.ledger import Ledger, now
from ..store.lock import CampaignLock, crash_point
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block, seal
from ..wire.keys import Identity
from . import chains, clock, founding
from . import messages as talk
from . import results
from .ingest import IngestResult, ingest
from .plays import Ask, PlayResult, turn_file_name
from .recovery import OutboxWriter, Recovered, json_setting, recover

__all__ = ["Ask", "Campaign", "IngestResult", "PlayResult", "Recovered", "locate", "turn_file_name"]

DB_NAME = founding.DB_NAME
DRAFT_NAME = founding.DRAFT_NAME


def locate(path: Path | None) -> tuple[Path, Path]:
    """(campaign directory, database file) for a directory or database path."""
    path = Path(path or ".")
    if path.suffix == ".db" or path.is_file():
        return path.parent, path
    return path, path / DB_NAME


class Campaign:
    def __init__(self, directory: Path, ledger: Ledger, lock: CampaignLock | None = None, *,
                 passphrase: bytes | None = None, building: tuple[Path, Path] | None = None) -> None:
        self.dir = directory
        self.ledger = ledger
        self._genesis: dict[str, Any] | None = None
        self.unlock: Callable[[], bytes | None] | None = None  # asked for the secrets' passphrase
        self._passphrase = passphrase  # once given (unlock, or to pbem new/join), kept for this command
        self._secret_cache: dict[str, Any] | None = None
        self.situation: tuple[dict[str, Any], dict[str, str]] = ({}, {})  # what `play` last showed (state, known)
        self._lock = lock
        if lock is not None:  # a library user that never closes still lets go when the campaign is dropped
            self._release = weakref.finalize(self, lock.release)
        self._building = building  # (temporary database, campaign.db) during new/join (pbem.play.founding)
        self._readonly = False  # opened read-only (Campaign.open): nothing is written from what it reads
        self.mail_outbox = False  # set by `pbem play`: a turn it signs owes its outbox mail too
        self.recovered: Recovered = Recovered()
        self._draft_problem: str | None = None
        self._warned: set[str] = set()
        self.said: list[dict[str, Any]] = []  # messages given with the orders `play` signs (pbem.play.messages)
        if lock is not None:
            self._close_with_command()

    # -- opening and creating -------------------------------------------------
    @classmethod
    def open(cls, path: Path | None, *, readonly: bool = False, outbox: OutboxWriter | None = None) -> Campaign:
        """Open a campaign.  For writing (not ``readonly``) take its lock (waiting a few seconds,
        then ``busy``) and first write whatever an interrupted command still owed (its mail too,
        given ``outbox``: pbem.mailbox.mail.write_outbox_again)."""
        directory, db = locate(path)
        if readonly:
            camp = cls(directory, Ledger.open(db, readonly=True))
            camp._readonly = True
            return camp
        if not db.is_file():
            Ledger.open(db)  # says why: no campaign here
        lock = CampaignLock(directory).acquire()
        try:
            ledger = Ledger.open(db)
        except BaseException:
            lock.release()
            raise
        camp = cls(directory, ledger, lock)
        camp.recovered = recover(camp, outbox)
        return camp

    def close(self) -> None:
        """Close the database and let other commands write (the end of a command does it)."""
        try:
            self.ledger.close()
        finally:
            if self._lock is not None:
                self._release()  # once only, however often close is called
                self._lock = None

    def _close_with_command(self) -> None:
        """Under the command line, the lock ends with the command (even one that failed)."""
        click = sys.modules.get("click")
        ctx = click.get_current_context(silent=True) if click else None
        if ctx is not None:
            ctx.call_on_close(self.close)

    # Creating a game and joining one: pbem.play.founding.
    new = classmethod(founding.new)
    new_refereed = classmethod(founding.new_refereed)
    join = classmethod(founding.join)
    start_new = classmethod(founding.start_new)

    # -- reading --------------------------------------------------------------
    @property
    def side(self) -> str:
        return self.ledger.setting("side") or ""

    @property
    def identity_name(self) -> str:
        return self.ledger.setting("identity") or ""

    @property
    def genesis(self) -> dict[str, Any]:
        if self._genesis is None:
            raw = self.ledger.raw(0)
            if raw is None:
                raise PbemError("the campaign has no genesis", str(self.ledger.path), code="bad-campaign")
            blocks = find_blocks(raw)
            if len(blocks) != 1:
                raise PbemError("the campaign's genesis is damaged", str(self.ledger.path), code="bad-campaign")
            # Read-only (status, report, replay, serve's pages; verify and audit check every envelope
            # themselves), the stored genesis is read as the stored states are, as checked when stored:
            # loading the signature library for it cost a cold report ~15 ms. Writers check it again.
            self._genesis = open_block(blocks[0], signature_checked=self._readonly).content
        return self._genesis

    @property
    def game(self) -> Game:
        return history.game_of(self.genesis)

    @property
    def opponent(self) -> str:
        return next(s for s in self.game.sides if s != self.side)

    def match(self) -> dict[str, Any]:
        return self.ledger.state()[1]

    @property
    def refereed(self) -> bool:
        return self.genesis["body"].get("mode") == "referee"

    def waiting(self) -> dict[str, Any] | None:
        if self.refereed:
            from .refereeing import waiting

            return waiting(self)
        return protocol.waiting_for(self.game, self.match())

    def outcome(self) -> dict[str, Any] | None:
        """The result, as far as this side knows it ({winner, result, reason}), or None."""
        if self.refereed and self.side != "referee":
            from .refereeing import latest_view

            view = latest_view(self)
            return view["outcome"] if view else None
        match = self.match()
        state = (match["full"] if self.refereed else match)["game"]
        result = self.game.outcome(state)
        return None if result is None else {"winner": result.winner, "result": result.result, "reason": result.reason}

    def replay_secrets(self) -> dict[str, Any] | None:
        """What history.apply needs to replay the full state: only a referee has it (or a disclosure)."""
        if not (self.refereed and self.side == "referee"):
            return None
        data = self._secrets()
        return {"referee_salt": bytes.fromhex(data["salt"]), "referee_box": bytes.fromhex(data["box"])}

    # -- ingest ---------------------------------------------------------------
    def ingest(self, texts: list[tuple[str, str]], skip_other_games: bool = False) -> IngestResult:
        """Check and store every envelope in ``texts`` ((source, text) pairs), all or nothing (pbem.play.ingest).

        :raises PbemError: the first problem; nothing is stored.
        """
        return ingest(self, texts, skip_other_games)

    def store(self, applied: list[history.Applied], claims: list[Envelope] = (),
              views: list[tuple[Envelope, str, str]] = (), owed: list[tuple[str, Envelope]] | None = None) -> None:
        """Store in one transaction, with the turn files this change owes (``owed``: (folder,
        envelope) pairs; by default, one envelope of our own owes its sent/ file, as do our
        claims), so that the next command writes them if this one is interrupted."""
        if owed is None:
            own = [a.envelope for a in applied if a.envelope.author == self.side]
            owed = [("sent", e) for e in own if len(applied) == 1] + [("sent", c) for c in claims if c.author == self.side]
        ledger = self.ledger
        ledger.begin()
        try:
            for a in applied:
                e = a.envelope
                ledger.append(e.seq, e.hash, e.author, e.kind, e.raw, now())
                ledger.derive(e.seq, a.state_json, a.state_hash, a.events, a.rolls, a.trail)
            for c in claims:
                ledger.add_claim(c.hash, c.seq, c.author, c.raw, now())
            for v, side, payload in views:
                ledger.add_view(v.hash, v.seq, side, v.raw, payload, now())
            if owed:
                ledger.put_setting("owed-files", json.dumps([[f"{folder}/{turn_file_name(e)}", e.hash]
                                                             for folder, e in owed]))
            talk.index(ledger, [a.envelope for a in applied])  # which envelopes carry messages
            mine = [a.envelope for a in applied if a.envelope.author == self.side and a.envelope.kind == "turn"]
            if self.mail_outbox and len(applied) == 1 and mine:
                ledger.put_setting("owed-outbox", json.dumps([turn_file_name(mine[0]), mine[0].hash]))
            ledger.commit()
        except BaseException:
            ledger.rollback()
            raise
        talk.sent(self, [a.envelope for a in applied])  # what waited went out with our file
        if self._building is not None:
            self.ledger, self._building = founding.finish_create(self.ledger, self._building), None


    def unfinished(self) -> list[str]:
        """Read only: what an interrupted command stored but did not write (our turn files, the mail
        of our last one), which the next writing command writes: so no one waits for a file that
        never went out."""
        owed = json_setting(self.ledger.setting("owed-files"))
        out = [name for name, _ in (owed if isinstance(owed, list) else [])
               if name.startswith("sent/") and not (self.dir / name).exists()]
        mail = json_setting(self.ledger.setting("owed-outbox"))
        if isinstance(mail, list) and len(mail) == 2 and not any(
                folder.is_dir() and any(folder.glob(f"{Path(mail[0]).stem}-*.eml"))
                for folder in (self.dir / "outbox", self.dir / "outbox" / "sent")):
            out.append(f"the mail of sent/{mail[0]}")
        return out

    def archive(self, folder: str, env: Envelope) -> Path:
        """Write ``env`` as a turn file in ``folder`` (sent/, received/) unless it is there; its path.

        :raises PbemError: ``unwritable``, saying whether the ledger already holds it."""
        path = self.dir / folder / turn_file_name(env)
        try:
            path.parent.mkdir(exist_ok=True)
            if not path.exists():
                atomic_write(path, env.raw)
        except OSError as e:
            stored = self._building is None and self.ledger.raw_by_hash(env.hash) is not None
            raise PbemError(f"cannot write {path.name}", f"{path.parent}: {e.strerror or e}" + (
                "; it is stored: the next pbem command (or 'pbem resend') writes it once this is mended"
                if stored else ""), code="unwritable") from None
        return path

    def exported(self, envelope: Envelope) -> None:
        """``pbem play`` wrote the outbox mail of ``envelope``: nothing is owed any more."""
        crash_point("play:outbox")
        owed = json_setting(self.ledger.setting("owed-outbox"))
        if isinstance(owed, list) and owed[-1:] == [envelope.hash]:
            self.ledger.begin()
            self.ledger.delete_setting("owed-outbox")
            self.ledger.commit()

    def resend(self) -> tuple[Envelope, Path, list[Path]]:
        """Write the last turn file this side signed to sent/ again, from the ledger, byte for
        byte (nothing is signed again); with a referee's per-player files if they are there.

        :raises PbemError: this side has signed nothing in the chain yet.
        """
        raw = self.ledger.last_raw_by(self.side)
        if raw is None:
            raise PbemError("you have signed no turn file in this game yet",
                            "a referee game's join is in sent/; nothing else is yours to send", code="nothing-signed")
        envelope = open_block(find_blocks(raw)[0])
        path = self.dir / "sent" / turn_file_name(envelope)
        views = self.player_files(envelope, path)
        path.parent.mkdir(exist_ok=True)
        if not path.exists() or path.read_bytes() != raw.encode():
            atomic_write(path, raw)
        return envelope, path, views

    def player_files(self, envelope: Envelope, sent: Path) -> list[Path]:
        """A referee's turn that sealed views to the players: its per-player files (sent/to-SIDE/).

        :raises PbemError: they are missing (sealed with fresh randomness, they cannot be rebuilt).
        """
        views = sorted(self.dir.glob(f"sent/to-*/{sent.name}"))
        expected = envelope.content["body"].get("views") if self.refereed and self.side == "referee" else None
        if expected and len(views) != len(expected):
            raise PbemError("the players' files of this turn are missing",
                            f"{sent.name}: sent/to-SIDE/ should hold one file per player; the views sealed in them "
                            "cannot be made again", code="views-lost")
        return views

    def notice(self, text: str) -> None:
        """Tell the player, once per command (on stdout: stderr starts with the reason when a command is refused)."""
        if text not in self._warned:
            self._warned.add(text)
            print(text, flush=True)

    # -- acting ---------------------------------------------------------------
    def next_link(self) -> str:
        """The next link of our hash chain (hex), which our next envelope reveals (pbem.play.chains).

        :raises PbemError: ``chain-exhausted``."""
        return chains.next_link(self)

    def chain_secrets(self, keep: dict[str, Any] | None = None) -> dict[str, Any]:
        """Our chain secrets; with ``keep``, replaced by it first (a renewed chain, pbem.play.chains)."""
        if keep is not None:
            vault.write(self.dir / "secrets" / "chain.json", keep, self._unlock() if self._encrypted() else None)
            self._secret_cache = keep
        return self._secrets()

    def _draft_file(self) -> Path | None:
        """Where the draft is: with the secrets; an older pbem kept it in the campaign folder."""
        for path in (self.dir / "secrets" / DRAFT_NAME, self.dir / DRAFT_NAME):
            if path.exists():
                return path
        return None

    def draft(self, ask: bool = True) -> list[dict[str, Any]] | None:
        """The actions drafted after the current head (none if the draft is older).

        A damaged or hostile draft (not JSON, the wrong shape, undecryptable) is never trusted:
        it is ignored with a warning, as if there were none, and set aside as
        ``draft.damaged.json`` by the next command that writes a draft or signs.  With ``ask``
        False, an encrypted draft is not unlocked: None says a draft is kept, unread.
        """
        path = self._draft_file()
        if path is None:
            return []
        if not ask and self._passphrase is None and vault.is_encrypted(path):
            return None
        try:
            data = vault.read(path, self._unlock)
        except PbemError as e:
            if e.code == "no-secrets":  # taken back or signed meanwhile
                return []
            if e.code == "locked":
                raise
            self.draft_is_damaged(e.detail or str(e))
            return []
        problem = vault.draft_problem(data)
        if problem:
            self.draft_is_damaged(f"{path}: {problem}")
            return []
        head = self.ledger.head()
        return list(data["actions"]) if head and data["after"] == head[0] else []

    def draft_is_damaged(self, why: str) -> None:
        """Stop trusting the draft (``why``): warn once; the next write sets it aside."""
        self._draft_problem = why
        self.notice(f"warning: the draft of unsigned actions is damaged and is ignored ({why}); "
                     f"the next 'pbem play' that drafts or signs keeps it aside as "
                     f"{DRAFT_NAME.replace('.json', '.damaged.json')}")

    def save_draft(self, actions: list[dict[str, Any]]) -> None:
        """Keep ``actions`` as the draft after the current head (none: no draft), setting a
        damaged draft aside first."""
        path = self.dir / "secrets" / DRAFT_NAME
        legacy = self.dir / DRAFT_NAME
        if self._draft_problem is not None:  # keep what was there, out of the way
            damaged = self._draft_file()
            if damaged is not None:
                os.replace(damaged, damaged.with_name(DRAFT_NAME.replace(".json", ".damaged.json")))
            self._draft_problem = None
        if actions:
            vault.write(path, {"after": self.ledger.head()[0], "actions": actions},  # type: ignore[index]
                        self._unlock() if self._encrypted() else None)
        elif path.exists():
            path.unlink()
        if legacy.exists():
            legacy.unlink()

    def take_back(self) -> dict[str, Any] | None:
        """Drop the last drafted (unsigned) action; returns it, or None if there is none."""
        actions = self.draft()
        if not actions:
            return None
        last = actions.pop()
        self.save_draft(actions)
        return last

    def _unlock(self) -> bytes | None:
        """The secrets' passphrase, asked once per command."""
        if self._passphrase is None and self.unlock is not None:
            self._passphrase = self.unlock()
        return self._passphrase

    def _encrypted(self) -> bool:
        return vault.is_encrypted(self.dir / "secrets" / "chain.json")

    def secrets_readable(self) -> bool:
        """Whether our secrets open without asking (not encrypted, or unlocked already)."""
        return self._passphrase is not None or not self._encrypted()

    def _secrets(self) -> dict[str, Any]:
        if self._secret_cache is None:
            path = self.dir / "secrets" / "chain.json"
            data = vault.read(path, self._unlock)
            problem = vault.secrets_problem(data, self.ledger.setting("game"), self.side)
            if problem:
                raise PbemError("this campaign's secrets are damaged", f"{path}: {problem}; restore the file from "
                                "a backup", code="bad-secrets")
            self._secret_cache = data
        return self._secret_cache

    def private_secret(self) -> str | None:
        """Our private secret (hex) for a game with hidden pools, else None: only we hold it, and
        our last file opens it to the opponent."""
        return self._secrets().get("private")

    def chosen_items(self) -> dict[str, str]:
        """The items we hid by choice ({token: item}), opened with our private secret at the end."""
        return dict(self._secrets().get("chosen") or {})

    def box_secret(self) -> bytes:
        """Our box key in a refereed game: it opens what is sealed to us (views; orders, for the referee)."""
        return bytes.fromhex(self._secrets()["box"])

    def referee_disclosure(self) -> dict[str, str]:
        """What the referee publishes at the end (hex): its salt and box key."""
        data = self._secrets()
        return {"salt": data["salt"], "box": data["box"]}

    def _build(self) -> dict[str, Any]:
        """Build mode for pbem_engine.protocol.match.advance: our private secret, if the game has hidden pools."""
        data = self._secrets()
        hidden = data.get("private")
        return {"secret": bytes.fromhex(hidden), "chosen": dict(data.get("chosen", {}))} if hidden else {}

    def remember_chosen(self, chosen: list[tuple[str, str]]) -> None:
        """Keep the items we hid by choice: only we know them, and we open them at the end."""
        data = dict(self._secrets())
        data["chosen"] = {**data.get("chosen", {}), **dict(chosen)}
        vault.write(self.dir / "secrets" / "chain.json", data, self._unlock() if self._encrypted() else None)
        self._secret_cache = data

    def preview(self, actions: list[dict[str, Any]], reveal: str) -> tuple[dict[str, Any], list, list]:
        """The match, events and rolls if this side signed ``actions`` now."""
        match = self.match()
        if not actions and not match["pending"] and not self.owes_deck(match):
            return match, [], []
        head = self.ledger.head()
        assert head is not None
        build = self._build()
        result = protocol.advance(self.game, match, head[0] + 1, self.side, {"reveal": reveal, "actions": actions},
                                  build)
        self._draft_chosen = dict(build.get("chosen_out", []))  # what the draft hides: ours to name
        return result

    def owes_deck(self, match: dict[str, Any] | None = None) -> bool:
        """Whether our next turn file carries deck messages we owe (a shuffle step, keys)."""
        match = match or self.match()
        if "decks" not in match or self.game.outcome(match["game"]) is not None:
            return False
        from pbem_engine.hidden.deck_table import owed

        return bool(owed(match["decks"], self.side))

    def waits_for_deck(self, match: dict[str, Any]) -> bool:
        """Whether the other side owes deck messages (our draw waits for its keys, our shuffle for its step)."""
        if "decks" not in match or self.game.outcome(match["game"]) is not None:
            return False
        from pbem_engine.hidden.deck_table import owed

        return bool(owed(match["decks"], self.opponent))

    def knowledge(self, match: dict[str, Any] | None = None) -> dict[str, str]:
        """Every hidden token this side may name: its own, and what is public (a referee: all)."""
        from ..chain.hidden import public_knowledge, referee_knowledge

        match = match or self.match()
        if self.refereed and self.side == "referee":
            return referee_knowledge(self.genesis["game"], match.get("full", match))
        return {**public_knowledge(self.genesis["game"], match), **self.known_items(match)}

    def worded(self, text: str, own: bool = True) -> str:
        """A text of the rules (another side's prompt, say) as this side reads it: the hidden items
        it names by name where public or, with ``own``, ours (secrets readable without asking),
        the rest concealed; never as token markup.  ``own=False`` for a text sent to another side."""
        from ..chain.hidden import TOKEN, public_knowledge, show

        if not TOKEN.search(text):
            return text
        match = self.match()
        if own and (self.side == "referee" or self.secrets_readable()):
            known = self.knowledge(match)  # ours and the public items
        else:
            known = public_knowledge(self.genesis["game"], match) if not self.refereed else {}
        return show(text, known, self.game)

    def known_items(self, match: dict[str, Any] | None = None) -> dict[str, str]:
        """What our hidden tokens are (only our own tool can know)."""
        hidden = self._secrets().get("private")
        match = match or self.match()
        record = match.get("private", {}).get(self.side)
        if not hidden or not record:
            return {}
        from pbem_engine.hidden.private import simulate

        chosen = {**self._secrets().get("chosen", {}), **getattr(self, "_draft_chosen", {})}
        _, known = simulate(self.genesis["game"], self.side, record, bytes.fromhex(hidden), chosen)
        out = {tok: opening["item"] for tok, opening in known.items()}
        if "decks" in match:  # the dealt cards we can read: our hand, cards shown to us, cards face up
            from pbem_engine.hidden.deck_table import known as dealt_known

            out.update(dealt_known(match["decks"], self.side, bytes.fromhex(hidden)))
        return out

    def shown_prompt(self) -> Prompt | None:
        """The decision as `play` offers it, after our draft (pbem.play.turns; a refereed game's player:
        pbem.play.referee_orders, None when no decision of ours is pending)."""
        if self.refereed:
            from .referee_orders import shown_decision

            return shown_decision(self)[0]
        from .turns import shown_prompt

        return shown_prompt(self)

    def play(self, identity: Identity, orders: list[str], ask: Ask | None = None) -> PlayResult:
        """Choose actions (from ``orders``, then ``ask``) until the decision passes, then sign
        (pbem.play.turns; in a refereed game pbem.play.refereeing).  Stops and keeps a draft when orders
        run out while the decision is ours.

        :raises PbemError: not our turn, an order that is not a legal choice.
        """
        self.said, orders, ask = talk.listen(self, orders, ask)  # messages ride beside the orders, never one
        if self.refereed:
            from .refereeing import play as flow
        else:
            from .turns import play as flow
        # only drafted: the messages wait; a file that ends the game: our signature of its result
        return results.signed_at_end(self, identity, talk.drafted(self, flow(self, identity, orders, ask)))

    def secrets_key(self) -> bytes | None:
        """The secrets' passphrase (asked once) if they are encrypted: for what is kept beside them."""
        return self._unlock() if self._encrypted() else None

    # What we owe now, checking the identity and that it is our turn (pbem.play.clock).
    check_turn = clock.check_turn

    def sign_turn(self, identity: Identity, body: dict[str, Any]) -> Envelope:
        """Sign our next turn with ``body`` ({reveal, actions, ...}) and store it (not yet written
        to sent/: ``archive`` does that).  Our private draws, deck messages and the tokens of what
        we hide are added to the body from our secret; the items we hid are remembered first."""
        head = self.ledger.head()
        assert head is not None
        game = self.game
        body = talk.attach(self, body, head[0] + 1)
        body = chains.renewed(self, body)  # a new chain's anchor, when ours runs low
        build = self._build()
        chosen: list[tuple[str, str]] = []
        if build:  # our private draws and openings go in the body, computed from our secret
            protocol.advance(game, self.match(), head[0] + 1, self.side, body, build)
            if build.get("private"):
                body = dict(body, private=build["private"])
            if build.get("decks"):  # our shuffle steps, keys and plays of dealt decks (pbem_engine.hidden.deck_table)
                body = dict(body, decks=build["decks"])
            chosen = build.get("chosen_out", [])
        if chosen or protocol.has_hidden(body.get("actions", [])):
            # the signed actions carry the tokens of what we hid, never the items; an item marked
            # hidden that no rule committed (no token for it) is refused, not signed in the clear
            try:
                body = dict(body, actions=protocol.swap_hidden(body["actions"], [tok for tok, _ in chosen]))
            except protocol.ProtocolError as e:
                raise PbemError("a hidden choice was not committed", str(e), code=e.code) from None
        content = {"v": 1, "game": self.genesis["game"], "seq": head[0] + 1, "prev": head[1], "author": self.side,
                   "kind": "turn", "engine": history.engine_stamp(game), "body": body, "state": ""}
        content["state"] = history.state_after(self.match(), self.genesis, content, head)
        envelope = seal(identity, content)
        if chosen:  # before the turn is stored: what we hid is never signed without our record of it
            self.remember_chosen(chosen)
        crash_point("sign:before-store")
        self.store([history.apply(envelope, self.genesis, self.match(), head)])
        return envelope
