"""``pbem team``: a side played by several people (``pbem.chain.teams``): who is on each side,
a member's copy of the side's campaign written (``export``) and set up (``import``).
Loaded only when it runs (``cli._Root.LAZY``)."""

from __future__ import annotations

import base64
from pathlib import Path

import click

from ..errors import PbemError
from .cli_common import (
    campaign_option,
    encrypt_option,
    identity_passphrase,
    keystore,
    open_campaign,
    record_game,
    secrets_lock,
)


@click.group()
def team() -> None:
    """Team games: a side with several players, each with a key pinned in the invitation.

    \b
    The invitation ('pbem new --team SIDE=FILE.pub --team-signs any|commander') names each
    side's members and who signs: only the side's player (commander), or any member.
    A member's copy holds the side's secrets (its hash chain, its hidden items): only
    export it to a member, and only a member's key opens it.

    \b
    Examples:
        pbem team show --campaign gallipoli
        pbem team address carol carol@example.org --campaign gallipoli
        pbem team export --to carol --campaign gallipoli -o carol.team
        pbem team import carol.team --key carol --campaign gallipoli-carol
    """


@team.command()
@campaign_option
def show(campaign: Path | None) -> None:
    """Each side's player and members, who signs for it, and how many of the game's files each signed.

    \b
    Example:
        pbem team show --campaign gallipoli
    """
    from ..chain import teams
    from ..wire.keys import fingerprint

    from collections import Counter

    from ..wire.armor import find_blocks

    camp = open_campaign(campaign, readonly=True)
    try:
        genesis = camp.genesis
        # each stored file's signer, as its header names it (checked against the signing key at ingest)
        signed = Counter(find_blocks(raw)[0].headers["Signer"] for *_, raw, _ in camp.ledger.envelopes())

        def files(key: str) -> str:
            n = signed[fingerprint(base64.b64decode(key))]
            return f"{n} file{'s' if n != 1 else ''} signed"

        for side, entry in sorted(genesis["body"]["sides"].items()):
            who = "any member signs" if teams.signs(genesis, side) == "any" else "only its player signs"
            mine = "  (you)" if side == camp.side else ""
            click.echo(f"{side}: {entry['name']} ({fingerprint(base64.b64decode(entry['key']))}), {who}; "
                       f"{files(entry['key'])}{mine}")
            for member in teams.members(genesis, side):
                click.echo(f"  member {member['name']} ({fingerprint(base64.b64decode(member['key']))}); "
                           f"{files(member['key'])}")
    finally:
        camp.close()


@team.command("address")
@click.argument("name")
@click.argument("address")
@campaign_option
def address_command(name: str, address: str, campaign: Path | None) -> None:
    """Where NAME, a player of a team side, gets the side's turn files by mail.

    'pbem mail send' then mails a copy of each turn file your side signs to your teammates
    with an address, and the side's player forwards what it receives; a referee mails each
    side's own file to its members too.

    \b
    Example:
        pbem team address carol carol@example.org --campaign gallipoli
    """
    from ..mailbox.team_mail import set_member_address

    camp = open_campaign(campaign)
    try:
        set_member_address(camp, name, address)
    finally:
        camp.ledger.close()
    click.echo(f"{name}'s turn files go to {address} (pbem mail send)")


@team.command("export")
@click.option("--to", "to", required=True, metavar="MEMBER", help="The member (name or key fingerprint).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the copy to this file (default: standard output).")
@campaign_option
def export_command(to: str, output: Path | None, campaign: Path | None) -> None:
    """A copy of this side's campaign for one of its members: the history, and the side's
    secrets sealed to that member's key (only it opens them).

    \b
    Example:
        pbem team export --to carol --campaign gallipoli -o carol.team
    """
    from ..play.teamcopy import export
    from ..store.files import atomic_write

    camp = open_campaign(campaign, readonly=True)
    try:
        text, member = export(camp, to)
        side = camp.side
    finally:
        camp.close()
    if output is None:
        click.echo(text, nl=False)
    else:
        atomic_write(output, text, 0o600)
    click.echo(f"team copy for {member['name']} of {side}: it holds the side's secrets, sealed to their key"
               + (f": {output}" if output else ""), err=True)


@team.command("import")
@click.argument("copy", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your identity (a member's key named in the invitation).")
@encrypt_option
@campaign_option
@click.pass_context
def import_command(ctx: click.Context, copy: Path, key_name: str, encrypt_secrets: bool,
                   campaign: Path | None) -> None:
    """Set up your copy of your side's campaign from COPY (pbem team export): the whole history
    re-checked, the side's secrets opened with your key and checked against its commitments.
    Into a campaign of the side that exists already: the files it lacks are ingested and the
    secrets merged (a teammate's renewed chain, the items it hid by choice).

    \b
    Example:
        pbem team import carol.team --key carol --campaign gallipoli-carol
    """
    from ..chain import teams
    from ..play.campaign import Campaign, locate
    from ..play.teamcopy import import_copy, update

    try:
        text = copy.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise PbemError(f"cannot read {copy}", str(e), code="bad-team-copy") from None
    identity = keystore(ctx).load(key_name, identity_passphrase)
    if locate(campaign)[1].is_file():
        camp = open_campaign(campaign)
        try:
            added = update(camp, text, identity)
            click.echo(f"updated {camp.side}'s copy from the team copy: {added} turn file(s) added, the side's "
                       "secrets merged")
        finally:
            camp.close()
        return
    camp, side = import_copy(Campaign, campaign or Path("."), text, identity, secrets_lock(encrypt_secrets))
    record_game(ctx, camp)
    may = "you may sign its turn files" if teams.member_signs(camp.genesis, side, identity.public) else \
        "only its player signs: this copy follows the game and verifies it"
    head = camp.ledger.head()
    click.echo(f"joined {side}'s team in game {camp.genesis['game']} at envelope #{head[0]}: {may}")
    camp.close()
