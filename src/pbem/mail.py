"""E-mail: ready-to-send messages, SMTP, IMAP, and a referee's mailbox run.

After a side acts, ``write_outbox`` puts a message in the campaign's
``outbox/``: addressed to the opponent (or, for a referee, one to each player
with that player's own file), the report as the body, the turn file inline
and attached.  ``send`` delivers the outbox by SMTP; ``fetch`` ingests new
messages from an IMAP folder (or a Maildir); ``run`` does both for a referee,
adjudicating in between, and answers a malformed message politely.  Passwords
come from the environment or a prompt and are never written anywhere.  Mail
coming in is hostile: see the mailbox promise below, and ``pbem.limits``.

Server settings live in ``<home>/mail.toml``; addresses, per campaign, in its
settings (``pbem mail address``).
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path

from . import limits
from .errors import PbemError
from .files import atomic_write

SECURITY = ("ssl", "starttls", "none")
CONFIG = "mail.toml"


@dataclass
class Server:
    host: str
    port: int
    security: str = "starttls"
    user: str = ""
    cafile: str = ""  # a CA certificate to trust besides the system's (a self-hosted server)

    def tls(self):
        import ssl

        return ssl.create_default_context(cafile=self.cafile or None)


@dataclass
class MailConfig:
    smtp: Server | None = None
    imap: Server | None = None
    sender: str = ""
    folder: str = "INBOX"


def load_config(home: Path) -> MailConfig:
    path = home / CONFIG
    if not path.exists():
        return MailConfig()
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise PbemError("the mail settings cannot be read", f"{path}: {e}", code="bad-config") from None
    servers = {}
    for kind in ("smtp", "imap"):
        entry = data.get(kind)
        if entry:
            if entry.get("security", "starttls") not in SECURITY or not isinstance(entry.get("port"), int):
                raise PbemError("the mail settings are wrong", f"{path} [{kind}]: security must be one of "
                                f"{', '.join(SECURITY)} and port a number", code="bad-config")
            servers[kind] = Server(str(entry["host"]), entry["port"], entry.get("security", "starttls"),
                                   str(entry.get("user", "")), str(entry.get("cafile", "")))
    return MailConfig(servers.get("smtp"), servers.get("imap"), str(data.get("from", "")),
                      str(data.get("folder", "INBOX")))


def save_config(home: Path, config: MailConfig) -> Path:
    """Write the settings (never a password)."""
    lines = []
    if config.sender:
        lines.append(f"from = {json.dumps(config.sender)}")
    lines.append(f"folder = {json.dumps(config.folder)}")
    for kind, server in (("smtp", config.smtp), ("imap", config.imap)):
        if server:
            lines += ["", f"[{kind}]", f"host = {json.dumps(server.host)}", f"port = {server.port}",
                      f"security = {json.dumps(server.security)}", f"user = {json.dumps(server.user)}"]
            if server.cafile:
                lines.append(f"cafile = {json.dumps(server.cafile)}")
    home.mkdir(parents=True, exist_ok=True)
    return atomic_write(home / CONFIG, "\n".join(lines) + "\n")


# --- addresses -------------------------------------------------------------------

PLACEHOLDER = "pbem.invalid"  # the domain of an address not known yet: such mail waits in the outbox


def address(campaign, side: str) -> str:
    return campaign.ledger.setting(f"email:{side}") or ""


def _parties(campaign) -> set[str]:
    return set(campaign.game.sides) | ({"referee"} if campaign.refereed else set())


def set_address(campaign, side: str, value: str) -> None:
    known = _parties(campaign)
    if side not in known:
        raise PbemError(f"no side '{side}' in this game", f"sides: {', '.join(sorted(known))}", code="bad-side")
    if "@" not in value or any(c in value for c in "\r\n"):
        raise PbemError(f"'{value}' is not an e-mail address", code="bad-address")
    campaign.ledger.begin()
    campaign.ledger.put_setting(f"email:{side}", value)
    campaign.ledger.commit()


def _known_senders(campaign) -> dict[str, str]:
    """address (lower case) -> side, for every party of the game but ourselves."""
    out = {}
    for side in _parties(campaign) - {campaign.side}:
        value = address(campaign, side)
        if value:
            out[_bare(value).lower()] = side
    return out


def _bare(value: str) -> str:
    """The address in "Name <a@b>" or "a@b"."""
    from email.utils import parseaddr

    return parseaddr(value)[1] or value.strip()


# --- composing ------------------------------------------------------------------

def tag(campaign) -> str:
    """What every subject of this game starts with: ``[hill60 3f2a9c1e]``."""
    return f"[{campaign.game.name} {campaign.genesis['game'][:8]}]"


def thread_root(game_id: str) -> str:
    """The message id every mail of a game refers to (References): mail programs keep one
    thread per game, and a reply names its game even when it carries no turn file."""
    return f"<pbem-{game_id}@{PLACEHOLDER}>"


def _message_id(game_id: str, sender: str) -> str:
    import re
    from email.utils import make_msgid

    domain = _bare(sender).rpartition("@")[2]
    if not re.fullmatch(r"[A-Za-z0-9.-]{1,200}", domain or ""):
        domain = PLACEHOLDER
    return make_msgid(idstring=f"pbem-{game_id[:16]}", domain=domain)


def _short(text: str, width: int = 90) -> str:
    """The first sentence of a prompt, on one line: "Turn 3 of 8, Allied player: 2 operations left"."""
    text = " ".join(str(text).split())
    first = text.split(". ")[0].rstrip(".")
    return first if len(first) <= width else first[:width - 3].rstrip() + "..."


def _status(campaign, envelope, to_side: str) -> str:
    """What the mail asks of ``to_side``, for its subject (two-player games and the common kinds)."""
    body = envelope.content["body"]
    if envelope.kind == "genesis":
        return f"invitation to {campaign.game.title}: you play {to_side}"
    if campaign.refereed:
        if envelope.kind == "join":
            return f"{envelope.author} joins the game"
        if envelope.author == "referee" and "disclose" in body:
            return "game over: the referee discloses the game"
        if envelope.author != "referee":
            return f"orders from {envelope.author} (turn file #{envelope.seq})"
        return f"turn file #{envelope.seq} from the referee"
    head = campaign.ledger.head()
    if head is None or head[0] != envelope.seq:  # an older file sent again: its number, not today's question
        return f"turn file #{envelope.seq} from {envelope.author}"
    waiting = campaign.waiting()
    joined = f"{envelope.author} joins; " if envelope.kind == "join" else ""
    if waiting is None:
        outcome = campaign.outcome()
        return joined + "game over" + (f": {_short(outcome['result'])}" if outcome and outcome.get("result") else "")
    if waiting["side"] != to_side:
        return joined + f"{waiting['side']} to move"
    why = waiting["why"]
    if why == "decide":
        text = waiting["text"].split(": ", 1)[1] if waiting["text"].startswith(f"{to_side}: ") else waiting["text"]
        return joined + f"your move: {_short(text)}"
    if why == "reveal":  # the reveal comes first; say what is decided after it, if it is the recipient's
        try:
            prompt = campaign.game.prompt(campaign.match()["game"])
        except Exception:  # noqa: BLE001  only for the subject line
            prompt = None
        if prompt is not None and prompt.side == to_side:
            return joined + f"your move: {_short(prompt.text)}"
        return joined + "your move: a roll waits for your reveal (pbem play)"
    if why == "secret":
        return joined + "your last file: reveal your private secret so your draws can be checked (pbem play)"
    return joined + f"your move ({why})"


def _view_status(payload: dict) -> str:
    if payload.get("prompt"):
        return f"your move: {_short(payload['prompt']['text'])}"
    if payload.get("outcome"):
        return f"game over: {_short(payload['outcome']['result'])}"
    waiting = payload.get("waiting")
    return f"{waiting['side']} to move" if waiting else "for your records"


def _policy():
    """How pbem writes mail: as the standard says, but a header is folded only past 998 characters
    (folded at 78, Python breaks a long subject right after "Subject:", and mail programs show it
    with a leading space)."""
    import email.policy

    return email.policy.default.clone(max_line_length=998)


def compose(campaign, to_side: str, files: list[Path], body: str, sender: str, subject: str | None = None,
            automatic: bool = False):
    """A ready-to-send message to ``to_side``: ``body``, then the turn files inline and attached.

    An address not known yet is written as ``SIDE@pbem.invalid``; ``send`` puts in the address
    recorded by then (``pbem mail address``), or keeps the message waiting for one."""
    from email.message import EmailMessage

    game = campaign.genesis["game"]
    msg = EmailMessage(policy=_policy())
    msg["From"] = sender or address(campaign, campaign.side) or f"{campaign.side}@{PLACEHOLDER}"
    msg["To"] = address(campaign, to_side) or f"{to_side}@{PLACEHOLDER}"
    msg["Subject"] = " ".join(f"{tag(campaign)} {subject or (files[0].name if files else '')}".split())
    msg["Message-ID"] = _message_id(game, str(msg["From"]))
    msg["References"] = thread_root(game)
    msg["X-Pbem-Game"] = game
    msg["X-Pbem-To-Side"] = to_side
    if automatic:  # RFC 3834: written by a program, not a person: vacation notices stay quiet
        msg["Auto-Submitted"] = "auto-generated"
    inline = "\n".join(f.read_text() for f in files)
    msg.set_content(f"{body}\n\n--- turn file (also attached) ---\n\n{inline}")
    for f in files:
        msg.add_attachment(f.read_text(), subtype="plain", filename=f.name)
    return msg


def _outbox(campaign) -> Path:
    folder = campaign.dir / "outbox"
    folder.mkdir(exist_ok=True)
    return folder


def _recipients(campaign, envelope) -> list[str]:
    """Who a turn file of ours goes to."""
    sides = sorted(campaign.game.sides)
    author = envelope.author
    if envelope.kind == "genesis":
        return [s for s in sides if s != author]
    if envelope.kind == "join":
        return [campaign.genesis["author"]]
    if envelope.kind == "claim":
        return [envelope.content["body"]["owed_by"]]
    if campaign.refereed:
        return sides if author == "referee" else ["referee"]
    return [s for s in sides if s != author]


def _body(campaign, envelope, to_side: str) -> str:
    from .keys import fingerprint

    genesis = campaign.genesis
    title, game = campaign.game.title, genesis["game"]
    names = {s: e["name"] for s, e in genesis["body"]["sides"].items()}
    if campaign.refereed:
        names["referee"] = genesis["body"]["referee"]["name"]
    me = names.get(envelope.author, envelope.author)
    if envelope.kind == "genesis":
        from . import invitation

        who = (f"{me}, the referee," if campaign.refereed else me)
        lines = [f"{who} invites you to a game of {title} by e-mail, played with pbem (signed turn files, "
                 f"dice no one can fake). You play {to_side}.", "", "The invitation asks you to agree to:"]
        lines += [f"  {line}" for line in invitation.terms(genesis, fingerprint)]
        lines += ["", f"Compare the fingerprints with {me} by phone or in person first: e-mail proves nothing.",
                  "To accept, save this message and join with it (or pipe it in):", "",
                  "  pbem join saved-message.eml --key YOUR-NAME --campaign DIR",
                  "  pbem join - --key YOUR-NAME --campaign DIR < saved-message.eml", "",
                  "pbem join writes your join turn file and a mail with it, for you to send back."]
        return "\n".join(lines)
    if envelope.kind == "join":
        return (f"{me} joins {title} (game {game[:8]}) as {envelope.author}.\n\n"
                "Ingest the attached turn file: pbem ingest, pbem mail fetch, or a referee's pbem mail run.")
    if envelope.kind == "claim":
        body = envelope.content["body"]
        return (f"{me} ({envelope.author}) claims a timeout: {body['owed_by']} has owed turn file "
                f"#{body['since'] + 1} for {body['hours']} hours (agreed: {body.get('deadline_hours')}).")
    if campaign.refereed and envelope.author == "referee":  # the disclosure (views go by view_text)
        return (f"The game is over: the referee discloses {title} (game {game[:8]}) with turn file #{envelope.seq}, "
                "which publishes the referee's salt and key.\n\nIngest the attached file, then check the whole "
                "game yourself: pbem verify and pbem audit replay every order, roll and view.")
    if campaign.refereed:
        return (f"{envelope.author}'s orders for {title} (game {game[:8]}), turn file #{envelope.seq}, "
                "sealed to the referee: only the referee can read them.")
    from .report import render

    return render(campaign, "text", side=to_side)  # the recipient's view: nothing hidden of ours


def write_outbox(campaign, result, sender: str = "", automatic: bool = False) -> list[Path]:
    """The ready-to-send messages for a turn file we signed (``result``: a ``PlayResult``):
    one per recipient; a referee's adjudication, one per player with its own file and view.
    ``automatic``: written by an unattended mailbox (marked Auto-Submitted: auto-generated)."""
    out = []
    envelope = result.envelope
    if result.paths:  # a referee: one message per player, each with its own file and view
        for path in result.paths:
            side = path.parent.name.removeprefix("to-")
            body, status = view_text(campaign, side, envelope.seq, with_status=True)
            msg = compose(campaign, side, [path], body, sender, status, automatic)
            out.append(_save(campaign, msg, f"{path.stem}-{side}"))
        return out
    if envelope is None or result.path is None:
        return []
    for side in _recipients(campaign, envelope):
        msg = compose(campaign, side, [result.path], _body(campaign, envelope, side), sender,
                      _status(campaign, envelope, side), automatic)
        out.append(_save(campaign, msg, f"{result.path.stem}-{side}"))
    return out


def view_text(campaign, side: str, seq: int, with_status: bool = False):
    """The body of a referee's message to ``side``: what its sealed view says (the referee may read it)."""
    from .refereeing import view_payload

    game = campaign.game
    match = campaign.ledger.state(seq)[1] if campaign.ledger.envelope_index(seq) else campaign.match()
    events = [{"text": e["text"], "to": e["to"]} for e in campaign.ledger.events(seq - 2)]
    payload = view_payload(game, match["full"], seq, side, events, campaign.ledger.rolls(seq - 2))
    lines = [f"{game.title} -- your view ({side}) after turn file #{seq}", ""]
    lines += [f"  {text}" for text in payload["events"]]
    lines += [""] + game.describe(payload["view"])
    if payload["prompt"]:
        lines += ["", payload["prompt"]["text"]] + [f"  {i}. {label}" for i, (label, _) in
                                                  enumerate(payload["prompt"]["choices"], 1)]
        lines += ["", "Ingest the attached file (pbem ingest, or pbem mail fetch) and give your orders with "
                  "pbem play; pbem mail send sends them to the referee."]
    elif payload["outcome"]:
        lines += ["", f"RESULT: {payload['outcome']['result']} -- {payload['outcome']['reason']}"]
    text = "\n".join(lines)
    return (text, _view_status(payload)) if with_status else text


