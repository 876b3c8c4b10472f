"""The ``pbem`` command line: thin commands over the library.

Domain errors become a one-line reason plus detail on stderr and exit 1 in
one place (``LazyGroup.invoke``); click's own usage errors exit 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .commands.cli_common import (
    CONTEXT,
    LazyGroup,
    campaign_option,
    encrypt_option,
    file_name,
    identity_passphrase,
    keystore,
    load_mail_config,
    open_campaign,
    record_game,
    secret_env,
    secrets_lock,
    show_next,
)
from .errors import PbemError


class _Root(LazyGroup):
    LAZY = {"keys": "pbem.commands.cli_extra:keys", "pack": "pbem.commands.cli_extra:pack", "mail": "pbem.commands.cli_extra:mail",
            "new": "pbem.commands.cli_new:new", "play": "pbem.commands.cli_game:play", "undo": "pbem.commands.cli_game:undo", "resend": "pbem.commands.cli_game:resend", "status": "pbem.commands.cli_game:status", "disclose": "pbem.commands.cli_game:disclose", "claim-timeout": "pbem.commands.cli_game:claim_timeout", "leave": "pbem.commands.cli_clock:leave", "report": "pbem.commands.cli_check:report", "replay": "pbem.commands.cli_check:replay", "verify": "pbem.commands.cli_check:verify", "rebuild": "pbem.commands.cli_check:rebuild", "demo": "pbem.commands.cli_check:demo", "bench": "pbem.commands.cli_check:bench", "audit": "pbem.commands.cli_check:audit", "takeback": "pbem.commands.cli_takeback:takeback",
            "serve": "pbem.commands.cli_serve:serve"}
    LAZY.update({name: f"pbem.commands.cli_table:{attr}" for name, attr in (  # around the board
        ("say", "say"), ("tell", "tell"), ("messages", "messages_command"), ("result", "result_command"),
        ("results", "results_command"), ("rematch", "rematch"))})
    LAZY.update({"watch": "pbem.commands.cli_witness:watch", "witnesses": "pbem.commands.cli_witness:witnesses"})
    LAZY["team"] = "pbem.commands.cli_team:team"


@click.group(cls=_Root, context_settings=CONTEXT)
@click.version_option(package_name="pbem")
@click.option("--home", type=click.Path(file_okay=False), envvar="PBEM_HOME",
              help="Where identities are kept (default: ~/.pbem, or $PBEM_HOME).")
def cli(home: str | None) -> None:
    """Play board wargames by e-mail: signed turn files, verifiable dice.

    \b
    First time?  pbem demo
    A real game: pbem keys new NAME; pbem new GAME --as SIDE --opponent THEIR.pub
    """


def main() -> None:
    cli(prog_name="pbem")


# --- games ------------------------------------------------------------------

@cli.command()
def games() -> None:
    """List the game modules and their scenarios.

    \b
    Example:
        pbem games
    """
    from pbem_engine import list_games

    for game in list_games():
        click.echo(f"{game.name}\t{game.title} (version {game.version}; sides: {', '.join(game.sides)})")
        for name, text in game.scenarios.items():
            click.echo(f"    scenario {name}: {text}")
        for name, text in getattr(game, "options", {}).items():
            click.echo(f"    --option {name}=...: {text}")
    click.echo("tabletop\ttable-top mode for any game with a data pack: pbem new tabletop --pack NAME (pbem pack list)")


def _read_mail(files: tuple[str, ...], given: dict[str, bytes] | None = None) -> tuple[list[tuple[str, str]], bool]:
    """Texts from turn files, saved messages (.eml), mbox files, Maildir folders or stdin;
    and whether any of it was mail (where other games' blocks are skipped, not refused).
    ``given``: bytes already read, by name (stdin cannot be read twice)."""
    from .mailbox.mailbox_in import input_texts, texts_from_source

    texts: list[tuple[str, str]] = []
    mail = False
    for name in files:
        path = None if name == "-" else Path(name)
        if path is not None and path.is_dir():
            if not (path / "cur").is_dir():
                raise PbemError(f"{name} is a folder but not a Maildir", "expected cur/, new/ and tmp/", code="unreadable")
            texts += texts_from_source(path)
            mail = True
            continue
        data = (given or {}).get(name)
        found, was_mail = input_texts(name, data if data is not None else _read_bounded(name), path)
        texts += found
        mail = mail or was_mail
    return texts, mail


def _read_bounded(name: str) -> bytes:
    """The bytes of a file or of stdin ("-"), never more than the mail size limit holds: a larger
    input is refused before it is read into memory (the limit: pbem.limits.MAX_MAIL_BYTES)."""
    from . import limits

    most = limits.value("MAX_MAIL_BYTES")
    try:
        if name == "-":
            data = sys.stdin.buffer.read(most + 1)
        else:
            path = Path(name)
            if path.is_file() and path.stat().st_size > most:
                data = b"x" * (most + 1)  # refused below without reading it
            else:
                with path.open("rb") as f:
                    data = f.read(most + 1)
    except OSError as e:
        raise PbemError(f"cannot read {name}", e.strerror or str(e), code="unreadable") from None
    if len(data) > most:
        raise limits.LimitError(f"{name} is larger than {limits.size(most)}",
                                "set PBEM_MAX_MAIL_BYTES to read larger files")
    return data


@cli.command()
@click.argument("invitation", type=click.Path(allow_dash=True), required=False)
@click.option("--key", "key_name", help="Your identity; the invitation must name its public key.")
@click.option("--from-mailbox", is_flag=True,
              help="Take the invitation from your IMAP mailbox (pbem mail config): the newest naming your key.")
@click.option("--game", "game_prefix", metavar="ID", default="",
              help="With --from-mailbox: the game (the first digits of its id) when several invite you.")
@click.option("--show", is_flag=True, help="Only show what the invitation asks you to agree to; join nothing.")
@encrypt_option
@campaign_option
@click.pass_context
def join(ctx: click.Context, invitation: str | None, key_name: str | None, from_mailbox: bool, game_prefix: str,
         show: bool, encrypt_secrets: bool, campaign: Path | None) -> None:
    """Accept an INVITATION (genesis turn file) and write your join turn file.

    INVITATION may be the turn file, or the mail that brought it: whatever pbem
    ingest reads (a saved message .eml, an mbox file, a Maildir folder, or - for
    a message piped on stdin).  Or give --from-mailbox: the invitation is the
    newest one naming your key among the mail pbem wrote in your IMAP folder
    (read only; --game ID picks one of several).  Your join turn file goes to
    sent/, with a mail ready to send in outbox/; the address of the mail's
    sender is kept as the creator's (pbem mail address changes it).

    \b
    Examples:
        pbem join 3f2a9c1e-0000-allied-genesis.pbem --key bob --campaign hill60
        pbem join - --key bob --campaign hill60 < invitation.eml
        pbem join --from-mailbox --key bob --campaign hill60
    """
    from .chain import invitation as invitation_mod
    from .chain.history import pinned_key, read_invitation
    from .play.campaign import Campaign, PlayResult
    from .wire.keys import fingerprint

    if (invitation is None) == (not from_mailbox):
        raise click.UsageError("Give INVITATION (a file, a saved mail, - for stdin) or --from-mailbox, one of them.")
    if game_prefix and not from_mailbox:
        raise click.UsageError("--game chooses among the invitations in your mailbox: give --from-mailbox too.")
    identity = None
    if key_name and not show:
        identity = keystore(ctx).load(key_name, identity_passphrase)
    if from_mailbox:
        from .mailbox.mail_join import invitation_mail

        public = identity.public if identity else (keystore(ctx).public(key_name) if key_name else None)
        offer = invitation_mail(load_mail_config(ctx), secret_env("PBEM_IMAP_PASSWORD", "IMAP"), public, game_prefix)
        click.echo(f"the invitation in {offer.label}: {offer.line}")
        text, sender = _invitation(offer.label, identity, offer.raw)
    else:
        text, sender = _invitation(invitation, identity)
    click.echo("The invitation asks you to agree to:")
    for line in invitation_mod.terms(read_invitation(text), fingerprint):
        click.echo(f"  {line}")
    if show:
        return
    if identity is None:
        raise click.UsageError("Missing option '--key' (your identity), or give --show to only look.")
    camp, envelope = Campaign.join(campaign or Path("."), text, identity, secrets_lock(encrypt_secrets))
    record_game(ctx, camp)
    creator = camp.genesis["author"]
    if sender:  # the address the invitation came from: where the join goes back
        from .mailbox.mail import address

        if not address(camp, creator):
            camp.ledger.begin()
            camp.ledger.put_setting(f"email:{creator}", sender)
            camp.ledger.commit()
    click.echo(f"joined game {envelope.game} of {camp.game.title} as {camp.side}")
    click.echo(f"{creator} signs with fingerprint {fingerprint(pinned_key(camp.genesis, creator) or b'')}: "
               "compare it with them by phone.")
    creator_name = (camp.genesis["body"]["referee"] if camp.refereed else camp.genesis["body"]["sides"][creator])["name"]
    path = camp.dir / "sent" / file_name(envelope)
    from .mailbox.mail import write_outbox

    for message in write_outbox(camp, PlayResult(envelope, path, [], [], []), load_mail_config(ctx).sender):
        click.echo(f"ready to send: {message} (pbem mail send)")
    who = "the referee" if camp.refereed and creator_name.lower() in ("referee", "the referee") else creator_name
    if sender:
        click.echo(f"{creator}'s address: {sender} (from the mail of the invitation)")
    click.echo(f"Send your join turn file to {who}: {path}")
    show_next(camp)


def _invitation(name: str, identity, data: bytes | None = None) -> tuple[str, str]:
    """The invitation (one genesis block) in ``name`` (a turn file, a mail, an mbox, a Maildir,
    or - for stdin; or ``data``, a message read already, named ``name``), and the address of the
    mail it came in ('' if none, or not one message).

    :raises PbemError: no invitation in it; several, and nothing says which is yours."""
    from .chain.history import pinned_key
    from .mailbox.mailbox_in import (
        automatic,
        from_address,
        looks_like_mail,
        read_message,
    )
    from .wire.armor import scan
    from .wire.envelope import open_block

    path = None if name == "-" or data is not None else Path(name)
    given: dict[str, bytes] = {}
    sender = ""
    if path is None or not path.is_dir():
        data = given[name] = data if data is not None else _read_bounded(name)
        if not data.startswith(b"From ") and looks_like_mail(data):
            try:
                message = read_message(data)
                sender = "" if automatic(message) else from_address(message)
            except PbemError:
                sender = ""
    texts, _ = _read_mail((name,), given)
    found: dict[str, tuple[str, dict]] = {}
    problems = []
    for _source, text in texts:
        scanned = scan(text)
        problems += [d.error for d in scanned.damaged]
        for block in scanned.blocks:
            try:
                envelope = open_block(block)
            except PbemError as e:
                problems.append(e)
                continue
            if envelope.kind == "genesis":
                found.setdefault(envelope.hash, (block.raw, envelope.content))
    if not found:
        if problems:
            raise problems[0]
        raise PbemError("no invitation found", f"{name} holds no genesis turn file (an invitation ends in "
                        "-genesis.pbem)", code="not-genesis")
    choices = list(found.values())
    if len(choices) > 1 and identity is not None:
        mine = [c for c in choices if any(pinned_key(c[1], s) == identity.public
                                          for s in c[1]["body"].get("sides", {}))]
        choices = mine or choices
    if len(choices) > 1:
        games = ", ".join(sorted(c[1]["game"][:8] for c in choices))
        raise PbemError(f"{len(choices)} invitations in {name}", f"games {games}: save the one you accept and "
                        "give it alone" + ("" if identity else ", or give --key to pick the one naming you"),
                        code="several-invitations")
    return choices[0][0], sender


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@campaign_option
def ingest(files: tuple[str, ...], campaign: Path | None) -> None:
    """Check FILES and add their turn files to the campaign.

    FILES may be turn files, saved messages (.eml), mbox files, Maildir
    folders, or - for a message piped on stdin.  Every armored block is found:
    in plain, quoted-printable, base64 and HTML bodies, attachments, quoted
    replies and forwarded messages.  All or nothing: a refused block leaves
    the campaign unchanged.  Blocks already ingested are reported and
    skipped; in mail, blocks of other games are reported and skipped too.

    \b
    Examples:
        pbem ingest --campaign hill60 3f2a9c1e-0001-ottoman-join.pbem
        pbem ingest --campaign hill60 ~/Mail/pbem.mbox
        pbem ingest --campaign hill60 - < message.eml
    """
    texts, mail = _read_mail(files)
    camp = open_campaign(campaign)
    result = camp.ingest(texts, skip_other_games=mail)
    for env, why in result.skipped:
        click.echo(f"skipped #{env.seq} from {env.author}: {why}")
    for env in result.accepted:
        click.echo(f"accepted #{env.seq} from {env.author} ({env.kind})")
    for env in result.claims:
        body = env.content["body"]
        click.echo(f"recorded a TIMEOUT CLAIM by {env.author} against {body['owed_by']}: envelope "
                   f"#{body['since'] + 1} owed since {body['hours']} h (claimed {body['claimed_at']})")
    if result.takebacks:  # take-back proposals and answers (pbem takeback)
        from .play.takeback import subject

        for env in result.takebacks:
            click.echo(subject(camp, env))
    if result.accepted:
        show_next(camp)
