"""A witness copy: the campaign of someone named in the invitation's ``witnesses`` who watches
(``pbem watch``).  It holds the genesis and every turn file ingested since, checked as a player's
copy checks them, and no secret: no chain, no private secret, no identity's box.  It signs
nothing and writes no turn file, so it never changes the game; every reading command (report,
replay, status, verify, audit) reads it as ``pbem.chain.witnesses.OBSERVER``, the side of no one,
and shows only what is public at each point: hidden items as concealed until the rules open them
or the end reveals every secret, sealed messages as sent, never what they say.

The campaign's settings say ``side`` = ``OBSERVER`` and ``witness`` = the witness's name.
"""

from __future__ import annotations

import secrets as secrets_mod
from pathlib import Path
from typing import TYPE_CHECKING

from ..chain import history
from ..chain.witnesses import OBSERVER, key_of, listed
from ..errors import PbemError, RefusedTurn
from ..store.ledger import Ledger
from ..store.lock import CampaignLock
from ..wire.armor import find_blocks
from ..wire.envelope import open_block
from .founding import DB_NAME

if TYPE_CHECKING:  # annotations only: the command hands the campaign class in
    from .campaign import Campaign

SETTING = "witness"


def name_of(campaign: Campaign) -> str:
    """The witness's name if ``campaign`` is a witness copy, else ''."""
    return campaign.ledger.setting(SETTING) or ""


def refuse_signing(campaign: Campaign, what: str) -> None:
    """A witness never signs: ``what`` (a command that would) is refused in one line.

    :raises PbemError: ``witness-signs-nothing``, when ``campaign`` is a witness copy."""
    if name_of(campaign):
        raise PbemError(f"a witness copy signs nothing: {what}", f"{campaign.dir} is {name_of(campaign)}'s witness "
                        "copy; it reads (report, replay, status, verify, audit) and ingests, never plays",
                        code="witness-signs-nothing")


def found(cls: type[Campaign], directory: Path, invitation: str, public: bytes) -> tuple[Campaign, str]:
    """Found a witness copy in ``directory`` from the genesis in ``invitation`` (text holding its
    turn file), for the witness whose Ed25519 key is ``public``; (campaign, the witness's name).

    :raises PbemError: no genesis; the genesis names no witness with this key (``wrong-key``);
        a campaign is already there (``exists``)."""
    geneses = [e for e in (open_block(b) for b in find_blocks(invitation)) if e.kind == "genesis"]
    if not geneses:
        raise RefusedTurn("no invitation found", "the file holds no genesis envelope", code="not-genesis")
    genesis = geneses[0]
    applied = history.apply(genesis, None, None, None)  # signature and every field, as a joiner checks
    mine = [w["name"] for w in listed(genesis.content) if key_of(genesis.content, w["name"]) == public]
    if not mine:
        names = ", ".join(w["name"] for w in listed(genesis.content)) or "none"
        raise PbemError("this invitation names no witness with your key",
                        f"its witnesses: {names}; ask the creator to name your public key with pbem new --witness",
                        code="wrong-key")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    held = CampaignLock(directory).acquire()
    try:
        db = directory / DB_NAME
        if db.exists() and not Ledger.unfinished(db):
            raise PbemError("a campaign already exists here", f"{db}; use --campaign to choose another directory",
                            code="exists")
        temporary = directory / f".{DB_NAME}.{secrets_mod.token_hex(4)}.new"
        ledger = Ledger.create(temporary)
        try:
            ledger.begin()
            for key, value in (("side", OBSERVER), ("identity", mine[0]), ("game", genesis.game), (SETTING, mine[0])):
                ledger.put_setting(key, value)
            ledger.commit()
        except BaseException:
            ledger.close()
            temporary.unlink(missing_ok=True)
            raise
    except BaseException:
        held.release()
        raise
    campaign = cls(directory, ledger, held, building=(temporary, db))
    campaign.archive("received", genesis)
    campaign.store([applied], owed=[])  # renames the database into place: a campaign.db is always whole
    return campaign, mine[0]

