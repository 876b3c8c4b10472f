"""The ``pbem`` commands around the board: table talk (say, tell, messages), a game's result
(result), a league's table of finished games (results) and a return match (rematch).  Loaded
only when one of them runs (``cli._Root.LAZY``)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import PbemError
from .cli_common import campaign_option, identity_passphrase, keystore, open_campaign


def _queue(campaign: Path | None, order: str) -> None:
    from ..play import messages

    camp = open_campaign(campaign)
    if camp.waiting() is None:
        raise PbemError("the game is over", "no turn file of yours will carry a message now", code="game-over")
    said = messages.parse(order, camp.genesis, camp.side)
    messages.wait(camp, [said])
    whom = "everyone who holds the game" if said["to"] is None else f"{said['to']} alone (sealed)"
    click.echo(f"your next turn file carries it, for {whom}: {said['text']}")


@click.command()
@click.argument("text", nargs=-1, required=True)
@campaign_option
def say(text: tuple[str, ...], campaign: Path | None) -> None:
    """Say something to the table: it goes with your next turn file, signed, never an order.

    \b
    Example:
        pbem say good luck
        pbem play "say are you sure?" 3      # with orders
    """
    _queue(campaign, "say " + " ".join(text))


@click.command()
@click.argument("party")
@click.argument("text", nargs=-1, required=True)
@campaign_option
def tell(party: str, text: tuple[str, ...], campaign: Path | None) -> None:
    """Tell one party something, sealed to it (the other side, a player, or the referee): only
    it (and you) can read it; it goes with your next turn file.

    \b
    Example:
        pbem tell ottoman I know where your reserve is
        pbem tell referee may I look over the ridge?
    """
    _queue(campaign, f"tell {party} " + " ".join(text))


@click.command("messages")
@click.option("--new", "new_only", is_flag=True, help="Only what was said since your last turn file.")
@campaign_option
@click.pass_context
def messages_command(ctx: click.Context, new_only: bool, campaign: Path | None) -> None:
    """Every message of the game you may read (what is sealed to you opened with your key), and
    yours that wait for your next turn file.

    \b
    Example:
        pbem messages
    """
    from ..play import messages

    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    messages.open_ours(camp, identity)
    since = -1
    if new_only and camp.ledger.head():
        own = camp.ledger.last_of(camp.side, camp.ledger.head()[0])
        since = own if own is not None else -1
    shown = messages.shown(camp, camp.side, since)
    for m in shown:
        click.echo(f"#{m['seq']} {m['line']}")
    if not shown:
        click.echo("no messages" + (" since your last turn file" if new_only else " in this game yet"))
    for m in messages.waiting_lines(camp):
        click.echo(f"waiting for your next turn file: {m['line']}")
