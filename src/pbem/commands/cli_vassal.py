"""``pbem pack vassal``: a player's own map art from the VASSAL module he owns, as an overlay of a
pack in his home (``chain.vassal`` reads the module, ``chain.vassal_overlay`` matches and writes,
``view.map_overlay`` draws it under the report's map)."""

from __future__ import annotations

from pathlib import Path

import click
from pbem_engine.registry import UnknownGame, get_game

from ..chain import datapack, vassal, vassal_overlay
from ..errors import PbemError
from ..wire.keys import default_home
from .cli_common import home_dir

SHOWN = 40  # names listed before "... and N more"


def _titles(pack_id: str, pack: dict) -> list[str]:
    """The titles a map of this pack is drawn under: the pack's, its table-top game's and the rules
    module's of the same name (the map finds the overlay by them)."""
    title = str(pack.get("pack", {}).get("title", pack_id))
    titles = [title, f"{title} (table-top)"]
    try:
        titles.append(get_game(pack_id).title)
    except UnknownGame:
        pass
    return list(dict.fromkeys(titles))


def _listed(items: list[str]) -> str:
    more = len(items) - SHOWN
    return ", ".join(items[:SHOWN]) + (f" ... and {more} more" if more > 0 else "")


@click.command("vassal")
@click.argument("module", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--pack", "pack_name", required=True, metavar="NAME_OR_DIR",
              help="The pack whose locations to place (a shipped pack's id, or a directory).")
@click.option("--board", "board_name", metavar="NAME", help="The board to use when the module's map has several.")
@click.pass_context
def pack_vassal(ctx: click.Context, module: Path, pack_name: str, board_name: str | None) -> None:
    """Your own map art from the VASSAL module you own (MODULE.vmod): its main board image and
    every location of the pack matched to it, by hex number for a hex map, by name for areas and
    spaces (case and punctuation ignored), written to your home (overlays/PACK/), never to the
    pack.  Reports and 'pbem serve' then draw that board under the pieces.  Lists what did not
    match, ours and theirs.

    \b
    Example:
        pbem pack vassal ~/vassal/BloodOnTheTigris.vmod --pack blood-on-the-tigris
    """
    pack_dir = datapack.find(pack_name)
    pack = datapack.load(pack_dir)
    problems = datapack.check(pack)
    if problems:
        raise PbemError("the pack has problems", "; ".join(map(str, problems[:3])), code="bad-pack")
    pack_id = pack["pack"]["id"]
    if not module.is_file():
        raise PbemError("no such module file", str(module), code="bad-module")
    board = vassal.read(module, board_name)
    result = vassal_overlay.match(board, pack.get("location", []))
    if not result.matched:
        raise PbemError("no location of the pack matched the module's board", f"board {board.name!r}: "
                        f"{len(board.places)} named places, {'a hex grid' if board.grid else 'no hex grid'}; "
                        f"ours: {_listed([lid for lid, _ in result.ours_unmatched])}", code="no-match")
    home = home_dir(ctx) or default_home()
    vassal_overlay.write(home, pack_id, _titles(pack_id, pack), module.name, board, result)
    width, height = board.size
    click.echo(f"board {board.name!r}: {board.image_name} ({width}x{height} px), "
               + (f"a hex grid ({result.their_hexes} hexes)" if board.grid else f"{len(board.places)} {board.kind}"))
    click.echo(f"matched {len(result.matched)} of {len(result.matched) + len(result.ours_unmatched)} locations:")
    for lid, how, (x, y) in result.matched:
        click.echo(f"  {lid}: {how} at ({x}, {y})")
    click.echo(f"ours without a match ({len(result.ours_unmatched)}):"
               + ("" if result.ours_unmatched else " none"))
    for lid, why in result.ours_unmatched[:SHOWN]:
        click.echo(f"  {lid}: {why}")
    if len(result.ours_unmatched) > SHOWN:
        click.echo(f"  ... and {len(result.ours_unmatched) - SHOWN} more (overlay.toml lists them all)")
    if board.grid is not None:
        hexes = sum(1 for _, how, _ in result.matched if how.startswith("hex "))
        click.echo(f"theirs without a match: {result.their_hexes - hexes} hexes of their board that the pack "
                   "does not name (drawn by their number when a piece stands there)")
    if board.places:
        click.echo(f"theirs without a match ({len(result.theirs_unmatched)}): "
                   + (_listed(result.theirs_unmatched) or "none"))
    if result.pieces:
        click.echo(f"their pieces: {result.pieces} (PieceSlot); not used: the map draws its own counters")
    click.echo(f"wrote {result.directory / vassal_overlay.FILE} and {result.image}: reports of "
               f"{pack_id} draw your board now (remove the folder to stop)")
    if home.resolve() != default_home().resolve():  # the map looks in $PBEM_HOME, or ~/.pbem
        click.echo(f"note: reports find overlays under $PBEM_HOME or ~/.pbem: run them with PBEM_HOME={home}")