def _save(campaign, msg, stem: str) -> Path:
    return atomic_write(_outbox(campaign) / f"{stem}.eml", msg.as_bytes(policy=_policy()))


def mail_for_file(campaign, path: Path, sender: str = "") -> list[Path]:
    """Ready-to-send mail for a turn file of ours (an invitation, a join, a turn, a referee's file
    for one player) given by its path: what ``pbem mail send FILE.pbem`` sends.

    :raises PbemError: not a turn file of this game signed by this side."""
    from .armor import find_blocks
    from .campaign import PlayResult
    from .envelope import open_block

    try:
        envelopes = [open_block(b) for b in find_blocks(path.read_text())]
    except (OSError, UnicodeDecodeError) as e:
        raise PbemError(f"cannot read {path}", str(e), code="unreadable") from None
    envelopes = [e for e in envelopes if e.kind != "view"]
    if not envelopes:
        raise PbemError(f"{path.name} holds no turn file", "give a mail (.eml) or a turn file (.pbem)",
                        code="no-turn-file")
    envelope = max(envelopes, key=lambda e: e.seq)
    if envelope.game != campaign.genesis["game"]:
        raise PbemError(f"{path.name} is another game's turn file", f"game {envelope.game[:8]}, this campaign is "
                        f"{campaign.genesis['game'][:8]}", code="wrong-game")
    if envelope.author != campaign.side:
        raise PbemError(f"{path.name} was not signed by you", f"it is {envelope.author}'s: pbem mail send sends "
                        f"your own files ({campaign.side})", code="not-yours")
    views = [path] if path.parent.name.startswith("to-") else []
    if not views and campaign.refereed and envelope.author == "referee" and "views" in envelope.content["body"]:
        views = campaign._views_of(envelope, path)
    return write_outbox(campaign, PlayResult(envelope, path, [], [], [], views), sender)


