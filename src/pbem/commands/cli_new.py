"""``pbem new``: creating a game (two players or refereed) with its options, a player's own
cards, charts, pack or data, and the invitation's mail.  Loaded only when it runs
(``cli._Root.LAZY``)."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import click

from ..errors import PbemError
from .cli_common import (
    campaign_option,
    encrypt_option,
    file_name,
    identity_passphrase,
    keystore,
    load_mail_config,
    record_game,
    secrets_lock,
)


def _read_public(path: Path) -> tuple[bytes, str]:
    from ..wire.keys import parse_public

    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise PbemError(f"cannot read {path}", str(e), code="bad-key") from None
    return parse_public(text, str(path))


def _modules(incomplete: str) -> list[str]:
    """The game modules 'pbem new' can create (Tab completion)."""
    from pbem_engine.registry import BUILTIN_GAMES

    return sorted(name for name in BUILTIN_GAMES if name.startswith(incomplete.lower()))


@click.command()
@click.argument("module", shell_complete=lambda ctx, param, incomplete: _modules(incomplete))
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
@click.option("--clock", "clock", metavar="BANK+INC/CAP",
              help="A time bank per side instead of a deadline, in hours: e.g. 72+12/120 (72 h to start, 12 h more "
                   "with each turn file, never more than 120). At zero the opponent may claim the game.")
@click.option("--at-zero", type=click.Choice(["loss", "adjudication"]), default="loss", show_default=True,
              help="With --clock: what a claim at zero means, the game lost on time or sent to adjudication.")
@click.option("--leave-days", type=click.IntRange(0, 365), default=14, show_default=True,
              help="With --clock: the days of leave each side may declare (pbem leave), when its clock stops.")
@click.option("--chain", "chain", type=click.IntRange(64, 65536), default=None, metavar="LINKS",
              help="Links in each side's hash chain, one a turn file (default 4096); the tool renews a chain "
                   "before it runs out, so this only sets how often.")
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
@click.option("--witness", "witness_files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="FILE.pub", help="A witness's public key: it receives the public part of every turn file "
              "(pbem watch); repeat for more. In a refereed game: the referee's files and the public view, "
              "everything after the disclosure.")
@click.option("--team", "team_files", multiple=True, metavar="SIDE=FILE.pub",
              help="A member of a side besides its player (a team game): its public key; repeat for more. "
                   "With --referee: SIDE is one of the --player sides.")
@click.option("--team-signs", type=click.Choice(["commander", "any"]), default="commander", show_default=True,
              help="With --team: who signs a team side's turn files, only its player (the commander; members follow "
                   "and verify) or any member.")
@encrypt_option
@campaign_option
@click.pass_context
def new(ctx: click.Context, module: str, side: str | None, key_name: str, opponent: Path | None, as_referee: bool,
        players: tuple[str, ...], scenario: str | None, mode: str, deadline: int | None, clock: str | None,
        at_zero: str, leave_days: int, chain: int | None, pack_name: str | None,
        reveal_concealed: bool, game_options: tuple[str, ...], cards_file: Path | None, charts_file: Path | None,
        witness_files: tuple[Path, ...], team_files: tuple[str, ...], team_signs: str, encrypt_secrets: bool,
        campaign: Path | None) -> None:
    """Create a game of MODULE and write the invitation (the genesis turn file).

    \b
    Example:
        pbem new hill60 --as allied --key alice --opponent bob.pub --campaign hill60-game
    """
    from ..play.campaign import Campaign
    from ..wire.keys import fingerprint

    agreed = _clock(clock, at_zero, leave_days, deadline, as_referee)
    if team_signs == "any" and not team_files:
        raise click.UsageError("--team-signs any needs the members: --team SIDE=FILE.pub")
    if as_referee:
        if side or opponent or mode != "sealed":
            raise click.UsageError("--referee takes --player SIDE=FILE for each side; not --as, --opponent or --dice "
                                   "(a referee game's dice always need the referee's and the player's links)")
        return _new_refereed(ctx, module, key_name, players, scenario, deadline, encrypt_secrets, campaign,
                             _with_charts(module, charts_file, _with_pack(module, pack_name, reveal_concealed,
                                                                         _game_options(game_options, cards_file))),
                             chain, witnesses=_witnesses(witness_files), teams=_teams(team_files), signs=team_signs)
    if not side or not opponent or players:
        raise click.UsageError("a two-player game needs --as SIDE and --opponent FILE (--player is for --referee)")
    options = _with_charts(module, charts_file,
                           _with_pack(module, pack_name, reveal_concealed, _game_options(game_options, cards_file)))
    public, comment = _read_public(opponent)
    name = comment.removeprefix("pbem:") or opponent.stem
    identity = keystore(ctx).load(key_name, identity_passphrase)
    directory = campaign or Path(".")
    camp, envelope = Campaign.new(directory, module, side, identity, public, name, scenario, options or None,
                                  mode=mode, deadline_hours=deadline, lock=secrets_lock(encrypt_secrets), clock=agreed,
                                  witnesses=_witnesses(witness_files), teams=_teams(team_files),
                                  signs=team_signs,
                                  **({"chain": chain} if chain else {}))
    path = camp.dir / "sent" / file_name(envelope)
    record_game(ctx, camp)
    click.echo(f"created game {envelope.game} of {camp.game.title}: you are {side}")
    click.echo(f"opponent {name} pinned with fingerprint {fingerprint(public)}: compare it with them by phone.")
    _pinned(camp, "", "give them their copy: pbem team export --to {member}")
    _invitation_mail(ctx, camp, envelope, path)
    click.echo(f"Send the invitation to {name}: {path}")


def _pinned(camp, witness_note: str, member_note: str) -> None:
    """The witnesses and team members the invitation pins, each with its fingerprint to compare."""
    from ..chain.witnesses import key_of, listed
    from ..wire.keys import fingerprint

    for entry in listed(camp.genesis):
        click.echo(f"witness {entry['name']} pinned with fingerprint "
                   f"{fingerprint(key_of(camp.genesis, entry['name']) or b'')}: compare it with them too. "
                   f"{witness_note}".rstrip())
    for team_side, entry in sorted(camp.genesis["body"]["sides"].items()):
        for member in entry.get("members", []):
            may = "may sign" if entry["signs"] == "any" else "follows; only the commander signs"
            click.echo(f"{team_side} member {member['name']} pinned with fingerprint "
                       f"{fingerprint(base64.b64decode(member['key']))} ({may}); "
                       + member_note.format(member=member["name"], side=team_side))


def _witnesses(files: tuple[Path, ...]) -> list[dict[str, str]] | None:
    """``--witness FILE.pub`` as the genesis's ``witnesses`` (pbem.chain.witnesses checks them again):
    each named after its key's comment ('pbem:NAME'), else its file name."""
    import base64

    out = []
    for path in files:
        public, comment = _read_public(path)
        name = (comment.removeprefix("pbem:") or path.stem.removesuffix(".pub")).lower()
        out.append({"name": name, "key": base64.b64encode(public).decode()})
    return out or None


