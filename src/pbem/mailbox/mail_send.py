"""Sending the outbox by SMTP: each message on its own, a permanent refusal set aside with its
reason, a temporary one retried with backoff (see ``send``)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path

from .. import limits
from ..errors import PbemError
from ..store.files import atomic_write
from .mail import (
    PLACEHOLDER,
    MailConfig,
    Server,
    address,
    bare_address,
    email_policy,
    mail_for_file,
    outbox_dir,
)
from .team_mail import copies as team_copies
from .witness_mail import copies as witness_copies
from .outbox import pending_outbox, set_aside_outbox  # noqa: F401  (callers import them from here too)

# --- sending -------------------------------------------------------------------------
#
# Every message in outbox/ is sent on its own.  Accepted: moved to outbox/sent/.  Refused for
# good by the server (a 5xx: an unknown recipient, a message it will never take): set aside at
# once in outbox/failed/ with its reason beside it (NAME.reason.txt).  Refused for now (a 4xx:
# greylisting, a full mailbox): kept and tried again later, 5 minutes after the first failure,
# then each wait doubled up to 12 hours (``pbem mail run``), and set aside once it has failed for
# 5 days (RFC 5321's advice).  ``pbem mail send`` tries at once, whatever the wait: a try by hand
# that fails leaves the run's next try where it was (the waits grow with the run's own tries
# only), and one that goes clears the record.  A server that cannot be
# reached, or refuses our login, is no message's fault: everything waits for the next run and
# nothing is counted against a message.  One message never stops the others.

RETRY_FIRST_MINUTES = 5
RETRY_MOST_MINUTES = 12 * 60
GIVE_UP_HOURS = 5 * 24
_RETRY_KEY = "outbox-retry"


def _now():
    from datetime import datetime

    return datetime.now(UTC)


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
    outbox = outbox_dir(campaign)
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
        msg = email.message_from_bytes(path.read_bytes(), policy=email_policy())
    except Exception as e:  # noqa: BLE001  a file in the outbox that is not a message
        return None, f"not a message it can send ({type(e).__name__})"
    side = str(msg.get("X-Pbem-To-Side") or "").strip()
    if side:
        known = address(campaign, side)
        if known and known != str(msg.get("To") or ""):
            del msg["To"]
            msg["To"] = known
    sender = str(msg.get("From") or "")
    if bare_address(sender).endswith(f"@{PLACEHOLDER}"):
        own = config.sender or address(campaign, campaign.side)
        if not own:
            return None, "no From address yet: pbem mail config --from ADDRESS"
        del msg["From"]
        msg["From"] = own
    if msg.get("Date") is None:  # written before pbem dated its mail, or elsewhere: RFC 5322 requires one
        from ..wire.mime import date

        msg["Date"] = date()
    to = str(msg.get("To") or "")
    if not to.strip():
        return None, "it has no recipient"
    if bare_address(to).endswith(f"@{PLACEHOLDER}"):
        who = side or bare_address(to).partition("@")[0]
        return None, f"no address for {who} yet: pbem mail address {who} ADDRESS"
    return msg, bare_address(to)


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
        witness_copies(campaign, config.sender)  # one more message per turn file of ours to each witness
        team_copies(campaign, config.sender)  # and to each of a team side's people who lacks it
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
                tries = int(entry.get("tries", 0)) + 1  # every try, said when it is set aside
                steps = int(entry.get("steps", entry.get("tries", 0)))  # the unattended run's tries
                from datetime import datetime, timedelta

                failing = now - datetime.fromisoformat(first)
                if 400 <= code < 500 and failing < timedelta(hours=GIVE_UP_HOURS):
                    if due_only or not entry.get("next"):  # the wait grows with the run's own tries only:
                        steps += due_only  # a try by hand (pbem mail send) never puts the run's next one off
                        wait = min(RETRY_FIRST_MINUTES * 2 ** max(steps - 1, 0), RETRY_MOST_MINUTES)
                        later = (now + timedelta(minutes=wait)).isoformat(timespec="seconds")
                    else:
                        later = str(entry["next"])
                    record[path.name] = {"tries": tries, "steps": steps, "first": first, "next": later, "error": why}
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
        if record != before or out.set_aside:
            from .mail_notes import keep

            campaign.ledger.begin()
            if record:
                campaign.ledger.put_setting(_RETRY_KEY, json.dumps(record, sort_keys=True))
            else:
                campaign.ledger.delete_setting(_RETRY_KEY)
            if out.set_aside:  # for pbem status, after the file is mended and sent
                keep(campaign, [f"SET ASIDE {path.name}, not sent: {why}" for path, why in out.set_aside])
            campaign.ledger.commit()
    return out


def _set_aside(path: Path, to: str, reason: str) -> Path:
    folder = path.parent / "failed"
    folder.mkdir(exist_ok=True)
    atomic_write(folder / f"{path.stem}.reason.txt", f"{path.name} to {to}: {reason}\n")  # the reason first
    target = folder / path.name
    os.replace(path, target)
    return target


