"""E-mail: ready-to-send messages, SMTP, IMAP, and a referee's mailbox run.

After a side acts, ``write_outbox`` puts a message in the campaign's
``outbox/``: addressed to the opponent (or, for a referee, one to each player
with that player's own file), the report as the body (bounded), the turn file
attached, once.  This module holds the configuration, the addresses and the
composing; ``mail_send.send`` delivers the outbox by SMTP; ``mail_fetch.fetch``
ingests new messages from an IMAP folder (or a Maildir); ``mail_run.run`` does
both for a referee, adjudicating in between, and answers a malformed message
politely.  Passwords
come from the environment or a prompt and are never written anywhere.  Mail
coming in is hostile: see the mailbox promise below, and ``pbem.limits``.

Server settings live in ``<home>/mail.toml``; addresses, per campaign, in its
settings (``pbem mail address``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pbem_engine.protocol.core import forced

from ..errors import PbemError
from ..store.files import atomic_write

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
    from ..chain.gamedata import (
        read_file,  # only where there are settings to read: pbem play reads this file
    )

    try:
        data = read_file(path)  # bounded in size and depth, as every file of the player's
    except (OSError, ValueError) as e:  # (tomllib's TOMLDecodeError is a ValueError)
        raise PbemError("the mail settings cannot be read", f"{path}: {e}", code="bad-config") from None
    if not isinstance(data, dict):
        raise PbemError("the mail settings cannot be read", f"{path}: not a TOML table", code="bad-config")
    servers = {}
    for kind in ("smtp", "imap"):
        entry = data.get(kind)
        if entry:
            if not isinstance(entry, dict) or not isinstance(entry.get("host"), str) or \
                    entry.get("security", "starttls") not in SECURITY or not isinstance(entry.get("port"), int):
                raise PbemError("the mail settings are wrong", f"{path} [{kind}]: a table with a host, a port "
                                f"number and security one of {', '.join(SECURITY)}", code="bad-config")
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


def check_address(value: str) -> None:
    """:raises PbemError: ``bad-address``, not an e-mail address (or one that would break a header)."""
    if "@" not in value or any(c in value for c in "\r\n"):
        raise PbemError(f"'{value}' is not an e-mail address", "give NAME ADDRESS, e.g. carol carol@example.org",
                        code="bad-address")


def set_address(campaign, side: str, value: str) -> None:
    known = _parties(campaign)
    if side not in known:
        raise PbemError(f"no side '{side}' in this game", f"sides: {', '.join(sorted(known))}", code="bad-side")
    check_address(value)
    campaign.ledger.begin()
    campaign.ledger.put_setting(f"email:{side}", value)
    campaign.ledger.commit()


def known_senders(campaign) -> dict[str, str]:
    """address (lower case) -> side, for every party of the game but ourselves."""
    out = {}
    for side in _parties(campaign) - {campaign.side}:
        value = address(campaign, side)
        if value:
            out[bare_address(value).lower()] = side
    return out


def bare_address(value: str) -> str:
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


def message_id(game_id: str, sender: str) -> str:
    import re

    from ..wire.mime import is_address
    from ..wire.mime import message_id as new_id

    domain = (sender if is_address(sender) else bare_address(sender)).rpartition("@")[2]
    if not re.fullmatch(r"[A-Za-z0-9.-]{1,200}", domain or ""):
        domain = PLACEHOLDER
    return new_id(f"pbem-{game_id[:16]}", domain)


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
    if envelope.kind == "leave":  # pbem.play.timebank
        return f"{envelope.author} on leave: {body['days']} day(s) from {body['from']}"
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
    alone = "no decision for you, your tool answers (pbem mail run): "  # a file no person needs to decide
    if why == "decide":
        text = waiting["text"].split(": ", 1)[1] if waiting["text"].startswith(f"{to_side}: ") else waiting["text"]
        try:
            prompt = campaign.game.prompt(campaign.match()["game"])
        except Exception:  # noqa: BLE001  only for the subject line
            prompt = None
        if prompt is not None and prompt.side == to_side and forced(prompt):
            return joined + alone + _short(f"{prompt.choices[0].label}, the only legal choice")
        return joined + f"your move: {_short(campaign.worded(text, own=False))}"  # what any side may read
    if why == "reveal":  # the reveal comes first; say what is decided after it, if it is the recipient's
        try:
            prompt = campaign.game.prompt(campaign.match()["game"])
        except Exception:  # noqa: BLE001  only for the subject line
            prompt = None
        if prompt is not None and prompt.side == to_side:
            return joined + f"your move: {_short(campaign.worded(prompt.text, own=False))}"
        return joined + alone + "a roll waits for your reveal"
    if why == "deck":
        return joined + alone + "your opponent's draw or shuffle waits for your deck file"
    if why == "secret":
        return joined + alone + "the game is over: open your hidden draws so they can be checked"
    return joined + f"your move ({why})"


def _view_status(payload: dict) -> str:
    if payload.get("prompt"):
        return f"your move: {_short(payload['prompt']['text'])}"
    if payload.get("outcome"):
        return f"game over: {_short(payload['outcome']['result'])}"
    waiting = payload.get("waiting")
    return f"{waiting['side']} to move" if waiting else "for your records"


def email_policy():
    """How pbem writes mail: as the standard says, but a header is folded only past 998 characters
    (folded at 78, Python breaks a long subject right after "Subject:", and mail programs show it
    with a leading space)."""
    import email.policy

    return email.policy.default.clone(max_line_length=998)


def compose(campaign, to_side: str, files: list[Path], body: str, sender: str, subject: str | None = None,
            automatic: bool = False) -> bytes:
    """A ready-to-send message to ``to_side``, as it is saved: ``body`` (cut past ``BODY_MOST``), then
    the turn files attached (once: inline as well, they doubled a referee's mail).  A plain one (bare
    addresses, ASCII text) is written by ``pbem.wire.mime``, the same bytes without importing ``email``;
    any other by ``email``.

    An address not known yet is written as ``SIDE@pbem.invalid``; ``send`` puts in the address
    recorded by then (``pbem mail address``), or keeps the message waiting for one."""
    from ..wire.mime import date, plain

    game = campaign.genesis["game"]
    sender = sender or address(campaign, campaign.side) or f"{campaign.side}@{PLACEHOLDER}"
    headers = [("From", sender), ("To", address(campaign, to_side) or f"{to_side}@{PLACEHOLDER}"),
               ("Subject", " ".join(f"{tag(campaign)} {subject or (files[0].name if files else '')}".split())),
               ("Date", date()), ("Message-ID", message_id(game, sender)), ("References", thread_root(game)),
               ("X-Pbem-Game", game), ("X-Pbem-To-Side", to_side)]
    if automatic:  # RFC 3834: written by a program, not a person: vacation notices stay quiet
        headers.append(("Auto-Submitted", "auto-generated"))
    texts = [(f.name, f.read_text()) for f in files]
    content = f"{_bounded(body)}\n\n" + (
        f"The turn file is attached ({', '.join(name for name, _ in texts)}): pbem mail fetch reads it from your "
        "mailbox, or save this mail and give it to pbem ingest.\n" if texts else "")
    written = plain(headers, content, texts)
    return written if written is not None else by_email(headers, content, texts)


BODY_MOST = 16000  # characters of a mail's text before its turn file (attached, once): a report or view


def _bounded(body: str) -> str:
    """``body``, cut at a line's end past ``BODY_MOST`` (the whole report: pbem report, once the attached
    file is ingested)."""
    if len(body) <= BODY_MOST:
        return body
    cut = body.rfind("\n", 0, BODY_MOST)
    cut = cut if cut > 0 else BODY_MOST
    return (body[:cut] + f"\n\n[... {body.count(chr(10), cut) + 1} more line(s) cut here: the whole report is "
            "pbem report's, once the attached file is ingested]")


def by_email(headers: list[tuple[str, str]], body: str, attachments: list[tuple[str, str]]) -> bytes:
    """The message written by the ``email`` package: ``headers`` in order, the text ``body``, then
    the text files ``attachments`` ((file name, text) pairs).  What ``pbem.wire.mime.plain`` must equal."""
    from email.message import EmailMessage

    msg = EmailMessage(policy=email_policy())
    for name, value in headers:
        msg[name] = value
    msg.set_content(body)
    for name, text in attachments:
        msg.add_attachment(text, subtype="plain", filename=name)
    return msg.as_bytes(policy=email_policy())


def outbox_dir(campaign) -> Path:
    folder = campaign.dir / "outbox"
    folder.mkdir(exist_ok=True)
    return folder


def written(campaign, stem: str) -> bool:
    """Whether the message ``stem`` was written already (waiting, sent, or set aside)."""
    outbox = campaign.dir / "outbox"
    return any((folder / f"{stem}.eml").exists() for folder in (outbox, outbox / "sent", outbox / "failed"))


def envelopes_in(campaign, path: Path) -> list:
    """The envelopes of a turn file of this game (what sent/ or received/ holds; checked, not
    assumed), or none."""
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block

    try:
        envelopes = [open_block(b) for b in find_blocks(path.read_text())]
    except (OSError, UnicodeDecodeError, PbemError):
        return []
    return envelopes if all(e.game == campaign.genesis["game"] for e in envelopes) else []


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
    from ..wire.keys import fingerprint

    genesis = campaign.genesis
    title, game = campaign.game.title, genesis["game"]
    names = {s: e["name"] for s, e in genesis["body"]["sides"].items()}
    if campaign.refereed:
        names["referee"] = genesis["body"]["referee"]["name"]
    me = names.get(envelope.author, envelope.author)
    if envelope.kind == "genesis":
        from ..chain import invitation

        who = (f"{me}, the referee," if campaign.refereed else me)
        lines = [f"{who} invites you to a game of {title} by e-mail, played with pbem (signed turn files, "
                 f"dice no one can fake). You play {to_side}.", "", "The invitation asks you to agree to:"]
        lines += [f"  {line}" for line in invitation.terms(genesis, fingerprint)]
        lines += ["", f"Compare the fingerprints with {me} by phone or in person first: e-mail proves nothing.",
                  "To accept, save this message and join with it (or pipe it in):", "",
                  "  pbem join saved-message.eml --key YOUR-NAME --campaign DIR",
                  "  pbem join - --key YOUR-NAME --campaign DIR < saved-message.eml", "",
                  "or, with pbem reading your mailbox (pbem mail config --imap ...), without saving it:", "",
                  "  pbem join --from-mailbox --key YOUR-NAME --campaign DIR", "",
                  "pbem join writes your join turn file and a mail with it, for you to send back."]
        return "\n".join(lines)
    if envelope.kind == "join":
        return (f"{me} joins {title} (game {game[:8]}) as {envelope.author}.\n\n"
                "Ingest the attached turn file: pbem ingest, pbem mail fetch, or a referee's pbem mail run.")
    if envelope.kind == "leave":
        body = envelope.content["body"]
        return (f"{me} ({envelope.author}) declares leave in {title}: {body['days']} day(s) from {body['from']} "
                "(UTC), when the clock of that side stops.\n\nIngest the attached notice: pbem ingest or pbem mail fetch.")
    if envelope.kind == "claim":
        body = envelope.content["body"]
        return (f"{me} ({envelope.author}) claims a timeout: {body['owed_by']} has owed turn file "
                f"#{body['since'] + 1} for {body['hours']} hours (agreed: {body.get('deadline_hours')}).")
    if campaign.refereed and envelope.author == "referee":  # the disclosure (views go by view_text)
        return (f"The game is over: the referee discloses {title} (game {game[:8]}) with turn file #{envelope.seq}, "
                "which publishes the referee's salt and key.\n\nIngest the attached file, then check the whole "
                "game yourself: pbem verify and pbem audit replay every order, roll and view.")
    if campaign.refereed:
        from ..play.messages import shown  # what its author says beside them, as the referee may read it

        return (f"{envelope.author}'s orders for {title} (game {game[:8]}), turn file #{envelope.seq}, "
                "sealed to the referee: only the referee can read them." + "".join(
                    f"\n  > {m['line']}" for m in shown(campaign, "referee", envelope.seq - 1, envelope.seq)))
    from ..view.report import render

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
            out.append(save_message(campaign, msg, f"{path.stem}-{side}"))
        return out
    if envelope is None or result.path is None:
        return []
    for side in _recipients(campaign, envelope):
        msg = compose(campaign, side, [result.path], _body(campaign, envelope, side), sender,
                      _status(campaign, envelope, side), automatic)
        out.append(save_message(campaign, msg, f"{result.path.stem}-{side}"))
    return out


def view_text(campaign, side: str, seq: int, with_status: bool = False):
    """The body of a referee's message to ``side``: what its sealed view says (the referee may read it)."""
    from ..chain.hidden import TOKEN, public_knowledge, show
    from ..play.refereeing import view_payload

    game = campaign.game
    match = campaign.ledger.state(seq)[1] if campaign.ledger.envelope_index(seq) else campaign.match()
    events = [{"text": e["text"], "to": e["to"]} for e in campaign.ledger.events(seq - 2)]
    payload = view_payload(game, match["full"], seq, side, events, campaign.ledger.rolls(seq - 2))
    # hidden items as anyone may know them ("a concealed block"): the mail travels in clear, the view sealed
    known = public_knowledge(campaign.genesis["game"], {"private": match["full"].get("private", {})})
    lines = [f"{game.title} -- your view ({side}) after turn file #{seq}", ""]
    lines += [f"  {show(text, known, game)}" for text in payload["events"]]
    from ..play.messages import shown  # what was said beside the orders and the adjudication, as ``side`` may read it

    lines += [f"  > {m['line']}" for m in shown(campaign, side, seq - 2, seq)]
    lines += [""] + [show(line, known, game) for line in game.describe(payload["view"])]
    if payload["prompt"]:
        choices = payload["prompt"]["choices"]
        lines += ["", show(payload["prompt"]["text"], known, game)]
        if any(TOKEN.search(label) for label, _ in choices):  # they name your own items: your tool can
            lines.append(f"  ({len(choices)} choices, some naming your concealed items: pbem play lists them "
                         "by name)")
        else:
            lines += [f"  {i}. {label}" for i, (label, _) in enumerate(choices, 1)]
        lines += ["", "Ingest the attached file (pbem ingest, or pbem mail fetch) and give your orders with "
                  "pbem play; pbem mail send sends them to the referee."]
    elif payload["outcome"]:
        lines += ["", f"RESULT: {payload['outcome']['result']} -- {payload['outcome']['reason']}"]
    text = "\n".join(lines)
    return (text, _view_status(payload)) if with_status else text


