"""The ``pbem`` commands beyond joining and ingesting: creating a game, playing, reports,
verification and tools.  Loaded only when one of them runs (``cli._Root.LAZY``), so a cold
``pbem ingest`` reads less code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .cli_common import (campaign_option, encrypt_option, file_name, identity_passphrase, keystore, load_mail_config,
                         open_campaign, secrets_lock, show_next)
from .errors import PbemError

def _read_public(path: Path) -> tuple[bytes, str]:
    from .keys import parse_public

    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise PbemError(f"cannot read {path}", str(e), code="bad-key") from None
    return parse_public(text, str(path))


@click.command()
@click.argument("module")
@click.option("--as", "side", help="The side you play (not with --referee).")
@click.option("--key", "key_name", required=True, help="Your identity (pbem keys list).")
@click.option("--opponent", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your opponent's public key file (from 'pbem keys export').")
@click.option("--referee", "as_referee", is_flag=True,
              help="Create the game as its referee; name each player with --player SIDE=KEY.pub.")
@click.option("--player", "players", multiple=True, metavar="SIDE=FILE",
              help="With --referee: a player's side and public key file (once per side).")
@click.option("--scenario", help="Scenario (default: the module's first).")
@click.option("--dice", "mode", type=click.Choice(["sealed", "unsealed"]), default="sealed", show_default=True,
              help="sealed: no one can preview a roll (a reveal round trip per roll); unsealed: friendly games, "
                   "the actor rolls at once but could preview, and every such roll is labelled UNSEALED.")
@click.option("--deadline", "deadline", type=click.IntRange(1, 24 * 365), default=None, metavar="HOURS",
              help="Agreed time to answer a turn file; after it a player may sign a timeout claim.")
@click.option("--pack", "pack_name", metavar="NAME-OR-DIR",
              help="With MODULE 'tabletop': the data pack of the game (pbem pack list), or your own pack directory. "
                   "With assault-on-gallipoli: your own map, counters, scenarios, fire modifiers "
                   "(pbem pack template writes ours to start from).")
@click.option("--reveal-concealed", is_flag=True,
              help="Table-top: play the pack's concealed pieces face up on the map, instead of each side holding "
                   "them hidden until deployed and revealed.")
@click.option("--option", "game_options", multiple=True, metavar="KEY=VALUE",
              help="A game option (pbem games lists them), e.g. --option turns=6; VALUE is read as JSON if it can be.")
@click.option("--cards", "cards_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your printed card values (TOML or JSON, by card id) for a module that takes them "
                   "(gallipoli-blocks: see its RULES.md).")
@click.option("--charts", "charts_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your printed charts (TOML or JSON) for a module that takes them (blood-on-the-tigris: see its "
                   "RULES.md); checked whole, every problem listed, and carried in the invitation.")
@encrypt_option
@campaign_option
@click.pass_context
def new(ctx: click.Context, module: str, side: str | None, key_name: str, opponent: Path | None, as_referee: bool,
        players: tuple[str, ...], scenario: str | None, mode: str, deadline: int | None, pack_name: str | None,
        reveal_concealed: bool, game_options: tuple[str, ...], cards_file: Path | None, charts_file: Path | None,
        encrypt_secrets: bool, campaign: Path | None) -> None:
    """Create a game of MODULE and write the invitation (the genesis turn file).

    \b
    Example:
        pbem new hill60 --as allied --key alice --opponent bob.pub --campaign hill60-game
    """
    from .campaign import Campaign
    from .keys import fingerprint

    if as_referee:
        if side or opponent or mode != "sealed":
            raise click.UsageError("--referee takes --player SIDE=FILE for each side; not --as, --opponent or --dice "
                                   "(a referee game's dice always need the referee's and the player's links)")
        return _new_refereed(ctx, module, key_name, players, scenario, deadline, encrypt_secrets, campaign,
                             _with_charts(module, charts_file, _with_pack(module, pack_name, reveal_concealed,
                                                                         _game_options(game_options, cards_file))))
    if not side or not opponent or players:
        raise click.UsageError("a two-player game needs --as SIDE and --opponent FILE (--player is for --referee)")
    options = _with_charts(module, charts_file,
                           _with_pack(module, pack_name, reveal_concealed, _game_options(game_options, cards_file)))
    public, comment = _read_public(opponent)
    name = comment.removeprefix("pbem:") or opponent.stem
    identity = keystore(ctx).load(key_name, identity_passphrase)
    directory = campaign or Path(".")
    camp, envelope = Campaign.new(directory, module, side, identity, public, name, scenario, options or None,
                                  mode=mode, deadline_hours=deadline, lock=secrets_lock(encrypt_secrets))
    path = camp.dir / "sent" / file_name(envelope)
    click.echo(f"created game {envelope.game} of {camp.game.title}: you are {side}")
    click.echo(f"opponent {name} pinned with fingerprint {fingerprint(public)}: compare it with them by phone.")
    _invitation_mail(ctx, camp, envelope, path)
    click.echo(f"Send the invitation to {name}: {path}")


def _with_pack(module: str, pack_name: str | None, reveal_concealed: bool, options: dict[str, Any]) -> dict[str, Any]:
    """Table-top mode: the pack the invitation carries (options.pack), checked first.  A rules
    module that takes a player's own data (``check_data``): his directory of data files, checked
    whole, carried as the option ``data`` (gamedata.py)."""
    if pack_name and module != "tabletop":
        from .gamedata import read

        if "data" in options:
            raise click.UsageError("give your data once: --pack DIR or --option data=..., not both")
        options["data"] = read(module, Path(pack_name))
        return options
    if module == "tabletop" or pack_name:
        from .datapack import check, find, load

        if module != "tabletop" or not pack_name:
            raise click.UsageError("table-top play is 'pbem new tabletop --pack NAME-OR-DIR ...'")
        pack_dir = find(pack_name)
        options["pack"] = load(pack_dir)
        problems = check(options["pack"])
        if problems:
            raise PbemError(f"the pack has {len(problems)} problem(s)", f"{problems[0]} (pbem pack check {pack_dir})",
                            code="bad-pack")
        if reveal_concealed:
            options["reveal_concealed"] = True
    return options


def _with_charts(module: str, charts_file: Path | None, options: dict[str, Any]) -> dict[str, Any]:
    """``--charts FILE``: a player's printed charts, read here (the engine reads no file), checked
    whole by the module's ``check_charts`` (every problem listed at once) and passed as its
    option ``charts``, so they travel in the signed invitation."""
    if charts_file is None:
        return options
    from pbem_engine.registry import UnknownGame, get_game

    try:
        game = get_game(module)
    except UnknownGame as e:
        raise PbemError("no such game module", str(e), code="bad-module") from None
    if not hasattr(game, "check_charts"):
        raise click.UsageError(f"{module} takes no --charts (its charts are its rules)")
    if "charts" in options:
        raise click.UsageError("give the charts once: --charts FILE or --option charts=..., not both")
    try:
        text = charts_file.read_text(encoding="utf-8")
        if charts_file.suffix.lower() == ".json":
            import json

            data = json.loads(text)
        else:
            import tomllib

            data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise PbemError(f"cannot read the charts in {charts_file.name}", str(e), code="bad-charts") from None
    problems = game.check_charts(data) + [
        f"{where}: not a whole number (the charts travel in the signed invitation, which holds whole numbers only)"
        for where in _fractions(data, "")]
    if problems:
        raise PbemError(f"the charts in {charts_file.name} have {len(problems)} problem(s); nothing was written",
                        "\n  ".join(problems), code="bad-charts")
    options["charts"] = data
    return options


def _fractions(value: Any, path: str) -> list[str]:
    """Where a parsed file holds a number that is not whole (canonical JSON has none)."""
    if isinstance(value, float):
        return [path or "the file"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _fractions(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _fractions(v, f"{path}[{i}]")]
    return []


def _invitation_mail(ctx: click.Context, camp, envelope, path: Path) -> None:
    """The invitation's ready-to-send mail(s) in outbox/ (the address is filled in when sent)."""
    from .campaign import PlayResult
    from .mail import write_outbox

    from .mail import address

    for message in write_outbox(camp, PlayResult(envelope, path, [], [], []), load_mail_config(ctx).sender):
        side = message.stem.rsplit("-", 1)[-1]
        first = "" if address(camp, side) else f"pbem mail address {side} ADDRESS, then "
        click.echo(f"ready to send: {message} ({first}pbem mail send)")


