"""Standing orders (RULES.md 9): decisions a player gives before a roll, for the rules to carry out
when the roll is resolved, so that no file of his is needed after it.

An assault's or bombardment's dice wait for the other side's next link.  Without standing orders
the attacker decides again once they are rolled (his return-fire hits, 5.3; the advance, 5.4; his
next operation, 2.2), a second file of his with no decision of the other player between, and the
defender decides his hits (5.3) in the middle of the attacker's turn.  A player may decide them
earlier, knowing less:

* ``{"do": "hits", "order": [unit ids]}`` (9.1): the order in which his units take hits, from now
  on, defending or returning fire; costs no operation; ``[]`` withdraws it;
* an assault's or bombardment's ``"orders"`` (9.2, 9.3): ``{"advance": true | false}`` (assault
  only: advance into the space if it is cleared, or stay) and ``{"then": [operations]}``: the
  next operation, the first of these alternatives the rules allow when it comes.

Here: what a standing order may hold (checked when it is given).  ``rules.settle`` carries them out.
"""

from __future__ import annotations

from typing import Any

from pbem_engine.protocol.core import IllegalAction

from . import data

OPERATIONS = ("move", "assault", "dig", "bombard", "end")
MOST = 12  # alternatives in one "then": more than any position has operations to choose from
FIELDS = {"move": {"unit", "to"}, "assault": {"space", "from"}, "dig": {"space"}, "bombard": {"space"}, "end": set()}


def check_hits(side: str, action: dict[str, Any]) -> list[str]:
    """9.1: the units of ``side`` in the order given, each once."""
    order = action.get("order")
    if set(action) != {"do", "order"} or not isinstance(order, list) or len(set(map(str, order))) != len(order):
        raise IllegalAction("a hit order names each of your units at most once (9.1)")
    for uid in order:
        if uid not in data.UNIT_BY_ID or data.UNIT_BY_ID[uid].side != side:
            raise IllegalAction(f"{uid!r} is not one of your units (9.1)")
    return list(order)


def base(action: dict[str, Any]) -> dict[str, Any]:
    """The operation an action orders, without its standing orders."""
    return {k: v for k, v in action.items() if k != "orders"}


def check_orders(side: str, action: dict[str, Any], ops_after: int) -> None:
    """9.2, 9.3: the standing orders given with ``action`` (an assault or bombardment), with
    ``ops_after`` operations left after it."""
    orders = action.get("orders")
    if orders is None:
        return
    if action["do"] not in ("assault", "bombard"):
        raise IllegalAction("standing orders are given with an assault or a naval bombardment (9.2)")
    if not isinstance(orders, dict) or not orders or set(orders) - {"advance", "then"}:
        raise IllegalAction("standing orders are 'advance' or 'stay' and 'then OPERATION or OPERATION' (9.2, 9.3)")
    if "advance" in orders and (action["do"] != "assault" or not isinstance(orders["advance"], bool)):
        raise IllegalAction("advance or stay is ordered with an assault only (5.4, 9.2)")
    if "then" in orders:
        if ops_after < 1:
            raise IllegalAction("no operation would be left after this one: no 'then' (2.2, 9.3)")
        alternatives = orders["then"]
        if not isinstance(alternatives, list) or not 1 <= len(alternatives) <= MOST:
            raise IllegalAction(f"'then' names 1 to {MOST} operations (9.3)")
        for alt in alternatives:
            check_operation(side, alt)


def check_operation(side: str, op: Any) -> None:
    """One alternative of a 'then': an operation of ``side`` by its form (whether the rules allow
    it is known only when it comes)."""
    if not isinstance(op, dict) or op.get("do") not in OPERATIONS or set(op) != {"do"} | FIELDS[op["do"]]:
        raise IllegalAction(f"{op!r} is not an operation (2.2, 9.3)")
    for key in ("to", "space", "from"):
        if key in op and op[key] not in data.SPACES:
            raise IllegalAction(f"no space {op[key]!r} (1.2)")
    if "unit" in op and (op["unit"] not in data.UNIT_BY_ID or data.UNIT_BY_ID[op["unit"]].side != side):
        raise IllegalAction(f"{op['unit']!r} is not one of your units")
    if op["do"] == "bombard" and side != "allied":
        raise IllegalAction("only the Allies bombard (7.1)")
