"""A loopback mail system for tests: an SMTP relay that delivers into mailboxes, and people
who play by mail alone.

``Relay`` is an aiosmtpd server on 127.0.0.1 that delivers what it accepts into each
recipient's mailbox: a Maildir on disk, or an IMAP user's INBOX on a private dovecot
(``tests.imap_server``; best effort: the tests that need it are skipped, visibly, without it).
It behaves as real mail systems do at their edges:

* an unknown recipient is refused at RCPT with a 550 (the sender sees it at once); an address
  in ``temporary`` with a 450 (greylisting, a full mailbox: try again later);
* an address in ``bounce`` is accepted, then bounced: a delivery status report (RFC 3464:
  multipart/report, empty Return-Path, from MAILER-DAEMON, the original message attached)
  goes to the sender's mailbox;
* an address in ``vacation`` gets the message and answers every one with an auto-reply
  (Auto-Submitted: auto-replied), even automatic ones: a responder worse than RFC 3834
  allows, so that only pbem's own restraint keeps the mail from looping;
* ``stop()`` and ``start()`` make an outage: the port refuses connections meanwhile.

Every delivery is logged (``Relay.log``: one ``Delivery`` per recipient), so a test can count
what was lost or duplicated.

``Person`` is a player or referee with its own PBEM_HOME (identity, mail settings), its own
campaign(s) and mailbox, driving the real ``pbem`` command line in-process.
"""

from __future__ import annotations

import email
import mailbox
import re
import socket
import time
from dataclasses import dataclass, field
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import Player, assert_no_traceback, invoke, new_player

Controller = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd not installed: pip install '.[test]'").Controller

DOMAIN = "example.org"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Delivery:
    sender: str  # the envelope sender ('' for a bounce)
    to: str
    message_id: str
    subject: str
    kind: str  # "mail", "bounce" (a report the relay wrote), "vacation" (an auto-reply it wrote)
    raw: bytes = field(repr=False, default=b"")

    @property
    def message(self):
        return email.message_from_bytes(self.raw, policy=default_policy)


class Mailbox:
    """Where one address's mail lands: a Maildir, or a dovecot user's INBOX."""

    def __init__(self, maildir: Path | None = None, imap=None, user: str = "") -> None:
        self.maildir, self.imap, self.user = maildir, imap, user
        if maildir is not None:
            maildir.parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(maildir, create=True)

    def deliver(self, raw: bytes) -> None:
        if self.imap is not None:
            self.imap.deliver(raw, user=self.user)
        else:
            mailbox.Maildir(self.maildir, create=False).add(raw)

    def messages(self) -> list[bytes]:
        if self.imap is not None:
            return self.imap.messages(user=self.user)
        return [bytes(m) for _, m in sorted(mailbox.Maildir(self.maildir, create=False).items())]


class _Handler:
    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.relay.temporary:
            self.relay.deferred.append(address)
            return f"450 4.2.0 <{address}>: Recipient address rejected: greylisted, try again later"
        if address.lower() not in self.relay.boxes and address.lower() not in self.relay.bounce:
            self.relay.refused.append(address)
            return f"550 5.1.1 <{address}>: Recipient address rejected: no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.relay.accept(envelope.mail_from or "", list(envelope.rcpt_tos), envelope.original_content)
        return "250 OK: queued"


