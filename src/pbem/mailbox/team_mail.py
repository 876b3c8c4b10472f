"""Mail to the members of a team side (``pbem.chain.teams``): a copy of each turn file the side
needs from this campaign, written into the outbox once (``mail_send.send`` calls ``copies``
before it sends the outbox).

Who gets what:

* a two-player game: every turn file our side signed, whoever of us signed it, goes to each of
  our teammates with an address; the side's commander (the player whose key the invitation pins
  for the side, to whose address the opponent mails) also forwards every file it received, so
  that a member's copy holds the whole game without asking anyone;
* a refereed game: the referee mails each side's own file (the chain since its last file, and the
  side's view, which a member opens with the side's box key from its team copy) to that side's
  members as well as to its player.

What goes is the turn file as it was signed or received, nothing else; the body is a fixed text
naming it, never a report.  A person's address is the setting ``email:member:NAME``
(``pbem team address NAME ADDRESS``); the message's ``X-Pbem-To-Side`` is ``member:NAME``, so
``send`` puts in an address changed since the message was written.
"""

from __future__ import annotations

from pathlib import Path

from ..chain import teams
from ..errors import PbemError
from .mail import address, check_address, compose, envelopes_in, save_message, written

PREFIX = "member:"
BEFORE = ("genesis", "join")  # a member's team copy begins after these: 'pbem team export' needs the join


def people(genesis: dict, side: str) -> list[str]:
    """The names of a team side's people, its player (the commander) first; none for a side
    without members."""
    members = [m["name"] for m in teams.members(genesis, side)]
    return [genesis["body"]["sides"][side]["name"], *members] if members else []


def set_member_address(campaign, name: str, value: str) -> None:
    """Record where ``name``, one of a team side's people, gets the side's turn files.

    :raises PbemError: no such person on a team side; not an address."""
    known = sorted({n for side in campaign.game.sides for n in people(campaign.genesis, side)})
    if name not in known:
        raise PbemError(f"no one called '{name}' on a team side of this game",
                        f"the teams' people: {', '.join(known) or 'none (this game has no team side)'}",
                        code="bad-member")
    check_address(value)
    campaign.ledger.begin()
    campaign.ledger.put_setting(f"email:{PREFIX}{name}", value)
    campaign.ledger.commit()


def _files(campaign) -> list[tuple[Path, list[str]]]:
    """Each turn file to copy, and to whom: the people (by name) who need it from this copy."""
    genesis, side = campaign.genesis, campaign.side
    out: list[tuple[Path, list[str]]] = []
    if campaign.refereed:
        if side != "referee":
            return []  # a member's orders reach its teammates in the referee's next file for the side
        for each in campaign.game.sides:
            members = people(genesis, each)[1:]
            for path in sorted((campaign.dir / "sent" / f"to-{each}").glob("*.pbem")) if members else []:
                out.append((path, members))
        return out
    crew = people(genesis, side)
    me = campaign.identity_name
    if me not in crew:
        return []
    mates = [n for n in crew if n != me]
    for path in sorted((campaign.dir / "sent").glob("*.pbem")):
        envelopes = envelopes_in(campaign, path)
        if len(envelopes) == 1 and envelopes[0].author == side and envelopes[0].kind not in BEFORE:
            out.append((path, mates))
    if me == crew[0]:  # the commander: what the opponent (or a teammate) sent it, to those who lack it
        for path in sorted((campaign.dir / "received").glob("*.pbem")):
            envelopes = envelopes_in(campaign, path)
            if len(envelopes) != 1 or envelopes[0].kind in BEFORE:
                continue
            signer = teams.member_named(genesis, side, envelopes[0].public) if envelopes[0].author == side else None
            out.append((path, [n for n in mates if n != signer]))
    return out


def copies(campaign, sender: str = "") -> list[Path]:
    """Write, once, a message to each of the people of a team side with an address for each turn
    file of this campaign they need; the messages written."""
    if not any(teams.members(campaign.genesis, s) for s in campaign.game.sides) \
            or not (campaign.dir / "sent").is_dir():
        return []
    title, game = campaign.game.title, campaign.genesis["game"]
    out: list[Path] = []
    for path, names in _files(campaign):
        for name in names:
            stem = f"{path.stem}-{PREFIX[:-1]}-{name}"
            if not address(campaign, PREFIX + name) or written(campaign, stem):
                continue
            body = (f"{name}: a turn file of {title} (game {game[:8]}) for your team's copy: {path.name}.\n\n"
                    "Ingest it into the copy pbem team import made: pbem ingest --campaign DIR SAVED-MAIL, "
                    "or pbem mail fetch.")
            msg = compose(campaign, PREFIX + name, [path], body, sender, f"for {name}'s team copy: {path.name}")
            out.append(save_message(campaign, msg, stem))
    return out
