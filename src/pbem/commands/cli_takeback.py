"""``pbem takeback``: take-backs by agreement (``pbem.play.takeback``): propose going back to an
earlier envelope, accept (countersign) or decline the opponent's proposal.
Loaded only when it runs (``cli._Root.LAZY``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .cli_common import campaign_option, identity_passphrase, keystore, load_mail_config, open_campaign, show_next


@click.group()
def takeback() -> None:
    """Take back moves by agreement: one side proposes, the other countersigns.

    \b
    Never past a roll, a draw or a reveal: the tool refuses to propose it, and
    every copy and 'pbem verify' check it.  In a refereed game, ask your referee.

    \b
    Examples:
        pbem takeback propose --to 12 --campaign hill60
        pbem takeback accept --campaign hill60
        pbem takeback decline --campaign hill60
    """


def _mail(ctx: click.Context, camp, env, path: Path) -> None:
    """The ready-to-send mail of a take-back file, its subject saying what it asks."""
    from ..mailbox.mail import compose, save_message
    from ..play.takeback import subject

    text = subject(camp, env)
    body = (f"{text}.\n\nIngest the attached file (pbem ingest, or pbem mail fetch); pbem status shows "
            "the take-back waiting for an answer.")
    msg = compose(camp, camp.opponent, [path], body, load_mail_config(ctx).sender, text)
    click.echo(f"ready to send: {save_message(camp, msg, f'{path.stem}-{camp.opponent}')} (pbem mail send)")


@takeback.command()
@click.option("--to", "to", type=click.IntRange(0), required=True, metavar="SEQ",
              help="The envelope play goes on from: every envelope after it is taken back.")
@campaign_option
@click.pass_context
def propose(ctx: click.Context, to: int, campaign: Path | None) -> None:
    """Sign a proposal to go back to envelope SEQ (your opponent accepts or declines it).

    \b
    Example:
        pbem takeback propose --to 12 --campaign hill60
    """
    from ..play.takeback import propose as sign

    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    env, path = sign(camp, identity, to)
    click.echo(f"signed a take-back proposal: back to #{to}, taking back #{to + 1}..#{env.seq}: {path}")
    _mail(ctx, camp, env, path)
    click.echo(f"Send it to {camp.opponent}; play waits for the answer.")


def _answer(ctx: click.Context, campaign: Path | None, sign, said) -> Any:
    """Sign our answer to the opponent's proposal (``sign``: accept or decline), say what was
    signed, write its mail; the campaign."""
    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    env, path = sign(camp, identity)
    click.echo(said(env, path))
    _mail(ctx, camp, env, path)
    click.echo(f"Send it to {camp.opponent}.")
    return camp


@takeback.command()
@campaign_option
@click.pass_context
def accept(ctx: click.Context, campaign: Path | None) -> None:
    """Countersign your opponent's take-back: both copies go back and play goes on from there.

    \b
    Example:
        pbem takeback accept --campaign hill60
    """
    from ..play.takeback import accept as sign

    camp = _answer(ctx, campaign, sign, lambda env, path: f"accepted the take-back: play goes on from "
                                                         f"#{env.seq - 1}; signed #{env.seq}: {path}")
    show_next(camp)


@takeback.command()
@campaign_option
@click.pass_context
def decline(ctx: click.Context, campaign: Path | None) -> None:
    """Refuse your opponent's take-back: play goes on as it stands.

    \b
    Example:
        pbem takeback decline --campaign hill60
    """
    from ..play.takeback import decline as sign

    _answer(ctx, campaign, sign, lambda env, path: f"declined the take-back: {path}")