class Relay:
    """The SMTP relay of this module's docstring."""

    def __init__(self) -> None:
        self.port = free_port()
        self.boxes: dict[str, Mailbox] = {}
        self.bounce: set[str] = set()
        self.vacation: set[str] = set()
        self.log: list[Delivery] = []
        self.refused: list[str] = []  # recipients refused at RCPT
        self.temporary: set[str] = set()  # addresses answered 450 (greylisting, a full mailbox) for now
        self.deferred: list[str] = []  # recipients answered 450
        self._controller = None

    def add(self, address: str, box: Mailbox) -> Mailbox:
        self.boxes[address.lower()] = box
        return box

    def start(self) -> Relay:
        for _ in range(50):  # the port of the last run may take a moment to be free again
            try:
                self._controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)
                self._controller.start()
                return self
            except (OSError, RuntimeError):
                self._controller = None
                time.sleep(0.1)
        raise RuntimeError(f"the relay cannot listen on 127.0.0.1:{self.port}")

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    @property
    def up(self) -> bool:
        return self._controller is not None

    # delivery ---------------------------------------------------------------------------
    def accept(self, sender: str, recipients: list[str], raw: bytes) -> None:
        msg = email.message_from_bytes(raw, policy=default_policy)
        mid, subject = str(msg.get("Message-ID", "")), str(msg.get("Subject", ""))
        for rcpt in recipients:
            if rcpt.lower() in self.bounce:
                self._bounce(sender, rcpt, raw, mid, subject)
                continue
            stamped = (f"Return-Path: <{sender}>\r\nDelivered-To: {rcpt}\r\n").encode() + raw
            self.boxes[rcpt.lower()].deliver(stamped)
            self.log.append(Delivery(sender, rcpt.lower(), mid, subject, "mail", stamped))
            if rcpt.lower() in self.vacation and sender.lower() in self.boxes:
                self._vacation(rcpt, sender, mid, subject)

    def _bounce(self, sender: str, rcpt: str, raw: bytes, mid: str, subject: str) -> None:
        if sender.lower() not in self.boxes:
            return
        boundary = f"report-{len(self.log)}"
        report = (
            f"Return-Path: <>\r\nFrom: MAILER-DAEMON@relay.{DOMAIN} (Mail Delivery System)\r\nTo: {sender}\r\n"
            f"Subject: Undelivered Mail Returned to Sender\r\nAuto-Submitted: auto-replied\r\n"
            f"Message-ID: <bounce-{len(self.log)}@relay.{DOMAIN}>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: multipart/report; report-type=delivery-status; boundary=\"{boundary}\"\r\n\r\n"
            f"--{boundary}\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered to {rcpt}.\r\n"
            f"--{boundary}\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; relay.{DOMAIN}\r\n\r\n"
            f"Final-Recipient: rfc822; {rcpt}\r\nAction: failed\r\nStatus: 5.2.1\r\n"
            f"Diagnostic-Code: smtp; 550 5.2.1 <{rcpt}>: mailbox moved, no forwarding address\r\n\r\n"
            f"--{boundary}\r\nContent-Type: message/rfc822\r\n\r\n").encode() + raw + f"\r\n--{boundary}--\r\n".encode()
        self.boxes[sender.lower()].deliver(report)
        self.log.append(Delivery("", sender.lower(), f"<bounce-{len(self.log)}@relay.{DOMAIN}>",
                                 "Undelivered Mail Returned to Sender", "bounce", report))

    def _vacation(self, rcpt: str, sender: str, mid: str, subject: str) -> None:
        reply = (f"Return-Path: <>\r\nFrom: {rcpt}\r\nTo: {sender}\r\nSubject: Auto: {subject}\r\n"
                 f"Auto-Submitted: auto-replied\r\nIn-Reply-To: {mid}\r\nReferences: {mid}\r\n"
                 f"Message-ID: <vacation-{len(self.log)}@{DOMAIN}>\r\n\r\n"
                 "I am away from my games until next week.\r\n").encode()
        self.boxes[sender.lower()].deliver(reply)
        self.log.append(Delivery(rcpt.lower(), sender.lower(), f"<vacation-{len(self.log)}@{DOMAIN}>",
                                 f"Auto: {subject}", "vacation", reply))

    # counting ---------------------------------------------------------------------------
    def to(self, address: str, kind: str | None = None) -> list[Delivery]:
        return [d for d in self.log if d.to == address.lower() and (kind is None or d.kind == kind)]

    def replies_from(self, address: str) -> list[Delivery]:
        """The answers a mailbox wrote (Auto-Submitted: auto-replied, from pbem)."""
        return [d for d in self.log if d.kind == "mail" and d.sender.lower() == address.lower()
                and b"Auto-Submitted: auto-replied" in d.raw]


# --- people --------------------------------------------------------------------------------