def _teams(items: tuple[str, ...]) -> dict[str, list[dict[str, str]]] | None:
    """``--team SIDE=FILE.pub`` as {side: [{name, key}]} (pbem.chain.teams checks them again): each
    member named after its key's comment ('pbem:NAME'), else its file name."""
    out: dict[str, list[dict[str, str]]] = {}
    for item in items:
        side, sep, file = item.partition("=")
        if not sep or not side or not file:
            raise click.BadParameter(f"'{item}' is not SIDE=FILE.pub", param_hint="--team")
        public, comment = _read_public(Path(file))
        name = (comment.removeprefix("pbem:") or Path(file).stem.removesuffix(".pub")).lower()
        out.setdefault(side, []).append({"name": name, "key": base64.b64encode(public).decode()})
    return out or None


def _clock(text: str | None, at_zero: str, leave_days: int, deadline: int | None,
           refereed: bool) -> dict[str, Any] | None:
    """``--clock BANK+INC/CAP`` as the genesis's ``clock`` (pbem.chain.invitation checks it again)."""
    if text is None:
        return None
    from ..chain.invitation import MAX_DEADLINE_HOURS

    found = re.fullmatch(r"\s*(\d{1,5})\s*\+\s*(\d{1,5})\s*/\s*(\d{1,5})\s*", text)
    if not found:
        raise click.UsageError(f"--clock takes BANK+INCREMENT/CAP in hours, e.g. 72+12/120; got {text!r}")
    bank, inc, cap = map(int, found.groups())
    if not 1 <= bank <= cap <= MAX_DEADLINE_HOURS or inc > cap:
        raise click.UsageError(f"--clock {text}: needs 1 <= BANK <= CAP <= {MAX_DEADLINE_HOURS} and INCREMENT <= CAP")
    if refereed:  # why not: docs/threat-model.md, "Clocks"
        raise click.UsageError("--clock is for two-player games: in a refereed game only the referee's copy sees "
                               "when each player's orders arrive; agree a --deadline instead")
    if deadline is not None:
        raise click.UsageError("--clock replaces --deadline: give one of them")
    return {"bank_hours": bank, "increment_hours": inc, "cap_hours": cap, "at_zero": at_zero, "leave_days": leave_days}


