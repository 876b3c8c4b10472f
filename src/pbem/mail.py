"""E-mail: ready-to-send messages, SMTP, IMAP, and a referee's mailbox run.

After a side acts, ``write_outbox`` puts a message in the campaign's
``outbox/``: addressed to the opponent (or, for a referee, one to each player
with that player's own file), the report as the body, the turn file inline
and attached.  ``send`` delivers the outbox by SMTP; ``fetch`` ingests new
messages from an IMAP folder; ``run`` does both for a referee, adjudicating
in between, and answers a malformed message politely.  Passwords come from
the environment or a prompt and are never written anywhere.

Server settings live in ``<home>/mail.toml``; addresses, per campaign, in its
settings (``pbem mail address``).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import PbemError

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
    path = home / CONFIG
    path.write_text("\n".join(lines) + "\n")
    return path


# --- composing ------------------------------------------------------------------

def address(campaign, side: str) -> str:
    return campaign.ledger.setting(f"email:{side}") or ""


def set_address(campaign, side: str, value: str) -> None:
    known = set(campaign.game.sides) | ({"referee"} if campaign.refereed else set())
    if side not in known:
        raise PbemError(f"no side '{side}' in this game", f"sides: {', '.join(sorted(known))}", code="bad-side")
    if "@" not in value or any(c in value for c in "\r\n"):
        raise PbemError(f"'{value}' is not an e-mail address", code="bad-address")
    campaign.ledger.begin()
    campaign.ledger.put_setting(f"email:{side}", value)
    campaign.ledger.commit()


def compose(campaign, to_side: str, files: list[Path], body: str, sender: str):
    from email.message import EmailMessage
    from email.utils import make_msgid

    genesis = campaign.genesis
    msg = EmailMessage()
    msg["From"] = sender or address(campaign, campaign.side) or f"{campaign.side}@pbem.invalid"
    msg["To"] = address(campaign, to_side) or f"{to_side}@pbem.invalid"
    first = files[0].name if files else ""
    msg["Subject"] = f"[pbem {genesis['game'][:8]}] {campaign.game.title}: {first}"
    msg["Message-ID"] = make_msgid(domain="pbem.invalid")
    msg["X-Pbem-Game"] = genesis["game"]
    inline = "\n".join(f.read_text() for f in files)
    msg.set_content(f"{body}\n\n--- turn file (also attached) ---\n\n{inline}")
    for f in files:
        msg.add_attachment(f.read_text(), subtype="plain", filename=f.name)
    return msg


def _outbox(campaign) -> Path:
    folder = campaign.dir / "outbox"
    folder.mkdir(exist_ok=True)
    return folder


def write_outbox(campaign, result, sender: str = "") -> list[Path]:
    """The ready-to-send messages for what ``pbem play`` just signed."""
    from .report import render

    out = []
    if result.paths:  # a referee: one message per player, each with its own file and view
        for path in result.paths:
            side = path.parent.name.removeprefix("to-")
            body = view_text(campaign, side, result.envelope.seq)
            out.append(_save(campaign, compose(campaign, side, [path], body, sender), f"{path.stem}-{side}"))
        return out
    if result.envelope is None or result.path is None:
        return []
    if campaign.refereed:
        targets = ["referee"] if campaign.side != "referee" else sorted(campaign.game.sides)
        body = f"{campaign.side} sends turn file #{result.envelope.seq} to the referee."
    else:
        targets = [campaign.opponent]
        body = render(campaign, "text", side=campaign.opponent)  # the opponent's view: nothing hidden of ours
    for side in targets:
        out.append(_save(campaign, compose(campaign, side, [result.path], body, sender), f"{result.path.stem}-{side}"))
    return out


def view_text(campaign, side: str, seq: int) -> str:
    """The body of a referee's message to ``side``: what its sealed view says (the referee may read it)."""
    from .refereeing import view_payload

    game = campaign.game
    match = campaign.match()
    events = [{"text": e["text"], "to": e["to"]} for e in campaign.ledger.events(seq - 2)]
    payload = view_payload(game, match["full"], seq, side, events, campaign.ledger.rolls(seq - 2))
    lines = [f"{game.title} -- your view ({side}) after envelope #{seq}", ""]
    lines += [f"  {text}" for text in payload["events"]]
    lines += [""] + game.describe(payload["view"])
    if payload["prompt"]:
        lines += ["", payload["prompt"]["text"]] + [f"  {i}. {label}" for i, (label, _) in
                                                  enumerate(payload["prompt"]["choices"], 1)]
        lines += ["", "Ingest the attached file (pbem ingest) and give your orders with pbem play."]
    elif payload["outcome"]:
        lines += ["", f"RESULT: {payload['outcome']['result']} -- {payload['outcome']['reason']}"]
    return "\n".join(lines)


def _save(campaign, msg, stem: str) -> Path:
    path = _outbox(campaign) / f"{stem}.eml"
    path.write_bytes(bytes(msg))
    return path


# --- sending -------------------------------------------------------------------------

def pending_outbox(campaign) -> list[Path]:
    folder = campaign.dir / "outbox"
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


