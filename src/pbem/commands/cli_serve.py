"""``pbem serve``: play one campaign in the browser (``pbem.web.serve``), loaded only when it runs."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import PbemError
from .cli_common import ask_passphrase, campaign_option


def _terminal_passphrase(what: str) -> bytes | None:
    """A passphrase from PBEM_PASSPHRASE, else asked in this terminal (never in the page)."""
    return ask_passphrase(f"Passphrase for {what}")


@click.command()
@campaign_option
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port to listen on (0: a free one).")
@click.pass_context
def serve(ctx: click.Context, campaign: Path | None, open_browser: bool, port: int) -> None:
    """Play in your browser: a local page with the map, your decision and its choices.

    The page is another face of 'pbem play', 'undo', 'ingest' and 'report':
    click a choice (or a space or a piece to see what can be done there),
    type orders, take back, sign; drop your opponent's turn file or saved mail
    on the page to ingest it. It redraws when the campaign changes on disk
    ('pbem mail fetch', 'pbem ingest').

    It listens on 127.0.0.1 only; the link it prints holds a token for this
    run, and the page works only in the browser that opened it. Passphrases
    are asked here, in the terminal, never in the page. Stop it with Ctrl-C.

    \b
    Example:
        pbem serve --campaign hill60 --open
    """
    from ..mailbox.mail import load_config
    from ..play.campaign import Campaign
    from ..store import vault
    from ..web.serve import Server
    from ..web.serve_game import Seat
    from ..wire.keys import KeyStore, default_home

    home = ctx.find_root().params.get("home")
    camp = Campaign.open(campaign, readonly=True)
    try:
        directory, identity_name, side, title = camp.dir, camp.identity_name, camp.side, camp.game.title
    finally:
        camp.close()
    identity = KeyStore(Path(home) if home else None).load(identity_name, lambda name: _terminal_passphrase(
        f"identity '{name}'"))
    secrets_file = directory / "secrets" / "chain.json"
    passphrase = None
    if vault.is_encrypted(secrets_file):
        passphrase = _terminal_passphrase("campaign secrets")
        if not passphrase:
            raise PbemError("no passphrase: set PBEM_PASSPHRASE or run this in a terminal",
                            "this campaign's secrets are encrypted and there is no terminal to ask for their "
                            "passphrase", code="no-passphrase")
        vault.read(secrets_file, lambda: passphrase)  # a wrong passphrase is refused here, not in the page
    seat = Seat(directory, identity, passphrase, lambda: load_config(Path(home) if home else default_home()).sender)
    server = Server(seat, port)
    click.echo(f"pbem serve: {title}, you are {side} ({directory})")
    click.echo(f"Open this link in your browser (its token is for this run only): {server.url}")
    click.echo("Stop with Ctrl-C.")
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    click.echo("pbem serve stopped.")