# --- sending -------------------------------------------------------------------------
#
# Every message in outbox/ is sent on its own.  Accepted: moved to outbox/sent/.  Refused for
# good by the server (a 5xx: an unknown recipient, a message it will never take): set aside at
# once in outbox/failed/ with its reason beside it (NAME.reason.txt).  Refused for now (a 4xx:
# greylisting, a full mailbox): kept and tried again later, 5 minutes after the first failure,
# then each wait doubled up to 12 hours (``pbem mail run``; ``pbem mail send`` tries at once),
# and set aside once it has failed for 5 days (RFC 5321's advice).  A server that cannot be
# reached, or refuses our login, is no message's fault: everything waits for the next run and
# nothing is counted against a message.  One message never stops the others.

RETRY_FIRST_MINUTES = 5
RETRY_MOST_MINUTES = 12 * 60
GIVE_UP_HOURS = 5 * 24
_RETRY_KEY = "outbox-retry"


def _now():
    from datetime import datetime

    return datetime.now(UTC)


def pending_outbox(campaign) -> list[Path]:
    folder = campaign.dir / "outbox"
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


def set_aside_outbox(campaign) -> list[Path]:
    folder = campaign.dir / "outbox" / "failed"
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


@dataclass
class Sending:
    """What one sending did: every message of the outbox it looked at is in one of the lists."""

    sent: list[tuple[Path, str]] = field(default_factory=list)  # (file now in outbox/sent/, to whom)
    waiting: list[tuple[Path, str]] = field(default_factory=list)  # (file still in outbox/, why; when next)
    set_aside: list[tuple[Path, str]] = field(default_factory=list)  # (file now in outbox/failed/, why)
    failed: list[str] = field(default_factory=list)  # what was tried this time and did not go
    error: PbemError | None = None  # the server could not be used at all

    def lines(self) -> list[tuple[str, bool]]:
        out = [(f"sent {path.name} to {to}", False) for path, to in self.sent]
        out += [(f"waiting in the outbox: {path.name}: {why}", False) for path, why in self.waiting]
        out += [(f"SET ASIDE {path.name}: {why} (kept in outbox/failed/; after mending it, "
                 f"'pbem mail send outbox/failed/{path.name}' tries it again)", False) for path, why in self.set_aside]
        return out

    def problem(self) -> PbemError | None:
        """The error a command exits with: something it tried to send did not go."""
        if self.error is not None:
            return self.error
        if self.failed:
            return PbemError(f"{len(self.failed)} message(s) could not be sent", "; ".join(self.failed)[:600],
                             code="no-address" if all("no address" in f for f in self.failed) else "smtp")
        return None


def _retry_record(campaign) -> dict:
    try:
        data = json.loads(campaign.ledger.setting(_RETRY_KEY) or "{}")
        return data if isinstance(data, dict) else {}
    except ValueError:
        return {}


def _when(stamp: str) -> str:
    return stamp[:16].replace("T", " ") + " UTC"


def _queue(campaign, path: Path, sender: str) -> list[Path]:
    """Where a file given to ``pbem mail send`` is sent from: a message of the outbox as it is;
    one set aside, back into the outbox; a message from elsewhere, copied in (never moved);
    a turn file of ours, its mail written in the outbox."""
    from .mailbox_in import looks_like_mail

    path = Path(path)
    outbox = _outbox(campaign)
    try:
        where = path.resolve().parent
    except OSError:
        where = path.parent
    if where == outbox.resolve() and path.suffix == ".eml":
        return [path]
    if where == (outbox / "failed").resolve() and path.suffix == ".eml":
        target = outbox / path.name
        os.replace(path, target)
        (path.parent / f"{path.stem}.reason.txt").unlink(missing_ok=True)
        return [target]
    try:
        limits.check_size(path.stat().st_size, "MAX_MAIL_BYTES", str(path))
        data = path.read_bytes()
    except OSError as e:
        raise PbemError(f"cannot read {path}", e.strerror or str(e), code="unreadable") from None
    if looks_like_mail(data):
        target = outbox / (path.name if path.suffix == ".eml" else f"{path.name}.eml")
        n = 1
        while target.exists() and target.read_bytes() != data:
            n += 1
            target = outbox / f"{path.stem}-{n}.eml"
        atomic_write(target, data)
        return [target]
    if b"BEGIN PBEM TURN" in data:
        return mail_for_file(campaign, path, sender)
    raise PbemError(f"{path.name} is neither a mail nor a turn file", "give a message (.eml) or a turn file "
                    "(.pbem) of this campaign", code="not-mail")


def _prepare(campaign, config: MailConfig, path: Path):
    """The message in ``path`` with the addresses known now; or (None, why it must wait)."""
    import email

    try:
        msg = email.message_from_bytes(path.read_bytes(), policy=_policy())
    except Exception as e:  # noqa: BLE001  a file in the outbox that is not a message
        return None, f"not a message it can send ({type(e).__name__})"
    side = str(msg.get("X-Pbem-To-Side") or "").strip()
    if side:
        known = address(campaign, side)
        if known and known != str(msg.get("To") or ""):
            del msg["To"]
            msg["To"] = known
    sender = str(msg.get("From") or "")
    if _bare(sender).endswith(f"@{PLACEHOLDER}"):
        own = config.sender or address(campaign, campaign.side)
        if not own:
            return None, "no From address yet: pbem mail config --from ADDRESS"
        del msg["From"]
        msg["From"] = own
    to = str(msg.get("To") or "")
    if not to.strip():
        return None, "it has no recipient"
    if _bare(to).endswith(f"@{PLACEHOLDER}"):
        who = side or _bare(to).partition("@")[0]
        return None, f"no address for {who} yet: pbem mail address {who} ADDRESS"
    return msg, _bare(to)


def _connect(server: Server, password: str | None):
    import smtplib

    if server.security == "ssl":
        client = smtplib.SMTP_SSL(server.host, server.port, context=server.tls(), timeout=30)
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=30)
    try:
        if server.security == "starttls":
            client.starttls(context=server.tls())
        if server.user:
            if not password:
                raise PbemError("no SMTP password", "set PBEM_SMTP_PASSWORD or answer the prompt", code="no-password")
            client.login(server.user, password)
    except BaseException:
        client.close()
        raise
    return client