def send(campaign, config: MailConfig, password: str | None, files: list[Path] | None = None) -> list[Path]:
    """Send ``files`` (default: the whole outbox) and move each to outbox/sent/ once accepted."""
    import smtplib

    from .mailbox_in import parse_message

    if config.smtp is None:
        raise PbemError("no SMTP server configured", "pbem mail config --smtp HOST:PORT ...", code="no-config")
    files = pending_outbox(campaign) if files is None else files
    if not files:
        return []
    server = config.smtp
    try:
        if server.security == "ssl":
            client = smtplib.SMTP_SSL(server.host, server.port, context=server.tls(), timeout=30)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=30)
        with client:
            if server.security == "starttls":
                client.starttls(context=server.tls())
            if server.user:
                if not password:
                    raise PbemError("no SMTP password", "set PBEM_SMTP_PASSWORD or answer the prompt", code="no-password")
                client.login(server.user, password)
            sent = []
            done = campaign.dir / "outbox" / "sent"
            done.mkdir(parents=True, exist_ok=True)
            for path in files:
                client.send_message(parse_message(path.read_bytes()))
                target = done / path.name
                path.replace(target)
                sent.append(target)
            return sent
    except (OSError, smtplib.SMTPException) as e:
        raise PbemError("sending mail failed", f"{server.host}:{server.port}: {e}", code="smtp") from None


# --- receiving ---------------------------------------------------------------------------

@dataclass
class Fetched:
    accepted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[tuple[str, str, str]] = field(default_factory=list)  # (sender, subject, reason)


def fetch(campaign, config: MailConfig, password: str | None) -> Fetched:
    """Ingest every message of the IMAP folder not yet processed; one transaction per message.

    A message that is refused is reported (and left out), never lost: the
    mailbox is not changed, and the UIDs already processed are remembered.
    """
    import imaplib

    from .mailbox_in import parse_message

    if config.imap is None:
        raise PbemError("no IMAP server configured", "pbem mail config --imap HOST:PORT ...", code="no-config")
    server = config.imap
    out = Fetched()
    try:
        client = (imaplib.IMAP4_SSL(server.host, server.port, ssl_context=server.tls())
                  if server.security == "ssl" else imaplib.IMAP4(server.host, server.port))
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
            seen = set(json.loads(campaign.ledger.setting(key) or "[]"))
            _, found = client.uid("search", None, "ALL")
            for uid in (found[0].decode().split() if found and found[0] else []):
                if uid in seen:
                    continue
                _, parts = client.uid("fetch", uid, "(BODY.PEEK[])")
                raw = next((p[1] for p in parts if isinstance(p, tuple)), b"")
                msg = parse_message(raw)
                _ingest_message(campaign, msg, uid, out)
                seen.add(uid)
                campaign.ledger.begin()
                campaign.ledger.put_setting(key, json.dumps(sorted(seen, key=int)))
                campaign.ledger.commit()
        finally:
            try:
                client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
    except (OSError, imaplib.IMAP4.error) as e:
        raise PbemError("reading mail failed", f"{server.host}:{server.port}: {e}", code="imap") from None
    return out


def _ingest_message(campaign, msg, uid: str, out: Fetched) -> None:
    from .mailbox_in import message_texts

    sender, subject = str(msg.get("From", "")), str(msg.get("Subject", ""))
    texts = [(f"message {uid}", t) for t in message_texts(msg)]
    if not texts:
        out.skipped.append(f"message {uid} ({subject!r}): no turn file in it")
        return
    try:
        result = campaign.ingest(texts, skip_other_games=True)
    except PbemError as e:
        out.refused.append((sender, subject, f"{e.code}: {e}" + (f"\n  {e.detail}" if e.detail else "")))
        return
    out.accepted += [f"#{e.seq} from {e.author}" for e in result.accepted]
    out.accepted += [f"view after #{e.seq}" for e in getattr(result, "views", [])]
    out.skipped += [f"#{e.seq} from {e.author}: {why}" for e, why in result.skipped]


def polite_reply(campaign, sender: str, subject: str, reason: str, from_address: str) -> Path:
    from email.message import EmailMessage
    from email.utils import make_msgid

    msg = EmailMessage()
    msg["From"] = from_address or f"{campaign.side}@pbem.invalid"
    msg["To"] = sender
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Message-ID"] = make_msgid(domain="pbem.invalid")
    msg.set_content(
        "Hello,\n\nthank you for your message. It could not be used for our game, and nothing in it was "
        f"recorded:\n\n  {reason}\n\nPlease check that you sent the turn file pbem wrote for you (attached or "
        "pasted whole, from -----BEGIN PBEM TURN----- to -----END PBEM TURN-----), and send it again.\n\n"
        f"-- the pbem mailbox of {campaign.game.title}, game {campaign.genesis['game'][:8]}\n")
    return _save(campaign, msg, f"reply-{msg['Message-ID'].strip('<>').split('@')[0]}")


@dataclass
class RunResult:
    fetched: Fetched
    adjudicated: list[int] = field(default_factory=list)
    sent: list[Path] = field(default_factory=list)
    replies: list[Path] = field(default_factory=list)


def run(campaign, identity, config: MailConfig, smtp_password: str | None, imap_password: str | None) -> RunResult:
    """A referee's mailbox, once: read new mail, adjudicate every time it is the referee's
    turn, send each player its file, answer malformed mail.  Safe to repeat (e.g. from cron)."""
    fetched = fetch(campaign, config, imap_password)
    result = RunResult(fetched)
    for sender, subject, reason in fetched.refused:
        result.replies.append(polite_reply(campaign, sender, subject, reason, config.sender))
    for _ in range(1000):
        waiting = campaign.waiting()
        if waiting is None or waiting["side"] != campaign.side:
            break
        played = campaign.play(identity, [], None)
        if played.envelope is None:
            break
        result.adjudicated.append(played.envelope.seq)
        write_outbox(campaign, played, config.sender)
    result.sent = send(campaign, config, smtp_password) if pending_outbox(campaign) else []
    return result
