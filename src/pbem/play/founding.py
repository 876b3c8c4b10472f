"""Founding a campaign: creating a game (``Campaign.new``, ``Campaign.new_refereed``) or joining
one from an invitation (``Campaign.join``), and building the campaign directory they start in.

``start_new`` builds the database under a temporary name and ``finish_create`` (called by the
first ``Campaign.store``) renames it into place as campaign.db, the last step: a kill before it
leaves no campaign, and the next ``pbem new``/``join`` there sets what it left aside
(``interrupted-N/``, never deleted).

The functions take the campaign class as ``cls`` and ``pbem.play.campaign`` attaches them as its
classmethods; this module never imports ``pbem.play.campaign`` (it would be a cycle).
"""

from __future__ import annotations

import base64
import os
import secrets as secrets_mod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem_engine.protocol import match as protocol
from pbem_engine.protocol.core import Game
from pbem_engine.registry import UnknownGame, get_game

from ..chain import history
from ..chain import teams as teams_mod
from ..errors import PbemError, RefusedTurn
from ..store import vault
from ..store.files import sync_folder
from ..store.ledger import Ledger
from ..store.lock import CampaignLock, crash_point
from ..wire.armor import find_blocks
from ..wire.envelope import Envelope, open_block, seal
from ..wire.keys import Identity

if TYPE_CHECKING:  # annotations only: pbem.play.campaign imports this module
    from .campaign import Campaign

__all__ = ["DB_NAME", "DRAFT_NAME", "finish_create", "join", "new", "new_refereed", "start_new"]

DB_NAME = "campaign.db"
DRAFT_NAME = "draft.json"


def new(cls: type[Campaign], directory: Path, module: str, side: str, identity: Identity, opponent_key: bytes,
        opponent_name: str, scenario: str | None = None, options: dict[str, Any] | None = None,
        mode: str = "sealed", chain: int = protocol.CHAIN_LENGTH, deadline_hours: int | None = None,
        lock: bytes | None = None, entropy: Callable[[int], bytes] = secrets_mod.token_bytes,
        clock: dict[str, Any] | None = None,
        witnesses: list[dict[str, str]] | None = None,
        teams: dict[str, list[dict[str, str]]] | None = None, signs: str = "commander") -> tuple[Campaign, Envelope]:
    """Create a game: the genesis envelope, pinning both sides' keys.  ``teams``: {side: [{name, key}]},
    the members of a side besides its player, and ``signs`` who of them signs (``pbem.chain.teams``).
    ``clock``: the time bank agreed (``pbem.chain.invitation.CLOCK_FIELDS``); without one the genesis has no such field.
    ``witnesses``: [{name, key}] who receive the public part of every file (``pbem.chain.witnesses``).

    ``entropy(n)`` gives the random bytes (game id, secrets); tests pass a fixed source
    so that a game's turn files are the same byte for byte on every run.
    """
    try:
        if module == "tabletop":
            from pbem_engine.registry import tabletop_game

            if not isinstance((options or {}).get("pack"), dict):
                raise PbemError("table-top mode needs a data pack", "pbem new tabletop --pack NAME-OR-DIR",
                                code="no-pack")
            game = tabletop_game(options["pack"])
        else:
            game = get_game(module)
    except UnknownGame as e:
        raise PbemError("unknown game module", str(e), code="unknown-module") from None
    if side not in game.sides:
        raise PbemError(f"{game.name} has no side '{side}'", f"sides: {', '.join(game.sides)}", code="bad-side")
    if opponent_key == identity.public:
        raise PbemError("the opponent's key is your own", "name the public key your opponent sent you", code="bad-key")
    scenario = scenario or next(iter(game.scenarios))
    other = next(s for s in game.sides if s != side)
    game_id = entropy(16).hex()
    secret = entropy(32)
    anchor = protocol.chain_links(game_id, side, secret, chain)[0]
    body = {"mode": mode, "protocol": protocol.PROTOCOLS[-1], "scenario": scenario, "options": options or {},
            "title": game.title,
            "chain": chain, "anchor": anchor.hex(), "deadline_hours": deadline_hours,
            "sides": {side: {"key": base64.b64encode(identity.public).decode(), "name": identity.name},
                      other: {"key": base64.b64encode(opponent_key).decode(), "name": opponent_name}}}
    if clock is not None:
        body["clock"] = clock
    if witnesses:
        body["witnesses"] = witnesses
    teams_mod.pin(body, game.name, teams, signs)
    teams_mod.check(body)  # before anything is written: a key pinned twice is refused here
    hidden = _private_secret(game, game_id, side, body, entropy)
    content = {"v": 1, "game": game_id, "seq": 0, "prev": history.GENESIS_PREV, "author": side,
               "kind": "genesis", "engine": history.engine_stamp(game), "body": body, "state": ""}
    try:
        content["state"] = history.state_after(None, None, content)
    except protocol.ProtocolError as e:
        raise PbemError(f"{module} cannot start this game", str(e), code=e.code) from None
    envelope = seal(identity, content)
    campaign = cls.start_new(directory, side, identity.name, game_id, secret, chain, hidden, lock)
    campaign.archive("sent", envelope)  # before the database is in place: a campaign has its invitation
    campaign.store([history.apply(envelope, None, None, None)])
    return campaign, envelope