def _smtp_failure(e: Exception) -> tuple[int, str]:
    """(SMTP code, one line) of a refusal of one message; code 0 for a local failure."""
    import smtplib

    if isinstance(e, smtplib.SMTPRecipientsRefused):
        codes = list(e.recipients.values())
        code = min((c for c, _ in codes), default=550)
        text = "; ".join(f"{r}: {c} {m.decode(errors='replace') if isinstance(m, bytes) else m}"
                         for r, (c, m) in e.recipients.items())
        return code, " ".join(text.split())[:300]
    if isinstance(e, (smtplib.SMTPDataError, smtplib.SMTPSenderRefused, smtplib.SMTPResponseException)):
        message = e.smtp_error.decode(errors="replace") if isinstance(e.smtp_error, bytes) else str(e.smtp_error)
        return e.smtp_code, " ".join(f"{e.smtp_code} {message}".split())[:300]
    return 0, " ".join(f"{type(e).__name__}: {e}".split())[:300]


def send(campaign, config: MailConfig, password: str | None, files: list[Path] | None = None,
         due_only: bool = False) -> Sending:
    """Send ``files`` (default: the whole outbox), each on its own; see the rules above.

    ``due_only`` (an unattended mailbox): a message that failed for now is only tried again
    once its wait is over.  Never raises for one message's fault; ``Sending.problem()`` says
    whether what was tried went.

    :raises PbemError: no SMTP server configured; a file given that cannot be sent from."""
    import smtplib

    if config.smtp is None:
        raise PbemError("no SMTP server configured", "pbem mail config --smtp HOST:PORT ...", code="no-config")
    if config.smtp.user and not password:
        raise PbemError("no SMTP password", "set PBEM_SMTP_PASSWORD or answer the prompt", code="no-password")
    out = Sending()
    if files is None:
        queue = pending_outbox(campaign)
    else:
        queue = []
        for f in files:
            queue += [p for p in _queue(campaign, Path(f), config.sender) if p not in queue]
    if not queue:
        return out
    now = _now()
    stamp = now.isoformat(timespec="seconds")
    record = _retry_record(campaign)
    before = dict(record)
    due = []
    for path in queue:
        entry = record.get(path.name)
        if due_only and isinstance(entry, dict) and str(entry.get("next", "")) > stamp:
            out.waiting.append((path, f"{entry.get('error', 'refused for now')}; next try {_when(entry['next'])}"))
            continue
        msg, to = _prepare(campaign, config, path)
        if msg is None:
            out.waiting.append((path, to))
            out.failed.append(f"{path.name}: {to}")
            continue
        due.append((path, msg, to))
    client = None
    if due:
        try:
            client = _connect(config.smtp, password)
        except PbemError as e:
            out.error = e
        except smtplib.SMTPAuthenticationError as e:
            out.error = PbemError("the SMTP server refused the login", f"{config.smtp.host}:{config.smtp.port}: "
                                  f"{_smtp_failure(e)[1]}", code="smtp")
        except (OSError, smtplib.SMTPException) as e:
            out.error = PbemError("sending mail failed", f"{config.smtp.host}:{config.smtp.port}: {e}", code="smtp")
    done = campaign.dir / "outbox" / "sent"
    try:
        for n, (path, msg, to) in enumerate(due):
            if out.error is not None:  # the server is not there: every message waits, none is to blame
                out.waiting += [(p, f"not sent: {out.error.code}: {out.error}") for p, _, _ in due[n:]]
                break
            try:
                client.send_message(msg)
            except smtplib.SMTPSenderRefused as e:  # our own From: a setting, not this message's fault
                out.error = PbemError("the SMTP server refused the sender", f"{_smtp_failure(e)[1]}; check "
                                      "pbem mail config --from", code="smtp")
                out.waiting += [(p, f"not sent: {out.error.code}: {out.error}") for p, _, _ in due[n:]]
                break
            except (smtplib.SMTPServerDisconnected, ConnectionError, TimeoutError) as e:
                out.error = PbemError("sending mail failed", f"{config.smtp.host}:{config.smtp.port}: the connection "
                                      f"was lost: {e}", code="smtp")
                out.waiting += [(p, f"not sent: {out.error.code}: {out.error}") for p, _, _ in due[n:]]
                break
            except (smtplib.SMTPException, ValueError, TypeError, UnicodeError) as e:  # this message's fault
                code, why = _smtp_failure(e)
                out.failed.append(f"{path.name} to {to}: {why}")
                entry = record.get(path.name) if isinstance(record.get(path.name), dict) else {}
                first = str(entry.get("first") or stamp)
                tries = int(entry.get("tries", 0)) + 1
                from datetime import datetime, timedelta

                failing = now - datetime.fromisoformat(first)
                if 400 <= code < 500 and failing < timedelta(hours=GIVE_UP_HOURS):
                    wait = min(RETRY_FIRST_MINUTES * 2 ** (tries - 1), RETRY_MOST_MINUTES)
                    later = (now + timedelta(minutes=wait)).isoformat(timespec="seconds")
                    record[path.name] = {"tries": tries, "first": first, "next": later, "error": why}
                    out.waiting.append((path, f"refused for now ({why}); next try {_when(later)}"))
                else:
                    reason = (f"refused for good by the server: {why}" if code >= 500 else
                              f"refused for {failing.days} days, {tries} tries: {why}" if code
                              else f"it cannot be sent: {why}")
                    out.set_aside.append((_set_aside(path, to, reason), reason))
                    record.pop(path.name, None)
                continue
            except OSError as e:  # the network under the connection: not this message's fault
                out.error = PbemError("sending mail failed", f"{config.smtp.host}:{config.smtp.port}: {e}", code="smtp")
                out.waiting += [(p, f"not sent: {out.error.code}: {out.error}") for p, _, _ in due[n:]]
                break
            if path.parent != done:
                done.mkdir(parents=True, exist_ok=True)
                target = done / path.name
                atomic_write(target, bytes(msg))  # as sent: with the addresses it went to
                path.unlink(missing_ok=True)
            else:
                target = path
            record.pop(path.name, None)
            out.sent.append((target, to))
    finally:
        if client is not None:
            try:
                client.quit()
            except (OSError, smtplib.SMTPException):
                client.close()
        names = {p.name for p in pending_outbox(campaign)}
        record = {k: v for k, v in record.items() if k in names}  # only what still waits
        if record != before:
            campaign.ledger.begin()
            if record:
                campaign.ledger.put_setting(_RETRY_KEY, json.dumps(record, sort_keys=True))
            else:
                campaign.ledger.delete_setting(_RETRY_KEY)
            campaign.ledger.commit()
    return out


def _set_aside(path: Path, to: str, reason: str) -> Path:
    folder = path.parent / "failed"
    folder.mkdir(exist_ok=True)
    atomic_write(folder / f"{path.stem}.reason.txt", f"{path.name} to {to}: {reason}\n")  # the reason first
    target = folder / path.name
    os.replace(path, target)
    return target


# --- receiving ---------------------------------------------------------------------------
#
# The mailbox promise: every message is read once, on its own.  A message that cannot be
# used, for whatever reason (refused by the rules, damaged, past a bound of pbem.limits, or
# breaking the mail parser), is recorded as refused with a one-line reason and marked read
# in the same transaction: it never stops the messages behind it, and is never read again.
# Only what is not the message's fault (the network, the campaign busy or its secrets
# locked, a full disk) stops a run, before the message is marked: the next run reads it.
#
# Answering (``pbem mail run``): a campaign answers only a message that names its game (a turn
# file of the game in it, even a damaged one; the game's tag in the subject; or a reply to one
# of its mails), from the address of one of its players, and never one a machine sent (RFC 3834:
# auto-replies, vacation notices, bounces, mailing lists).  It answers what could not be used
# at all (refused, or without a turn file); a message whose turn file was accepted is answered
# by the game going on.  The answer is written before the message is marked read, under a name
# made from the message's place in the mailbox: a run killed between the two writes the same
# answer again, never a second one.

