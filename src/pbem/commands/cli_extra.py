"""The less used commands (identities, data packs, e-mail), loaded only when named:
every command pays for what ``pbem`` imports at start-up, and a cold ingest should not."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..errors import PbemError
from .cli_common import (
    LazyGroup,
    ask_passphrase,
    campaign_option,
    home_dir,
    identity_passphrase,
    keystore,
    load_mail_config,
    new_passphrase,
    open_campaign,
    secret_env,
    show_next,
)

# --- identities -------------------------------------------------------------

@click.group(cls=LazyGroup)
def keys() -> None:
    """Identities: Ed25519 keys that sign your turn files.

    \b
    Examples:
        pbem keys new alice
        pbem keys export alice > alice.pub     # send this to your opponent (or your referee)
    """


@keys.command("new")
@click.argument("name")
@click.option("--passphrase/--no-passphrase", default=False,
              help="Encrypt the private key with a passphrase (PBEM_PASSPHRASE, or asked twice on a terminal).")
@click.pass_context
def keys_new(ctx: click.Context, name: str, passphrase: bool) -> None:
    """Make a new identity NAME and print its fingerprint.

    \b
    Example:
        pbem keys new alice
        pbem keys export alice > alice.pub     # send this to your opponent
    """
    secret = new_passphrase("Passphrase", f"identity '{name}'") if passphrase else None
    identity = keystore(ctx).create(name, secret)
    click.echo(f"identity {name}: fingerprint {identity.fingerprint}")
    click.echo(f"Send the public key to your opponent, or to the referee in a refereed game: "
               f"pbem keys export {name} > {name}.pub")
    click.echo("Compare fingerprints by phone or in person: e-mail proves nothing.")


def _ssh_passphrase(path: str) -> bytes | None:
    """The passphrase of an OpenSSH key file: PBEM_PASSPHRASE, else asked on a terminal, else None."""
    return ask_passphrase(f"Passphrase of {path}")


@keys.command("import", short_help="Use an existing OpenSSH ed25519 private key as identity NAME.")
@click.argument("name")
@click.argument("ssh_key", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def keys_import(ctx: click.Context, name: str, ssh_key: Path) -> None:
    """Use an existing OpenSSH ed25519 private key (e.g. ~/.ssh/id_ed25519) as identity NAME.

    A key protected by a passphrase needs it: PBEM_PASSPHRASE, or asked on a
    terminal.  The identity is then kept encrypted with the same passphrase.

    \b
    Example:
        pbem keys import alice ~/.ssh/id_ed25519
    """
    store = keystore(ctx)
    identity = store.import_openssh(name, ssh_key, _ssh_passphrase)
    click.echo(f"identity {name}: fingerprint {identity.fingerprint} (from {ssh_key})")
    if b"ENCRYPTED" in (store.dir / f"{name}.key").read_bytes():
        click.echo("It is kept encrypted with the same passphrase.")


@keys.command("list")
@click.pass_context
def keys_list(ctx: click.Context) -> None:
    """List your identities and their fingerprints.

    \b
    Example:
        pbem keys list
    """
    from ..wire.keys import fingerprint

    store = keystore(ctx)
    names = store.names()
    if not names:
        click.echo(f"no identities in {store.dir}; make one with 'pbem keys new NAME'")
    for name in names:
        click.echo(f"{name}\t{fingerprint(store.public(name))}")


@keys.command("show")
@click.argument("name")
@click.pass_context
def keys_show(ctx: click.Context, name: str) -> None:
    """Show identity NAME: fingerprint, public key, file.

    \b
    Example:
        pbem keys show alice
    """
    from ..wire.keys import fingerprint

    store = keystore(ctx)
    public = store.public(name)
    click.echo(f"name:        {name}\nfingerprint: {fingerprint(public)}\npublic key:  {store.public_line(name).strip()}")
    click.echo(f"private key: {store.dir / (name + '.key')}")


@keys.command("export")
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file instead of stdout.")
@click.pass_context
def keys_export(ctx: click.Context, name: str, output: Path | None) -> None:
    """Print the public key of NAME (an OpenSSH line) to send to opponents.

    \b
    Examples:
        pbem keys export alice > alice.pub
        pbem keys export alice -o alice.pub
    """
    line = keystore(ctx).public_line(name)
    if output:
        output.write_text(line)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(line, nl=False)


# --- data packs -------------------------------------------------------------------------

@click.group(cls=LazyGroup)
def pack() -> None:
    """Data packs: what a rulebook gives about its game (docs/packs.md).

    \b
    Examples:
        pbem pack list
        pbem pack check gallipoli-blocks
    """


pack.LAZY = {"vassal": "pbem.commands.cli_vassal:pack_vassal"}  # your own map art from a VASSAL module


@pack.command("list")
def pack_list() -> None:
    """The packs shipped with pbem, with what each reconstructed (provisional) data.

    \b
    Example:
      pbem pack list
    """
    from ..chain.datapack import load, provisional_notes, shipped

    for name, path in shipped().items():
        pack = load(path)
        head = pack["pack"]
        click.echo(f"{name}\t{head.get('title', '')} ({', '.join(head.get('sides', []))})")
        notes = provisional_notes(pack)
        if notes:
            click.echo(f"  provisional: {len(notes)} note{'s' if len(notes) != 1 else ''} on what its rulebook "
                       f"lacks and what was reconstructed (shown in reports; pack.toml gives the sources)")


@pack.command("template")
@click.argument("module")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def pack_template(module: str, directory: Path) -> None:
    """Write a rules module's own provisional data (map, counters, scenarios, fire modifiers) to
    DIRECTORY, one TOML file a part, for you to put your copy's values in; then play with them:
    'pbem new MODULE --pack DIRECTORY ...'.  Never overwrites a file.

    \b
    Example:
        pbem pack template assault-on-gallipoli my-aog
    """
    from ..chain.gamedata import write_template

    for path in write_template(module, directory):
        click.echo(f"wrote {path}")
    click.echo(f"Edit them (delete a part to keep ours), check with 'pbem pack check --game {module} {directory}'.")


@pack.command("check")
@click.argument("pack_dir", metavar="DIR_OR_NAME")
@click.option("--game", "module", metavar="MODULE",
              help="Check DIR as your own data for this rules module (pbem pack template), not as a pack.")
def pack_check(pack_dir: str, module: str | None) -> None:
    """Validate a pack and list every problem at once (exit 1 if there is any).

    \b
    Example:
        pbem pack check gallipoli-blocks
        pbem pack check ~/my-packs/assault-on-gallipoli
        pbem pack check --game assault-on-gallipoli my-aog
    """
    from ..chain.datapack import check, find, load, provisional_notes

    if module:
        from ..chain.gamedata import game_of, read

        data = read(module, Path(pack_dir))
        ours = [p for p in game_of(module).data_template() if p not in data]
        click.echo(f"OK: {pack_dir}: your {', '.join(data)} for {module}"
                   + (f"; {', '.join(ours)} stay ours, provisional" if ours else ""))
        return

    path = find(pack_dir)
    data = load(path)
    problems = check(data)
    for problem in problems:
        click.echo(f"  {problem}")
    if problems:
        raise PbemError(f"{len(problems)} problem(s) in the pack", str(path), code="bad-pack")
    kinds = {k: len(data.get(k, [])) for k in ("location", "piece", "deck", "card", "scenario")}
    click.echo(f"OK: {path}: " + ", ".join(f"{n} {k}s" for k, n in kinds.items()))
    for note in provisional_notes(data):
        click.echo(f"  PROVISIONAL: {note}")


# --- e-mail -------------------------------------------------------------------------

@click.group(cls=LazyGroup)
def mail() -> None:
    """E-mail: server settings, addresses, sending the outbox, reading a mailbox.

    \b
    Examples:
        pbem mail config --smtp smtp.example.org:587 --smtp-user alice --from alice@example.org
        pbem mail address ottoman bob@example.org --campaign hill60
        pbem mail fetch --campaign hill60
        pbem mail send --campaign hill60
    """


def _server(text: str | None, security: str | None, user: str | None, old, cafile: str | None = None):
    from ..mailbox.mail import Server

    if text is None:
        if old is None or (security is None and user is None and cafile is None):
            return old
        return Server(old.host, old.port, security or old.security, old.user if user is None else user,
                      old.cafile if cafile is None else cafile)
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise click.BadParameter(f"'{text}' is not HOST:PORT")
    return Server(host, int(port), security or (old.security if old else "starttls"),
                  user if user is not None else (old.user if old else ""),
                  cafile if cafile is not None else (old.cafile if old else ""))


@mail.command("config")
@click.option("--smtp", metavar="HOST:PORT", help="Outgoing server.")
@click.option("--smtp-security", type=click.Choice(["ssl", "starttls", "none"]))
@click.option("--smtp-user")
@click.option("--smtp-cafile", type=click.Path(exists=True, dir_okay=False), help="Also trust this CA (PEM).")
@click.option("--imap", metavar="HOST:PORT", help="Incoming server.")
@click.option("--imap-security", type=click.Choice(["ssl", "starttls", "none"]))
@click.option("--imap-user")
@click.option("--imap-cafile", type=click.Path(exists=True, dir_okay=False), help="Also trust this CA (PEM).")
@click.option("--from", "sender", help="Your address, as the From of what pbem sends.")
@click.option("--folder", help="IMAP folder to read (default INBOX).")
@click.pass_context
def mail_config(ctx: click.Context, smtp, smtp_security, smtp_user, smtp_cafile, imap, imap_security, imap_user,
                imap_cafile, sender, folder):
    """Set (or show) the mail servers.  Passwords are never stored: they come from
    PBEM_SMTP_PASSWORD / PBEM_IMAP_PASSWORD or a prompt.

    \b
    Example:
        pbem mail config --smtp smtp.example.org:587 --smtp-user alice --from alice@example.org \\
                         --imap imap.example.org:993 --imap-security ssl --imap-user alice
    """
    from ..mailbox.mail import save_config
    from ..wire.keys import default_home

    config = load_mail_config(ctx)
    changed = any(v is not None for v in (smtp, smtp_security, smtp_user, smtp_cafile, imap, imap_security,
                                          imap_user, imap_cafile, sender, folder))
    if changed:
        config.smtp = _server(smtp, smtp_security, smtp_user, config.smtp, smtp_cafile)
        config.imap = _server(imap, imap_security, imap_user, config.imap, imap_cafile)
        config.sender = config.sender if sender is None else sender
        config.folder = config.folder if folder is None else folder
        click.echo(f"wrote {save_config(home_dir(ctx) or default_home(), config)}")
    for kind, server in (("smtp", config.smtp), ("imap", config.imap)):
        click.echo(f"{kind}: " + (f"{server.host}:{server.port} {server.security} user {server.user or '-'}"
                                  if server else "not set"))
    click.echo(f"from: {config.sender or '-'}   folder: {config.folder}")


@mail.command("address")
@click.argument("side")
@click.argument("address")
@campaign_option
def mail_address(side: str, address: str, campaign: Path | None) -> None:
    """Record the e-mail ADDRESS of SIDE (a side, 'referee', or your own) in this campaign.

    \b
    Example:
        pbem mail address ottoman bob@example.org --campaign hill60
    """
    from ..mailbox.mail import set_address

    camp = open_campaign(campaign)
    set_address(camp, side, address)
    click.echo(f"{side}: {address}")


@mail.command("send")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@campaign_option
@click.pass_context
def mail_send(ctx: click.Context, files: tuple[Path, ...], campaign: Path | None) -> None:
    """Send FILES (default: every message waiting in the campaign's outbox/) by SMTP, now.

    Each message goes on its own: one the server refuses for good is set aside in
    outbox/failed/ with its reason, one refused for now stays in the outbox, and
    neither stops the others.  FILES may be messages of the outbox (or of
    outbox/failed/, to try one again), a message from elsewhere (copied into the
    outbox, never moved), or a turn file of yours (its mail is written, then sent).

    \b
    Examples:
        pbem mail send --campaign hill60      # everything in hill60/outbox/
        pbem mail send --campaign ref60 ref60/sent/3f2a9c1e-0000-referee-genesis.pbem
    """
    from ..mailbox.mail_send import send, set_aside_outbox

    camp = open_campaign(campaign)
    config = load_mail_config(ctx)
    password = secret_env("PBEM_SMTP_PASSWORD", "SMTP") if config.smtp and config.smtp.user else None
    result = send(camp, config, password, list(files) or None)
    for line, _ in result.lines():
        click.echo(line)
    if not (result.sent or result.waiting or result.set_aside or result.error):
        click.echo("nothing to send")
    earlier = [p for p in set_aside_outbox(camp) if p not in {q for q, _ in result.set_aside}]
    if earlier and not files:
        click.echo(f"{len(earlier)} message(s) set aside earlier in {camp.dir / 'outbox' / 'failed'} (the reason "
                   "beside each); give one to pbem mail send to try it again")
    problem = result.problem()
    if problem is not None:
        raise problem


@mail.command("fetch")
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), help="Read this Maildir instead of IMAP.")
@click.option("--all", "every_game", is_flag=True, help="Every game you made or joined under your home, one after "
              "the other, with the one mailbox configuration.")
@campaign_option
@click.pass_context
def mail_fetch(ctx: click.Context, maildir: Path | None, every_game: bool, campaign: Path | None) -> None:
    """Ingest the new messages of the IMAP folder or a Maildir, each on its own; one line
    says what each message was and what was done with it (refused ones on stderr).

    \b
    Examples:
        pbem mail fetch --campaign hill60
        pbem mail fetch --all
    """
    from ..mailbox.mail_fetch import fetch

    password = None if maildir else secret_env("PBEM_IMAP_PASSWORD", "IMAP")
    if every_game:
        if campaign is not None:
            raise click.UsageError("--all reads the mail of every game: give it without --campaign")
        from ..mailbox.mail_fetch import fetch_all
        from ..store.games import known
        from ..wire.keys import default_home

        failed = fetch_all(known(home_dir(ctx) or default_home()), open_campaign, load_mail_config(ctx), password,
                           maildir, lambda line, err: click.echo(line, err=err))
        if failed:
            raise PbemError(f"{len(failed)} game(s) could not read their mail in full", "each says why above",
                            code=failed[0].code)
        return
    camp = open_campaign(campaign)
    result = fetch(camp, load_mail_config(ctx), password, maildir)
    for line, err in result.lines():
        click.echo(line, err=err)
    show_next(camp)


@mail.command("run")
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), help="Read this Maildir instead of IMAP.")
@click.option("--notify", metavar="COMMAND", envvar="PBEM_NOTIFY",
              help="Run COMMAND (with the message as its last argument) once for each event: a decision waits "
                   "for you, a reminder of the clock, a claim, the game's end [env PBEM_NOTIFY].")
@click.option("--watch", is_flag=True, help="Keep running: wait for new mail (IMAP IDLE) and answer at once, "
              "until the game ends or Ctrl-C.")
@click.option("--every", type=click.IntRange(5, 86400), default=600, show_default=True, metavar="SECONDS",
              help="With --watch: the longest wait between two looks at the mailbox.")
@click.option("--all", "every_game", is_flag=True, help="Every game you made or joined under your home, one after "
              "the other, with the one mailbox configuration.")
@campaign_option
@click.pass_context
def mail_run(ctx: click.Context, maildir: Path | None, notify: str | None, watch: bool, every: int,
             every_game: bool, campaign: Path | None) -> None:
    """Read new mail, answer every turn file that needs no person, send, and tell you when a decision is yours.

    A player's mailbox runs itself: it ingests your opponent's files and at once
    signs and sends every file of yours that holds no decision (a reveal, a deck
    step, a forced choice, the end-of-game secret); a decision waits for you
    ('pbem play'), and --notify runs a command when one does.  A referee's
    mailbox adjudicates and sends each player its own file.  Safe to run again
    and again (e.g. from cron): nothing is processed twice.  It answers only its
    own game's mail from its players' addresses, never an automatic message.
    Each run ends with one line: what it read, answered, sent and left waiting,
    and your move if one waits; it exits 1 if reading or sending failed.

    \b
    Examples:
        pbem mail run --campaign hill60
        pbem mail run --watch --notify 'notify-send pbem'
    """
    from ..mailbox.mail_run import run

    config = load_mail_config(ctx)
    smtp = secret_env("PBEM_SMTP_PASSWORD", "SMTP") if config.smtp and config.smtp.user else None
    imap = None if maildir else secret_env("PBEM_IMAP_PASSWORD", "IMAP")
    if every_game:
        if watch or campaign is not None:
            raise click.UsageError("--all runs every game once: give it without --watch and --campaign")
        return _run_all(ctx, config, smtp, imap, maildir, notify)
    camp = open_campaign(campaign)
    identity = keystore(ctx).load(camp.identity_name, identity_passphrase)
    if not watch:
        result = run(camp, identity, config, smtp, imap, maildir, notify)
        for line, err in result.lines():
            click.echo(line, err=err)
        if result.error is not None:
            raise result.error
        return
    _watch(camp, campaign, identity, config, smtp, imap, maildir, notify, every)


def _run_all(ctx: click.Context, config, smtp: str | None, imap: str | None, maildir: Path | None,
             notify: str | None) -> None:
    """``mail run`` for each game recorded under the home; one that fails never stops the others."""
    from ..mailbox.mail_run import run
    from ..store.games import known
    from ..wire.keys import default_home

    failed: list[PbemError] = []
    identities: dict[str, object] = {}
    for directory in known(home_dir(ctx) or default_home()):
        click.echo(f"{directory}:")
        try:
            camp = open_campaign(directory)
            if camp.waiting() is None and not any((camp.dir / "outbox").glob("*.eml")):
                camp.close()
                click.echo("  the game is over")
                continue
            if camp.identity_name not in identities:
                identities[camp.identity_name] = keystore(ctx).load(camp.identity_name, identity_passphrase)
            result = run(camp, identities[camp.identity_name], config, smtp, imap, maildir, notify)
            camp.close()
        except PbemError as e:
            failed.append(e)
            click.echo(f"  {e.code}: {e}" + (f" ({e.detail})" if e.detail else ""), err=True)
            continue
        for line, err in result.lines():
            click.echo(f"  {line}", err=err)
        if result.error is not None:
            e = result.error
            failed.append(e)
            click.echo(f"  {e.code}: {e}" + (f" ({e.detail})" if e.detail else ""), err=True)
    if failed:
        raise PbemError(f"{len(failed)} game(s) could not be read or sent in full", "each says why above",
                        code=failed[0].code)


def _watch(camp, campaign: Path | None, identity, config, smtp: str | None, imap: str | None,
           maildir: Path | None, notify: str | None, every: int) -> None:
    """``mail run`` again each time mail may have come, the campaign left free between runs."""
    from ..mailbox.mail_run import run
    from ..mailbox.mail_send import pending_outbox
    from ..mailbox.mail_watch import until_reminder, wait_for_mail

    while True:
        try:
            result = run(camp, identity, config, smtp, imap, maildir, notify)
            for line, err in result.lines():
                click.echo(line, err=err)
            total, over = result.fetched.total, camp.waiting() is None and not pending_outbox(camp)
            waiting = set(pending_outbox(camp))  # what waits to be tried again later wakes no one
            wake = min(every, until_reminder(camp) or every)  # a clock's next reminder comes on time
        finally:
            camp.close()  # a person may play while we wait
        if over:
            click.echo("The game is over.")
            return
        try:
            wait_for_mail(config, imap, maildir, wake, total, lambda: bool(set(pending_outbox(camp)) - waiting))
        except PbemError as e:  # the server is away: try again after the wait
            click.echo(f"{e.code}: {e}" + (f" ({e.detail})" if e.detail else "") + f"; trying again in {every} s",
                       err=True)
            time.sleep(every)
        camp = open_campaign(campaign)
