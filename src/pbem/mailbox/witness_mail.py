"""Mail to the witnesses (``pbem.chain.witnesses``): one message per turn file of ours, to each
witness whose address this campaign knows, written into the outbox once (``mail_send.send``
calls ``copies`` before it sends the outbox).

What goes is the turn file from sent/ as it was signed, nothing else: a turn file of a two-player
game holds nothing a side hides in the clear (its hidden items are commitments, its own cards'
keys and sealed messages are encrypted to their reader), and the body is a fixed text naming the
file, never a report (a report drawn by our tool could name our own hidden items).  A witness's
address is the setting ``email:witness:NAME``; the message's ``X-Pbem-To-Side`` is
``witness:NAME``, so ``send`` puts in an address changed since the message was written.

In a refereed game only the referee's tool mails the witnesses: its invitation, then for each
adjudication its file in sent/witness/ (the chain since the last one, the players' sealed orders
with it, and the view of no side, ``pbem.chain.witnesses``), and its disclosure.  A player's own
files reach them that way, so a player's tool sends them none.
"""

from __future__ import annotations

from pathlib import Path

from ..chain.witnesses import FOLDER, OBSERVER, listed
from ..errors import PbemError
from .mail import address, check_address, compose, envelopes_in, save_message, written

PREFIX = "witness:"


def address_of(campaign, name: str) -> str:
    return address(campaign, PREFIX + name)


def set_witness_address(campaign, name: str, value: str) -> None:
    """Record where witness ``name`` gets our turn files.

    :raises PbemError: the invitation names no such witness; not an address."""
    names = [w["name"] for w in listed(campaign.genesis)]
    if name not in names:
        raise PbemError(f"no witness '{name}' in this game", f"its witnesses: {', '.join(names) or 'none'}",
                        code="bad-witness")
    check_address(value)
    campaign.ledger.begin()
    campaign.ledger.put_setting(f"email:{PREFIX}{name}", value)
    campaign.ledger.commit()


def _ours(campaign, path: Path) -> bool:
    """A turn file of this game signed by our side: one envelope (two-player), or the referee's
    invitation, take-back (fork), disclosure, or file for the witnesses (chain and view, ending
    with its own)."""
    envelopes = envelopes_in(campaign, path)
    if not envelopes or envelopes[-1].author != campaign.side:
        return False
    if not campaign.refereed:
        return len(envelopes) == 1
    if path.parent.name == FOLDER:
        return envelopes[-1].kind == "view"
    return len(envelopes) == 1 and (envelopes[0].kind in ("genesis", "fork") or "disclose" in envelopes[0].content["body"])


def _files(campaign) -> list[Path]:
    """Our files for the witnesses, in the order they are ingested (a refereed game: the referee's)."""
    sent = campaign.dir / "sent"
    if not campaign.refereed:
        return sorted(sent.glob("*.pbem"))
    if campaign.side != "referee":
        return []
    return sorted([*sent.glob("*.pbem"), *(sent / FOLDER).glob("*.pbem")], key=lambda p: p.name)


def copies(campaign, sender: str = "") -> list[Path]:
    """Write, once, a message to each witness with an address for each turn file of ours in sent/;
    the messages written."""
    if campaign.side == OBSERVER or not (campaign.dir / "sent").is_dir():
        return []
    out: list[Path] = []
    targets = [w["name"] for w in listed(campaign.genesis) if address_of(campaign, w["name"])]
    if not targets:
        return out
    title, game = campaign.game.title, campaign.genesis["game"]
    for path in _files(campaign):
        todo = [name for name in targets if not written(campaign, f"{path.stem}-{PREFIX[:-1]}-{name}")]
        if not todo or not _ours(campaign, path):
            continue
        for name in todo:
            body = (f"{name}: a turn file of {title} (game {game[:8]}) for you as its witness, signed by "
                    f"{campaign.side}: {path.name}.\n\nThe first is the invitation: found your witness copy with "
                    "pbem watch SAVED-MAIL --key YOUR-NAME --campaign DIR; then ingest each one with "
                    "pbem ingest --campaign DIR SAVED-MAIL.")
            msg = compose(campaign, PREFIX + name, [path], body, sender, f"for witness {name}: {path.name}")
            out.append(save_message(campaign, msg, f"{path.stem}-{PREFIX[:-1]}-{name}"))
    return out
