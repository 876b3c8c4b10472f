"""Where a campaign's mail waits and what it records, read without the mail stack.

The outbox folders (``outbox/``, and ``outbox/failed/`` for what was set aside with its reason)
and the record of mail refused, answered or bounced lately (the ``mail-log`` setting) are read
by ``pbem status`` on every run; importing the sender and the composer to list two folders cost
a cold ``status`` about 5 ms. ``mail_send`` and ``mail_notes`` use these too.

May import: the standard library only.
"""

from __future__ import annotations

import json
from pathlib import Path

LOG_KEY = "mail-log"


def pending_outbox(campaign) -> list[Path]:
    folder = campaign.dir / "outbox"
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


def set_aside_outbox(campaign) -> list[Path]:
    folder = campaign.dir / "outbox" / "failed"
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


def kept(campaign) -> list[dict]:
    """The record of mail someone must look into, the newest last."""
    try:
        record = json.loads(campaign.ledger.setting(LOG_KEY) or "[]")
    except ValueError:
        return []
    return [e for e in record if isinstance(e, dict)] if isinstance(record, list) else []


def recent(campaign) -> list[str]:
    """What ``pbem status`` shows of the record: one line each, the newest last."""
    return [f"MAIL {e.get('at', '?')}: {e.get('line', '')}" for e in kept(campaign)]