@dataclass(eq=False)
class Person:
    """A player or a referee: its own home (identity, mail.toml) and mailbox; campaigns by name."""

    runner: CliRunner
    player: Player
    address: str
    box: Mailbox
    imap: Any = None  # the dovecot server its mailbox is on, if it reads it by IMAP
    campaigns: dict[str, Path] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def env(self) -> dict[str, str]:
        env = dict(self.player.env)
        if self.imap is not None:
            env["PBEM_IMAP_PASSWORD"] = self.imap.users[self.box.user]
        return env

    def invoke(self, *args: Any, input: bytes | str | None = None, ok: bool | None = True):
        """``pbem ARGS`` as this person; ``ok``: True insists on success, False on exit 1, None on either."""
        result = invoke(self.runner, *args, env=self.env, input=input)
        assert_no_traceback(result)
        text = f"$ pbem {' '.join(map(str, args))}\n{result.output}{result.stderr}"
        self.outputs.append(text)
        if ok is True:
            assert result.exit_code == 0, text
        elif ok is False:
            assert result.exit_code == 1, text
        return result

    def configure(self, relay: Relay) -> None:
        args = ["mail", "config", "--smtp", f"127.0.0.1:{relay.port}", "--smtp-security", "none", "--from", self.address]
        if self.imap is not None:
            args += ["--imap", f"{self.imap.host}:{self.imap.port}", "--imap-security", "none",
                     "--imap-user", self.box.user]
        self.invoke(*args)

    def reading(self) -> list[str]:
        """The options that read this person's mailbox: none for IMAP, --maildir for a Maildir."""
        return [] if self.imap is not None else ["--maildir", str(self.box.maildir)]

    def newest_mail(self, subject_part: str) -> bytes:
        """The newest message in the mailbox whose subject holds ``subject_part``."""
        for raw in reversed(self.box.messages()):
            msg = email.message_from_bytes(raw, policy=default_policy)
            if subject_part in str(msg.get("Subject", "")):
                return raw
        raise AssertionError(f"no mail with {subject_part!r} for {self.address}")


def person(runner: CliRunner, root: Path, relay: Relay, name: str, side: str, box: Mailbox | None = None,
           imap=None) -> Person:
    player = new_player(runner, root, name, side)
    address = f"{name}@{DOMAIN}"
    box = box or Mailbox(root / "mail" / name)
    relay.add(address, box)
    return Person(runner, player, address, box, imap)


def signed_file(output: str) -> Path:
    m = re.search(r"signed turn file #\d+: (\S+)", output)
    assert m, output
    return Path(m.group(1))


def refereed_game(runner: CliRunner, root: Path, relay: Relay, module: str = "hill60",
                  referee_box: Mailbox | None = None, imap=None, options: tuple[str, ...] = ()
                  ) -> tuple[Person, Person, Person, Path, Path, Path]:
    """A refereed game set up by mail alone: the referee's invitations mailed, both players
    joined from the mail (piped in) and their joins mailed back; not yet read by the referee.
    Returns (ref, alice, bob, the referee's campaign, alice's, bob's)."""
    ref = person(runner, root, relay, "ref", "referee", box=referee_box, imap=imap)
    alice = person(runner, root, relay, "alice", "allied")
    bob = person(runner, root, relay, "bob", "ottoman")
    for p in (ref, alice, bob):
        p.configure(relay)
    game, a, b = root / "ref-game", root / "alice-game", root / "bob-game"
    ref.invoke("new", module, "--referee", "--key", "ref", "--player", f"allied={alice.player.pub}",
               "--player", f"ottoman={bob.player.pub}", "--campaign", game, *options)
    for p, side in ((alice, "allied"), (bob, "ottoman")):
        ref.invoke("mail", "address", side, p.address, "--campaign", game)
    ref.invoke("mail", "send", "--campaign", game)
    for p, where in ((alice, a), (bob, b)):
        p.invoke("join", "-", "--key", p.name, "--campaign", where, input=p.newest_mail("invitation"))
        p.invoke("mail", "send", "--campaign", where)
    return ref, alice, bob, game, a, b