_ENVIRONMENT = {"busy", "locked", "no-secrets"}
_FULL = {"ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES", "EPERM"}
_SHOWN_ELSEWHERE = 10  # lines for messages that are not this game's, per run; then a count


@dataclass
class Refusal:
    """A message (or one damaged block in it) that could not be used."""

    message: str  # which message: "message 7" (an IMAP UID) or a Maildir file's name
    sender: str  # its From, as shown (decoded, no control characters, shortened)
    subject: str
    reason: str  # "code: reason", then "  detail" on a second line
    reply_to: str = ""  # where a polite reply may go ('' for nowhere)
    date: str = ""

    def __iter__(self):  # unpacks as (sender, subject, reason), as it always has
        return iter((self.sender, self.subject, self.reason))

    @property
    def line(self) -> str:
        head, _, detail = self.reason.partition("\n")
        return head + (f" ({detail.strip()})" if detail.strip() else "")

    @property
    def code(self) -> str:
        return self.reason.partition(":")[0]


@dataclass
class Note:
    """One message read: what it was and what was done with it."""

    message: str
    sender: str = ""
    subject: str = ""
    date: str = ""
    kind: str = "empty"  # accepted, duplicate, refused, empty (no turn file), elsewhere (not this game's)
    done: list[str] = field(default_factory=list)  # "accepted #3 from blue", "already had #3 from blue"
    refusals: list[Refusal] = field(default_factory=list)
    automatic: str = ""  # why a machine sent it ('' for a person)
    bounce: str = ""  # what a delivery report says failed
    others: list[str] = field(default_factory=list)  # other games named in it
    for_us: bool = False  # it names this game
    answer: str = ""  # "answered" or "not answered: why" ('' when no answer was due)
    learned: str = ""  # "allied is alice@example.org"
    authors: list[str] = field(default_factory=list)  # the parties whose new turn files it brought
    blocks_elsewhere: bool = False  # it holds turn files of other games

    @property
    def what(self) -> str:
        """The message as a person finds it in a mail program: from whom, its subject, its date."""
        return f"{self.sender or 'an unknown sender'} ({self.subject!r}" + (f", {self.date})" if self.date else ")")

    def line(self) -> tuple[str, bool]:
        """(one line: what this message was and what was done, on stderr?)"""
        tail = f"; {self.answer}" if self.answer else ""
        tail += f"; {self.learned} (its From; pbem mail address changes it)" if self.learned else ""
        if (self.bounce or self.automatic.startswith("a delivery")) and self.for_us:
            text = self.bounce or "a delivery report"
            return (f"BOUNCE from {self.what}: {text}: check the address (pbem mail address SIDE ADDRESS), "
                    f"then pbem mail send outbox/sent/FILE or pbem resend{tail}", True)
        done = "; ".join(self.done)
        if self.refusals:
            reasons = "; ".join(r.line for r in self.refusals)
            head = f"{done}; " if done else ""
            return (f"{head}REFUSED a message from {self.what}: {reasons}{tail}", True)
        if self.kind in ("accepted", "duplicate"):
            return (f"{done}: {self.what}{tail}", False)
        if self.kind == "elsewhere":
            games = ", ".join(sorted(self.others)[:3])
            what = ("a bounce of mail" if self.bounce else "turn files" if self.blocks_elsewhere
                    else "an automatic message" if self.automatic else "a message in the thread")
            return (f"not for this game: {self.what}, {what} of game {games}{tail}", False)
        auto = f", {self.automatic}" if self.automatic else ""
        return (f"no turn file in a message from {self.what}{auto}{tail}", False)


@dataclass
class Fetched:
    accepted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    mailbox: str = ""  # what was read, as shown
    new: int = 0  # messages read this time
    total: int = 0  # messages in the mailbox
    failed: bool = False  # reading stopped (the error says why): the counts are what was read before

    def counts(self) -> str:
        kinds: dict[str, int] = {}
        for note in self.notes:
            kind = "refused" if note.refusals else ("bounces" if note.bounce and note.for_us else note.kind)
            kinds[kind] = kinds.get(kind, 0) + 1
        names = (("accepted", "accepted"), ("duplicate", "already had"), ("refused", "refused"),
                 ("bounces", "bounce(s)"), ("empty", "without a turn file"), ("elsewhere", "not for this game"))
        parts = [f"{kinds[k]} {label}" for k, label in names if kinds.get(k)]
        answered = sum(1 for n in self.notes if n.answer == "answered")
        if answered:
            parts.append(f"{answered} answered")
        return ", ".join(parts)

    def summary(self, replies: int | None = None) -> str:
        if self.failed:
            return f"could not read {self.mailbox}" + (f" past {self.new} new message(s): {self.counts()}"
                                                        if self.new else "")
        if not self.total:
            return f"nothing to read: {self.mailbox} holds no messages"
        if not self.new:
            return f"nothing new in {self.mailbox} ({self.total} message(s), all read before)"
        return f"read {self.new} new message(s) from {self.mailbox}: " + (self.counts() or "nothing in them")

    def message_lines(self) -> list[tuple[str, bool]]:
        out, hidden = [], 0
        for note in self.notes:
            quiet = note.kind in ("elsewhere", "empty") and not note.for_us and not note.refusals \
                and not note.bounce and not note.answer
            if quiet and hidden >= _SHOWN_ELSEWHERE:
                hidden += 1
                continue
            if quiet:
                hidden += 1
            out.append(note.line())
        if hidden > _SHOWN_ELSEWHERE:
            out.append((f"... and {hidden - _SHOWN_ELSEWHERE} more message(s) not for this game or without a "
                        "turn file: left as they are", False))
        return out

    def lines(self) -> list[tuple[str, bool]]:
        """What ``pbem mail fetch`` says: one line per message, then the count (line, on stderr)."""
        return self.message_lines() + [(self.summary(), False)]


def _reason(e: PbemError) -> str:
    detail = " ".join(str(e.detail).split())
    return f"{e.code}: {' '.join(str(e).split())}" + (f"\n  {detail[:300]}" if detail else "")


