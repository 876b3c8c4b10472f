"""The floor of each game: how many turn files of a game turn must pass from one person to the
other in sequence, by the rules' own information flow, with the standing orders the module offers
(a player may choose earlier, knowing less, where the module lets him: the block game's battle
plans, Assault on Gallipoli's landing plans).

Each floor is a function of one game turn's turn files, in the order sent (the records of
``handovers.play_files``: ``side``, ``person``, ``battles``), and of the author of the last file
before them that needed a person (None at the start).  The block game's comes from its own
analysis (its RULES.md, "Hand-overs"); the others count the times the deciding person changes,
for the reasons each function gives from its game's RULES.md and code.
"""

from __future__ import annotations

from typing import Any

Files = list[dict[str, Any]]


def alternations(files: Files, before: str | None) -> int:
    """The files that needed a person whose author is not the author of the last such file before
    them: each is a hand-over from one person to the other.  A person's decisions with none of the
    other's between them need only one of his files, since nothing he waits for is the other
    person's; two that are split only by files of the other side that need no one (the reveal of a
    roll sealed by his next link, a deck step, forced choices only his tool can make) are the same
    person twice (``handovers.again``), not a hand-over.  A file of the other side's tool that
    carries out an order its person sealed earlier (``sealed``: the game's ``sealed_orders``, such
    as Assault on Gallipoli's discards sealed with a pass, which 18.1 gives the next person to see
    before he decides) passes that person's decision on: the next person's file is a hand-over."""
    n = 0
    for f in files:
        if f["person"]:
            n += f["side"] != before
        if f["person"] or f.get("sealed"):
            before = f["side"]
    return n


def gallipoli_blocks(files: Files, before: str | None = None) -> int:
    """The block game (engine/games/gallipoli_blocks/RULES.md, "Hand-overs"): a game turn is two
    player phases, each its own file; a round-one battle in the rules' order is a chain of six more
    files (the entrenchment, the attacker's leaders, the defender's, the attacker's events, the
    defender's, the attacker's reveal: each chosen knowing all the rules let him know), but with
    battle plans (``combat.do_plan``, which the bench's person always gives) only two: the
    defender's answer with his plan, then the attacker's file that opens his plan, its fire forced
    and sealed at once.  So ``handovers(battles)["planned"]`` = 2 + 2 a battle, the battles
    (landings are attacks too) counted by their "battle for ..." event.  What it leaves out, by the
    module's own account: landing fire (the defender's card, then a roll that waits for the
    lander's link), response windows (a file while a response card may be in the other hand) and
    pressed second rounds.  What it counts that may need no person: the attacker's file that opens
    his plan when he has nothing left to decide in his phase (his tool writes it alone).  In
    refereed mode the referee only relays and adjudicates: the same floor (and there the referee
    opens that plan itself, so the file is not even sent)."""
    from pbem_engine.registry import get_game

    return get_game("gallipoli-blocks").handovers(sum(f["battles"] for f in files))["planned"]


def assault_on_gallipoli(files: Files, before: str | None = None) -> int:
    """Assault on Gallipoli (engine/games/assault_on_gallipoli/RULES.md, "When a card may be played"
    and "Hand-overs"): every prompt is a decision the rules give that side at that point (a card
    rides on a decision the side has anyway, no prompt exists only to ask, a decision with one
    legal choice is taken by the rules), so the floor is the number of times the deciding person
    changes.  Each change follows a decision of the other side that the next one depends on:

    * the Rounds of the Activation Phase alternate (3.5; Keep Moving keeps the same side: no
      hand-over), and a fire's damage is allocated (9) by the target's owner in his next file;
    * a move gives the other side its opportunity fire (8.9), and the mover's advancing fire
      (8.8) follows it: two hand-overs inside a Round, only when the other side has such a fire;
    * a landing: the lander's file, then the other side's, which resolves the roll and carries
      out the landing plan (plans.py) the game's person gives, decided ahead for each beach (he
      chooses earlier knowing less, as the module offers); the lander's again only when the other
      side had a decision there;
    * a close combat: the leader draws and leads in one file, the other side draws and matches in
      one file; each match depends on the card led and each lead on the match before it (10.3);
      the loser's damage and retreat, then the winner's (11.1);
    * a later turn: the Morale Advantage holder discards and draws before the other (18.1); the
      ANZAC places his ships, with his draw when he draws second (standing.py: no card can be
      played at ship placement, so the Turk's file that carries the draw keys sets them out).

    Left out (the same person twice: ``handovers.again``): a decision after a roll sealed by the
    other side's next link or after a deck step only the other side's tool can make (the Action
    Card deal); RULES.md counts what is left of them as the price of sealed dice and the shared
    deck ("Not cut"), not the rules' order.  A pass that may end the phase no longer costs its
    roller a second file: the Morale Advantage holder gives his close combat order with it
    (standing.py, 10.1.2); nor does a won initiative (the lead sealed with the match,
    initiative.py) or a won Morale Advantage (the discards sealed with a pass, discards.py): the
    winner's own tool opens them; nor a close combat's first lead after the leader's own pass or
    the other side's forced choices (the lead order, leadorder.py: its tool leads by it), nor a
    Round after one's own missed fire (the plan given with the fire, fireplan.py)."""
    return alternations(files, before)


