"""Telling a person that a decision waits: a command of his choosing, run once per decision.

The command (``pbem mail run --notify CMD``, or ``PBEM_NOTIFY``) is split as a shell would
split it, never run by a shell, and given one more argument: the message, e.g.
``pbem: your move in Hill 60 (german, turn file #7): choose your attack``, a reminder of the
clock (``pbem: reminder for Hill 60 (...): 11 h left on your clock``), a claim (``pbem: a claim
in Hill 60 (...): allied wins on time ...``) or at the end ``pbem: the game is over: Hill 60
(...): allied wins``.  It also finds the facts in its environment, so a script can build a chat
message without parsing the text: ``PBEM_EVENT`` (``your-move``, ``reminder``, ``claim`` or
``game-over``), ``PBEM_GAME`` (the game's id), ``PBEM_TITLE``, ``PBEM_SIDE``, ``PBEM_SEQ`` (the
last turn file), ``PBEM_TEXT`` (the decision, reminder or claim) and ``PBEM_CAMPAIGN`` (its
folder).  Each is told once: the campaign remembers what it told last (a setting per kind of
event: the turn file for a move or the end, the turn file and level for a reminder, the claims).
"""

from __future__ import annotations

import os
import shlex
import subprocess

from ..errors import PbemError

TOLD = "notify:told"  # the campaign setting: the head whose decision was told
TIMEOUT = 60  # seconds a hook may take (a chat webhook over a slow network)


EVENTS = {"your-move": "your move in", "game-over": "the game is over:", "reminder": "reminder for",
          "claim": "a claim in"}
MARKS = {"your-move": TOLD, "game-over": TOLD, "reminder": "notify:reminded", "claim": "notify:claims"}


def message(campaign, seq: int, text: str, event: str = "your-move") -> str:
    return f"pbem: {EVENTS[event]} {campaign.game.title} ({campaign.side}, turn file #{seq}): {text}"


def tell(campaign, command: str, text: str, errors: list[PbemError], event: str = "your-move",
         mark: str | None = None) -> bool:
    """Run ``command`` for ``event`` (the decision ``text`` now waiting, a reminder, a claim, or the
    game's end), unless it was told already (``mark``: what identifies it, by default the head).
    A hook that fails is reported in ``errors`` (and tried again next time); it never stops the run."""
    head = campaign.ledger.head()
    seq = head[0] if head else 0
    told = mark or f"{seq}:{head[1] if head else ''}"
    if campaign.ledger.setting(MARKS[event]) == told:
        return False
    try:
        argv = shlex.split(command)
    except ValueError as e:
        errors.append(PbemError("the notify command cannot be read", str(e), code="bad-notify"))
        return False
    if not argv:
        return False
    env = dict(os.environ, PBEM_EVENT=event, PBEM_GAME=campaign.genesis["game"], PBEM_TITLE=campaign.game.title,
               PBEM_SIDE=campaign.side, PBEM_SEQ=str(seq), PBEM_TEXT=text, PBEM_CAMPAIGN=str(campaign.dir))
    try:
        done = subprocess.run([*argv, message(campaign, seq, text, event)], env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        errors.append(PbemError("the notify command failed", f"{argv[0]}: {e}"[:300], code="notify-failed"))
        return False
    if done.returncode != 0:
        why = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
        errors.append(PbemError("the notify command failed", f"{argv[0]} exited {done.returncode}"
                                + (f": {why[-1][:200]}" if why else ""), code="notify-failed"))
        return False
    campaign.ledger.begin()
    campaign.ledger.put_setting(MARKS[event], told)
    campaign.ledger.commit()
    return True