def fetch(campaign, config: MailConfig, password: str | None, maildir: Path | None = None,
          answering: Answering | None = None) -> Fetched:
    """Ingest every message of the IMAP folder (or of ``maildir``) not yet processed; one
    transaction per message.  ``answering`` (a referee's run): answer what could not be used.

    The mailbox is only read, never changed: the messages processed are remembered in the
    campaign, with the reason of each one refused.  See the mailbox promise above.
    """
    if maildir is not None:
        return _fetch_maildir(campaign, Path(maildir), answering)
    import imaplib

    if config.imap is None:
        raise PbemError("no IMAP server configured", "pbem mail config --imap HOST:PORT ..., or pbem mail fetch "
                        "--maildir FOLDER", code="no-config")
    server = config.imap
    out = Fetched(mailbox=f"{config.folder} at {server.host}")
    try:
        client = (imaplib.IMAP4_SSL(server.host, server.port, ssl_context=server.tls(), timeout=60)
                  if server.security == "ssl" else imaplib.IMAP4(server.host, server.port, timeout=60))
        try:
            if server.security == "starttls":
                client.starttls(ssl_context=server.tls())
            if not password:
                raise PbemError("no IMAP password", "set PBEM_IMAP_PASSWORD or answer the prompt", code="no-password")
            client.login(server.user, password)
            status, data = client.select(config.folder, readonly=True)
            if status != "OK":
                raise PbemError("no such mail folder", f"{config.folder}: {data}", code="imap")
            validity = client.response("UIDVALIDITY")[1][0].decode()
            key = f"imap:{server.user}@{server.host}/{config.folder}/{validity}"
            seen = _seen(campaign, key)
            _, found = client.uid("search", None, "ALL")
            uids = found[0].decode().split() if found and found[0] else []
            out.total = len(uids)
            for uid in uids:
                if uid in seen:
                    continue
                _, sizes = client.uid("fetch", uid, "(RFC822.SIZE)")
                size = _imap_size(sizes)
                whole = size is None or size <= limits.value("MAX_MAIL_BYTES")  # too large: only its head is read
                _, parts = client.uid("fetch", uid, "(BODY.PEEK[])" if whole else f"(BODY.PEEK[HEADER]<0.{_HEAD}>)")
                data = next((p[1] for p in parts if isinstance(p, tuple)), b"")
                _process(campaign, f"message {uid}", data if whole else None, size or 0, out, key, seen, uid,
                         head=None if whole else data, answering=answering)
        finally:
            try:
                client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
    except (OSError, imaplib.IMAP4.error) as e:
        raise PbemError("reading mail failed", f"{server.host}:{server.port}: {e}", code="imap") from None
    return out


def _imap_size(response) -> int | None:
    import re

    for item in response or []:
        text = item[0] if isinstance(item, tuple) else item
        m = re.search(rb"RFC822\.SIZE (\d+)", text or b"")
        if m:
            return int(m.group(1))
    return None


def _fetch_maildir(campaign, folder: Path, answering: Answering | None = None) -> Fetched:
    """The same as over IMAP, from a Maildir on disk (cur/ and new/, read only)."""
    from .mailbox_in import maildir_messages

    if not folder.is_dir():
        raise PbemError(f"no Maildir at {folder}", "expected a folder with cur/, new/ and tmp/", code="unreadable")
    out = Fetched(mailbox=str(folder))
    key = f"maildir:{folder.resolve()}"
    seen = _seen(campaign, key)
    messages = maildir_messages(folder)
    out.total = len(messages)
    for name, file in messages:
        if name in seen:
            continue
        try:
            size = file.stat().st_size
            with file.open("rb") as f:
                whole = size <= limits.value("MAX_MAIL_BYTES")  # too large: only its head is read
                data = f.read() if whole else f.read(_HEAD)
        except FileNotFoundError:  # moved by a mail program meanwhile: read it next time
            continue
        except OSError as e:
            raise PbemError(f"cannot read {file}", e.strerror or str(e), code="unreadable") from None
        _process(campaign, name, data if whole else None, size, out, key, seen, name, head=None if whole else data,
                 answering=answering)
    return out


_HEAD = 65536  # what is read of a message too large to read: enough for its header


def _headers_only(data: bytes):
    import email.parser
    import email.policy

    end = min((i for i in (data.find(b"\r\n\r\n"), data.find(b"\n\n")) if i >= 0), default=len(data))
    return email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(data[:end] + b"\n\n")


def _seen(campaign, key: str) -> set[str]:
    try:
        return {str(x) for x in json.loads(campaign.ledger.setting(key) or "[]")}
    except (ValueError, TypeError):
        raise PbemError("the campaign's record of mail read is damaged", f"setting {key!r}", code="bad-campaign") from None


@dataclass
class _Seen:
    """What the headers of a message say (all shown text: decoded, no control characters)."""

    sender: str = ""
    subject: str = ""
    date: str = ""
    reply_to: str = ""
    from_address: str = ""
    automatic: str = ""
    bounce: str = ""
    thread: str = ""
    message_id: str = ""
    references: str = ""


def _headers(msg) -> _Seen:
    from .mailbox_in import (
        _raw_header,
        automatic,
        bounce_report,
        from_address,
        header,
        reply_address,
        thread_ids,
    )

    return _Seen(header(msg, "From"), header(msg, "Subject"), header(msg, "Date", 60), reply_address(msg),
                 from_address(msg), automatic(msg), bounce_report(msg), thread_ids(msg),
                 _raw_header(msg, "Message-ID")[:300], _raw_header(msg, "References")[:2000])


def _process(campaign, label: str, raw: bytes | None, size: int, out: Fetched, key: str, seen: set[str],
             uid: str, head: bytes | None = None, answering: Answering | None = None) -> None:
    """Read one message, ingest what it holds, answer it if it must be, record the outcome and
    mark it read.

    ``raw`` is None for a message too large to read: ``head``, its first bytes, tells who
    sent it.  Never raises for a fault of the message (see the mailbox promise); raises
    ``PbemError`` for one of the environment, before anything is marked."""
    import errno
    import sqlite3

    from .mailbox_in import _Budget, _one_line, message_texts, read_message

    note = Note(label)
    seen_headers = _Seen()
    out.new += 1
    texts: list[str] = []

    def refuse(reason: str) -> None:
        note.refusals.append(Refusal(label, note.sender, note.subject, reason, seen_headers.reply_to, note.date))

    def take(h: _Seen) -> None:
        nonlocal seen_headers
        seen_headers = h
        note.sender, note.subject, note.date = h.sender, h.subject, h.date
        note.automatic, note.bounce = h.automatic, h.bounce

    try:
        if raw is None:
            try:
                take(_headers(_headers_only(head or b"")))
            except Exception:  # only to say who sent it: without it, the refusal stands all the same
                pass
            limits.check_size(size, "MAX_MAIL_BYTES", "the message")
        budget = _Budget()
        msg = read_message(raw or b"", budget=budget)
        take(_headers(msg))
        texts = message_texts(msg, budget=budget)
        _ingest_texts(campaign, label, texts, note, out, refuse)
    except PbemError as e:
        campaign.ledger.rollback()
        if e.code in _ENVIRONMENT:
            raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: {_reason(e)}",
                            code=e.code) from None
        refuse(_reason(e))
    except (sqlite3.OperationalError, OSError) as e:
        campaign.ledger.rollback()
        if isinstance(e, sqlite3.OperationalError) or errno.errorcode.get(e.errno or 0) in _FULL:
            raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: {type(e).__name__}: "
                            f"{_one_line(e)}", code="mail-stopped") from None
        refuse(f"bad-mail: the message cannot be used\n  {type(e).__name__}: {_one_line(e)}")
    except Exception as e:  # whatever a hostile message breaks: refused, never a jammed mailbox
        campaign.ledger.rollback()
        refuse(f"bad-mail: the message cannot be used\n  {type(e).__name__}: {_one_line(e)}")
    if raw is not None and not note.sender and note.refusals:  # refused before its header was read: who sent it
        try:
            take(_headers(_headers_only(raw[:_HEAD])))
            for r in note.refusals:
                r.sender, r.subject, r.date, r.reply_to = note.sender, note.subject, note.date, seen_headers.reply_to
        except Exception:  # only to say who sent it
            pass
    game = campaign.genesis["game"]
    note.for_us = note.for_us or _names_game(game, note.subject, seen_headers.thread, texts)
    if not note.for_us and note.kind == "empty":  # a reply in another game's thread: not ours either
        named = _named_games(note.subject, seen_headers.thread) - {game[:8]}
        if named:
            note.kind, note.others = "elsewhere", sorted(named)
    if note.refusals:
        note.kind = "refused"
    learned = _learn(campaign, note, seen_headers)
    if answering is not None:
        try:
            _answer(campaign, note, seen_headers, answering, key, uid)
        except PbemError as e:
            if e.code in _ENVIRONMENT:
                raise
            note.answer = f"not answered: {e}"
        except OSError as e:
            if errno.errorcode.get(e.errno or 0) in _FULL:
                raise PbemError("reading mail stopped", f"{label} is left unread, for the next run: the answer "
                                f"could not be written: {_one_line(e)}", code="mail-stopped") from None
            note.answer = f"not answered: {_one_line(e)}"
    out.notes.append(note)
    out.refused += note.refusals
    seen.add(uid)
    ordered = sorted(seen, key=lambda u: (len(u), u) if u.isdigit() else (0, u))
    reasons = [r.line for r in note.refusals]
    campaign.ledger.begin()
    try:
        campaign.ledger.put_setting(key, json.dumps(ordered))
        if reasons:
            record = json.loads(campaign.ledger.setting(f"{key}#refused") or "{}")
            record[uid] = "; ".join(reasons)[:500]
            campaign.ledger.put_setting(f"{key}#refused", json.dumps(record, sort_keys=True))
        if learned:
            campaign.ledger.put_setting(f"email:{learned[0]}", learned[1])
        campaign.ledger.commit()
    except BaseException:
        campaign.ledger.rollback()
        raise


