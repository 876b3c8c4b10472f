"""The campaign database: one SQLite file, append-only envelopes plus derived tables.

``envelopes`` holds every accepted envelope exactly as received (the armored
block) with its hash; it is the source of truth of the game.  ``claims`` and
``views`` hold signed documents received beside the chain (timeout claims; a
referee game's views and joins), also as received.  ``states``, ``rolls``
and ``events`` are derived from it by replay and can be rebuilt at any time
(``pbem rebuild``).  ``settings`` holds this copy's local facts (which side
we play, with which identity); it is not part of the shared history.

The schema is created and upgraded by sqlite-utils migrations.  The hot path
(one ingest) uses the stdlib connection directly so that a cold ``pbem
ingest`` does not pay for importing more than it needs.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pbem_engine.protocol import trail

from ..errors import LedgerError

MIGRATIONS = ("m001_initial", "m002_roll_inputs", "m003_claims", "m004_views", "m005_trail")


def _migrations():  # imported lazily: sqlite_utils costs ~50 ms to import
    import sqlite_utils

    migrations = sqlite_utils.Migrations("pbem")

    @migrations()
    def m001_initial(db: sqlite_utils.Database) -> None:
        db["envelopes"].create({"seq": int, "hash": str, "author": str, "kind": str, "raw": str,
                                "received_at": str}, pk="seq", not_null={"hash", "author", "kind", "raw"})
        db["envelopes"].create_index(["hash"], unique=True)
        db["states"].create({"seq": int, "hash": str, "state": str}, pk="seq")
        db["rolls"].create({"seq": int, "n": int, "purpose": str, "spec": str, "dice": str, "result": str,
                            "declared_in": int, "mode": str, "scripted": int}, pk=("seq", "n"))
        db["events"].create({"seq": int, "n": int, "text": str, "audience": str}, pk=("seq", "n"))
        db["settings"].create({"key": str, "value": str}, pk="key")

    @migrations()
    def m002_roll_inputs(db: sqlite_utils.Database) -> None:
        # what each roll was seeded from, for `pbem audit`
        for column in ("actor", "links", "declarations", "seed"):
            db["rolls"].add_column(column, str)

    @migrations()
    def m003_claims(db: sqlite_utils.Database) -> None:
        # signed timeout claims: evidence beside the chain, never part of it
        db["claims"].create({"hash": str, "seq": int, "author": str, "raw": str, "received_at": str}, pk="hash")

    @migrations()
    def m004_views(db: sqlite_utils.Database) -> None:
        # referee games: each player's own views (signed by the referee, sealed to the player),
        # and the joins a referee holds until it starts the game
        db["views"].create({"hash": str, "seq": int, "side": str, "raw": str, "payload": str, "received_at": str},
                           pk="hash")

    @migrations()
    def m005_trail(db: sqlite_utils.Database) -> None:
        # protocol 3: the private log entries and deck messages each envelope added, kept beside
        # its state, which holds only their running digests (pbem_engine.protocol.trail); a table
        # of their own, so that reading them never walks the states' pages
        db["trails"].create({"seq": int, "added": str}, pk="seq")

    return migrations


ROLL_COLUMNS = "seq, n, purpose, spec, dice, result, declared_in, mode, scripted, actor, links, declarations, seed"


def _dumps() -> Callable[[Any], str]:
    """``json.dumps`` with its defaults, as the derived columns hold it: the C encoder that
    json.dumps itself uses, made once instead of per call (3-4 per envelope in verify)."""
    from json.encoder import JSONEncoder, c_make_encoder, encode_basestring_ascii

    if c_make_encoder is None:  # pragma: no cover - a Python without the _json accelerator
        return json.dumps
    default = JSONEncoder().default
    try:  # no markers dict shared between calls (and threads): these values are fresh lists and dicts
        encode = c_make_encoder(None, default, encode_basestring_ascii, None, ": ", ", ", False, False, True)
        if "".join(encode([1, None, {"a": "é"}], 0)) != json.dumps([1, None, {"a": "é"}]):
            return json.dumps  # pragma: no cover - another Python's internals
    except TypeError:  # pragma: no cover - another signature in another Python
        return json.dumps
    return lambda value: "".join(encode(value, 0))


dumps = _dumps()


def now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


class Ledger:
    """One campaign database."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    # -- opening --------------------------------------------------------------
    @classmethod
    def create(cls, path: Path) -> Ledger:
        if path.exists():
            raise LedgerError("a campaign database already exists here", str(path), code="exists")
        path.parent.mkdir(parents=True, exist_ok=True)
        ledger = cls(sqlite3.connect(path, isolation_level=None), path)
        ledger.migrate()
        return ledger

    @staticmethod
    def unfinished(path: Path) -> bool:
        """An empty database, or one with no envelope: what an interrupted create of an older
        pbem could leave (today's builds it under another name and renames it whole)."""
        if path.stat().st_size == 0:
            return True
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
                return "envelopes" not in tables or conn.execute("select 1 from envelopes limit 1").fetchone() is None
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            return False  # not ours to set aside: refuse to overwrite it

    @classmethod
    def open(cls, path: Path, *, readonly: bool = False) -> Ledger:
        if not path.is_file():
            raise LedgerError("no campaign database", f"{path} does not exist; create a game with 'pbem new' or 'pbem join'", code="no-campaign")
        if path.stat().st_size == 0:
            raise LedgerError("an unfinished campaign", f"{path} is empty: an interrupted 'pbem new' or 'pbem join' "
                              "left it; run that command again", code="no-campaign")
        journal = path.with_name(path.name + "-journal")
        if readonly and journal.exists():
            cls._roll_back(path)
        uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None)
            tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
        except sqlite3.DatabaseError as e:
            if readonly and journal.exists():
                raise LedgerError("an interrupted write is not rolled back yet", f"{path}: only a command that may "
                                  f"write here can roll back its {journal.name} ({e})", code="unwritable") from None
            raise LedgerError("not a campaign database", f"{path}: {e}", code="bad-campaign") from None
        if "envelopes" not in tables:
            raise LedgerError("not a campaign database", f"{path} has no envelopes table", code="bad-campaign")
        ledger = cls(conn, path)
        if ledger._pending_migrations():
            if readonly:
                raise LedgerError("the campaign database is from an older pbem",
                                  f"{path}: upgrade it with 'pbem rebuild --campaign {path.parent}' (this keeps every "
                                  "envelope and re-derives the rest)", code="old-schema")
            ledger.migrate()
        return ledger

    @staticmethod
    def _roll_back(path: Path) -> None:
        """A write killed mid-transaction leaves a hot journal, which SQLite rolls back on the first
        read of a connection that may write, never of a read-only one.  Read once that way, under
        the campaign lock (no pbem writer at work), so that status, report and verify see the
        campaign as it was before the killed write.  A journal that is not hot is left alone."""
        from ..errors import PbemError
        from .lock import CampaignLock

        try:
            lock = CampaignLock(path.parent).acquire()
        except PbemError:
            return  # busy or not writable: the read-only open says so if the journal is hot
        try:
            conn = sqlite3.connect(path, isolation_level=None)
            try:
                conn.execute("select count(*) from sqlite_master").fetchone()
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            pass  # the read-only open says what is wrong
        finally:
            lock.release()

    def _pending_migrations(self) -> bool:
        try:
            rows = self.conn.execute("select name from _sqlite_migrations where migration_set = 'pbem'").fetchall()
        except sqlite3.OperationalError:
            return True
        return not set(MIGRATIONS) <= {r[0] for r in rows}

    def migrate(self) -> None:
        import sqlite_utils

        _migrations().apply(sqlite_utils.Database(self.conn))

    def close(self) -> None:
        self.conn.close()

    # -- reading --------------------------------------------------------------
    def setting(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("select value from settings where key = ?", (key,)).fetchone()
        return row[0] if row else default

    def head(self) -> tuple[int, str] | None:
        row = self.conn.execute("select seq, hash from envelopes order by seq desc limit 1").fetchone()
        return (row[0], row[1]) if row else None

    def _text(self, row: tuple | None, what: str) -> str | None:
        """A stored document's text; one stored as another type (a BLOB) is a damaged store."""
        if row is None or isinstance(row[0], str):
            return row[0] if row else None
        raise LedgerError("the campaign database is damaged", f"{self.path}: {what} is stored as "
                          f"{type(row[0]).__name__}, not text (restore the campaign from a copy)", code="bad-campaign")

    def raw(self, seq: int) -> str | None:
        return self._text(self.conn.execute("select raw from envelopes where seq = ?", (seq,)).fetchone(),
                          f"entry #{seq}")

    def envelope_index(self, seq: int) -> tuple[str, str] | None:
        """(hash, author) of the stored envelope ``seq``."""
        row = self.conn.execute("select hash, author from envelopes where seq = ?", (seq,)).fetchone()
        return (row[0], row[1]) if row else None

    def envelopes(self) -> Iterator[tuple[int, str, str, str, str, str]]:
        """(seq, hash, author, kind, raw, received_at) in sequence order."""
        yield from self.conn.execute("select seq, hash, author, kind, raw, received_at from envelopes order by seq")

    def last_of(self, author: str, upto: int) -> int | None:
        """The number of ``author``'s last envelope at or before ``upto`` (the primary key, read
        newest first: no envelope's text is read)."""
        row = self.conn.execute("select seq from envelopes where author = ? and seq <= ? order by seq desc limit 1",
                                (author, upto)).fetchone()
        return row[0] if row else None

    def headers(self, since: int, upto: int) -> list[tuple[int, str, str, str]]:
        """(seq, author, kind, received_at) of the envelopes after ``since`` up to ``upto``, in
        order, without their text."""
        return list(self.conn.execute("select seq, author, kind, received_at from envelopes where seq > ? and seq <= ? "
                                      "order by seq", (since, upto)))

    def state(self, seq: int | None = None) -> tuple[int, dict[str, Any]]:
        if seq is None:
            row = self.conn.execute("select seq, state from states order by seq desc limit 1").fetchone()
        else:
            row = self.conn.execute("select seq, state from states where seq = ?", (seq,)).fetchone()
        if not row:
            raise LedgerError("no state recorded", "run 'pbem rebuild' to derive it from the envelopes", code="no-state")
        try:
            match = json.loads(row[1])
            if trail.kept_beside(match):  # protocol 3: the logs are stored by envelope, beside the states
                added = self.conn.execute("select seq, added from trails where seq <= ? order by seq", (row[0],))
                match = trail.with_logs(match, [(r[0], json.loads(r[1])) for r in added])
        except (ValueError, TypeError, AttributeError, KeyError, IndexError):  # a row edited or damaged on disk
            raise LedgerError("a stored state is damaged", f"the state after entry #{row[0]} or the logs kept "
                              "beside it cannot be read; run 'pbem rebuild' to derive them again from the envelopes",
                              code="bad-state") from None
        return row[0], match

    def rolls(self, since: int = -1) -> list[dict[str, Any]]:
        cur = self.conn.execute(f"select {ROLL_COLUMNS} from rolls where seq > ? order by seq, n", (since,))
        return [{"seq": r[0], "n": r[1], "purpose": r[2], "spec": r[3], "values": json.loads(r[4]),
                 "result": json.loads(r[5]), "declared_in": r[6], "mode": r[7], "scripted": bool(r[8]),
                 "actor": r[9], "links": json.loads(r[10] or "null"), "declarations": r[11], "seed": r[12]}
                for r in cur]

    def events(self, since: int = -1) -> list[dict[str, Any]]:
        cur = self.conn.execute("select seq, n, text, audience from events where seq > ? order by seq, n", (since,))
        return [{"seq": r[0], "n": r[1], "text": r[2], "to": json.loads(r[3])} for r in cur]

    def claims(self) -> list[tuple[str, int, str, str, str]]:
        """(hash, seq, author, raw, received_at) of every recorded timeout claim."""
        return list(self.conn.execute("select hash, seq, author, raw, received_at from claims order by rowid"))

    def add_claim(self, digest: str, seq: int, author: str, raw: str, received_at: str) -> None:
        self.conn.execute("insert into claims (hash, seq, author, raw, received_at) values (?, ?, ?, ?, ?)",
                          (digest, seq, author, raw, received_at))

    # -- take-backs (pbem.play.takeback) ------------------------------------------
    # The table is made by the first take-back, in its own transaction: a campaign that never took
    # one back keeps its schema, and an older copy opened read-only (status, verify) still opens.
    ABANDONED = ("create table if not exists abandoned (hash text primary key, seq integer not null, "
                 "author text not null, kind text not null, raw text not null, fork integer not null, "
                 "received_at text)")

    def abandoned(self) -> list[tuple[str, int, str, str, str, int]]:
        """(hash, seq, author, kind, raw, fork) of every envelope (or timeout claim) a take-back
        abandoned, ``fork`` the number of the envelope that took it back."""
        try:
            return list(self.conn.execute("select hash, seq, author, kind, raw, fork from abandoned order by fork, seq"))
        except sqlite3.OperationalError:  # no take-back yet: no table
            return []

    def forks(self) -> list[str]:
        """The raw text of every take-back (``fork``) envelope in the chain (a scan of the chain:
        asked only of an envelope that does not follow it)."""
        return [raw for (raw,) in self.conn.execute("select raw from envelopes where kind = 'fork' order by seq")]

    def abandon(self, after: int, fork: int, claims: list[str]) -> int:
        """Inside a transaction: move the envelopes after ``after`` (and the timeout claims
        ``claims``, by hash) to ``abandoned``, and drop their derived rows and the views the referee
        sealed in them (a player's view is then the one of ``after`` or before).  How many moved."""
        c = self.conn
        c.execute(self.ABANDONED)
        c.execute("insert into abandoned (hash, seq, author, kind, raw, fork, received_at) select hash, seq, author, "
                  "kind, raw, ?, received_at from envelopes where seq > ?", (fork, after))
        moved = c.execute("delete from envelopes where seq > ?", (after,)).rowcount
        for digest in claims:
            c.execute("insert into abandoned (hash, seq, author, kind, raw, fork, received_at) select hash, seq, "
                      "author, 'claim', raw, ?, received_at from claims where hash = ?", (fork, digest))
            c.execute("delete from claims where hash = ?", (digest,))
        for table in ("states", "events", "rolls", "trails", "views"):  # a refereed game's views of the abandoned go too
            c.execute(f"delete from {table} where seq > ?", (after,))
        return moved

    def state_hash_at(self, seq: int) -> str | None:
        row = self.conn.execute("select hash from states where seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def add_view(self, digest: str, seq: int, side: str, raw: str, payload: str, received_at: str) -> None:
        self.conn.execute("insert or ignore into views (hash, seq, side, raw, payload, received_at) "
                          "values (?, ?, ?, ?, ?, ?)", (digest, seq, side, raw, payload, received_at))

    def views(self, side: str | None = None) -> list[tuple[str, int, str, str, str]]:
        """(hash, seq, side, raw, payload) in order."""
        if side is None:
            return list(self.conn.execute("select hash, seq, side, raw, payload from views order by seq, side"))
        return list(self.conn.execute("select hash, seq, side, raw, payload from views where side = ? "
                                      "order by seq", (side,)))

    def raw_by_hash(self, digest: str) -> str | None:
        """An envelope or a timeout claim, as received, by its hash."""
        for table in ("envelopes", "claims"):
            row = self.conn.execute(f"select raw from {table} where hash = ?", (digest,)).fetchone()
            if row:
                return self._text(row, f"the {table[:-1]} {digest[:16]}")
        return None

    def last_raw_by(self, author: str) -> str | None:
        row = self.conn.execute("select raw from envelopes where author = ? order by seq desc limit 1",
                                (author,)).fetchone()
        return self._text(row, f"{author}'s last entry")

    def received_at(self, seq: int) -> str | None:
        row = self.conn.execute("select received_at from envelopes where seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    # -- writing --------------------------------------------------------------
    def begin(self) -> None:
        self.conn.execute("begin immediate")

    def commit(self) -> None:
        self.conn.execute("commit")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("rollback")

    def put_setting(self, key: str, value: str) -> None:
        self.conn.execute("insert or replace into settings (key, value) values (?, ?)", (key, value))

    def delete_setting(self, key: str) -> None:
        self.conn.execute("delete from settings where key = ?", (key,))

    def append(self, seq: int, digest: str, author: str, kind: str, raw: str, received_at: str) -> None:
        self.conn.execute("insert into envelopes (seq, hash, author, kind, raw, received_at) values (?, ?, ?, ?, ?, ?)",
                          (seq, digest, author, kind, raw, received_at))

    @staticmethod
    def derived_rows(seq: int, state_json: bytes, digest: str, events: list[dict[str, Any]],
                     rolls: list[dict[str, Any]]) -> tuple[tuple, list[tuple], list[tuple]]:
        """The rows of the derived tables for envelope ``seq``, as stored."""
        return (seq, digest, state_json.decode()), *Ledger.event_roll_rows(seq, events, rolls)

    @staticmethod
    def event_roll_rows(seq: int, events: list[dict[str, Any]],
                        rolls: list[dict[str, Any]]) -> tuple[list[tuple], list[tuple]]:
        """The rows of the ``events`` and ``rolls`` tables for envelope ``seq``, as stored."""
        event_rows = [(seq, n, e["text"], dumps(e.get("to"))) for n, e in enumerate(events)]
        roll_rows = [(seq, n, r["purpose"], r["spec"], dumps(r["values"]), dumps(r.get("result")),
                      r.get("declared_in"), r.get("mode"), int(bool(r.get("scripted"))), r.get("actor"),
                      dumps(r.get("links")), r.get("declarations"), r.get("seed")) for n, r in enumerate(rolls)]
        return event_rows, roll_rows

    @staticmethod
    def state_row_read(seq: int, state_json: bytes, digest: str) -> tuple:
        """The ``states`` row of envelope ``seq`` as ``derived_cursors`` reads it: the state's
        UTF-8 bytes and the column's type, so that no state (tens of kB) is decoded to compare it."""
        return seq, digest, state_json, "text"

    @staticmethod
    def trail_rows(seq: int, added: bytes | None) -> list[tuple]:
        """The ``trails`` row of envelope ``seq`` (what it added to the logs kept beside the
        states, protocol 3), as ``derived_cursors`` reads it: none where it added nothing."""
        return [] if added is None else [(seq, added)]

    def stored_derived(self) -> tuple[dict[int, tuple], dict[int, list[tuple]], dict[int, list[tuple]]]:
        """Every derived row, grouped by envelope, in the form ``derived_rows`` gives."""
        states = {r[0]: tuple(r) for r in self.conn.execute("select seq, hash, state from states")}
        events: dict[int, list[tuple]] = {}
        for r in self.conn.execute("select seq, n, text, audience from events order by seq, n"):
            events.setdefault(r[0], []).append(tuple(r))
        rolls: dict[int, list[tuple]] = {}
        for r in self.conn.execute(f"select {ROLL_COLUMNS} from rolls order by seq, n"):
            rolls.setdefault(r[0], []).append(tuple(r))
        return states, events, rolls

    def derived_cursors(self) -> tuple[Iterator[tuple], ...]:
        """The rows of ``states`` in the form ``state_row_read`` gives, of ``events`` and ``rolls``
        in the form ``event_roll_rows`` gives, and of ``trails`` as ``trail_rows``, each table in
        envelope order: read in step with ``envelopes()``, not held all at once."""
        return (self.conn.execute("select seq, hash, cast(state as blob), typeof(state) from states order by seq"),
                self.conn.execute("select seq, n, text, audience from events order by seq, n"),
                self.conn.execute(f"select {ROLL_COLUMNS} from rolls order by seq, n"),
                self.conn.execute("select seq, cast(added as blob) from trails order by seq"))

    def derive(self, seq: int, state_json: bytes, digest: str, events: list[dict[str, Any]],
               rolls: list[dict[str, Any]], added: bytes | None = None) -> None:
        """Write the derived rows of envelope ``seq`` (replacing any)."""
        c = self.conn
        state, event_rows, roll_rows = self.derived_rows(seq, state_json, digest, events, rolls)
        c.execute("insert or replace into states (seq, hash, state) values (?, ?, ?)", state)
        c.execute("delete from events where seq = ?", (seq,))
        c.execute("delete from rolls where seq = ?", (seq,))
        c.execute("delete from trails where seq = ?", (seq,))
        c.executemany("insert into trails (seq, added) values (?, ?)",
                      [(s, a.decode()) for s, a in self.trail_rows(seq, added)])
        c.executemany("insert into events (seq, n, text, audience) values (?, ?, ?, ?)", event_rows)
        c.executemany(f"insert into rolls ({ROLL_COLUMNS}) values ({', '.join('?' * 13)})", roll_rows)

    def clear_derived(self) -> None:
        for table in ("states", "events", "rolls", "trails"):
            self.conn.execute(f"delete from {table}")
