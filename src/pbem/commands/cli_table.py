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
    from ..play.witness import refuse_signing

    camp = open_campaign(campaign)
    refuse_signing(camp, "a message goes only in a turn file, and a witness signs none")
    said = messages.give(camp, order)
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
@click.option("--withdraw", is_flag=True, help="Take back your messages that wait for your next turn file.")
@campaign_option
@click.pass_context
def messages_command(ctx: click.Context, new_only: bool, withdraw: bool, campaign: Path | None) -> None:
    """Every message of the game you may read (what is sealed to you opened with your key), and
    yours that wait for your next turn file (--withdraw takes them back: nothing signed is).

    \b
    Example:
        pbem messages
    """
    from ..play import messages

    camp = open_campaign(campaign)
    if withdraw:
        click.echo(f"{messages.withdraw(camp)} message(s) taken back; none was signed")
        return
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


# --- the end of a game ---------------------------------------------------------------

def _result_lines(camp, held: dict) -> list[str]:
    from ..play import results

    rec = held["record"]
    names = {side: entry["name"] for side, entry in rec["sides"].items()}
    winner = f" ({rec['winner']}, {names[rec['winner']]})" if rec["winner"] in names else ""
    how = {"rules": "by the rules", "players": "as a player ended it", "time": "on time"}[rec["how"]]
    signed = sorted(held["signatures"])
    missing = [s for s in results.signers(camp) if s not in signed]
    return [f"{rec['title']}, {rec['scenario']}: {rec['result']}{winner}, {how}" + (f": {rec['reason']}"
                                                                                    if rec["reason"] else ""),
            f"final envelope #{rec['final']['seq']} ({rec['final']['hash'][:16]}...); pbem verify checks the game",
            "signed by " + (", ".join(signed) or "no one yet") + (
                "; agreed by every side" if not missing else f"; waiting for the signature of {' and '.join(missing)}")]


@click.command("result")
@click.option("--add", "add_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Add the signatures in another side's result.json to yours.")
@campaign_option
@click.pass_context
def result_command(ctx: click.Context, add_file: Path | None, campaign: Path | None) -> None:
    """The result of a finished game, signed with your key and kept in result.json; send that file
    to the other side, who adds it with --add: once every side has signed, the result is agreed.

    \b
    Example:
        pbem result                       # sign and show the result
        pbem result --add their-result.json
    """
    from ..play import results

    camp = open_campaign(campaign)
    if add_file is not None:
        try:
            data = add_file.read_bytes()[: results.MAX_FILE + 1]
        except OSError as e:
            raise PbemError(f"cannot read {add_file}", e.strerror or str(e), code="unreadable") from None
        results.add(camp, data, add_file.name)
        held = results.held(camp)
    else:
        held = results.sign(camp, keystore(ctx).load(camp.identity_name, identity_passphrase))
    for line in _result_lines(camp, held):
        click.echo(line)
    others = [s for s in results.signers(camp) if s != camp.side and s not in held["signatures"]]
    if others:
        click.echo(f"Send {camp.dir / results.RESULT_FILE} to {', '.join(others)}: 'pbem result --add FILE' "
                   "adds your signature to theirs.")


@click.command("results")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@click.pass_context
def results_command(ctx: click.Context, fmt: str, output: Path | None) -> None:
    """Every finished game you made or joined under your home, for a league: one row each, with
    the result, the final envelope and who has signed the result (agreed: every side).

    \b
    Example:
        pbem results --format csv -o league.csv
    """
    from ..play import results
    from ..play.campaign import Campaign
    from ..store.files import atomic_write
    from ..wire.keys import default_home
    from .cli_common import home_dir

    rows = results.finished(home_dir(ctx) or default_home(), lambda d: Campaign.open(d, readonly=True))
    text = results.as_csv(rows) if fmt == "csv" else results.as_json(rows)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        atomic_write(output, text)
    except OSError as e:
        raise PbemError(f"cannot write {output}", e.strerror or str(e), code="unwritable") from None
    click.echo(f"wrote {output} ({len(rows)} finished game(s))")


@click.command()
@click.option("--into", type=click.Path(file_okay=False, path_type=Path),
              help="The new game's folder (default: beside the old one, named OLD-rematch).")
@click.option("--encrypt-secrets", is_flag=True, help="Encrypt the new campaign's secrets with a passphrase.")
@campaign_option
@click.pass_context
def rematch(ctx: click.Context, into: Path | None, encrypt_secrets: bool, campaign: Path | None) -> None:
    """A return match of a finished game: the same game, scenario, options, dice and deadline, the
    same players with their keys, each on the other side.  Writes the invitation, as 'pbem new'.

    \b
    Example:
        pbem rematch --campaign hill60-game --into hill60-return
    """
    from ..chain.history import pinned_key
    from ..play import results
    from ..play.campaign import Campaign
    from ..wire.keys import fingerprint
    from .cli_common import file_name, record_game, secrets_lock

    old = Campaign.open(campaign, readonly=True)
    try:
        if results.record(old) is None:
            raise PbemError("the game is not over", "a rematch follows a finished game (pbem status)", code="not-over")
        genesis, side = old.genesis, old.side
        body, module = genesis["body"], genesis["engine"]["module"]
        sides = sorted(body["sides"])
        swapped = {s: sides[(i + 1) % len(sides)] for i, s in enumerate(sides)}  # each player on the next side
        keys = {swapped[s]: (pinned_key(genesis, s), body["sides"][s]["name"]) for s in sides}
        into = into or old.dir.resolve().parent / f"{old.dir.resolve().name}-rematch"
        identity = keystore(ctx).load(old.identity_name, identity_passphrase)
    finally:
        old.ledger.close()
    lock = secrets_lock(encrypt_secrets)
    if body.get("mode") == "referee":
        camp, envelope = Campaign.new_refereed(into, module, identity, keys, body["scenario"], body["options"] or None,
                                               body.get("deadline_hours"), lock)
        to = ", ".join(f"{name} ({s})" for s, (_, name) in sorted(keys.items()))
        mine = "you referee it"
    else:
        new_side = swapped[side]
        other = next(s for s in sides if s != new_side)
        key, name = keys[other]
        camp, envelope = Campaign.new(into, module, new_side, identity, key, name, body["scenario"],
                                      body["options"] or None, mode=body["mode"],
                                      deadline_hours=body.get("deadline_hours"), lock=lock, clock=body.get("clock"))
        to, mine = name, f"you are {new_side} (you were {side}); {name} is {other}, pinned {fingerprint(key)}"
    record_game(ctx, camp)
    path = camp.dir / "sent" / file_name(envelope)
    click.echo(f"created game {envelope.game}, a rematch of {genesis['game']}: {mine}")
    from ..mailbox.mail import write_outbox
    from ..play.plays import PlayResult
    from .cli_common import load_mail_config

    for message in write_outbox(camp, PlayResult(envelope, path, [], [], []), load_mail_config(ctx).sender):
        click.echo(f"ready to send: {message} (pbem mail send)")
    click.echo(f"Send the invitation to {to}: {path}")