_GAME_LINE = r"(?m)^[ \t>]*Game:[ \t]*([0-9a-f]{32})[ \t]*$"


def _names_game(game: str, subject: str, thread: str, texts: list[str]) -> bool:
    """The message names ``game``: a turn file of it (even damaged), its tag in the subject, or
    a reply to one of its mails."""
    import re

    if f" {game[:8]}]" in subject or f"pbem {game[:8]}" in subject:
        return True
    if f"pbem-{game[:16]}" in thread:
        return True
    return any(game in re.findall(_GAME_LINE, text) for text in texts)


def _named_games(subject: str, thread: str) -> set[str]:
    """The games (first 8 hex digits) a subject's tag or a thread's pbem message ids name."""
    import re

    return set(re.findall(r"\[[\w.-]{1,40} ([0-9a-f]{8})\]", subject)) | \
        {g[:8] for g in re.findall(r"pbem-([0-9a-f]{16})", thread)}


def _damaged_game(text: str, line: int) -> str:
    """The Game header of a damaged block, if it is still readable ('' if not)."""
    import re

    lines = text.splitlines()[max(0, line - 1):line + 8]
    m = re.search(_GAME_LINE, "\n".join(lines))
    return m.group(1) if m else ""


def _ingest_texts(campaign, label: str, texts: list[str], note: Note, out: Fetched, refuse) -> None:
    from . import armor

    game = campaign.genesis["game"]
    found = [(text, armor.scan(text)) for text in texts]
    ours = [b.raw for _, f in found for b in f.blocks if b.headers.get("Game") == game]
    others = {b.headers.get("Game", "?")[:8] for _, f in found for b in f.blocks if b.headers.get("Game") != game}
    damaged = []
    for text, f in found:
        for d in f.damaged:
            other = _damaged_game(text, d.line)
            if other and other != game:  # another game's mangled mail: not ours to judge or answer
                others.add(other[:8])
            else:
                damaged.append(d)
    note.others = sorted(others)
    note.blocks_elsewhere = bool(others)
    if ours or damaged:
        note.for_us = True
    for d in damaged:  # the rest of the message goes on: a good turn file may be beside it
        refuse(_reason(d.error))
    if not ours:
        if not damaged:
            note.kind = "elsewhere" if others else "empty"
        return
    known = {row[0] for row in campaign.ledger.views()}  # joins (referee) and views (players) are stored beside
    try:
        result = campaign.ingest([(label, "".join(ours))], skip_other_games=True)
    except PbemError as e:
        if e.code in _ENVIRONMENT:
            raise
        campaign.ledger.rollback()
        refuse(_reason(e))
        return
    accepted = [f"#{e.seq} from {e.author}" for e in result.accepted]
    joined = [(side, seq) for digest, seq, side, *_ in campaign.ledger.views() if digest not in known]
    accepted += [f"the join of {side}" for side, seq in joined if seq == 0]
    if any(seq for _, seq in joined) and accepted:  # a player's own view came with the referee's file
        accepted[-1] += " with your view"
    again = [f"#{e.seq} from {e.author}" for e, why in result.skipped
             if why in ("already ingested", "already received", "timeout claim already recorded")]
    again = [a for a in dict.fromkeys(again) if a not in accepted]
    note.authors = sorted({e.author for e in result.accepted} | {side for side, seq in joined if seq == 0})
    if accepted:
        note.kind = "accepted"
        note.done.append("accepted " + ", ".join(accepted))
        out.accepted += accepted
    elif again:
        note.kind = "duplicate"
        note.done.append("already had " + ", ".join(again[:3]) + (" ..." if len(again) > 3 else ""))
    out.skipped += [f"#{e.seq} from {e.author}: {why}" for e, why in result.skipped]


def _learn(campaign, note: Note, h: _Seen) -> tuple[str, str] | None:
    """A party whose address is not recorded yet: its address is the From of the first person's
    mail that brought a signed turn file of it (a join, usually).  Said in the message's line."""
    authors = [a for a in note.authors if a != campaign.side]
    if not authors or note.automatic or not h.from_address or len(authors) != 1:
        return None
    side = authors[0]
    if address(campaign, side) or h.from_address.lower() in _known_senders(campaign):
        return None
    note.learned = f"{side} is {h.from_address}"
    return side, h.from_address


@dataclass
class Answering:
    """How an unattended mailbox answers: from which address; which addresses are its own."""

    sender: str
    own: set[str] = field(default_factory=set)


def _answer(campaign, note: Note, h: _Seen, answering: Answering, key: str, uid: str) -> None:
    """Answer a message of this game from one of its players that could not be used at all."""
    import hashlib

    if note.kind not in ("refused", "empty") or (note.kind == "empty" and not note.for_us):
        return
    if note.bounce or note.automatic:
        note.answer = "not answered" if note.for_us or note.refusals else ""  # the line says why: automatic
        return
    if not h.reply_to:
        note.answer = "not answered: no usable sender address (or sent by a machine)"
        return
    if h.reply_to.lower() in answering.own:
        note.answer = "not answered: it came from this mailbox's own address"
        return
    if not note.for_us:
        note.answer = "not answered: nothing in it names this game (another game's mail, or older)"
        return
    known = _known_senders(campaign)
    to = h.reply_to if h.reply_to.lower() in known else (h.from_address if h.from_address.lower() in known else "")
    if not to:
        note.answer = (f"not answered: {h.reply_to} is not the address of a player of this game "
                       "(pbem mail address SIDE ADDRESS)")
        return
    name = "reply-" + hashlib.sha256(f"{key}\0{uid}".encode()).hexdigest()[:16]
    outbox = _outbox(campaign)
    if not any((outbox / sub / f"{name}.eml").exists() for sub in ("", "sent", "failed")):
        polite_reply(campaign, to, note, answering.sender, h, name)
    from .lock import crash_point

    crash_point("mail:answered")  # the answer is written, the message not yet marked read
    note.answer = "answered"


def _clean_reason(campaign, text: str, label: str) -> str:
    """A reason as a player may read it: no local paths, no mailbox numbers."""
    import re

    for prefix in {str(campaign.dir.resolve()), str(campaign.dir)}:
        text = text.replace(prefix.rstrip("/") + "/", "")
    text = re.sub(r"(?:[A-Za-z]:)?(?:[/\\][^\s/\\;,()'\"]+)+[/\\]([^\s/\\;,()'\"]+)", r"\1", text)
    return text.replace(f"{label}: ", "").replace(label, "your message")