def new_refereed(cls: type[Campaign], directory: Path, module: str, identity: Identity,
                 players: dict[str, tuple[bytes, str]], scenario: str | None = None,
                 options: dict[str, Any] | None = None, deadline_hours: int | None = None,
                 lock: bytes | None = None, chain: int = protocol.CHAIN_LENGTH,
                 **people: Any) -> tuple[Campaign, Envelope]:
    """The referee creates a game for ``players`` ({side: (public key, name)}); the genesis is
    ``pbem.play.refereeing``'s, and this campaign keeps the referee's salt and box key with its chain.
    ``people``: the witnesses and team members it names (``new_genesis``)."""
    from .refereeing import REFEREE, new_genesis

    envelope, applied, chain_secret, kept = new_genesis(module, identity, players, scenario, options,
                                                        deadline_hours, chain, **people)
    campaign = cls.start_new(directory, REFEREE, identity.name, envelope.game, chain_secret,
                             chain, None, lock, kept)
    campaign.store([applied])
    campaign.archive("sent", envelope)
    return campaign, envelope


def join(cls: type[Campaign], directory: Path, invitation: str, identity: Identity, lock: bytes | None = None,
         entropy: Callable[[int], bytes] = secrets_mod.token_bytes) -> tuple[Campaign, Envelope]:
    """Accept an invitation: check the genesis, commit our chain, write the join envelope."""
    envelopes = [open_block(b) for b in find_blocks(invitation)]
    geneses = [e for e in envelopes if e.kind == "genesis"]
    if not geneses:
        raise RefusedTurn("no invitation found", "the file holds no genesis envelope", code="not-genesis")
    genesis = geneses[0]
    applied = history.apply(genesis, None, None, None)
    sides = genesis.content["body"]["sides"]
    mine = [s for s in sorted(sides) if history.pinned_key(genesis.content, s) == identity.public]
    member = teams_mod.side_of_member(genesis.content, identity.public)
    if not mine and member:  # a member's copy comes from its side's player, secrets and all
        raise PbemError(f"you are {member[1]}, a member of {member[0]}'s team: you do not join, you import",
                        f"ask {member[0]}'s player for a team copy (pbem team export --to {member[1]}), then "
                        "pbem team import FILE --key NAME", code="wrong-key")
    if not mine or mine[0] == genesis.author:
        raise PbemError("this invitation is not for you",
                        f"identity '{identity.name}' ({identity.fingerprint}) is not a player named in it", code="wrong-key")
    side = mine[0]
    game_id = genesis.game
    secret = entropy(32)
    chain = genesis.content["body"]["chain"]
    anchor = protocol.chain_links(game_id, side, secret, chain)[0]
    body = {"anchor": anchor.hex()}
    hidden = _private_secret(history.game_of(genesis.content), game_id, side, body, entropy)
    box = None
    if genesis.content["body"].get("mode") == "referee":
        from ..chain.referee import box_keypair

        box, body["box"] = box_keypair()
        body["box"] = body["box"].hex()
    if box is not None:
        from .refereeing import join_content

        envelope = seal(identity, join_content(genesis, side, body["anchor"], body["box"], hidden,
                                               body.get("private_anchor")))
        campaign = cls.start_new(directory, side, identity.name, game_id, secret, chain, hidden, lock,
                                 {"box": box.hex()})
        campaign.archive("received", genesis)
        campaign.archive("sent", envelope)  # the join is not in the ledger: written before it is in place
        campaign.store([applied])
        return campaign, envelope
    content = {"v": 1, "game": game_id, "seq": 1, "prev": genesis.hash, "author": side, "kind": "join",
               "engine": genesis.content["engine"], "body": body, "state": ""}
    content["state"] = history.state_after(applied.match, genesis.content, content)
    envelope = seal(identity, content)
    campaign = cls.start_new(directory, side, identity.name, game_id, secret, chain, hidden, lock,
                             {"box": box.hex()} if box else None)
    campaign.archive("received", genesis)
    campaign.archive("sent", envelope)
    campaign.store([applied, history.apply(envelope, genesis.content, applied.match, (0, genesis.hash))])
    return campaign, envelope


