"""Items hidden together go out in an order keyed by the owner's secret (pbem.chain.hidden.shuffle_hidden):
a token's place in the list must not say which item it hides."""

import json
from pathlib import Path

from pbem.wire.armor import find_blocks
from pbem.chain.hidden import shuffle_hidden
from pbem.wire.envelope import open_block

GOLDEN = Path(__file__).resolve().parent / "golden" / "gallipoli-blocks" / "turns"


def test_a_permutation_fixed_by_the_key_and_changed_by_another():
    items = [{"$hide": f"block-{i}"} for i in range(7)]
    action = {"do": "setup", "anzac-hq": items, "other": ["kept", "in order"]}
    a, b = shuffle_hidden(action, b"k" * 32), shuffle_hidden(action, b"k" * 32)
    assert a == b and sorted(map(json.dumps, a["anzac-hq"])) == sorted(map(json.dumps, items))
    assert a["other"] == ["kept", "in order"]
    orders = {json.dumps(shuffle_hidden(action, bytes([k]) * 32)["anzac-hq"]) for k in range(20)}
    assert len(orders) > 15  # different secrets, different orders
    assert json.dumps(items) not in orders  # no secret of these twenty leaves them in the order given
    firsts = {json.loads(order)[0]["$hide"] for order in orders}
    assert len(firsts) >= 5  # the first place does not say which item it hides
    assert action["anzac-hq"] == items  # the action itself is left as it was


def test_the_allied_set_up_is_not_sealed_in_a_telling_order():
    """In the golden game, the group A tokens (in the order they were sealed) open, at the end,
    to the blocks in an order that is not the alphabetical one the tool builds them in."""
    bodies = [open_block(find_blocks(p.read_text())[0]).content["body"] for p in sorted(GOLDEN.glob("*.pbem"))]
    setup = next(a for b in bodies for a in b.get("actions", []) if isinstance(a, dict) and a.get("do") == "setup")
    chosen = next(b["private_chosen"] for b in bodies if b.get("private_chosen") and any(
        t in b["private_chosen"] for t in setup["anzac-hq"]))
    opened = [chosen[t].split(":")[0] for t in setup["anzac-hq"]]
    assert len(opened) == 7 and opened != sorted(opened)
