"""``pbem watch`` (found a witness copy) and ``pbem witnesses`` (who watches a game, and where a
player's tool mails them a copy of each of its turn files).  Loaded only when one of them runs
(``cli._Root.LAZY``)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import PbemError
from .cli_common import campaign_option, keystore, open_campaign, record_game


def _read(name: str) -> tuple[list[tuple[str, str]], str]:
    """The texts of a turn file, a saved mail or an mbox (``-``: stdin), as pbem ingest reads them."""
    import sys

    from .. import limits
    from ..mailbox.mailbox_in import input_texts, texts_from_source

    path = None if name == "-" else Path(name)
    if path is not None and path.is_dir():
        return texts_from_source(path), name
    most = limits.value("MAX_MAIL_BYTES")
    try:
        if path is None:
            data = sys.stdin.buffer.read(most + 1)
        else:
            limits.check_size(path.stat().st_size, "MAX_MAIL_BYTES", name)
            data = path.read_bytes()
    except OSError as e:
        raise PbemError(f"cannot read {name}", e.strerror or str(e), code="unreadable") from None
    limits.check_size(len(data), "MAX_MAIL_BYTES", name)
    return input_texts(name, data, path)[0], name


@click.command()
@click.argument("invitation", type=click.Path(allow_dash=True))
@click.option("--key", "key_name", required=True, help="Your identity: the invitation must name its public key "
              "among its witnesses.")
@campaign_option
@click.pass_context
def watch(ctx: click.Context, invitation: str, key_name: str, campaign: Path | None) -> None:
    """Watch a game as a witness named in its INVITATION: found a witness copy.

    INVITATION is the genesis turn file, or the mail that brought it (what pbem
    ingest reads; - for stdin).  The copy signs nothing and never changes the
    game: ingest each turn file the players send you (in a refereed game, the
    referee's files), then read it with pbem report, replay, status, verify and
    audit, which show the public view: what a player of neither side may see at
    each point.

    \b
    Example:
        pbem watch 3f2a9c1e-0000-allied-genesis.pbem --key carol --campaign hill60-watch
    """
    from ..play.campaign import Campaign
    from ..play.witness import found
    from ..wire.keys import fingerprint

    public = keystore(ctx).public(key_name)
    texts, _ = _read(invitation)
    text = "\n".join(t for _, t in texts)
    camp, name = found(Campaign, campaign or Path("."), text, public)
    record_game(ctx, camp)
    genesis = camp.genesis
    click.echo(f"watching game {genesis['game']} of {camp.game.title} as witness {name}")
    from ..chain.history import pinned_key

    refereed = genesis["body"].get("mode") == "referee"
    parties = [(side, genesis["body"]["sides"][side]["name"]) for side in camp.game.sides]
    for side, who in parties + ([("referee", genesis["body"]["referee"]["name"])] if refereed else []):
        click.echo(f"{side} is {who}, fingerprint {fingerprint(pinned_key(genesis, side) or b'')}: "
                   "compare it with them.")
    if refereed:
        click.echo("A refereed game: until the referee discloses you see its commitments and the view of no side; "
                   "then everything.")
    click.echo(f"Ingest the turn files {'the referee sends' if refereed else 'they send'} you: "
               f"pbem ingest --campaign {camp.dir} FILES")


@click.command()
@click.option("--address", nargs=2, metavar="NAME ADDRESS", default=None,
              help="Where your tool mails witness NAME a copy of each of your turn files (pbem mail send).")
@campaign_option
def witnesses(address: tuple[str, str] | None, campaign: Path | None) -> None:
    """The witnesses the invitation names, and where your turn files go to them.

    With an address set, 'pbem mail send' (and 'pbem mail run') writes one more
    mail per turn file you signed to that witness, once, from sent/: the turn
    file only, which holds nothing sealed to you in the clear.  In a refereed
    game only the referee's tool mails the witnesses (its files carry the
    players' orders and the view of no side).

    \b
    Examples:
        pbem witnesses --campaign hill60
        pbem witnesses --campaign hill60 --address carol carol@example.org
    """
    from ..chain.witnesses import key_of, listed
    from ..mailbox.witness_mail import address_of, set_witness_address
    from ..wire.keys import fingerprint

    camp = open_campaign(campaign, readonly=address is None)
    named = listed(camp.genesis)
    if named and camp.refereed and camp.side != "referee":  # pbem.mailbox.witness_mail: the referee's files carry ours
        click.echo("a refereed game: the referee's tool mails the witnesses its files, which carry yours; "
                   "yours mails them nothing")
    if address is not None:
        set_witness_address(camp, *address)
        click.echo(f"witness {address[0]}: your turn files go to {address[1]} (pbem mail send)")
        return
    if not named:
        click.echo("this game names no witness (pbem new --witness FILE.pub names them)")
    for entry in named:
        where = address_of(camp, entry["name"]) or "no address (pbem witnesses --address NAME ADDRESS)"
        click.echo(f"{entry['name']}\tkey {fingerprint(key_of(camp.genesis, entry['name']) or b'')}\t{where}")
