"""An invitation taken from the mailbox: what ``pbem join --from-mailbox`` joins.

The IMAP folder of ``pbem mail config`` is only read (nothing is marked or moved).  The messages
pbem wrote (its ``X-Pbem-Game`` header) are read newest first, each within the bounds of
``pbem.limits``; one that cannot be read is passed over, as mail is hostile.  The invitation is
the newest one naming the player's key: an invitation names each player by key, so another
player's, or an older game's once joined, is told apart by the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import limits
from ..errors import PbemError
from .mail import MailConfig

MOST_READ = 200  # pbem's own messages read, newest first, before giving up


@dataclass
class Offer:
    """One game's newest invitation in the mailbox."""

    raw: bytes
    label: str  # "message 12 of INBOX at imap.example.org"
    game: str
    title: str
    sender: str
    date: str

    @property
    def line(self) -> str:
        return f"game {self.game[:8]} ({self.title}, from {self.sender or 'an unknown sender'}, {self.date or 'undated'})"


def invitation_mail(config: MailConfig, password: str | None, public: bytes | None, game: str = "") -> Offer:
    """The newest invitation in the mailbox naming ``public`` (any, for None), of ``game`` (a
    prefix of its id) if given.

    :raises PbemError: the mailbox cannot be read; no such invitation; several games' and no
        ``game`` to choose one."""
    from .mail_fetch import imap_folder, imap_size

    offers: dict[str, Offer] = {}
    with imap_folder(config, password, "save the invitation's mail and give it: pbem join FILE") as client:
        where = f"{config.folder} at {config.imap.host}"
        _, found = client.uid("search", None, "HEADER", "X-Pbem-Game", '""')
        uids = found[0].decode().split() if found and found[0] else []
        for uid in reversed(uids[-MOST_READ:]):
            _, sizes = client.uid("fetch", uid, "(RFC822.SIZE)")
            size = imap_size(sizes)
            if size is not None and size > limits.value("MAX_MAIL_BYTES"):
                continue
            _, parts = client.uid("fetch", uid, "(BODY.PEEK[])")
            raw = next((p[1] for p in parts if isinstance(p, tuple)), b"")
            for offer in _offers(raw, f"message {uid} of {where}", public):
                offers.setdefault(offer.game, offer)  # newest first: an older copy of one game's adds nothing
    chosen = [o for o in offers.values() if o.game.startswith(game.lower())]
    if not chosen:
        whose = "naming your key" if public else "for anyone"
        which = f" of game {game}" if game else ""
        raise PbemError(f"no invitation{which} {whose} in {where}",
                        f"read {min(len(uids), MOST_READ)} message(s) pbem wrote" + (
                            f"; other games': {', '.join(o.game[:8] for o in offers.values())}" if offers else "")
                        + "; or save the invitation's mail and give it: pbem join FILE", code="no-invitation")
    if len(chosen) > 1:
        raise PbemError(f"{len(chosen)} invitations in {where}", "; ".join(o.line for o in chosen)
                        + ": give --game with the one you accept", code="several-invitations")
    return chosen[0]


def _offers(raw: bytes, label: str, public: bytes | None) -> list[Offer]:
    """The invitations in one message that name ``public``; none from a message that cannot be read."""
    from ..chain.history import pinned_key
    from ..wire.armor import scan
    from ..wire.envelope import open_block
    from .mailbox_in import automatic, from_address, header, message_texts, read_message

    try:
        message = read_message(raw)
        texts = message_texts(message)
        sender = "" if automatic(message) else from_address(message)
        date = header(message, "Date", 60)
    except Exception:  # noqa: BLE001  hostile or broken mail: not an invitation
        return []
    out = []
    for text in texts:
        for block in scan(text).blocks:
            try:
                envelope = open_block(block)
            except PbemError:
                continue
            content = envelope.content
            sides = content["body"].get("sides", {}) if envelope.kind == "genesis" else {}
            if sides and (public is None or any(pinned_key(content, s) == public for s in sides)):
                from pbem_engine import get_game

                try:
                    title = str(get_game(content["engine"]["module"]).title)
                except Exception:  # noqa: BLE001  only for the line that names it
                    title = str(content["engine"].get("module", "?"))
                out.append(Offer(raw, label, envelope.game, title, sender, date))
    return out