def _game_options(pairs: tuple[str, ...], cards_file: Path | None) -> dict[str, Any]:
    """``--option KEY=VALUE`` (VALUE as JSON when it parses, else text) and ``--cards FILE``."""
    import json

    from pbem_engine.canonical import NotCanonical, canonical_json

    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--option takes KEY=VALUE, got {pair!r}")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
        try:  # what the signed invitation can carry: no fractions, no huge numbers
            canonical_json(options[key.strip()])
        except NotCanonical as e:
            raise click.UsageError(f"--option {key.strip()}: {value!r} cannot go in an invitation ({e}); "
                                   "give a whole number, text, true/false or a list of them") from None
    if cards_file is not None:
        try:
            text = cards_file.read_text()
            if cards_file.suffix == ".json":
                options["cards"] = json.loads(text)
            else:
                import tomllib

                options["cards"] = tomllib.loads(text)
            canonical_json(options["cards"])  # ValueError (NotCanonical): a fraction, a date, a huge number
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise PbemError(f"cannot read the card values in {cards_file}", str(e), code="bad-cards") from None
    return options


def _new_refereed(ctx: click.Context, module: str, key_name: str, players: tuple[str, ...], scenario: str | None,
                  deadline: int | None, encrypt_secrets: bool, campaign: Path | None,
                  options: dict[str, Any] | None = None) -> None:
    from .campaign import Campaign
    from .keys import fingerprint

    named: dict[str, tuple[bytes, str]] = {}
    for item in players:
        side, sep, file = item.partition("=")
        if not sep or not side or not file:
            raise click.BadParameter(f"'{item}' is not SIDE=FILE", param_hint="--player")
        public, comment = _read_public(Path(file))
        named[side] = (public, comment.removeprefix("pbem:") or Path(file).stem)
    identity = keystore(ctx).load(key_name, identity_passphrase)
    camp, envelope = Campaign.new_refereed(campaign or Path("."), module, identity, named, scenario, options or None,
                                           deadline, secrets_lock(encrypt_secrets))
    click.echo(f"created referee game {envelope.game} of {camp.game.title}")
    for side, (public, name) in sorted(named.items()):
        click.echo(f"  {side}: {name}, fingerprint {fingerprint(public)} (compare it with them by phone)")
    path = camp.dir / "sent" / file_name(envelope)
    _invitation_mail(ctx, camp, envelope, path)
    click.echo(f"Send the invitation to every player: {path}")



