"""``pbem demo``: two simulated players play a whole game by real turn files.

Each side has its own identity and its own campaign database; the only thing
that passes between them is the signed turn file each writes to disk, which
the other ingests, exactly as two players would by e-mail.  At the end both
campaigns are verified from genesis.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from pbem_engine.protocol.core import Prompt

from ..check.verify import verify_path
from ..play.campaign import Campaign
from ..view.report import render
from ..wire.keys import KeyStore

# A simple, sensible player: attack when it can, then press on, then wait.
PREFERENCES = ("assault", "naval bombardment", "hit", "advance", "move", "dig in", "stay", "end turn")


DEFAULT = "gallipoli-blocks"  # what `pbem demo` plays; `--game hill60` for the small demonstration game
DEMO_OPTIONS = {"gallipoli-blocks": {"turns": 4},  # a few full turns: landings, battles, supply checks
                "assault-on-gallipoli": {"turns": 2},  # the landing (turn 1), fire, close combats, Action Cards
                "blood-on-the-tigris": {"turns": 14},  # Scenario 2's turns 13-14: attacks, supply survival
                "gallipoli-1915": {"last_turn": 3}}  # Helles's first three turns: landings, chits, CD fire
DEMO_SCENARIOS = {"blood-on-the-tigris": "turning-point",  # the armies in contact from the first order
                  "gallipoli-1915": "helles"}


def choose(prompt: Prompt, camp: Campaign | None = None) -> str:
    """The demo player's order: the game's own simple player if it has one (it sees the
    state and our own hidden items), else the first choice by PREFERENCES, then the first."""
    player = getattr(camp.game, "player", None) if camp is not None else None
    if player is not None:
        state, known = camp.situation  # type: ignore[union-attr]
        return player(state, camp.side, prompt, known)  # type: ignore[union-attr]
    labels = [c.label for c in prompt.choices]
    for word in PREFERENCES:
        for label in labels:
            if label.lower().startswith(word):
                return label
    return labels[0]


def policy(camp: Campaign):
    """The demo player as `Campaign.play`'s ``ask``."""
    return lambda prompt, events, rolls, refusal: choose(prompt, camp)


def _rules_module(module: str):
    """The game the demo plays: a rules module (table-top mode has no rules to play by)."""
    from pbem_engine.registry import UnknownGame, get_game

    from ..errors import PbemError

    if module == "tabletop":
        raise PbemError("the demo plays a rules module", "table-top games are played by people: see the README's "
                        "'Table-top play' section", code="bad-module")
    try:
        return get_game(module)
    except UnknownGame as e:
        raise PbemError("no such game module", str(e), code="bad-module") from None


def _workspace(directory: Path | None, prefix: str, names: tuple[str, ...]):
    """The demo's folder (a new one under logs/ by default), its key store and an identity per name."""
    if directory is None:
        directory = Path("logs") / f"{prefix}-{datetime.now(timezone.utc).strftime('%Y%m%d-%H%M%S')}"
    directory.mkdir(parents=True, exist_ok=True)
    store = KeyStore(directory / "home")
    return directory, store, {n: store.load(n) if n in store.names() else store.create(n) for n in names}


def run(directory: Path | None, module: str | None, echo: Callable[[str], None], *, max_envelopes: int = 500) -> Path:
    module = module or DEFAULT
    game = _rules_module(module)  # before anything is written
    names = ("alice", "bob")
    directory, store, identities = _workspace(directory, "demo", names)
    echo(f"identities: alice {identities['alice'].fingerprint}, bob {identities['bob'].fingerprint}")

    first, second = game.sides[0], game.sides[1]
    camps: dict[str, Campaign] = {}
    options = DEMO_OPTIONS.get(module)
    camps[first], genesis = Campaign.new(directory / "alice", module, first, identities["alice"],
                                         identities["bob"].public, "bob", DEMO_SCENARIOS.get(module), options=options)
    echo(f"alice creates {game.title} as {first}: {camps[first].dir / 'sent'}")
    invitation = (camps[first].dir / "sent" / _file(genesis)).read_text()
    camps[second], joined = Campaign.join(directory / "bob", invitation, identities["bob"])
    echo(f"bob joins as {second}")
    _deliver(camps[second], joined, camps[first])
    player = {first: identities["alice"], second: identities["bob"]}

    count = 2
    per_turn: dict[int, int] = {}  # turn files per game turn: each is one exchange by e-mail
    while True:
        waiting = camps[first].waiting()
        if waiting is None:
            break
        side = waiting["side"]
        other = second if side == first else first
        result = camps[side].play(player[side], [], policy(camps[side]))
        assert result.envelope is not None
        _deliver(camps[side], result.envelope, camps[other])
        count += 1
        turn = game_turn(camps[first].match()["game"])
        if turn is not None:
            per_turn[turn] = per_turn.get(turn, 0) + 1
        actions = len(result.drafted)
        echo(f"  #{result.envelope.seq} {side}: {actions} action(s), {len(result.rolls)} roll(s) "
             f"-> {_file(result.envelope)}")
        for line in _as_received(camps[other], result.envelope.seq):
            echo(f"      {line}")
        if count > max_envelopes:
            raise RuntimeError("demo game did not end")

    if per_turn:
        echo("turn files per game turn (each one exchange by e-mail): "
             + ", ".join(f"turn {t}: {n}" for t, n in sorted(per_turn.items())))
    for side, camp in camps.items():
        echo(f"verify {side} ({camp.dir}): {verify_path(camp.dir).summary()}")
    echo("")
    echo(render(camps[first], "text", since=-1))
    html = directory / "alice" / "report.html"
    html.write_text(render(camps[first], "html", since=-1))
    echo(f"Everything is in {directory}:")
    echo(f"  alice's campaign {camps[first].dir} (database campaign.db, sent/ and received/ turn files)")
    echo(f"  bob's campaign   {camps[second].dir}")
    echo(f"  identities       {store.dir}")
    echo(f"  HTML report      {html}")
    echo(f"Try: pbem verify {camps[second].dir}    pbem report --campaign {camps[first].dir}")
    return directory