def blood_on_the_tigris(files: Files, before: str | None = None) -> int:
    """Blood on the Tigris (engine/games/blood_on_the_tigris/RULES.md, "Hand-overs"; sequence.py):
    a game turn takes two, the British player turn, then the Turkish one with the next turn's
    Mutual Operations (the Turks decide theirs right after their own turn: no hand-over; a side with
    nothing to decide is skipped).  In combat the defender is asked only for a real choice: its
    depot and interception when an announced attack is resolved (7.0-7.2), a retreat or a 7.7
    counterattack; each is a decision between two of the attacker's, so two hand-overs; step
    losses go to the strongest unit by the rules under the default ``losses = strongest`` (7.6),
    never a file.  So the floor is the number of times the deciding person changes.  Left out, as
    RULES.md does ("the sealed dice's price, not a rule's"): the defender's file that only reveals
    its link for an attack's roll.  The Turks' Mutual Operations after the supply survival rolls
    (13.2) and an advance after combat (8.1) cost no file of their own when the player gives them
    as standing orders (standing.py), as the game's player does."""
    return alternations(files, before)


def hill60(files: Files, before: str | None = None) -> int:
    """Hill 60 (engine/games/hill60/RULES.md 2 and 9): each side's turn is its own file (2.1-2.3).
    The hits of an assault (5.3) and the advance after it (5.4) are decided by the player named
    there, in the middle of the other side's turn (2.4); with the standing orders of section 9,
    which the game's player gives (a hit order given in one's own turn, advance or stay with the
    assault, the next operation after a roll), each side's turn is one file.  A defender asked for
    hits before he had a turn to give his hit order (the first Allied assault of game turn 1) adds
    two hand-overs.  So the floor is the number of times the deciding person changes; a roll that
    only waits for the other side's link is the same person twice."""
    return alternations(files, before)


def gallipoli_1915(files: Files, before: str | None = None) -> int:
    """Gallipoli 1915 (engine/games/gallipoli_1915/RULES.md, "Hand-overs"): the game book gives the
    Reinforcement, Command and Activations Phases to both players in parallel, the Amphibious
    Assault Phase to the landing player alone and the End of Turn Phase to no one (103.2); the only
    answer it requires inside a game turn is the Ottoman's Coastal Defense fire at the units
    landing (103.13).  So with the module's standing orders (``done until PHASE``, ``done for the
    turn``, ``cd fire at every landing``, ``plan assault: ...``) each person's decisions of a game
    turn go in one file: the Ottoman's CD fire (bound, sealed at once) and activations; the
    Entente's activations, with the next turn's landings planned (his tool gives them with the
    draw).  The floor is the number of people who decide in the game turn (0, 1 or 2); a
    sudden-death claim disputed mid-turn would add a hand-over the bench's player never makes."""
    return len({f["side"] for f in files if f["person"]})


FLOORS = {"gallipoli-blocks": gallipoli_blocks, "assault-on-gallipoli": assault_on_gallipoli,
          "blood-on-the-tigris": blood_on_the_tigris, "hill60": hill60, "gallipoli-1915": gallipoli_1915}