def _with_pack(module: str, pack_name: str | None, reveal_concealed: bool, options: dict[str, Any]) -> dict[str, Any]:
    """Table-top mode: the pack the invitation carries (options.pack), checked first.  A rules
    module that takes a player's own data (``check_data``): his directory of data files, checked
    whole, carried as the option ``data`` (gamedata.py)."""
    if pack_name and module != "tabletop":
        from ..chain.gamedata import read

        if "data" in options:
            raise click.UsageError("give your data once: --pack DIR or --option data=..., not both")
        options["data"] = read(module, Path(pack_name))
        return options
    if module == "tabletop" or pack_name:
        from ..chain.datapack import check, find, load

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

    from ..chain.gamedata import fractions, read_file

    try:
        game = get_game(module)
    except UnknownGame as e:
        raise PbemError("no such game module", str(e), code="bad-module") from None
    if not hasattr(game, "check_charts"):
        raise click.UsageError(f"{module} takes no --charts (its charts are its rules)")
    if "charts" in options:
        raise click.UsageError("give the charts once: --charts FILE or --option charts=..., not both")
    try:
        data = read_file(charts_file)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise PbemError(f"cannot read the charts in {charts_file.name}", str(e), code="bad-charts") from None
    problems = game.check_charts(data) + [
        f"{where}: not a whole number (the charts travel in the signed invitation, which holds whole numbers only)"
        for where in fractions(data)]
    if problems:
        raise PbemError(f"the charts in {charts_file.name} have {len(problems)} problem(s); nothing was written",
                        "\n  ".join(problems), code="bad-charts")
    options["charts"] = data
    return options


def _invitation_mail(ctx: click.Context, camp, envelope, path: Path) -> None:
    """The invitation's ready-to-send mail(s) in outbox/ (the address is filled in when sent)."""
    from ..mailbox.mail import address, write_outbox
    from ..play.campaign import PlayResult

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
        from ..chain.gamedata import read_file

        try:
            options["cards"] = read_file(cards_file)
            canonical_json(options["cards"])  # ValueError (NotCanonical): a fraction, a date, a huge number
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise PbemError(f"cannot read the card values in {cards_file}", str(e), code="bad-cards") from None
    return options


def _new_refereed(ctx: click.Context, module: str, key_name: str, players: tuple[str, ...], scenario: str | None,
                  deadline: int | None, encrypt_secrets: bool, campaign: Path | None,
                  options: dict[str, Any] | None = None, chain: int | None = None, **people: Any) -> None:
    """``people``: the witnesses and team members the invitation names (``refereeing.new_genesis``)."""
    from ..play.campaign import Campaign
    from ..wire.keys import fingerprint

    named: dict[str, tuple[bytes, str]] = {}
    for item in players:
        side, sep, file = item.partition("=")
        if not sep or not side or not file:
            raise click.BadParameter(f"'{item}' is not SIDE=FILE", param_hint="--player")
        public, comment = _read_public(Path(file))
        named[side] = (public, comment.removeprefix("pbem:") or Path(file).stem)
    identity = keystore(ctx).load(key_name, identity_passphrase)
    camp, envelope = Campaign.new_refereed(campaign or Path("."), module, identity, named, scenario, options or None,
                                           deadline, secrets_lock(encrypt_secrets), **({"chain": chain} if chain else {}),
                                           **people)
    record_game(ctx, camp)
    click.echo(f"created referee game {envelope.game} of {camp.game.title}")
    for side, (public, name) in sorted(named.items()):
        click.echo(f"  {side}: {name}, fingerprint {fingerprint(public)} (compare it with them by phone)")
    _pinned(camp, "(each gets their own files: pbem witnesses --address NAME ADDRESS)",
            "member {member} reads {side}'s views: give them their copy after {side} joins, from {side}'s player: "
            "pbem team export --to {member}")
    path = camp.dir / "sent" / file_name(envelope)
    _invitation_mail(ctx, camp, envelope, path)
    click.echo(f"Send the invitation to every player: {path}")
