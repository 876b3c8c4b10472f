"""What every command module of the ``pbem`` command line shares: the group that imports its
commands when used and turns a refused input into one line and exit 1 (``LazyGroup.invoke``),
the common options, and opening a campaign or the key store as a command does."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import PbemError
from ..play.plays import unheaded

CONTEXT = {"help_option_names": ["-h", "--help"]}


class Refused(click.ClickException):
    exit_code = 1

    def __init__(self, error: PbemError) -> None:
        super().__init__(str(error))
        self.error = error

    def format_message(self) -> str:
        e = self.error
        line = f"{e.code}: {e}"
        return f"{line}\n  {e.detail}" if e.detail else line


class LazyGroup(click.Group):
    LAZY: dict[str, str] = {}  # command name -> "module:attribute", imported when used

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.LAZY:
            import importlib

            module, attr = self.LAZY[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PbemError as e:
            raise Refused(e) from None
        except sqlite3.DatabaseError as e:
            raise Refused(PbemError("the campaign database cannot be read", str(e), code="bad-campaign")) from None


def home_dir(ctx: click.Context) -> Path | None:
    home = ctx.find_root().params.get("home")
    return Path(home) if home else None


def ask_passphrase(prompt: str) -> bytes | None:
    """A passphrase: PBEM_PASSPHRASE, else the file PBEM_PASSPHRASE_FILE names, else what the
    command PBEM_PASSPHRASE_COMMAND prints (a keyring's or an agent's), else asked (hidden) on a
    terminal, else None."""
    env = os.environ.get("PBEM_PASSPHRASE")
    if env:
        return env.encode()
    unattended = stored_passphrase()
    if unattended is not None:
        return unattended
    if not sys.stdin.isatty():
        return None
    return click.prompt(prompt, hide_input=True, default="", show_default=False).encode() or None


def stored_passphrase() -> bytes | None:
    """The passphrase for an unattended run: the first line of the file ``PBEM_PASSPHRASE_FILE``
    (readable by its owner only, as ssh asks of a key), or of what ``PBEM_PASSPHRASE_COMMAND``
    prints (e.g. ``secret-tool lookup pbem identity``, ``pass show pbem``).

    :raises PbemError: the file is missing or readable by others, the command fails."""
    import shlex
    import stat
    import subprocess

    name, command = os.environ.get("PBEM_PASSPHRASE_FILE"), os.environ.get("PBEM_PASSPHRASE_COMMAND")
    if name:
        path = Path(name).expanduser()
        try:
            mode = path.stat().st_mode
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise PbemError(f"{path} may be read by others", f"chmod 600 {path}: a passphrase file must be "
                                "its owner's alone", code="no-passphrase")
            with path.open("rb") as f:
                data = f.read(4096)
        except OSError as e:
            raise PbemError(f"cannot read the passphrase file {path}", e.strerror or str(e),
                            code="no-passphrase") from None
    elif command:
        try:
            done = subprocess.run(shlex.split(command), stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                                  check=False)
        except (OSError, ValueError, subprocess.TimeoutExpired) as e:
            raise PbemError("the passphrase command failed", f"{command}: {e}"[:300], code="no-passphrase") from None
        if done.returncode != 0:
            raise PbemError("the passphrase command failed", f"{command} exited {done.returncode}",
                            code="no-passphrase")
        data = done.stdout[:4096]
    else:
        return None
    line = data.splitlines()[0] if data.strip() else b""
    if not line:
        raise PbemError("the passphrase is empty", f"nothing in {name or command}", code="no-passphrase")
    return line


def identity_passphrase(name: str) -> bytes | None:
    return ask_passphrase(f"Passphrase for identity '{name}'")


def _outbox_again(campaign, sent: Path, digest: str) -> list[Path]:
    """The mail an interrupted command owed (pbem.play.recovery): the mailbox is loaded only then."""
    from ..mailbox.mail import write_outbox_again

    return write_outbox_again(campaign, sent, digest)


def open_campaign(campaign: Path | None, readonly: bool = False):
    """Open a campaign whose secrets, if encrypted, unlock with the passphrase."""
    from ..play.campaign import Campaign

    camp = Campaign.open(campaign, readonly=readonly, outbox=_outbox_again)
    camp.unlock = lambda: identity_passphrase("campaign secrets")
    return camp


def new_passphrase(prompt: str, what: str) -> bytes:
    """A passphrase to encrypt ``what`` with: PBEM_PASSPHRASE, else asked twice on a terminal, else refused."""
    env = os.environ.get("PBEM_PASSPHRASE")
    if env:
        return env.encode()
    if not sys.stdin.isatty():
        raise PbemError("no passphrase: set PBEM_PASSPHRASE or run this in a terminal",
                        f"{what} is to be encrypted and there is no terminal to ask for its passphrase",
                        code="no-passphrase")
    return click.prompt(prompt, hide_input=True, confirmation_prompt=True).encode()


def secrets_lock(encrypt: bool) -> bytes | None:
    if not encrypt:
        return None
    return new_passphrase("Passphrase for this campaign's secrets", "this campaign's secrets")


encrypt_option = click.option("--encrypt-secrets", is_flag=True,
                              help="Encrypt this campaign's secrets (chain seed, private draws) with a passphrase.")


def record_game(ctx: click.Context, camp) -> None:
    """Record a new or joined campaign under the player's home, for ``pbem status --all``; a
    failure to record it costs only that listing, so it is said and the command goes on."""
    from ..store.games import remember
    from ..wire.keys import default_home

    try:
        remember(home_dir(ctx) or default_home(), camp.dir)
    except (PbemError, OSError) as e:
        click.echo(f"note: this game is not listed by 'pbem status --all': {e}", err=True)


def keystore(ctx: click.Context):
    from ..wire.keys import KeyStore

    return KeyStore(home_dir(ctx))


campaign_option = click.option("--campaign", "-c", type=click.Path(path_type=Path), default=None,
                               help="Campaign directory or its database file (default: the current directory).")


def load_mail_config(ctx: click.Context):
    from ..mailbox.mail import load_config
    from ..wire.keys import default_home

    return load_config(home_dir(ctx) or default_home())


def secret_env(name: str, what: str) -> str | None:
    """A mail server's password: from the environment variable ``name``, else asked on a terminal."""
    value = os.environ.get(name)
    if value:
        return value
    if sys.stdin.isatty():
        return click.prompt(f"{what} password", hide_input=True)
    return None


def file_name(envelope) -> str:
    from ..play.campaign import turn_file_name

    return turn_file_name(envelope)


def show_next(camp) -> None:
    waiting = camp.waiting()
    if waiting is None:
        click.echo("The game is over.")
    elif waiting["side"] == camp.side:
        click.echo("Your move: pbem play" + (f" --campaign {camp.dir}" if str(camp.dir) != "." else ""))
    elif waiting["why"] == "decide" and not waiting["text"].startswith("waiting for"):
        text = camp.worded(unheaded(waiting["side"], waiting["text"]))
        click.echo(f"Now {waiting['side']}'s decision: {sentence(text)}")
    else:
        click.echo(f"Now {sentence(camp.worded(waiting['text']))}")



def sentence(text: str) -> str:
    """``text`` ended as a sentence: a question keeps its question mark."""
    return text if text.endswith(("?", "!", ".")) else text + "."