def save_message(campaign, msg, stem: str) -> Path:
    """``msg``: a message (``email``'s) or its bytes (``compose``)."""
    data = msg if isinstance(msg, bytes) else msg.as_bytes(policy=email_policy())
    return atomic_write(outbox_dir(campaign) / f"{stem}.eml", data)


def mail_for_file(campaign, path: Path, sender: str = "") -> list[Path]:
    """Ready-to-send mail for a turn file of ours (an invitation, a join, a turn, a referee's file
    for one player) given by its path: what ``pbem mail send FILE.pbem`` sends.

    :raises PbemError: not a turn file of this game signed by this side."""
    from ..play.plays import PlayResult
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block

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
        views = campaign.player_files(envelope, path)
    return write_outbox(campaign, PlayResult(envelope, path, [], [], [], views), sender)


def write_outbox_again(campaign, sent: Path, digest: str) -> list[Path]:
    """The outbox mail of our turn file ``sent`` (hash ``digest``), which an interrupted command
    stored but did not write: handed to ``Campaign.open`` (pbem.play.recovery) by the commands."""
    from ..play.plays import PlayResult
    from ..wire.armor import find_blocks
    from ..wire.envelope import open_block
    from ..wire.keys import default_home

    raw = campaign.ledger.raw_by_hash(digest)
    if raw is None:
        return []
    envelope = open_block(find_blocks(raw)[0])
    views = campaign.player_files(envelope, sent)
    try:
        sender = load_config(default_home()).sender
    except PbemError:
        sender = ""
    return write_outbox(campaign, PlayResult(envelope, sent, [], [], [], views), sender)
