"""What a genesis (an invitation) may hold, checked before anything is built from it.

A genesis comes from outside: the joiner has not agreed to anything yet, and ``verify`` reads
one from a database that may have been edited. Every field is checked against sane bounds
before the game is set up, a chain is computed or a folder is named after a side: a chain of
10^8 links would eat the memory, a side called ``../x`` would write outside the campaign, a
table-top pack with 10^8 pieces would never finish setting up. ``terms`` says in plain words
what the joiner agrees to, for ``pbem join`` to show.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from ..errors import RefusedTurn
from ..wire.keys import small_order
from . import teams, witnesses

SIDE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")  # used in file names (sent/to-<side>/): no '/', no '..'
HEX64 = re.compile(r"^[0-9a-f]{64}$")
MIN_CHAIN, MAX_CHAIN = 64, 65536  # links: one per turn file; the default is 4096
MAX_DEADLINE_HOURS = 24 * 365
MAX_NAME = 100  # a player's or the referee's name
MAX_TITLE = 200
MAX_OPTIONS_BYTES = 256 * 1024  # options carry a table-top pack: the largest shipped is ~40 KB
BODY_FIELDS = {"mode", "scenario", "options", "title", "chain", "anchor", "deadline_hours", "sides",
               "private_anchor", "referee", "salt_anchor", "protocol", "clock",
               "witnesses"}
CLOCK_FIELDS = {"bank_hours", "increment_hours", "cap_hours", "at_zero", "leave_days"}
AT_ZERO = ("loss", "adjudication")  # what a claim at zero means: the game lost on time, or adjudicated
MAX_LEAVE_DAYS = 365


def _refuse(what: str) -> None:
    raise RefusedTurn("invitation refused", what, code="bad-genesis")


def check(content: dict[str, Any]) -> None:
    """Every field of a genesis within bounds.

    :raises RefusedTurn: ``bad-genesis``, naming the first field that is not.
    """
    body = content["body"]
    extra = sorted(set(body) - BODY_FIELDS)
    if extra:
        _refuse(f"the genesis has an unknown field {extra[0]!r}")
    for name in ("mode", "scenario", "title"):
        if not isinstance(body.get(name), str) or not 0 < len(body[name]) <= MAX_TITLE:
            _refuse(f"'{name}' must be text of 1 to {MAX_TITLE} characters")
    chain = body.get("chain")
    if type(chain) is not int or not MIN_CHAIN <= chain <= MAX_CHAIN:
        _refuse(f"the chain length {chain!r} is not a whole number from {MIN_CHAIN} to {MAX_CHAIN}")
    deadline = body.get("deadline_hours")
    if deadline is not None and (type(deadline) is not int or not 1 <= deadline <= MAX_DEADLINE_HOURS):
        _refuse(f"the deadline {deadline!r} is not a number of hours from 1 to {MAX_DEADLINE_HOURS}")
    if "clock" in body:
        _check_clock(body)
    for name in ("anchor", "private_anchor", "salt_anchor"):
        if name in body and not (isinstance(body[name], str) and HEX64.match(body[name])):
            _refuse(f"'{name}' must be 64 hex digits")
    sides = body.get("sides")
    if not isinstance(sides, dict) or not 2 <= len(sides) <= 8:
        _refuse("'sides' must name two to eight sides")
    parties = dict(sides)
    if body.get("mode") == "referee":
        parties["referee"] = body.get("referee")
    for side in sorted(parties, key=str):
        _check_party(side, parties[side], referee=side == "referee" and body.get("mode") == "referee")
    witnesses.check(body)  # who may watch (pbem.chain.witnesses)
    teams.check(body)  # a side's members and who signs for it (pbem.chain.teams)
    options = body.get("options")
    if not isinstance(options, dict):
        _refuse("'options' must be an object")
    from pbem_engine.canonical import canonical_json

    if len(canonical_json(options, strict=False)) > MAX_OPTIONS_BYTES:
        _refuse(f"the options are larger than {MAX_OPTIONS_BYTES // 1024} KB")
    if content["engine"].get("module") == "tabletop":
        pack = options.get("pack")
        if not isinstance(pack, dict):
            _refuse("a table-top genesis must carry its pack (options.pack)")
        from . import datapack

        problems = datapack.check(pack)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            _refuse(f"its pack: {problems[0]}{more}")


def _check_clock(body: dict[str, Any]) -> None:
    """A time bank (``pbem.play.timebank``): whole hours within bounds, cap at least the bank."""
    clock = body["clock"]
    if not isinstance(clock, dict) or set(clock) != CLOCK_FIELDS:
        _refuse(f"'clock' must hold exactly {', '.join(sorted(CLOCK_FIELDS))}")
    for name in ("bank_hours", "increment_hours", "cap_hours", "leave_days"):
        if type(clock[name]) is not int or clock[name] < 0:
            _refuse(f"the clock's {name} must be a whole number")
    if not 1 <= clock["bank_hours"] <= clock["cap_hours"] <= MAX_DEADLINE_HOURS:
        _refuse(f"the clock needs 1 <= bank_hours <= cap_hours <= {MAX_DEADLINE_HOURS}")
    if clock["increment_hours"] > clock["cap_hours"] or clock["leave_days"] > MAX_LEAVE_DAYS:
        _refuse(f"the clock's increment must not pass its cap, its leave {MAX_LEAVE_DAYS} days")
    if clock["at_zero"] not in AT_ZERO:
        _refuse(f"the clock's at_zero must be one of {', '.join(AT_ZERO)}")
    if body.get("deadline_hours") is not None or body.get("mode") == "referee":
        _refuse("a clock replaces the deadline, and is for two-player games")


def clock_text(clock: dict[str, Any]) -> str:
    """The clock as a joiner reads it."""
    zero = "the game is lost on time" if clock["at_zero"] == "loss" else "the game goes to adjudication"
    return (f"{clock['bank_hours']} h bank, +{clock['increment_hours']} h a turn file up to {clock['cap_hours']} h; "
            f"leave up to {clock['leave_days']} day(s); at zero the opponent may claim: {zero}")


def _check_party(side: Any, entry: Any, referee: bool) -> None:
    if not (isinstance(side, str) and SIDE.match(side)):
        _refuse(f"side name {side!r} must be 1-32 lowercase letters, digits, '-' or '_', starting with a letter")
    if not isinstance(entry, dict):
        _refuse(f"side {side}: must give a key and a name")
    try:
        key = base64.b64decode(entry.get("key", ""), validate=True) if isinstance(entry.get("key"), str) else b""
    except ValueError:
        key = b""
    if len(key) != 32:
        _refuse(f"side {side}: 'key' must be an Ed25519 public key (32 bytes, base64)")
    if small_order(key):
        _refuse(f"side {side}: 'key' is a small-order key, which anyone can sign for")
    name = entry.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
        _refuse(f"side {side}: 'name' must be printable text of 1 to {MAX_NAME} characters")
    allowed = {"key", "name", "box"} if referee else {"key", "name", "members", "signs"}  # members: pbem.chain.teams
    extra = sorted(set(entry) - allowed)
    if extra:
        _refuse(f"side {side}: unknown field {extra[0]!r}")
    if referee and not (isinstance(entry.get("box"), str) and HEX64.match(entry["box"])):
        _refuse("the referee's 'box' must be 64 hex digits")


def _option_text(key: str, value: Any) -> str:
    """One option as the joiner reads it: a long one (a player's own data or charts, kilobytes)
    summarised by what it holds and its size; its content is in the reports once joined."""
    text = f"{key}={value!r}"
    if len(text) <= 100:
        return text
    from pbem_engine.canonical import canonical_json

    what = (f"a table of {', '.join(map(str, list(value)[:8]))}" if isinstance(value, dict)
            else f"a list of {len(value)}" if isinstance(value, list) else "a long value")
    return f"{key}=<{what}; {len(canonical_json(value, strict=False))} bytes>"


def terms(content: dict[str, Any], fingerprint) -> list[str]:
    """What a joiner agrees to, one line each (``fingerprint(key bytes)`` names a key)."""
    body = content["body"]
    mode = {"sealed": "sealed dice (no one can preview or re-roll)",
            "unsealed": "UNSEALED dice (the roller can preview its own rolls; every such roll is labelled)",
            "referee": "a referee adjudicates and holds the hidden information"}.get(body["mode"], body["mode"])
    lines = [f"game     {body['title']} ({content['engine'].get('module')} version "
             f"{content['engine'].get('module_version')}), scenario {body['scenario']}",
             f"dice     {mode}",
             f"deadline {str(body['deadline_hours']) + ' hours per turn file, then a timeout may be claimed' if body.get('deadline_hours') else 'none agreed (no timeout can be claimed)'}"]
    if "clock" in body:
        lines[-1] = f"clock    {clock_text(body['clock'])}"
    options = {k: v for k, v in sorted(body.get("options", {}).items()) if k != "pack"}
    if "pack" in body.get("options", {}):
        pack = body["options"]["pack"].get("pack", {})
        lines.append(f"pack     {pack.get('id')}: {pack.get('title')}")
    if options:
        lines.append("options  " + ", ".join(_option_text(k, v) for k, v in options.items()))
    parties = dict(body["sides"])
    if body["mode"] == "referee":
        parties = {"referee": body["referee"], **parties}
    for side, entry in parties.items():
        key = base64.b64decode(entry["key"])
        lines.append(f"{side:8} {entry['name']} (key {fingerprint(key)})")
    return lines + teams.terms(content, fingerprint) + witnesses.terms(content, fingerprint)