FREE_ORDERS = ("Orders in words, e.g.: move PIECE to LOCATION; step PIECE -1; flip PIECE; mark X with TEXT; "
               "roll 3d6 [for PURPOSE]; draw N from DECK; play CARD; deploy PIECE to LOCATION; reveal PIECE; "
               "next phase; next turn; say TEXT; pass; end RESULT")


class _Progress:
    """A progress bar on stderr for a long replay, shown only on a terminal (silent in scripts and
    mail runs): ``with _Progress("verifying") as step: ... step(done, total)``."""

    def __init__(self, label: str) -> None:
        self.label, self.bar, self.done = label, None, 0

    def __enter__(self):
        return self if sys.stderr.isatty() else None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if total < 200:  # a short history is checked before a bar could be read
                return
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                         update_min_steps=max(1, total // 100))
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _headed(side: str | None, text: str) -> str:
    """A prompt under its side's name, once (the block game's prompts already begin with it)."""
    return text if side is None or text.lower().startswith(f"{side.lower()}:") else f"{side}: {text}"


def _asker(game):
    """The interactive question for one game: its choices, its own hints ('help' shows them again),
    'undo', and 'quit' or Ctrl-D, which keep the draft."""
    hints = FREE_ORDERS if game.name == "tabletop" else ""

    def ask(prompt, events, rolls, refusal):
        from .report import dice_text

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
    from .report import dice_text

    camp = open_campaign(campaign)
    if camp.refereed and camp.match()["public"].get("disclosed") is not None:
        raise PbemError("the game is over: the referee has disclosed it", "nothing is left to sign; pbem verify and "
                        "pbem audit check the whole game, pbem report --all tells it", code="game-over")
    camp.mail_outbox = True  # what it signs owes its mail: a later command writes it if this one is interrupted
    if camp.recovered.turn is not None and (camp.waiting() or {}).get("side") != camp.side:
        envelope, path = camp.recovered.turn  # signed by an interrupted 'pbem play': this retry finishes it
        click.echo(f"signed turn file #{envelope.seq}: {path} (signed before an interruption; written now)")
        return _tell(camp, None, camp.recovered.outbox)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
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
            if camp.refereed:
                from .refereeing import latest_view

                view = latest_view(camp)
                text, labels = view["prompt"]["text"], [label for label, _ in view["prompt"]["choices"]]
            else:
                prompt = camp.shown_prompt()  # after any draft; our own hidden items by name
                text, labels = prompt.text, [c.label for c in prompt.choices]
            click.echo(_headed(camp.side, text))
            for i, label in enumerate(labels, 1):
                click.echo(f"  {i}. {label}")
            click.echo(FREE_ORDERS if not labels else "Give your orders: pbem play N [N...]")
            return
    result = camp.play(identity, list(orders), ask)
    if ask is None:
        for event in result.events:
            click.echo(f"  {event['text']}")
        for roll in result.rolls:
            click.echo(f"  roll: {roll['purpose']}: {dice_text(roll)}")
    odds_of = getattr(camp.game, "action_odds", None)  # a roll ordered in words: its exact odds
    for action in result.drafted if odds_of else []:
        if line := odds_of(action):
            click.echo(f"  odds: {line}")
    if result.envelope is None:
        click.echo(f"{len(result.drafted)} action(s) drafted, not yet signed; continue with 'pbem play', take back with 'pbem undo'.")
        return
    click.echo(f"signed turn file #{result.envelope.seq}: {result.path}")
    if result.unused:
        click.echo(f"  your order(s) {', '.join(repr(o) for o in result.unused)} were not used: there was nothing "
                   "for you to decide, only your reveal to send")
    from .mail import write_outbox

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
    from .campaign import PlayResult
    from .mail import write_outbox

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

    from .turns import take_back

    camp = open_campaign(campaign)
    taken = take_back(camp)
    if taken is None:
        raise PbemError("nothing to take back", "there is no unsigned draft; a signed turn file stands", code="no-draft")
    click.echo(f"took back: {taken}; {len(camp.draft())} drafted action(s) remain")


@click.command()
@campaign_option
def status(campaign: Path | None) -> None:
    """Who owes what, since when.

    \b
    Example:
        pbem status --campaign hill60
    """

    camp = open_campaign(campaign, readonly=True)
    seq, _ = camp.ledger.state()
    game = camp.game
    click.echo(f"{game.title}: game {camp.genesis['game']}, you are {camp.side}, "
               f"dice {camp.genesis['body']['mode']}, {seq + 1} envelope{'s' if seq else ''}")
    waiting = camp.waiting()
    outcome = camp.outcome()
    if outcome:
        click.echo(f"game over: {outcome['result']}" + (f" ({outcome['reason']})" if outcome["reason"] else ""))
    if waiting:
        late = camp.overdue()
        who = "you" if waiting["side"] == camp.side else waiting["side"]
        click.echo(f"waiting for {who}: {waiting['text']} (since envelope #{waiting['since']}, "
                   f"stored {late['stored_at']}, {late['hours']} h ago)")
        if late["deadline"] is not None:
            state = "OVERDUE: a timeout claim may be signed (pbem claim-timeout)" if late["overdue"] and who != "you" \
                else ("OVERDUE" if late["overdue"] else f"{late['deadline'] - late['hours']} h left")
            click.echo(f"deadline {late['deadline']} h: {state}")
    drafted = camp.draft(ask=False)
    if drafted is None:
        click.echo("a draft of unsigned actions is kept, encrypted with the secrets")
    elif drafted:
        click.echo(f"{len(drafted)} drafted action(s) not yet signed")
    evidence = sorted((camp.dir / "evidence").glob("*.pbem")) if (camp.dir / "evidence").is_dir() else []
    for path in evidence:
        click.echo(f"EVIDENCE kept (equivocation or cheating, signed by its author): {path}")
    from .mail_send import pending_outbox, set_aside_outbox

    waiting_mail, failed = pending_outbox(camp), set_aside_outbox(camp)
    if waiting_mail:
        click.echo(f"{len(waiting_mail)} mail(s) waiting in outbox/ (pbem mail send)")
    for path in failed:
        reason = path.with_suffix(".reason.txt")
        why = reason.read_text(errors="replace").strip().splitlines()[0] if reason.is_file() else "see pbem mail send"
        click.echo(f"MAIL SET ASIDE, not sent: {path.name}: {why[:160]} (fix the address, then pbem mail send {path})")
    for _, seq, author, raw, received in camp.ledger.claims():
        from .armor import find_blocks
        from .envelope import open_block

        body = open_block(find_blocks(raw)[0]).content["body"]
        click.echo(f"TIMEOUT CLAIM by {author} against {body['owed_by']} at #{seq}: claimed {body['claimed_at']} "
                   f"after {body['hours']} h (deadline {body.get('deadline_hours') or 'none agreed'})")


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
    from .refereeing import disclose as publish

    camp = open_campaign(campaign)
    if not camp.refereed or camp.side != "referee":
        raise PbemError("only the referee of a referee game discloses it", code="not-referee")
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    camp.mail_outbox = True
    result = publish(camp, identity)
    click.echo(f"signed turn file #{result.envelope.seq}: {result.path}")
    from .mail import write_outbox

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
    envelope = camp.claim_timeout(identity)
    body = envelope.content["body"]
    click.echo(f"signed a timeout claim against {body['owed_by']} ({body['hours']} h): "
               f"{camp.dir / 'sent' / file_name(envelope)}")
    owed = body["owed_by"]
    names = dict(camp.genesis["body"]["sides"], **({"referee": camp.genesis["body"]["referee"]} if camp.refereed else {}))
    click.echo(f"Send it to {names[owed]['name']} (and to any witness).")


def _write(path: Path, text: str) -> None:
    """A report or replay written whole, or refused with the reason (a missing folder, no room)."""
    from .files import atomic_write

    try:
        atomic_write(path, text)
    except OSError as e:
        raise PbemError(f"cannot write {path}", e.strerror or str(e), code="unwritable") from None


@click.command()
@click.option("--html", "fmt", flag_value="html", help="HTML instead of plain text.")
@click.option("--text", "fmt", flag_value="text", default=True, hidden=True)
@click.option("--all", "everything", is_flag=True, help="The whole game, not only what is new since your last turn.")
@click.option("--at", "at", type=click.IntRange(0), metavar="N",
              help="Step back: the game as it stood after envelope N (with --all: everything up to it).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@click.option("--pack", "pack_dir", type=click.Path(file_okay=False, exists=True, path_type=Path), default=None,
              help="Draw the map with your own pack: better coordinates, or a map image you own ([map] image).")
@campaign_option
def report(fmt: str, everything: bool, at: int | None, output: Path | None, pack_dir: Path | None,
           campaign: Path | None) -> None:
    """The turn report from your side's point of view (text for e-mail, or HTML).

    \b
    Example:
        pbem report --all --at 12      # the whole story up to envelope #12, and the map then
    """
    from .report import render

    camp = open_campaign(campaign, readonly=True)
    if at is not None and camp.ledger.envelope_index(at) is None:
        raise PbemError(f"no envelope #{at}", f"this campaign holds #0 to #{camp.ledger.head()[0]}", code="no-envelope")
    text = render(camp, fmt, since=-1 if everything else (at - 1 if at is not None else None), at=at, pack_dir=pack_dir)
    if output:
        _write(output, text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


@click.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write it (default: replay.html in the campaign directory).")
@click.option("--pack", "pack_dir", type=click.Path(file_okay=False, exists=True, path_type=Path), default=None,
              help="Draw the map with your own pack's coordinates.")
@campaign_option
def replay(output: Path | None, pack_dir: Path | None, campaign: Path | None) -> None:
    """Write one HTML file that steps through the whole game as your side saw it.

    First, previous, next, last or jump to an envelope; the map and the events at every step.
    A finished game shows every step with everything the end opened.

    \b
    Example:
        pbem replay --campaign hill60 -o hill60-replay.html
    """
    from .replay import render

    camp = open_campaign(campaign, readonly=True)
    target = output or camp.dir / "replay.html"
    _write(target, render(camp, pack_dir=pack_dir))
    click.echo(f"wrote {target} ({camp.ledger.head()[0] + 1} steps, as {camp.side} saw them)")


@click.command()
@click.argument("path", type=click.Path(path_type=Path), default=Path("."))
def verify(path: Path) -> None:
    """Replay PATH (a campaign directory or database) from genesis and re-check everything.

    \b
    Examples:
        pbem verify hill60
        pbem verify hill60/campaign.db
    """
    from .verify import verify_path

    with _Progress("verifying") as progress:
        result = verify_path(path, lambda: identity_passphrase("campaign secrets"), progress)
    click.echo(result.summary())


@click.command()
@campaign_option
def rebuild(campaign: Path | None) -> None:
    """Recompute the derived tables (states, rolls, events) from the envelopes.

    \b
    Example:
        pbem rebuild --campaign hill60
    """
    from .verify import verify_ledger

    camp = open_campaign(campaign)
    with _Progress("rebuilding") as progress:
        result = verify_ledger(camp.ledger, rebuild=True, progress=progress)
    click.echo("rebuilt: " + result.summary())


def _demo_games() -> list[str]:
    """The rules modules the demo can play (table-top games are played by people)."""
    from pbem_engine.registry import BUILTIN_GAMES

    return sorted(name for name in BUILTIN_GAMES if name != "tabletop")


def _demo_game(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--game: a known module name (any case), or a usage error listing them."""
    from pbem_engine.registry import BUILTIN_GAMES

    if value is None or value.lower() in BUILTIN_GAMES:
        return None if value is None else value.lower()
    raise click.BadParameter(f"no game module '{value}'; known: {', '.join(_demo_games())} (pbem games)")


@click.command()
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to put the demo (default: a new folder under ./logs).")
@click.option("--game", "module", default=None, metavar="MODULE", callback=_demo_game,
              shell_complete=lambda ctx, param, incomplete: [n for n in _demo_games() if n.startswith(incomplete)],
              help="Game module to play (default: gallipoli-blocks; with --referee: hill60).")
@click.option("--referee", "refereed", is_flag=True, help="A refereed game: a referee and two players, three databases.")
def demo(directory: Path | None, module: str | None, refereed: bool) -> None:
    """Play a whole game between two simulated players, by real signed turn files.

    \b
    Examples:
        pbem demo
        pbem demo --game hill60 --dir hill60-demo
        pbem demo --referee
    """
    from .demo import run, run_refereed

    (run_refereed if refereed else run)(directory, module, click.echo)


@click.command()
@click.option("--envelopes", default=10_000, show_default=True)
@click.option("--dice", default=200_000, show_default=True)
@click.option("--small", default=100, show_default=True, help="History length of the small ingest comparison.")
@click.option("--only", default="", metavar="PARTS",
              help="Run only these parts, comma-separated: verify, memory, ingest, report (pbem report and "
                   "status), handovers, decks, replay (the block game).")
def bench(envelopes: int, dice: int, small: int, only: str) -> None:
    """Benchmark verify, ingest, report and replay against floors measured in the same run.

    \b
    Examples:
        pbem bench --envelopes 1000 --dice 20000
        pbem bench --only replay,report
    """
    from pbem.bench import PARTS, run

    parts = {p.strip() for p in only.split(",") if p.strip()}
    if parts - set(PARTS):
        raise click.BadParameter(f"no part {sorted(parts - set(PARTS))[0]!r}; the parts: {', '.join(PARTS)}",
                                 param_hint="--only")
    run(envelopes, dice, small, click.echo, only=parts or None)


@click.command()
@click.argument("path", type=click.Path(path_type=Path), default=Path("."))
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write an HTML version (histograms per side and die type) to this file.")
def audit(path: Path, html: Path | None) -> None:
    """Verify PATH, then list every roll re-derived from its committed inputs, with dice statistics.

    \b
    Example:
        pbem audit hill60 --html hill60-dice.html
    """
    from .audit import audit_path, render

    with _Progress("auditing") as progress:
        result = audit_path(path, lambda: identity_passphrase("campaign secrets"), progress)
    click.echo(render(result, "text"), nl=False)
    if html:
        try:
            html.write_text(render(result, "html"), encoding="utf-8")
        except OSError as e:
            raise PbemError(f"cannot write {html}", e.strerror or str(e), code="unwritable") from None
        click.echo(f"wrote {html}", err=True)
