"""``pbem leave``: a signed leave notice that stops a side's clock (``pbem.play.timebank``).
Loaded only when it runs (``cli._Root.LAZY``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import click

from .cli_common import campaign_option, file_name, identity_passphrase, keystore, open_campaign


def _day(ctx, param, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD)") from None


@click.command()
@click.option("--from", "first", callback=_day, required=True, metavar="YYYY-MM-DD",
              help="The first day of leave (UTC), today or later.")
@click.option("--days", type=click.IntRange(1, 365), required=True, help="How many whole days.")
@campaign_option
@click.pass_context
def leave(ctx: click.Context, first: date, days: int, campaign: Path | None) -> None:
    """Declare leave: your clock stops for these days (a game with a clock only).

    The notice is signed and goes to your opponent beside the turn files; both
    copies stop your clock from the later of its first day and the time they
    stored it, up to the days of leave the invitation allows each side.

    \b
    Example:
        pbem leave --from 2026-12-24 --days 7 --campaign hill60
    """
    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    from ..play.timebank import declare_leave

    from ..mailbox.mail import mail_for_file

    envelope = declare_leave(camp, identity, first, days)
    path = camp.dir / "sent" / file_name(envelope)
    click.echo(f"signed a leave notice: {days} day(s) from {first}: {path}")
    for mail in mail_for_file(camp, path):
        click.echo(f"ready to send: {mail} (pbem mail send)")
    click.echo(f"Send it to {camp.genesis['body']['sides'][camp.opponent]['name']}.")