def polite_reply(campaign, to: str, note: Note, from_address: str, h: _Seen | None = None,
                 name: str | None = None) -> Path:
    """An answer to a message that could not be used, in the outbox (RFC 3834: marked
    auto-replied, threaded under the message it answers).  ``to`` must be one clean address;
    the answer names the message by its subject and date, never quotes a turn file, and
    never shows a local path."""
    from email.message import EmailMessage

    from .mailbox_in import _CONTROL

    h = h or _Seen()
    game = campaign.genesis["game"]
    subject = _CONTROL.sub(" ", note.subject).strip()[:200]
    subject = " ".join(subject.split()) or f"{tag(campaign)} your message"
    msg = EmailMessage(policy=_policy())
    msg["From"] = from_address or address(campaign, campaign.side) or f"{campaign.side}@{PLACEHOLDER}"
    msg["To"] = to
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Message-ID"] = _message_id(game, str(msg["From"]))
    msg["Auto-Submitted"] = "auto-replied"  # RFC 3834: no auto-reply answers it back
    msg["X-Pbem-Game"] = game
    import re

    original = h.message_id if re.fullmatch(r"<[^<>\s]{1,250}>", h.message_id or "") else ""
    refs = [r for r in re.findall(r"<[^<>\s]{1,250}>", h.references)][-10:]
    if original:
        msg["In-Reply-To"] = original
    thread = [r for r in dict.fromkeys(refs + [original, thread_root(game)]) if r]
    msg["References"] = " ".join(thread)
    which = f"Your message {note.subject!r}" + (f" of {note.date}" if note.date else "")
    codes = {r.code for r in note.refusals}
    reasons = "\n".join(f"  {_clean_reason(campaign, r.reason, r.message)}" for r in note.refusals)
    if "equivocation" in codes:
        what = ("was refused as equivocation: it holds a second, different turn file for a number that already "
                "has one signed by you. The first one stands; both are kept as evidence of the conflict, and "
                "nothing in your message was recorded.")
        advice = ("Play from one copy of your campaign only. If you think this is a mistake, write to the "
                  "referee in person.")
    elif "cheating" in codes:
        what = "was refused: a turn file in it breaks the rules of the game, and it is kept as evidence."
        advice = "Nothing in your message was recorded."
    elif note.refusals:
        what = "could not be used for our game, and nothing in it was recorded:"
        advice = ("Please check that you sent the turn file pbem wrote for you, attached or pasted whole (from "
                  "its BEGIN PBEM TURN line to its END PBEM TURN line), and send it again.")
    else:
        what = "holds no turn file for our game, so nothing was recorded."
        advice = ("This mailbox is read by a program. Send your turn files as pbem writes them (pbem mail send "
                  "does it); anything else reaches the referee only when they read the mailbox themselves.")
    waiting = campaign.waiting()
    known = _known_senders(campaign)
    side = known.get(to.lower(), "")
    if waiting is None:
        now = "The game is over."
    elif waiting["side"] == side:
        now = "The game is waiting for you."
    else:
        now = f"The game is waiting for {waiting['side']}."
    body = ["Hello,", "", f"{which} {what}"]
    if reasons and "equivocation" not in codes:
        body += ["", reasons]
    body += ["", advice, "", now, "", f"-- the pbem mailbox of {campaign.game.title}, game {game[:8]}"]
    msg.set_content("\n".join(body) + "\n")
    return _save(campaign, msg, name or f"reply-{msg['Message-ID'].strip('<>').split('@')[0][-16:]}")


# --- a referee's unattended mailbox ---------------------------------------------------------

@dataclass
class RunResult:
    fetched: Fetched
    adjudicated: list[int] = field(default_factory=list)
    disclosed: int | None = None
    sending: Sending = field(default_factory=Sending)
    errors: list[PbemError] = field(default_factory=list)  # reading or sending failed: the rest was done

    @property
    def sent(self) -> list[Path]:
        return [p for p, _ in self.sending.sent]

    @property
    def replies(self) -> list[Note]:
        return [n for n in self.fetched.notes if n.answer == "answered"]

    @property
    def error(self) -> PbemError | None:
        return self.errors[0] if self.errors else None

    def lines(self) -> list[tuple[str, bool]]:
        """What ``pbem mail run`` says: one line per message, what it adjudicated and sent, and
        a last line that counts it all (line, on stderr)."""
        out = [(line, err and line.startswith("BOUNCE")) for line, err in self.fetched.message_lines()]
        out += [(f"adjudicated #{seq}", False) for seq in self.adjudicated]
        if self.disclosed is not None:
            out.append((f"disclosed the game: turn file #{self.disclosed} goes to every player", False))
        out += self.sending.lines()
        parts = [self.fetched.summary()]
        done = []
        if self.adjudicated:
            done.append("adjudicated " + ", ".join(f"#{s}" for s in self.adjudicated))
        if self.disclosed is not None:
            done.append(f"disclosed (#{self.disclosed})")
        if self.sending.sent:
            done.append(f"{len(self.sending.sent)} sent")
        if self.sending.waiting:
            done.append(f"{len(self.sending.waiting)} waiting in the outbox")
        if self.sending.set_aside:
            done.append(f"{len(self.sending.set_aside)} set aside")
        out.append(("; ".join(parts + done), False))
        out += [(f"also: {e.code}: {e}" + (f" ({e.detail})" if e.detail else ""), True) for e in self.errors[1:]]
        return out


def run(campaign, identity, config: MailConfig, smtp_password: str | None, imap_password: str | None,
        maildir: Path | None = None) -> RunResult:
    """A referee's mailbox, once: read new mail, adjudicate every time it is the referee's
    turn, send each player its file, answer what could not be used.  Safe to repeat (e.g. from
    cron).  Reading that fails does not stop the sending of what waits, nor the other way round;
    ``RunResult.errors`` holds what failed."""
    own = {a.lower() for a in (_bare(config.sender), _bare(address(campaign, "referee"))) if a}
    answering = Answering(config.sender, own)
    try:
        fetched = fetch(campaign, config, imap_password, maildir, answering)
    except PbemError as e:
        if e.code in ("busy", "locked", "no-secrets"):
            raise
        where = str(maildir) if maildir else (f"{config.folder} at {config.imap.host}" if config.imap else "the mailbox")
        fetched = Fetched(mailbox=where, failed=True)
        result = RunResult(fetched, errors=[e])
    else:
        result = RunResult(fetched)
    campaign.mail_outbox = True  # what it signs owes its mail: the next command writes it if this one is killed
    for _ in range(1000):
        waiting = campaign.waiting()
        if waiting is None or waiting["side"] != campaign.side:
            break
        try:
            played = campaign.play(identity, [], None)
        except PbemError as e:  # e.g. the secrets locked: what was read stays read, what waits is sent
            result.errors.append(e)
            break
        if played.envelope is None:
            break
        if "disclose" in played.envelope.content["body"]:
            result.disclosed = played.envelope.seq
        else:
            result.adjudicated.append(played.envelope.seq)
        write_outbox(campaign, played, config.sender, automatic=True)
        campaign.exported(played.envelope)
    if pending_outbox(campaign):
        if config.smtp is None:
            result.errors.append(PbemError("no SMTP server configured", "the outbox waits: pbem mail config --smtp "
                                           "HOST:PORT ...", code="no-config"))
            result.sending.waiting = [(p, "no SMTP server configured") for p in pending_outbox(campaign)]
        else:
            try:
                result.sending = send(campaign, config, smtp_password, due_only=True)
            except PbemError as e:  # e.g. no password: everything waits
                result.errors.append(e)
                result.sending.waiting = [(p, f"not sent: {e.code}: {e}") for p in pending_outbox(campaign)]
            else:
                problem = result.sending.problem()
                if problem is not None:
                    result.errors.append(problem)
    return result
