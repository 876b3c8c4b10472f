"""Finishing what an interrupted command started: the turn files (and the outbox mail) a change
stored in the ledger but did not write, written by the next command that opens the campaign
for writing (``Campaign.open``).  See ``pbem.play.campaign`` on crash safety."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..errors import PbemError
from ..store.files import atomic_write
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block

if TYPE_CHECKING:  # only for annotations: the campaign imports this module, not the other way round
    from .campaign import Campaign


class Recovered:
    """What opening a campaign wrote for an interrupted command: turn files, outbox mail, and
    (``turn``: envelope, sent/ path) our own last turn if its file or mail was among them."""

    def __init__(self) -> None:
        self.files: list[Path] = []
        self.outbox: list[Path] = []
        self.turn: tuple[Envelope, Path] | None = None


# outbox(campaign, sent file, its hash) -> the mail written for it: handed in by whoever opens the
# campaign with a mailbox (pbem.mailbox.mail.write_outbox_again); the play flow never imports the mailbox
OutboxWriter = Callable[["Campaign", Path, str], list[Path]]


def recover(campaign: Campaign, outbox: OutboxWriter | None = None) -> Recovered:
    """Write the turn files (and, given ``outbox``, the outbox mail) the last change stored but did
    not write.  Without ``outbox`` an owed mail stays owed, for the next command that has one."""
    done = Recovered()
    if not (campaign.dir / "secrets").is_dir():  # a database copied alone somewhere: not a campaign folder to fill
        return done
    _remove_temporaries(campaign.dir)
    owed = json_setting(campaign.ledger.setting("owed-files"))
    for name, digest in owed if isinstance(owed, list) else []:
        path = campaign.dir / name
        if path.exists():
            continue
        raw = campaign.ledger.raw_by_hash(digest)
        if raw is None:
            continue
        path.parent.mkdir(exist_ok=True)
        atomic_write(path, raw)
        done.files.append(path)
        if name.startswith("sent/"):
            campaign.notice(f"recovered: {path.name} was signed and stored but not written (an interrupted "
                         f"command); written now: {path}")
            envelope = open_block(find_blocks(raw)[0])
            if envelope.kind == "turn":
                done.turn = (envelope, path)
    owed_mail = json_setting(campaign.ledger.setting("owed-outbox"))
    if isinstance(owed_mail, list) and len(owed_mail) == 2 and outbox is not None:
        name, digest = owed_mail
        sent = campaign.dir / "sent" / name
        stem = sent.stem
        written = [p for folder in (campaign.dir / "outbox", campaign.dir / "outbox" / "sent") if folder.is_dir()
                   for p in folder.glob(f"{stem}-*.eml")]
        if not written and sent.exists():
            try:
                done.outbox = outbox(campaign, sent, digest)
            except (PbemError, OSError) as e:
                campaign.notice(f"warning: the mail for {sent.name} could not be written again: {e}; send {sent} "
                             "yourself, or try 'pbem resend'")
            for message in done.outbox:
                campaign.notice(f"recovered: the mail for {sent.name} was not written (an interrupted command); "
                             f"written now: {message}")
            raw = campaign.ledger.raw_by_hash(digest)
            if done.outbox and raw:
                done.turn = (open_block(find_blocks(raw)[0]), sent)
        campaign.ledger.begin()
        campaign.ledger.delete_setting("owed-outbox")
        campaign.ledger.commit()
    return done


def json_setting(value: str | None) -> Any:
    """A setting that holds JSON, or None when it is missing or damaged."""
    try:
        return json.loads(value) if value else None
    except ValueError:
        return None


TEMPORARY = re.compile(r"\..+\.[0-9a-f]{12}\.tmp")  # the names files.temporary gives
LOCKED_FOLDERS = ("secrets", "sent", "received", "outbox", "evidence")  # written only under the campaign lock


def _remove_temporaries(directory: Path) -> None:
    """Temporary files a kill left in the middle of a write (``.NAME.RANDOM.tmp``), in the folders
    (and their sub-folders: sent/to-SIDE, outbox/sent) that only a command holding the campaign
    lock writes to, as this one does: no write of theirs is under way.  Never a real file, nor a
    temporary file of another name."""
    for name in LOCKED_FOLDERS:
        top = _entries(directory / name)
        inner = [e for d in top if d.is_dir(follow_symlinks=False) for e in _entries(Path(d.path))]
        for entry in top + inner:
            if entry.name.startswith(".") and TEMPORARY.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                Path(entry.path).unlink(missing_ok=True)


def _entries(folder: Path) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:  # no such folder (yet)
        return []
