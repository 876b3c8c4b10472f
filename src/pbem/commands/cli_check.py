"""The ``pbem`` commands that read a game: report, replay, verify, rebuild and audit, with a
progress bar on a terminal; and the demo and the benchmark.  Loaded only when one of them runs
(``cli._Root.LAZY``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import PbemError
from .cli_common import campaign_option, identity_passphrase, open_campaign


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


def _write(path: Path, text: str) -> None:
    """A report or replay written whole, or refused with the reason (a missing folder, no room)."""
    from ..store.files import atomic_write

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
    from ..view.report import render

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

    First, previous, next, last or jump to an envelope; the map and the events at every step
    (drawn by the page's own script; without script, every step's events and the end in words).
    A finished game shows every step with everything the end opened. A long history shows a
    progress bar on a terminal.

    \b
    Example:
        pbem replay --campaign hill60 -o hill60-replay.html
    """
    from ..view.replay import render

    camp = open_campaign(campaign, readonly=True)
    target = output or camp.dir / "replay.html"
    with _Progress("replaying") as progress:  # a bar on a terminal's stderr for a long history
        page = render(camp, pack_dir=pack_dir, progress=progress)
    _write(target, page)
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
    from ..check.verify import verify_path

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
    from ..check.verify import verify_ledger

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
              help="Game module to play (default: gallipoli-blocks, refereed or not).")
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
                   "status), handovers, decks, replay (the block game), pages (each game's play page, a click, a "
                   "cold status).")
@click.option("--rally", default=None, metavar="DIR", envvar="PBEM_BENCH_RALLY",
              type=click.Path(file_okay=False, path_type=Path),
              help="Your copy of Rally the Troops' Hammer of the Scots rules (rules.js, data.js): its replay is "
                   "timed beside the block game's, under Node [env: PBEM_BENCH_RALLY].")
def bench(envelopes: int, dice: int, small: int, only: str, rally: Path | None) -> None:
    """Benchmark verify, ingest, report and replay against floors measured in the same run.

    \b
    Examples:
        pbem bench --envelopes 1000 --dice 20000
        pbem bench --only replay,report
        pbem bench --only replay --rally ~/src/hammer-of-the-scots
    """
    from pbem.bench import PARTS, run

    parts = {p.strip() for p in only.split(",") if p.strip()}
    if parts - set(PARTS):
        raise click.BadParameter(f"no part {sorted(parts - set(PARTS))[0]!r}; the parts: {', '.join(PARTS)}",
                                 param_hint="--only")
    run(envelopes, dice, small, click.echo, only=parts or None, rally=rally)


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
    from ..check.audit import audit_path, render

    with _Progress("auditing") as progress:
        result = audit_path(path, lambda: identity_passphrase("campaign secrets"), progress)
    click.echo(render(result, "text"), nl=False)
    if html:
        try:
            html.write_text(render(result, "html"), encoding="utf-8")
        except OSError as e:
            raise PbemError(f"cannot write {html}", e.strerror or str(e), code="unwritable") from None
        click.echo(f"wrote {html}", err=True)
