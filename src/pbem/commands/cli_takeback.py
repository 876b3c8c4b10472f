"""``pbem takeback``: take-backs by agreement (``pbem.play.takeback``): propose going back to an
earlier envelope, accept (countersign) or decline the opponent's proposal; in a refereed game a
player asks and the referee decides.  Loaded only when it runs (``cli._Root.LAZY``)."""

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
    every copy and 'pbem verify' check it.  In a refereed game a player proposes
    to the referee, who accepts or declines; the referee's own 'propose' takes
    effect at once.

    \b
    Examples:
        pbem takeback propose --to 12 --campaign hill60
        pbem takeback accept --campaign hill60
        pbem takeback decline --campaign hill60
    """


def _mail(ctx: click.Context, camp, env, path: Path, prop=None) -> list[str]:
    """The ready-to-send mail of a take-back file to each of its recipients, its subject saying
    what it asks (``prop``: the proposal a decline answers); the recipients."""
    from ..mailbox.mail import compose, save_message
    from ..play.takeback import recipients, subject

    text = subject(camp, env)
    body = (f"{text}.\n\nIngest the attached file (pbem ingest, or pbem mail fetch); pbem status shows "
            "the take-back waiting for an answer.")
    sides = recipients(camp, env, prop)
    for side in sides:
        msg = compose(camp, side, [path], body, load_mail_config(ctx).sender, text)
        click.echo(f"ready to send: {save_message(camp, msg, f'{path.stem}-{side}')} (pbem mail send)")
    return sides


@takeback.command()
@click.option("--to", "to", type=click.IntRange(0), required=True, metavar="SEQ",
              help="The envelope play goes on from: every envelope after it is taken back.")
@campaign_option
@click.pass_context
def propose(ctx: click.Context, to: int, campaign: Path | None) -> None:
    """Sign a proposal to go back to envelope SEQ (your opponent accepts or declines it;
    in a refereed game the referee does, and the referee's own takes effect at once).

    \b
    Example:
        pbem takeback propose --to 12 --campaign hill60
    """
    from ..play.takeback import propose as sign

    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    head = camp.ledger.head()[0]
    env, path = sign(camp, identity, to)
    if env.kind == "fork":  # the referee's own: decided at once
        click.echo(f"took back to #{to} (#{to + 1}..#{head} abandoned): signed #{env.seq}: {path}")
        click.echo(f"Send it to {', '.join(_mail(ctx, camp, env, path))}.")
        show_next(camp)
        return
    click.echo(f"signed a take-back proposal: back to #{to}, taking back #{to + 1}..#{env.seq}: {path}")
    sides = _mail(ctx, camp, env, path)
    click.echo(f"Send it to {sides[0]}; " + ("the referee decides." if camp.refereed else "play waits for the answer."))


def _answer(ctx: click.Context, campaign: Path | None, sign, said) -> Any:
    """Sign our answer to the opponent's proposal (``sign``: accept or decline), say what was
    signed, write its mail; the campaign."""
    from ..play.takeback import pending

    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    prop = pending(camp)  # before it is answered: a refereed decline goes to the player who asked
    env, path = sign(camp, identity)
    click.echo(said(env, path))
    click.echo(f"Send it to {', '.join(_mail(ctx, camp, env, path, prop))}.")
    return camp


@takeback.command()
@campaign_option
@click.pass_context
def accept(ctx: click.Context, campaign: Path | None) -> None:
    """Countersign your opponent's take-back (a referee: grant a player's): every copy goes
    back and play goes on from there.

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
    """Refuse your opponent's take-back (a referee: a player's): play goes on as it stands.

    \b
    Example:
        pbem takeback decline --campaign hill60
    """
    from ..play.takeback import decline as sign

    _answer(ctx, campaign, sign, lambda env, path: f"declined the take-back: {path}")