def start_new(cls: type[Campaign], directory: Path, side: str, identity: str, game_id: str, secret: bytes,
              chain: int, hidden: bytes | None = None, lock: bytes | None = None,
              extra: dict[str, str] | None = None) -> Campaign:
    """A campaign being built: its secrets in place, its database under a temporary name
    until the first ``store`` renames it to campaign.db (the last step: a kill before it
    leaves no campaign, and the next ``pbem new``/``join`` here sets the leftovers aside)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    held = CampaignLock(directory).acquire()
    try:
        db = directory / DB_NAME
        if db.exists() and not Ledger.unfinished(db):
            raise PbemError("a campaign already exists here", f"{db}; use --campaign to choose another directory",
                            code="exists")
        _set_aside_leftovers(directory)
        temporary = directory / f".{DB_NAME}.{secrets_mod.token_hex(4)}.new"
        ledger = Ledger.create(temporary)
        try:
            ledger.begin()
            for key, value in (("side", side), ("identity", identity), ("game", game_id)):
                ledger.put_setting(key, value)
            ledger.commit()
            checkpoints = [c.hex() for c in protocol.chain_checkpoints(game_id, side, secret, chain)]
            vault.write(directory / "secrets" / "chain.json",
                        {"game": game_id, "side": side, "secret": secret.hex(), "length": chain,
                         "checkpoints": checkpoints, "private": hidden.hex() if hidden else None, **(extra or {})}, lock)
        except BaseException:
            ledger.close()
            temporary.unlink(missing_ok=True)
            raise
        crash_point("create:secrets")
    except BaseException:
        held.release()
        raise
    return cls(directory, ledger, held, passphrase=lock, building=(temporary, db))


def finish_create(ledger: Ledger, building: tuple[Path, Path]) -> Ledger:
    """Put the database built by ``start_new`` (``building``: (temporary database, campaign.db))
    in place as campaign.db; the ledger to use from now on."""
    temporary, db = building
    crash_point("create:files")
    ledger.close()
    os.replace(temporary, db)
    sync_folder(db.parent)
    return Ledger.open(db)


def _set_aside_leftovers(directory: Path) -> None:
    """Before ``pbem new``/``join`` builds a campaign where none is whole: what an interrupted one
    left (a temporary database, secrets without a database, an unfinished campaign.db, the
    turn files it wrote) goes to ``interrupted-N/`` (mode 0700, it may hold secrets), never away."""
    for path in directory.glob(f".{DB_NAME}.*.new*"):
        path.unlink(missing_ok=True)
    db = directory / DB_NAME
    secrets_dir = directory / "secrets"
    if not db.exists() and not (secrets_dir / "chain.json").exists():
        return
    n = 1
    while (directory / f"interrupted-{n}").exists():
        n += 1
    aside = directory / f"interrupted-{n}"
    aside.mkdir(mode=0o700)
    for name in (DB_NAME, f"{DB_NAME}-journal", "secrets", DRAFT_NAME, "sent", "received", "outbox", "evidence"):
        if (directory / name).exists():
            os.replace(directory / name, aside / name)
    sync_folder(directory)


def _private_secret(game: Game, game_id: str, side: str, body: dict[str, Any],
                    entropy: Callable[[int], bytes] = secrets_mod.token_bytes) -> bytes | None:
    """A new private secret, committed in ``body``, for a game with hidden pools."""
    if not hasattr(game, "private_pools"):
        return None
    from pbem_engine.hidden.private import anchor

    hidden = entropy(32)
    body["private_anchor"] = anchor(game_id, side, hidden)
    return hidden
