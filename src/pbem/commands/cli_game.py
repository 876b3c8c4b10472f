"""The ``pbem`` commands of a game under way: play, undo, resend, status, disclose and a
timeout claim.  Loaded only when one of them runs (``cli._Root.LAZY``), so a cold ``pbem
ingest`` reads less code."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import PbemError
from ..play.plays import FREE_ORDERS, BY_SEALED_ORDER, unheaded
from .cli_common import (
    campaign_option,
    file_name,
    home_dir,
    identity_passphrase,
    keystore,
    load_mail_config,
    open_campaign,
    show_next,
)


def _owed(camp, waiting: dict) -> str:
    """Who owes what, in one line: our own decision as 'pbem play' lists it (after our draft)."""
    text, side = waiting["text"], waiting["side"]
    if side == camp.side and waiting["why"] in ("decide", "reveal") and camp.secrets_readable():
        from ..play.unattended import needs_person

        if not camp.refereed and not needs_person(camp):
            what = "your reveal (a roll waits for it)" if waiting["why"] == "reveal" else "a file the rules decide"
            return f"waiting for you, nothing to decide: {what}; 'pbem play' or 'pbem mail run' sends it"
        prompt = camp.shown_prompt()  # after our draft (and the roll our reveal resolves): what play lists
        decides = prompt is not None and prompt.side == side
        if waiting["why"] == "reveal":
            return "waiting for you: your reveal (a roll waits for it)" + \
                (f", then your decision: {unheaded(side, prompt.text)}" if decides else "")
        if decides:
            text = prompt.text
    text = camp.worded(text)  # another side's prompt names its hidden items: concealed
    if text.lower().startswith("waiting for ") or text.lower().startswith("the game is over"):
        return text
    return f"waiting for {'you' if side == camp.side else side}: {unheaded(side, text)}"


def _headed(side: str | None, text: str) -> str:
    """A prompt under its side's name, once (the block game's prompts already begin with it)."""
    return text if side is None or text.lower().startswith(f"{side.lower()}:") else f"{side}: {text}"


def _asker(game):
    """The interactive question for one game: its choices, its own hints ('help' shows them again),
    'undo', and 'quit' or Ctrl-D, which keep the draft."""
    hints = FREE_ORDERS if game.name == "tabletop" else ""

    def ask(prompt, events, rolls, refusal):
        from ..view.report import dice_text

        for event in events:
            click.echo(f"  {event['text']}")
        for roll in rolls:
            click.echo(f"  roll: {roll['purpose']}: {dice_text(roll)}")
        events.clear()
        if refusal:
            click.echo(f"refused: {refusal}", err=True)
        while True:
            click.echo(f"\n{_headed(prompt.side, prompt.text)}")
            for i, choice in enumerate(prompt.choices, 1):
                click.echo(f"  {i}. {choice.label}")
            if prompt.free and hints:
                click.echo(hints)
            try:
                answer = click.prompt("Choose (a number or an order; 'help', 'undo', 'quit' keeps a draft)",
                                      default="quit", show_default=False)
            except (click.exceptions.Abort, EOFError):  # Ctrl-D or Ctrl-C: keep what is drafted
                click.echo("")
                return None
            if answer.strip().lower() in ("help", "?"):
                click.echo(HELP_TEXT + (f"\n{hints}" if hints else ""))
                continue
            return None if answer.strip().lower() in ("quit", "q", "") else answer

    return ask


HELP_TEXT = ("Give a choice by its number, or in words: any unambiguous part of the names in it will do "
             "(e.g. 'move 86 to alexi'). 'undo' takes back the last drafted order; 'quit' (or Ctrl-D) stops "
             "and keeps the draft for the next 'pbem play'. The turn file is signed when the decision passes "
             "to your opponent or a roll needs their reveal (a roll after forced orders only is sealed at once, "
             "with the link of their last turn file).")


@click.command()
@click.argument("orders", nargs=-1)
@click.option("-i", "--interactive/--no-interactive", default=None, help="Ask for orders (default: when on a terminal and no ORDERS).")
@campaign_option
@click.pass_context
def play(ctx: click.Context, orders: tuple[str, ...], interactive: bool | None, campaign: Path | None) -> None:
    """Take your turn: choose actions by number or in words, then sign the turn file.

    ORDERS are choice numbers or orders such as "move 18th Aus to Kabak Kuyu"
    (an unambiguous prefix is enough).  The turn file is written when the
    decision passes to your opponent or a roll needs their reveal; until
    then your choices are a draft you can take back with 'pbem undo'.

    \b
    Example:
        pbem play                      # shows the choices and asks
        pbem play 2 "end turn"         # non-interactive
    """
    from ..view.report import dice_text

    camp = open_campaign(campaign)
    if camp.refereed and camp.match()["public"].get("disclosed") is not None:
        raise PbemError("the game is over: the referee has disclosed it", "nothing is left to sign; pbem verify and "
                        "pbem audit check the whole game, pbem report --all tells it", code="game-over")
    camp.mail_outbox = True  # what it signs owes its mail: a later command writes it if this one is interrupted
    if camp.recovered.turn is not None and (camp.waiting() or {}).get("side") != camp.side:
        envelope, path = camp.recovered.turn  # signed by an interrupted 'pbem play': this retry finishes it
        click.echo(f"signed turn file #{envelope.seq}: {path} (signed before an interruption; written now)")
        if orders:  # a retry of the same command, or new orders: never dropped without a word
            click.echo(f"  your order(s) {', '.join(map(repr, orders))} were not read now: turn file #{envelope.seq} "
                       "holds the orders you gave before the interruption (pbem report shows them); give new ones "
                       "when the decision is yours again")
        return _tell(camp, None, camp.recovered.outbox)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    from ..play.messages import heard  # what was said since our last file, sealed words opened

    for line in heard(camp, identity):
        click.echo(f"> {line}")
    ask = None
    if interactive or (interactive is None and not orders and sys.stdin.isatty()):
        ask = _asker(camp.game)
    elif not orders:
        waiting = camp.waiting()
        prompt = camp.shown_prompt() if waiting and waiting["side"] == camp.side and waiting["why"] == "reveal" \
            and not camp.refereed else None  # the roll our reveal resolves, then what is asked of us
        if prompt is not None and prompt.side == camp.side:  # a decision follows: list it, as for any decision
            click.echo(f"{camp.side}: your reveal is owed (it resolves the roll waiting for it); then you decide.")
            click.echo(f"Then: {prompt.text}")
            for i, choice in enumerate(prompt.choices, 1):
                click.echo(f"  {i}. {choice.label}")
            click.echo(FREE_ORDERS if prompt.free and not prompt.choices else "Give your orders: pbem play N [N...]")
            return
        if waiting and waiting["side"] == camp.side and waiting["why"] == "decide":
            prompt = camp.shown_prompt()  # after any draft; our own hidden items by name
            if prompt is not None and prompt.side == camp.side:  # (else the draft is complete: play signs it)
                labels = [c.label for c in prompt.choices]
                drafted = len(camp.draft() or [])
                if drafted:
                    click.echo(f"(after your {drafted} drafted order(s); 'pbem undo' takes the last back)")
                click.echo(_headed(camp.side, prompt.text))
                for i, label in enumerate(labels, 1):
                    click.echo(f"  {i}. {label}")
                click.echo(FREE_ORDERS if not labels else "Give your orders: pbem play N [N...]")
                return
    result = camp.play(identity, list(orders), ask)
    if ask is None:
        from ..chain.hidden import show

        known = camp.knowledge() if camp.refereed and camp.side == "referee" else {}  # (a player's are named)
        for event in result.events:
            click.echo(f"  {show(event['text'], known, camp.game)}")
        for roll in result.rolls:
            click.echo(f"  roll: {roll['purpose']}: {dice_text(roll)}")
    odds_of = getattr(camp.game, "action_odds", None)  # a roll ordered in words: its exact odds
    for action in result.drafted if odds_of else []:
        if line := odds_of(action):
            click.echo(f"  odds: {line}")
    only = [w for w in result.forced if w != BY_SEALED_ORDER]
    if only:
        click.echo(f"  taken for you, as the only legal choice: {'; '.join(only)}")
    if len(only) < len(result.forced):  # what it did is in the events above
        click.echo(f"  taken for you, {BY_SEALED_ORDER}: {len(result.forced) - len(only)} choice(s)")
    if result.envelope is None:
        click.echo(f"{len(result.drafted)} action(s) drafted, not yet signed; continue with 'pbem play', take back with 'pbem undo'.")
        return
    click.echo(f"signed turn file #{result.envelope.seq}: {result.path}")
    if result.unused:
        click.echo(f"  your order(s) {', '.join(repr(o) for o in result.unused)} were not used: there was nothing "
                   "for you to decide" + ("" if result.forced else ", only your reveal to send"))
    from ..mailbox.mail import write_outbox

    messages = write_outbox(camp, result, load_mail_config(ctx).sender)
    camp.exported(result.envelope)
    _tell(camp, result.paths, messages)


def _tell(camp, paths: list[Path] | None, messages: list[Path]) -> None:
    """After a turn file is written: the mail ready to send, and to whom it goes."""
    for message in messages:
        click.echo(f"ready to send: {message} (pbem mail send)")
    if paths:
        for path in paths:
            side = path.parent.name.removeprefix("to-")
            click.echo(f"  for {side} ({camp.genesis['body']['sides'][side]['name']}): {path}")
        click.echo("Send each player its own file: it holds that player's view and no one else's.")
        watching = sorted((paths[0].parent.parent / "witness").glob(f"{paths[0].stem}.pbem"))
        if watching:  # a game with witnesses (pbem.chain.witnesses): their file, mailed by pbem mail send
            names = ", ".join(w["name"] for w in camp.genesis["body"].get("witnesses", []))
            click.echo(f"  for the witnesses ({names}): {watching[0]}")
    elif camp.refereed and camp.side == "referee":
        click.echo("Send it to every player.")
    elif camp.refereed:
        name = camp.genesis["body"]["referee"]["name"]
        click.echo("Send it to the referee." if name.lower() in ("referee", "the referee")
                   else f"Send it to the referee, {name}.")
    else:
        click.echo(f"Send it to {camp.genesis['body']['sides'][camp.opponent]['name']}.")
    show_next(camp)


@click.command()
@campaign_option
@click.pass_context
def resend(ctx: click.Context, campaign: Path | None) -> None:
    """Write again the last turn file you signed, and a new outbox mail with it.

    For a file your opponent never received, or one an interrupted 'pbem play'
    did not write: the file comes from the campaign database, byte for byte
    as it was signed (nothing is signed again).

    \b
    Example:
        pbem resend --campaign hill60
    """
    from ..mailbox.mail import write_outbox
    from ..play.campaign import PlayResult

    camp = open_campaign(campaign)
    envelope, path, views = camp.resend()
    click.echo(f"turn file #{envelope.seq} written again: {path}")
    messages = write_outbox(camp, PlayResult(envelope, path, [], [], [], views), load_mail_config(ctx).sender)
    camp.exported(envelope)
    _tell(camp, views, messages)


@click.command()
@campaign_option
def undo(campaign: Path | None) -> None:
    """Take back the last drafted action (signed turn files cannot be taken back).

    \b
    Example:
        pbem undo --campaign hill60
    """

    camp = open_campaign(campaign)
    if camp.refereed:
        from ..play.referee_orders import take_back
    else:
        from ..play.turns import take_back
    taken = take_back(camp)
    if taken is None:
        raise PbemError("nothing to take back", "there is no unsigned draft; a signed turn file stands", code="no-draft")
    click.echo(f"took back: {taken}; {len(camp.draft())} drafted action(s) remain")


def _mail_lines(camp) -> list[str]:
    """What status says of the campaign's mail: how many messages wait in outbox/, each one set
    aside in outbox/failed/ with its reason, and the mail refused, answered or bounced lately."""
    from ..mailbox.outbox import pending_outbox, recent, set_aside_outbox  # not the mail stack: see outbox.py

    waiting, failed = pending_outbox(camp), set_aside_outbox(camp)
    lines = [f"{len(waiting)} mail(s) waiting in outbox/ (pbem mail send)"] if waiting else []
    for path in failed:
        reason = path.with_suffix(".reason.txt")
        why = reason.read_text(errors="replace").strip().splitlines()[0] if reason.is_file() else "see pbem mail send"
        lines.append(f"MAIL SET ASIDE, not sent: {path.name}: {why[:160]} (fix the address, then pbem mail send {path})")
    return lines + recent(camp)


@click.command()
@campaign_option
@click.option("--all", "every", is_flag=True, help="Every game you made or joined under your home, one line each, "
              "your moves first.")
@click.pass_context
def status(ctx: click.Context, campaign: Path | None, every: bool) -> None:
    """Who owes what, since when.

    \b
    Examples:
        pbem status --campaign hill60
        pbem status --all
    """
    if every:
        if campaign is not None:
            raise click.UsageError("--all lists every game: give it without --campaign")
        from ..play.overview import overview
        from ..wire.keys import default_home

        home = home_dir(ctx) or default_home()
        games = overview(home)
        for game in games:
            click.echo(game.text)
        if not games:
            click.echo(f"no games recorded under {home} (pbem new and pbem join record them)")
        return
    camp = open_campaign(campaign, readonly=True)
    seq, _ = camp.ledger.state()
    game = camp.game
    click.echo(f"{game.title}: game {camp.genesis['game']}, you are {camp.side}, "
               f"dice {camp.genesis['body']['mode']}, {seq + 1} envelope{'s' if seq else ''}")
    waiting = camp.waiting()
    outcome = camp.outcome()
    unfinished = camp.unfinished()
    if unfinished:  # signed and stored, never written: nothing went out, whatever the line below says
        click.echo(f"NOT YET WRITTEN (an interrupted command): {', '.join(unfinished)}: it is signed and stored but "
                   "nothing went out; run 'pbem resend' (or any pbem command that writes) to write it, then send it")
    if outcome:
        click.echo(f"game over: {outcome['result']}" + (f" ({outcome['reason']})" if outcome["reason"] else ""))
    if waiting:
        from ..play.clock import overdue

        late = overdue(camp)
        click.echo(f"{_owed(camp, waiting)} (since envelope #{waiting['since']}, "
                   f"stored {late['stored_at']}, {late['hours']} h ago)")
        if late["deadline"] is not None:
            state = "OVERDUE: a timeout claim may be signed (pbem claim-timeout)" if late["overdue"] and waiting["side"] != camp.side \
                else ("OVERDUE" if late["overdue"] else f"{late['deadline'] - late['hours']} h left")
            click.echo(f"deadline {late['deadline']} h: {state}")
    from ..play.clock import notice_lines, status_lines

    for line in status_lines(camp, late if waiting else None):  # the time bank, when the invitation agreed one
        click.echo(line)
    drafted = camp.draft(ask=False)
    if drafted is None:
        click.echo("a draft of unsigned actions is kept, encrypted with the secrets")
    elif drafted:
        click.echo(f"{len(drafted)} drafted action(s) not yet signed")
    evidence = sorted((camp.dir / "evidence").glob("*.pbem")) if (camp.dir / "evidence").is_dir() else []
    for path in evidence:
        click.echo(f"EVIDENCE kept (equivocation or cheating, signed by its author): {path}")
    for line in _mail_lines(camp):
        click.echo(line)
    for line in notice_lines(camp):  # timeout claims and leave notices
        click.echo(line)
    from ..play.takeback import status_lines as takebacks

    for line in takebacks(camp):  # a take-back waiting for an answer, and those agreed
        click.echo(line)


@click.command()
@campaign_option
@click.pass_context
def disclose(ctx: click.Context, campaign: Path | None) -> None:
    """Referee: publish your salt and box key so every player can replay the whole game.

    Done by 'pbem play' when the game is over; this does it on demand, and the
    game cannot go on after it (every order and view becomes readable).

    \b
    Example:
        pbem disclose --campaign ref60
    """
    from ..play.refereeing import disclose as publish

    camp = open_campaign(campaign)
    if not camp.refereed or camp.side != "referee":
        raise PbemError("only the referee of a referee game discloses it", code="not-referee")
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    camp.mail_outbox = True
    result = publish(camp, identity)
    click.echo(f"signed turn file #{result.envelope.seq}: {result.path}")
    from ..mailbox.mail import write_outbox

    for message in write_outbox(camp, result, load_mail_config(ctx).sender):
        click.echo(f"ready to send: {message} (pbem mail send)")
    camp.exported(result.envelope)
    click.echo("Send it to every player: with it they can run 'pbem verify' and 'pbem audit' on the whole game.")


@click.command("claim-timeout")
@campaign_option
@click.pass_context
def claim_timeout(ctx: click.Context, campaign: Path | None) -> None:
    """Sign a timeout claim against an opponent who owes the next turn file.

    The claim names the last envelope you hold and how long it has been owed;
    your opponent's tool records it and status, reports and verify show it.
    The game itself goes on when the turn file comes: no one can be forced
    to answer, but a stall is on the record.

    \b
    Example:
        pbem claim-timeout --campaign hill60
    """

    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    from ..play.clock import claim_timeout

    envelope = claim_timeout(camp, identity)
    body = envelope.content["body"]
    if "clock" in body:
        click.echo(f"his clock is at zero: the invitation makes this "
                   f"{'a loss on time' if body['clock']['at_zero'] == 'loss' else 'an adjudication'}")
    click.echo(f"signed a timeout claim against {body['owed_by']} ({body['hours']} h): "
               f"{camp.dir / 'sent' / file_name(envelope)}")
    owed = body["owed_by"]
    names = dict(camp.genesis["body"]["sides"], **({"referee": camp.genesis["body"]["referee"]} if camp.refereed else {}))
    click.echo(f"Send it to {names[owed]['name']} (and to any witness).")