def game_turn(state: dict) -> int | None:
    """The game turn of a module's state: its ``turn`` where that is a number, else its ``round``."""
    for key in ("turn", "round"):
        value = state.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _as_received(camp: Campaign, seq: int, limit: int = 8) -> list[str]:
    """What envelope ``seq`` did, as its receiver's tool shows it (the sender's hidden items concealed)."""
    from ..chain.hidden import show

    known = camp.knowledge() if "private" in camp.match() else {}
    lines = [show(e["text"], known, camp.game) for e in camp.ledger.events(seq - 1)
             if e["seq"] == seq and (not e["to"] or camp.side in e["to"])]
    return lines[:limit] + ([f"... and {len(lines) - limit} more"] if len(lines) > limit else [])


def _file(envelope) -> str:
    from ..play.campaign import turn_file_name

    return turn_file_name(envelope)


def _deliver(sender: Campaign, envelope, receiver: Campaign) -> None:
    """What the e-mail does: the receiver ingests the file the sender wrote."""
    path = sender.dir / "sent" / _file(envelope)
    receiver.ingest([(str(path), path.read_text())])


def run_refereed(directory: Path | None, module: str | None, echo: Callable[[str], None]) -> Path:
    """A refereed game: a referee and two players, three campaign databases, files only."""
    module = module or DEFAULT
    game = _rules_module(module)  # before anything is written
    directory, store, ids = _workspace(directory, "demo-referee", ("referee", "alice", "bob"))
    first, second = game.sides[0], game.sides[1]
    ref, genesis = Campaign.new_refereed(directory / "referee", module, ids["referee"],
                                         {first: (ids["alice"].public, "alice"), second: (ids["bob"].public, "bob")},
                                         DEMO_SCENARIOS.get(module), options=DEMO_OPTIONS.get(module))
    echo(f"the referee creates a refereed game of {game.title}: alice is {first}, bob is {second}")
    camps = {"referee": ref}
    who = {"referee": ids["referee"], first: ids["alice"], second: ids["bob"]}
    for side, name in ((first, "alice"), (second, "bob")):
        camps[side], joined = Campaign.join(directory / name, genesis.raw, ids[name])
        ref.ingest([(f"{name}'s join", joined.raw)])
    echo("both players join; their joins travel in the referee's first file")
    per_turn: dict[int, int] = {}  # turn files per game turn: a player's orders, a referee's adjudication
    for _ in range(1000):
        waiting = ref.waiting()
        if waiting is None:
            break
        side = waiting["side"]
        result = camps[side].play(who[side], [], policy(camps[side]))
        if side == "referee":
            targets = result.paths or [result.path]
            for path in targets:
                for player in (first, second):
                    if len(targets) == 1 or path.parent.name == f"to-{player}":
                        camps[player].ingest([(str(path), path.read_text())])
            echo(f"  #{result.envelope.seq} referee: " + ("discloses the game" if len(targets) == 1 else
                                                        "adjudicates; one sealed view per player"))
        else:
            ref.ingest([(str(result.path), result.path.read_text())])
            echo(f"  #{result.envelope.seq} {side}: {len(result.drafted)} order(s) sealed to the referee")
        turn = game_turn(ref.match()["full"]["game"])
        if turn is not None:
            per_turn[turn] = per_turn.get(turn, 0) + 1
    if per_turn:
        echo("turn files per game turn (players' orders and the referee's adjudications): "
             + ", ".join(f"turn {t}: {n}" for t, n in sorted(per_turn.items())))
    for name, camp in (("referee", ref), ("alice", camps[first]), ("bob", camps[second])):
        echo(f"verify {name} ({camp.dir}): {verify_path(camp.dir).summary()}")
    echo("")
    echo(render(camps[first], "text", since=-1))
    echo(f"Everything is in {directory}: the referee's, alice's and bob's campaigns, and their identities.")
    return directory
