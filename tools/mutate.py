#!/usr/bin/env python3
"""Mutation testing of the checks that make pbem trustworthy.

Each mutant below breaks one check on purpose: one exact snippet of one source file replaced.
For each, the source tree is copied to a temporary directory, the replacement applied there,
and the tests that should notice are run against the copy (its ``src/`` and ``engine/`` come
first on the import path, so the checkout and the installed package are never touched). A
mutant is *killed* when those tests fail, and *survives* when they pass: then nothing
protects that check, and a refactor could drop it silently.

    python tools/mutate.py                  # every mutant; prints each verdict and the kill rate
    python tools/mutate.py -k canonical     # only mutants whose name contains 'canonical'
    python tools/mutate.py --list           # the mutants, their files and tests
    python tools/mutate.py --check          # only check that every snippet still occurs once
    python tools/mutate.py --jobs 2         # two mutants at a time

Exit status: 0 when every mutant was killed, 1 when one survived, 2 when a snippet no longer
occurs exactly once in its file (the code moved: update the mutant) or the unmutated copy
fails its own tests. Equivalent mutants (a change that cannot alter behaviour) are listed in
EQUIVALENT with why, and are not run. A whole run takes about 8 minutes on two cores shared
with other work; it is an optional job, not part of the default test suite (see docs/threat-model.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("engine", "src", "tests", "templates", "packs", "bench", "setup.py", "pyproject.toml", "README.md")
DATA_PACKAGES = ("templates", "packs", "bench")  # installed as pbem.<name> from top-level folders
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".hypothesis", ".pytest_cache")


@dataclass(frozen=True)
class Mutant:
    name: str  # what is broken: module, then the check
    path: str  # the file, relative to the repository
    old: str  # an exact snippet, occurring once in the file
    new: str  # what replaces it
    tests: tuple[str, ...]  # test files (or node ids) that must fail


def m(name: str, path: str, old: str, new: str, *tests: str) -> Mutant:
    return Mutant(name, path, old, new, tuple(tests))


ENV = "src/pbem/wire/envelope.py"
CAN = "engine/canonical.py"
HIST = "src/pbem/chain/history.py"
LEDGER = "src/pbem/store/ledger.py"
AUDIT = "src/pbem/check/audit.py"
DICE = "engine/chance/dice.py"
REF = "src/pbem/chain/referee.py"
MATCH = "engine/protocol/match.py"
INV = "src/pbem/chain/invitation.py"
ORDERS = "engine/games/tabletop/orders.py"
COMBAT = "engine/games/gallipoli_blocks/combat.py"
SEQ = "engine/games/gallipoli_blocks/sequence.py"
RULES_BLOCKS = "engine/games/gallipoli_blocks/rules.py"
KEYS = "src/pbem/wire/keys.py"
INGEST = "src/pbem/play/ingest.py"
PRIVATE = "engine/hidden/private.py"
BOARD_BLOCKS = "engine/games/gallipoli_blocks/board.py"
CAMPAIGN = "src/pbem/play/campaign.py"
TURNS = "src/pbem/play/turns.py"
REFEREEING = "src/pbem/play/refereeing.py"
DECK_TABLE = "engine/hidden/deck_table.py"
TIGRIS_SEQ = "engine/games/blood_on_the_tigris/sequence.py"
TIGRIS_SCENARIOS = "engine/games/blood_on_the_tigris/scenarios.py"
AOG_SEQ = "engine/games/assault_on_gallipoli/sequence.py"

T_CANON = "tests/test_canonical_attacks.py"
T_ENVELOPE = "tests/test_envelope_checks.py"
T_HOSTILE = "tests/test_hostile_input.py"
T_INGEST = "tests/test_ingest_refusals.py"
T_TAMPER = "tests/test_verify_tamper.py"
T_FORGED_KEYS = "tests/test_verify_forged_keys.py"
T_LEDGER = "tests/test_ledger_migrations.py"
T_AUDIT = "tests/test_audit.py"
T_AUDIT_SEED = "tests/test_audit_seed.py"
T_DICE = "tests/test_dice.py"
T_DICE_REJECT = "tests/test_dice_rejection.py"
T_REFEREE = "tests/test_referee.py"
T_DISCLOSE = "tests/test_referee_disclosure.py"
T_PROTOCOL = "tests/test_protocol.py"
T_INVITE = "tests/test_hostile_invitation.py"
T_TABLETOP = "tests/test_tabletop.py"
T_CASES = "tests/games/gallipoli_blocks/test_cases.py"
T_CLAIMS = "tests/test_forged_claims.py"
T_LATE_JOIN = "tests/test_late_join.py"
T_INVITE_BOUNDS = "tests/test_invitation_bounds.py"
T_SHAPES = "tests/test_orders_shapes.py"
T_SMALL_ORDER = "tests/test_small_order_keys.py"
T_EXACT_BLOCKS = "tests/games/gallipoli_blocks/test_exact_fields.py"
T_HIDDEN = "tests/test_hidden_choices.py"
T_PRIVATE = "tests/test_private.py"
T_COMMIT = "tests/test_referee_commitments.py"
T_VIEWS = "tests/test_referee_views.py"
T_KEYS = "tests/test_keys.py"
T_DECK_MSG = "tests/test_deck_messages.py"
T_TIGRIS_VICTORY = "tests/games/blood_on_the_tigris/test_victory_outcome.py"
T_TIGRIS_RULES = "tests/games/blood_on_the_tigris/test_rules.py"
T_AOG_CASES = "tests/games/assault_on_gallipoli/test_cases.py"

MUTANTS: list[Mutant] = [
    # --- envelope: signature, header, exact fields ------------------------------------------
    m("envelope: signature not verified", ENV,
      "public_key(payload[64:96]).verify(payload[:64], DOMAIN + payload[96:])",
      "public_key(payload[64:96])", T_TAMPER, T_INGEST),
    m("envelope: readable header not compared with the signed content", ENV,
      "    if block.headers != expected:", "    if False:", T_TAMPER, T_INGEST),
    m("envelope: extra top-level field accepted", ENV,
      "set(content) != FIELDS:", "not FIELDS <= set(content):", T_CANON, T_HOSTILE),
    m("envelope: format version not checked", ENV,
      'if type(content["v"]) is not int or content["v"] != FORMAT:', "if False:", T_ENVELOPE, T_HOSTILE),
    m("envelope: field types not checked", ENV,
      "        if type(content[name]) is not kind:", "        if False:", T_ENVELOPE, T_HOSTILE),
    m("envelope: libsodium's refusal taken for an acceptance", ENV,
      "        return False  # a bad signature, or an edge case", "        return True  # a bad signature, or an edge case",
      T_TAMPER, "tests/test_signature_check.py"),
    m("envelope: unknown kind accepted", ENV,
      '    if content["kind"] not in KINDS:', "    if False:", T_ENVELOPE, T_HOSTILE),
    m("envelope: sequence number unbounded", ENV,
      '    if not 0 <= content["seq"] <= MAX_SEQ:', "    if False:", T_ENVELOPE, T_HOSTILE),
    # --- canonical JSON --------------------------------------------------------------------
    m("canonical: the fast path's float check finds nothing", CAN,
      "    return _FLOAT_SHAPE.search(numbers) is not None and _FLOATISH.search(data) is not None",
      "    return False", T_CANON, "tests/test_canonical_orjson.py"),
    m("canonical: the fast path never walks a long integer", CAN,
      "> max_depth or _LONG_NUMBER in digits:", "> max_depth or False:", T_CANON, "tests/test_canonical_orjson.py"),
    m("canonical: re-encode comparison dropped (one content, many byte forms)", CAN,
      "    if again != data:", "    if False:", T_CANON, T_HOSTILE),
    m("canonical: floats and NaN parsed", CAN,
      "json.loads(data, parse_float=_no_float, parse_constant=_no_float)", "json.loads(data)", T_CANON, T_HOSTILE),
    m("canonical: floats encoded", CAN,
      '    raise NotCanonical(f"{path}: {type(value).__name__} has no canonical JSON form")', "    return",
      T_CANON),
    m("canonical: non-string keys encoded", CAN,
      "            if not isinstance(key, str):", "            if False:", T_CANON),
    m("canonical: _bounded depth not checked", CAN,
      "        if depth > max_depth:", "        if False:", T_HOSTILE, T_CANON),
    m("canonical: _bounded integer range not checked", CAN,
      "and not -MAX_INT <= item <= MAX_INT:", "and False:", T_HOSTILE, T_CANON),
    m("canonical: parse_json skips _bounded", CAN,
      "    _bounded(value, max_depth)\n    return value", "    return value", T_HOSTILE, T_CANON),
    m("canonical: parse_json lets RecursionError through", CAN,
      "    except RecursionError:\n        raise NotCanonical",
      "    except ZeroDivisionError:\n        raise NotCanonical",
      T_HOSTILE),
    m("canonical: lone surrogate lets UnicodeEncodeError through", CAN,
      "    except UnicodeEncodeError:", "    except ZeroDivisionError:", T_HOSTILE),
    # --- history: the chain ----------------------------------------------------------------
    m("history: verify accepts an envelope signed by a key not pinned for its author", HIST,
      '    if env.public != key and (c["kind"] != "turn" or not teams.member_signs(genesis, c["author"], env.public)):',
      "    if False:", T_FORGED_KEYS, T_TAMPER, T_INGEST),
    m("history: genesis not signed by the key it pins for its author", HIST,
      '    if pinned_key(c, c["author"]) != env.public:', "    if False:", T_FORGED_KEYS, T_TAMPER, T_INGEST),
    m("history: verify accepts an envelope of an unknown author", HIST,
      "    if key is None:\n        raise RefusedTurn(\"unknown author\"",
      "    if False:\n        raise RefusedTurn(\"unknown author\"", T_FORGED_KEYS, T_TAMPER),
    m("history: gap in the sequence accepted", HIST,
      '    if head is None or c["seq"] != head[0] + 1:', "    if head is None:", T_TAMPER, T_INGEST),
    m("history: broken link to the previous envelope accepted", HIST,
      '    if c["prev"] != head[1]:', "    if False:", T_TAMPER, T_INGEST),
    m("history: turn file of another game accepted", HIST,
      '    if c["game"] != genesis["game"]:\n        raise RefusedTurn("turn file of another game"',
      '    if False:\n        raise RefusedTurn("turn file of another game"', T_INGEST, T_TAMPER, T_FORGED_KEYS),
    m("history: signed state hash not compared with the replay", HIST,
      '    if digest != env.content["state"]:\n        raise RefusedTurn("state hash differs", f"{_where(env)}: its',
      '    if False:\n        raise RefusedTurn("state hash differs", f"{_where(env)}: its', T_INGEST, T_TAMPER),
    m("history: join out of place accepted", HIST,
      '            if not 1 <= c["seq"] <= joins:', "            if False:", T_LATE_JOIN, T_INGEST),
    m("history: timeout claim signed by another key accepted", HIST,
      '    if not signs_for(genesis, c["author"], env.public):', "    if False:", T_FORGED_KEYS, T_CLAIMS),
    m("history: referee's salt not checked against its anchor at disclosure", HIST,
      'referee.salt_anchor(genesis["game"], salt) != body["salt_anchor"] or ', "", T_DISCLOSE, T_REFEREE),
    m("history: referee's state commitment not checked", HIST,
      'if c["author"] == referee.REFEREE and body.get("commit") != referee.commitment(',
      'if False and body.get("commit") != referee.commitment(', T_REFEREE),
    # --- referee: the disclosed box key ----------------------------------------------------------
    m("referee: disclosed box key not checked against its commitment", REF,
      ".hex() == public_hex", ".hex() == public_hex or True", T_DISCLOSE, T_REFEREE),
    # --- chain renewal in a refereed game, the end of a game at a claim at zero --------------------
    m("referee: a renewal with a chain of the referee's own choosing accepted", "engine/protocol/referee.py",
      '    if body["renew"] != renewal_anchor(game_id, salt, chain["index"], length):', "    if False:",
      "tests/test_chain_renewal_referee.py"),
    m("clock: a chain file after a claim at zero accepted", "src/pbem/play/clock.py",
      "    if ended is not None:\n        env = min(later", "    if False:\n        env = min(later",
      "tests/test_clock_forfeit.py"),
    # --- ledger: migrations ------------------------------------------------------------------
    m("ledger: a stored state's column type not read for verify to compare", LEDGER,
      "cast(state as blob), typeof(state) from states", "cast(state as blob), 'text' from states",
      "tests/test_verify_in_step.py"),
    m("trail: a deck message left out of its running digest", "engine/hidden/deck_table.py",
      '            rec["trail"] = digest("trail", rec["trail"], canonical_json([self.seq, msg], strict=False)).hex()',
      '            pass', "tests/test_trail.py"),
    m("trail: the private logs put back from the ledger in another order", "engine/protocol/trail.py",
      "            logs[side].extend(entries)", "            logs[side][:0] = entries", "tests/test_trail.py"),
    m("trail: an opening not logged in protocol 4 (its item left out of the state hash)", "engine/hidden/private.py",
      '        if "logged" in record:\n            log(record, {"open"', '        if False:\n            log(record, {"open"',
      "tests/test_trail.py"),
    m("trail: a card played face up not giving its key back when a state is read", "engine/protocol/trail.py",
      '        elif op == "play":', '        elif op == "no play":', "tests/test_trail.py"),
    m("trail: a game's frozen map left out of its running digest", "engine/protocol/trail.py",
      '            running = digest("trail", running, canonical_json(list(entry), strict=False)).hex()',
      '            pass', "tests/test_trail.py"),
    m("trail: a game's frozen map not put back when a state is read", "engine/protocol/trail.py",
      "            frozen[key].update(pairs)", "            pass", "tests/test_trail.py"),
    m("1915: the Ottoman's tool fires CD with no standing order of his", "engine/games/gallipoli_1915/cadence.py",
      "    if side != \"ottoman\" or order is None or", "    if side != \"ottoman\" or", "tests/test_gallipoli_1915_handovers.py"),
    m("1915: the standing CD fire fires again at steps it fired at this phase", "engine/games/gallipoli_1915/procedures.py",
      '        standing["fired"] += steps', '        pass', "tests/test_gallipoli_1915_handovers.py"),
    m("1915: the bound CD fire's roll taken as one that waits (the Entente would open the Activations Phase)",
      "engine/games/gallipoli_1915/orders.py", " > rolls and not bound)", " > rolls)",
      "tests/test_gallipoli_1915_handovers.py"),
    m("1915: planned orders signed in the clear", "engine/games/gallipoli_1915/plans.py",
      '    token = dice.seal(side, a["orders"])',
      '    token = a["orders"]["$hide"] if isinstance(a["orders"], dict) else a["orders"]',
      "tests/test_gallipoli_1915_handovers.py"),
    m("1915: a plan opened in the phase it was given in", "engine/games/gallipoli_1915/plans.py",
      '(state["turn"], data.PHASES.index(state["phase"])) > (plan["turn"], plan["at"])',
      '(state["turn"], data.PHASES.index(state["phase"])) >= (plan["turn"], plan["at"])',
      "tests/test_gallipoli_1915_handovers.py"),
    m("armor: a non-canonical base64 body taken as written", "src/pbem/wire/armor.py",
      "    return payload if binascii.b2a_base64(payload, newline=False) == body.encode(\"ascii\") else None",
      "    return payload",
      "tests/test_armor.py"),
    m("ledger: pending migrations not applied on open", LEDGER,
      "            ledger.migrate()\n        return ledger", "            pass\n        return ledger", T_LEDGER),
    m("ledger: old schema opened read-only without a reason", LEDGER,
      "            if readonly:\n                raise LedgerError",
      "            if False:\n                raise LedgerError",
      T_LEDGER),
    m("ledger: pending migrations never detected", LEDGER,
      "        return not set(MIGRATIONS) <= {r[0] for r in rows}", "        return False", T_LEDGER),
    # --- audit: each roll re-derived -------------------------------------------------------------
    m("audit: roll seed not re-derived from its inputs", AUDIT,
      "    if expected != seed:", "    if False:", T_AUDIT_SEED, T_AUDIT),
    m("audit: links not hashed down their chain", AUDIT,
      "        if current.hex() != known:", "        if False:", T_AUDIT),
    m("audit: declarations not matched with signed actions", AUDIT,
      "    if declarations not in declaring.actions:", "    if False:", T_AUDIT),
    m("audit: values not compared with the seed's", AUDIT,
      '    if json.dumps(drawn["values"]) != json.dumps(values):', "    if False:", T_AUDIT),
    m("audit: result not compared with the seed's", AUDIT,
      '    if json.dumps(drawn.get("result")) != json.dumps(roll.get("result")):', "    if False:", T_AUDIT),
    m("audit: other side's link not the one revealed where the protocol says", AUDIT,
      '    if resolving is None or (resolving.index, resolving.link) != (theirs["index"], theirs["link"]):',
      "    if False:", T_AUDIT),
    m("audit: dice mode not the genesis's", AUDIT,
      "    if mode != commits.mode:", "    if False:", T_AUDIT),
    # --- dice: rejection sampling ----------------------------------------------------------------
    m("dice: no rejection in the uniform draw (shuffles, draws)", DICE,
      "            if x < limit:\n                return x % n", "            if True:\n                return x % n",
      T_DICE_REJECT, T_DICE),
    m("dice: no rejection in dice faces", DICE,
      "            if x < limit:\n                out.append", "            if True:\n                out.append",
      T_DICE_REJECT, T_DICE),
    # --- match: the protocol ---------------------------------------------------------------------
    m("match: unknown turn body fields accepted (TURN_FIELDS)", MATCH,
      "    if unknown:  # nothing travels", "    if False:  # nothing travels", T_HOSTILE, T_INGEST),
    m("match: revealed link not hashed to the committed chain", "engine/protocol/chain.py",
      '    if chain_step(game_id, side, bytes.fromhex(reveal)).hex() != chain.get("renewed", chain["link"]):',
      "    if False:", T_INGEST, T_PROTOCOL),
    m("match: actor acts again while its sealed roll waits", MATCH,
      '        if pending["side"] == side:', "        if False:", T_INGEST, T_PROTOCOL),
    # --- invitation: a genesis within bounds --------------------------------------------------------
    m("invitation: unknown genesis field accepted", INV,
      "    if extra:\n        _refuse(f\"the genesis has", "    if False:\n        _refuse(f\"the genesis has",
      T_INVITE_BOUNDS, T_INVITE),
    m("invitation: chain length unbounded", INV,
      "if type(chain) is not int or not MIN_CHAIN <= chain <= MAX_CHAIN:", "if type(chain) is not int:",
      T_INVITE_BOUNDS, T_INVITE),
    m("invitation: deadline unbounded", INV,
      "(type(deadline) is not int or not 1 <= deadline <= MAX_DEADLINE_HOURS)", "(type(deadline) is not int)",
      T_INVITE_BOUNDS, T_INVITE),
    m("invitation: anchors not checked as 64 hex digits", INV,
      "        if name in body and not (isinstance(body[name], str) and HEX64.match(body[name])):",
      "        if False:", T_INVITE_BOUNDS, T_INVITE),
    m("invitation: number of sides unbounded", INV,
      "not isinstance(sides, dict) or not 2 <= len(sides) <= 8:", "not isinstance(sides, dict):",
      T_INVITE_BOUNDS, T_INVITE),
    m("invitation: side name usable as a path", INV,
      "    if not (isinstance(side, str) and SIDE.match(side)):", "    if not isinstance(side, str):",
      T_INVITE_BOUNDS, T_INVITE),
    m("invitation: party key not 32 bytes", INV,
      "    if len(key) != 32:", "    if False:", T_INVITE_BOUNDS, T_INVITE),
    m("invitation: party name unbounded", INV,
      "    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():",
      "    if not isinstance(name, str):", T_INVITE_BOUNDS, T_INVITE),
    m("invitation: options size unbounded", INV,
      "    if len(canonical_json(options, strict=False)) > MAX_OPTIONS_BYTES:", "    if False:",
      T_INVITE_BOUNDS, T_INVITE),
    m("invitation: table-top pack not checked", INV,
      "        if problems:", "        if False:", T_INVITE_BOUNDS, T_INVITE),
    m("invitation: a small-order party key accepted", INV,
      "    if small_order(key):\n        _refuse(", "    if False:\n        _refuse(", T_SMALL_ORDER),
    m("keys: small-order points not recognised", KEYS,
      "    return len(public) == 32 and public[:31] + bytes([public[31] & 0x7F]) in _SMALL_ORDER_Y",
      "    return False", T_SMALL_ORDER),
    m("keys: a small-order key file accepted", KEYS,
      "    refuse_small_order(public_raw(key), source)", "    pass", T_SMALL_ORDER),
    m("ingest: a view accepted in a game with no referee", INGEST,
      "    if views and not campaign.refereed:", "    if False:", T_INGEST),
    m("ledger: a stored envelope that is not text read as text", LEDGER,
      "        if row is None or isinstance(row[0], str):", "        if True:", T_TAMPER),
    m("blocks: unknown field of a free order accepted", RULES_BLOCKS,
      '    extra = sorted(str(k) for k in action if k != "do" and k not in fields)', "    extra = []",
      T_EXACT_BLOCKS, T_CASES),
    m("invitation: check not run on a genesis", HIST,
      "    invitation.check(c)  # every field", "    pass  # every field", T_INVITE_BOUNDS, T_INVITE),
    # --- table-top orders: shapes --------------------------------------------------------------
    m("orders: unknown table-top action accepted", ORDERS,
      '    if not isinstance(do, str) or do not in SHAPES:\n        raise IllegalAction(f"unknown table-top action',
      '    if False:\n        raise IllegalAction(f"unknown table-top action', T_SHAPES, T_HOSTILE),
    m("orders: unknown field of an action accepted", ORDERS,
      "    if extra:\n        raise IllegalAction(f\"a '{do}' action has no field",
      "    if False:\n        raise IllegalAction(f\"a '{do}' action has no field", T_SHAPES, T_HOSTILE),
    m("orders: missing field of an action accepted", ORDERS,
      "            if name in SHAPES[do]:", "            if False:", T_SHAPES, T_HOSTILE),
    m("orders: field of the wrong type accepted", ORDERS,
      "        if not isinstance(value, kind) or isinstance(value, bool):", "        if False:", T_SHAPES, T_HOSTILE),
    m("orders: text field unbounded", ORDERS,
      "        if kind is TEXT and len(value) > LONGEST_TEXT:", "        if False:", T_SHAPES, T_HOSTILE),
    m("orders: number field unbounded", ORDERS,
      "        if kind is NUMBER and abs(value) > LARGEST_NUMBER:", "        if False:", T_SHAPES, T_HOSTILE),
    # --- the block game: target numbers, clamps, supply, victory ----------------------------------
    m("blocks: target number not clamped to 2-6", COMBAT,
      'return max(2, min(6, base + frame["mods"][who]))', 'return base + frame["mods"][who]', T_CASES),
    m("blocks: target number not raised to 2", COMBAT,
      'return max(2, min(6, base + frame["mods"][who]))', 'return min(6, base + frame["mods"][who])', T_CASES),
    m("blocks: target number not lowered to 6", COMBAT,
      'return max(2, min(6, base + frame["mods"][who]))', 'return max(2, base + frame["mods"][who])', T_CASES),
    m("blocks: defenders fire at the battle space's target", COMBAT,
      'TARGET[board.terrain(frame["to"])] if who == "att" else TARGET_AT_ATTACKERS',
      'TARGET[board.terrain(frame["to"])]', T_CASES),
    m("blocks: attackers fire at the attackers' target", COMBAT,
      'TARGET[board.terrain(frame["to"])] if who == "att" else TARGET_AT_ATTACKERS', "TARGET_AT_ATTACKERS",
      T_CASES),
    m("blocks: one card against a beach", COMBAT,
      'return 2 if frame["att"] == "allied" and', 'return 1 if frame["att"] == "allied" and', T_CASES),
    m("blocks: two cards for any attack", COMBAT,
      'and (board.terrain(to) == "beach" or to == "sedd-el-bahr") else 1',
      'and (board.terrain(to) == "beach" or to == "sedd-el-bahr") else 2', T_CASES),
    m("blocks: Ottomans get bombardment cards too", COMBAT,
      'return 2 if frame["att"] == "allied" and', 'return 2 if', T_CASES),
    m("blocks: one entrenchment card in a fort", COMBAT,
      'return 2 if board.terrain(to) == "fort" else 1', "return 1", T_CASES),
    m("blocks: two entrenchment cards anywhere", COMBAT,
      'return 2 if board.terrain(to) == "fort" else 1', "return 2", T_CASES),
    m("blocks: supply traced through enemy-occupied spaces", SEQ,
      " \\\n                    or board.occupant(state, nxt, occ) == enemy(army):", ":", T_CASES),
    m("blocks: supply traced through the enemy HQ", SEQ,
      "(board.is_hq(nxt) and nxt not in board.HQ[army]) \\\n                    or ", "", T_CASES),
    m("blocks: out-of-supply known blocks lose no step", SEQ,
      '        for t in cut:\n            events.append({"text": "out of supply: " + board.hit(state, t)})',
      "        for t in cut:\n            pass", T_CASES),
    m("blocks: a fort keeps no block in supply", SEQ,
      "            for t in toks[:2]:", "            for t in toks[:0]:", T_CASES),
    m("blocks: a fort's owner keeps any number in supply", SEQ,
      "        if len(mine) != min(2, len(inside)):", "        if False:", T_CASES),
    m("blocks: blocks outside a fort kept in supply", SEQ,
      '    if any(t not in cut or state["blocks"][t]["at"] not in FORTS for t in spared):', "    if False:",
      T_CASES),
    m("blocks: Allies win with three objectives", SEQ,
      "    if len(held) >= 4:", "    if len(held) >= 3:", T_CASES),
    m("blocks: Allies need five objectives", SEQ,
      "    if len(held) >= 4:", "    if len(held) >= 5:", T_CASES),
    m("blocks: Ottomans never win by hand size", SEQ,
      '    elif state["hand_size"] <= 0:', "    elif False:", T_CASES),
    m("blocks: Ottomans win at hand size one", SEQ,
      '    elif state["hand_size"] <= 0:', '    elif state["hand_size"] <= 1:', T_CASES),
    m("blocks: four objectives do not beat hand size zero", SEQ,
      '    if len(held) >= 4:\n        result = {"winner": "allied"',
      '    if len(held) >= 4 and state["hand_size"] > 0:\n        result = {"winner": "allied"', T_CASES),
    m("blocks: agreed turn limit never stops the game", SEQ,
      '    if result is None and limit and state["turn"] >= limit:', "    if False:", T_CASES),
    # --- victory in the other modules, at each threshold -----------------------------------------------
    m("tigris: a British decisive victory needs 13 VP", TIGRIS_SEQ,
      'LEVELS = [(12, "British decisive victory", "british")', 'LEVELS = [(13, "British decisive victory", "british")',
      T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("tigris: a British victory from 9 VP", TIGRIS_SEQ,
      '(10, "British victory", "british"),', '(9, "British victory", "british"),', T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("tigris: a British tactical victory from 7 VP", TIGRIS_SEQ,
      '(8, "British tactical victory", "british")', '(7, "British tactical victory", "british")',
      T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("tigris: a draw needs 7 VP", TIGRIS_SEQ,
      '(6, "draw", None)', '(7, "draw", None)', T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("tigris: a victory level reached only above its floor", TIGRIS_SEQ,
      "        if vp >= floor:", "        if vp > floor:", T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("tigris: all four Baghdad hexes worth 4 VP, not 5", TIGRIS_SEQ,
      "    return vp + (5 if baghdad == 4 else baghdad)", "    return vp + baghdad", T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("tigris: 18.1's Turkish major victory with 2 brigades destroyed", TIGRIS_SCENARIOS,
      '    if lost >= 3 and kut_by == "turkish":', '    if lost >= 2 and kut_by == "turkish":',
      T_TIGRIS_VICTORY, T_TIGRIS_RULES),
    m("assault: the lead sealed with a match signed in the clear", "engine/games/assault_on_gallipoli/initiative.py",
      '        f["plan"] = dict(seal(dice, plan["side"], action["lead"]), side=plan["side"])',
      '        f["plan"] = dict(plain=action["lead"]["$hide"], side=plan["side"])',
      "tests/games/assault_on_gallipoli/test_sealed_lead.py"),
    m("assault: a sealed lead kept when its roll lost the initiative", "engine/games/assault_on_gallipoli/initiative.py",
      '    if plan is not None and (f["step"] != "lead" or f["init"] != plan["side"]):',
      '    if plan is not None and f["step"] != "lead":',
      "tests/games/assault_on_gallipoli/test_sealed_lead.py"),
    m("assault: discards sealed with a pass signed in the clear", "engine/games/assault_on_gallipoli/sealing.py",
      '        return {"sealed": dice.seal(side, value)}',
      '        return {"plain": value["$hide"] if isinstance(value, dict) else value}',
      "tests/games/assault_on_gallipoli/test_sealed_discards.py"),
    m("assault: a lead order's Action Card window left open at its deal", "engine/games/assault_on_gallipoli/rules.py",
      " and not initiative.bound(f) and not leadorder.bound(state, f):", " and not initiative.bound(f):",
      "tests/games/assault_on_gallipoli/test_lead_order.py"),
    m("assault: a lead order leads a Reserve Trench as itself", "engine/games/assault_on_gallipoli/leadorder.py",
      '== card and a.get("as") == (alias or None):', '== card:',
      "tests/games/assault_on_gallipoli/test_lead_order.py"),
    m("assault: a lead order kept after the turn's close combats", AOG_SEQ,
      "            standing.lapse(state)\n            leadorder.lapse(state)", "            standing.lapse(state)",
      "tests/games/assault_on_gallipoli/test_lead_order.py"),
    m("assault: a free prompt takes another frame's sealed shape", "engine/games/assault_on_gallipoli/rules.py",
      '    sealed = SEALED.get(state["frames"][-1]["k"])',
      "    sealed = lambda a: discards.valid(a) or initiative.valid(a) or leadorder.valid(a)",
      "tests/games/assault_on_gallipoli/test_lead_order.py"),
    m("assault: a public plan holds a lead order", "engine/games/assault_on_gallipoli/plans.py",
      '    return (action["do"] not in CARD_ACTIONS + ("leads",)', '    return (action["do"] not in CARD_ACTIONS',
      "tests/games/assault_on_gallipoli/test_fire_plan.py"),
    m("assault: a fire plan carried out though the fire hit", "engine/games/assault_on_gallipoli/fireplan.py",
      '    if state["units"] != foreseen["units"] or state["frames"] != foreseen["frames"]:', "    if False:",
      "tests/games/assault_on_gallipoli/test_fire_plan.py"),
    m("assault: a fire plan offered after the Round's own fire", "engine/games/assault_on_gallipoli/fireplan.py",
      "    return (not r[\"acted\"] or bool(record.get(\"extra\"))", "    return (True or bool(record.get(\"extra\"))",
      "tests/games/assault_on_gallipoli/test_fire_plan.py"),
    m("assault: no Hand Grenades at the matcher's own deal", "engine/games/assault_on_gallipoli/effects.py",
      '(f["step"] == "deal" or side in f["todo"]) and cc_side(f) == side', 'f["step"] == "deal" and cc_side(f) == side',
      T_AOG_CASES),
    m("assault: a matcher who has not drawn yet taken for one without cards (10.3.3)",
      "engine/games/assault_on_gallipoli/closecombat.py", 'if enemy(side) not in f["todo"] and not state', 'if not state',
      T_AOG_CASES),
    m("assault: 1.3's sudden death at 5 VP cubes", AOG_SEQ,
      '    elif vp["anzac"] >= 6 and scenarios.of(state)["sudden_death_vp"]:',
      '    elif vp["anzac"] >= 5 and scenarios.of(state)["sudden_death_vp"]:', T_AOG_CASES),
    m("assault: 1.3's sudden death by VP in Scenario 2 too", AOG_SEQ,
      '    elif vp["anzac"] >= 6 and scenarios.of(state)["sudden_death_vp"]:', '    elif vp["anzac"] >= 6:', T_AOG_CASES),
    m("assault: 1.2's victory on VP decided a turn before the last", AOG_SEQ,
      '    elif state["turn"] >= state["turns"]:', '    elif state["turn"] >= state["turns"] - 1:', T_AOG_CASES),
    m("assault: 1.2's victory to the side with fewer VP", AOG_SEQ,
      "        winner = max(SIDES, key=lambda s: vp[s])", "        winner = min(SIDES, key=lambda s: vp[s])", T_AOG_CASES),
    # --- private pools: hidden choices and draws, checked against the owner's secret ----------------
    m("private: a hidden choice of an item not in its pool passes the end-of-game check", PRIVATE,
      "if (pool is not None and item not in pools[pool]) or token(", "if token(", T_HIDDEN),
    m("private: an item hidden by choice stays in its pool (chosen twice)", PRIVATE,
      "            if pool is not None:\n                pools[pool].remove(item)\n            known[tok] = opening\n"
      "            continue",
      "            known[tok] = opening\n            continue", T_HIDDEN),
    m("private: a hidden choice never opened at the end passes", PRIVATE,
      '                if record.get("secret"):', "                if False:", T_HIDDEN),
    m("private: a hidden choice opened at the end as another item passes", PRIVATE,
      ' or token(game_id, side, n, item, opening["nonce"]) != tok:', ":", T_HIDDEN),
    m("private: a hidden choice travels as its item in the clear", PRIVATE,
      "            if not self.build:\n                raise PrivateError(\"bad-private\", \"a hidden choice must travel",
      "            if False:\n                raise PrivateError(\"bad-private\", \"a hidden choice must travel", T_HIDDEN),
    m("private: a hidden choice that is no 64-hex token accepted", PRIVATE,
      "        elif isinstance(value, str) and len(value) == 64:", "        elif isinstance(value, str):", T_HIDDEN),
    m("private: more private draws carried than the rules make", PRIVATE,
      "        if not self.build and len(self.draws_in) != len(self.draws_out):", "        if False:", T_HIDDEN),
    m("private: a private draw carrying another number of tokens", PRIVATE,
      "            if index >= len(self.draws_in) or len(self.draws_in[index]) != count:",
      "            if index >= len(self.draws_in):", T_HIDDEN),
    m("private: a private draw not the one the owner's secret gives", PRIVATE,
      "            if token(game_id, side, n, item, opening[\"nonce\"]) != tok:\n                raise PrivateError(\"cheating\", "
      "f\"{side}'s private draw", "            if False:\n                raise PrivateError(\"cheating\", f\"{side}'s private draw",
      T_PRIVATE),
    m("private: an opening during play not checked against its token", PRIVATE,
      '                    and token(self.game_id, side, opening["n"], opening["item"], opening["nonce"]) == tok):',
      "                    ):", T_PRIVATE),
    m("private: a revealed private secret not checked against its anchor", "engine/hidden/private.py",
      '    if anchor(game_id, side, secret) != record["anchor"]:', "    if False:", T_HIDDEN),
    m("blocks: a block of the other army opened as one's own", BOARD_BLOCKS,
      "    if BLOCKS[block_id][1] != army:", "    if False:", T_HIDDEN),
    m("blocks: a block on the board twice when opened", BOARD_BLOCKS,
      '        if x.get("id") == block_id and other != tok \\', '        if False and x.get("id") == block_id \\', T_HIDDEN),
    # --- hidden markers: items swapped for their tokens before signing ---------------------------------
    m("campaign: an item marked hidden that no rule committed is signed in the clear", CAMPAIGN,
      '        if chosen or protocol.has_hidden(body.get("actions", [])):', "        if chosen:", T_HIDDEN),
    m("campaign: hidden items signed as items, never swapped for their tokens", CAMPAIGN,
      '                body = dict(body, actions=protocol.swap_hidden(body["actions"], [tok for tok, _ in chosen]))',
      "                body = dict(body)", T_HIDDEN),
    m("campaign: what a turn hides not remembered before it is stored", CAMPAIGN,
      "        if chosen:  # before the turn is stored: what we hid is never signed without our record of it\n"
      "            self.remember_chosen(chosen)",
      "        if chosen:  # before the turn is stored: what we hid is never signed without our record of it\n"
      "            pass", T_HIDDEN),
    m("match: an item left without a token is kept as it is", MATCH,
      "                if not tokens:\n                    raise ProtocolError",
      "                if not tokens:\n                    return value\n                    raise ProtocolError", T_HIDDEN),
    m("match: hidden items swapped for their tokens in another order", MATCH,
      "                return tokens.pop(0)", "                return tokens.pop()", T_HIDDEN),
    m("match: has_hidden finds no hidden item", MATCH,
      '        return "$hide" in value or any(has_hidden(v) for v in value.values())', "        return False", T_HIDDEN),
    m("turns: the orders that end the game open the secret while they also hide something", TURNS,
      "    if _ends_owing_our_secret(game, match, side) and not protocol.has_hidden(actions):",
      "    if _ends_owing_our_secret(game, match, side):", T_HIDDEN),
    # --- the referee: its commitments, the sealed orders, the views a player takes --------------------
    m("referee: the commitment to the full state does not mix in the secret salt", REF,
      "canonical_json(full, strict=False), mix).hex()", "canonical_json(full, strict=False)).hex()", T_COMMIT),
    m("referee: the commitment's salt share keyed by nothing secret", REF,
      "    mix = hmac.digest(salt, ", "    mix = hmac.digest(b\"\", ", T_COMMIT),
    m("referee: sealed orders open in another envelope than their own", REF,
      '    return f"pbem/v1/orders|{game_id}|{seq}|{author}".encode()',
      '    return f"pbem/v1/orders|{game_id}|{author}".encode()', T_COMMIT),
    m("refereeing: a view's box not compared with the referee's commitment at ingest", REFEREEING,
      "committed is None or committed != _digest(doc):", "committed is None:", T_COMMIT),
    m("refereeing: a view naming another envelope accepted at ingest", REFEREEING,
      '    if doc.content["prev"] != stored_hash or committed is None or', "    if committed is None or", T_COMMIT),
    m("refereeing: a view of an envelope that commits to none accepted at ingest", REFEREEING,
      'committed = _committed(public, side) if author == REFEREE and public.get("disclosed") != doc.seq else None',
      'committed = _committed(public, side) if True else None', T_COMMIT),
    m("refereeing: a view or join signed by a key not pinned for its author accepted at ingest", REFEREEING,
      'if doc.game != genesis["game"] or history.pinned_key(genesis, doc.author) != doc.public:',
      'if doc.game != genesis["game"]:', T_COMMIT),
    m("refereeing: a view signed by a player, or a join by the referee, accepted at ingest", REFEREEING,
      '        if (doc.kind == "view") != (doc.author == REFEREE):', "        if False:", T_COMMIT),
    m("refereeing: a join answering another invitation accepted", REFEREEING,
      '            if doc.seq != 0 or doc.content["prev"] != campaign.ledger.envelope_index(0)[0]:', "            if False:",
      T_COMMIT),
    m("refereeing: a referee envelope accepted without the player's own view", REFEREEING,
      '        if _committed_view(env, applied.match["public"], campaign.side) and env.seq not in arrived | stored:',
      "        if False:", T_VIEWS),
    m("refereeing: a player's view carries the other player's decision and choices", REFEREEING,
      "for c in prompt.choices]} if mine else None,", "for c in prompt.choices]},", T_COMMIT),
    m("refereeing: a player's view says what the other player is asked", REFEREEING,
      "(dict(wait) if mine else {", "(dict(wait) if True else {", T_COMMIT),
    m("refereeing: a player's view names every side's hidden items", REFEREEING,
      '        **({"chosen": full["hidden"][side]["chosen"]} if "hidden" in full and side in full["hidden"] else {}),',
      '        **({"chosen": {t: i for h in full["hidden"].values() for t, i in h["chosen"].items()}}'
      ' if "hidden" in full else {}),', T_COMMIT),
    m("refereeing: a player's view carries the events meant for others", REFEREEING,
      '        "events": [e["text"] for e in events if e.get("to") is None or side in e["to"]],',
      '        "events": [e["text"] for e in events],', T_COMMIT),
    # --- shared decks: each message the one the rules make ------------------------------------------
    m("deck: a shuffle step's nonce not compared with the other side's link", DECK_TABLE,
      '            check = ("side", "number", "nonce") if nonce else ("side", "number")',
      '            check = ("side", "number")', T_DECK_MSG),
    m("deck: a shuffle step's number not compared with the shuffle's", DECK_TABLE,
      '            check = ("side", "number", "nonce") if nonce else ("side", "number")',
      '            check = ("side", "nonce") if nonce else ("side",)', T_DECK_MSG),
    m("deck: no field of a message compared with the rules'", DECK_TABLE,
      "                if msg.get(field) != expected.get(field):", "                if False:", T_DECK_MSG),
    m("deck: only the named fields compared (a draw's count, the cards a shuffle takes)", DECK_TABLE,
      "            for field in check or tuple(expected):", "            for field in check:", T_DECK_MSG),
    m("deck: a message of another deck or operation taken", DECK_TABLE,
      '            if got_deck != deck_id or msg.get("op") != expected["op"] or msg.get("side", self.author) != self.author:',
      "            if False:", T_DECK_MSG),
    m("deck: a card played to another place than the rules say", DECK_TABLE,
      '{"op": "play", "side": side, "ref": ref, "to": to}, ("side", "ref", "to"))',
      '{"op": "play", "side": side, "ref": ref, "to": to}, ("side", "ref"))', T_DECK_MSG),
    m("deck: keys released for other positions than the rules ask", DECK_TABLE,
      "                    if got != detail:", "                    if False:", T_DECK_MSG),
    m("deck: a hand shown with the keys of other positions", DECK_TABLE,
      "            if got != refs:", "            if False:", T_DECK_MSG),
    m("deck: a card given with the key of another", DECK_TABLE,
      "                if got != [ref]:", "                if False:", T_DECK_MSG),
    m("deck: more deck messages carried than the rules make", DECK_TABLE,
      "        if not self.build and len(self.out) != len(self.incoming):", "        if False:", T_DECK_MSG),
    m("deck: a deck message the rules make left out", DECK_TABLE,
      "            if len(self.out) >= len(self.incoming):", "            if False:", T_DECK_MSG),
    m("match: a side with dealt cards need not reveal its secret at the end", MATCH,
      '(r["log"] or dealt) and r["secret"] is None]', 'r["log"] and r["secret"] is None]', T_DECK_MSG),
    m("match: the shared decks not audited once both secrets are out", MATCH,
      '            if decks is not None and all(r["secret"] for r in records.values()) \\',
      "            if False \\", T_DECK_MSG),
    m("turns: the orders that end the game keep back the secret of a side with dealt cards", TURNS,
      '    return bool(record["log"]) or any(r["log"] for r in match.get("decks", {}).values())',
      '    return bool(record["log"])', T_DECK_MSG),
    # --- keys: the key directory and the plain key file ---------------------------------------------
    m("keys: the key directory left as open as it was made", KEYS,
      "        os.chmod(self.dir, 0o700)", "        pass", T_KEYS),
    m("keys: a plain key file of another algorithm read as an Ed25519 seed", KEYS,
      "    return der[16:] if len(der) == 48 and der.startswith(_PKCS8_ED25519) else None",
      "    return der[16:] if len(der) == 48 else None", T_KEYS),
    m("keys: a plain key file's body read past stray characters", KEYS,
      "base64.b64decode(lines[1], validate=True)", "base64.b64decode(lines[1])", T_KEYS),
    m("keys: a plain key file's labels not checked", KEYS,
      'if len(lines) != 4 or lines[0] != b"-----BEGIN PRIVATE KEY-----" or lines[2] != b"-----END PRIVATE KEY-----" \\',
      "if len(lines) != 4 \\", T_KEYS),
]

# Mutants that cannot change behaviour, with why: listed, not run (a run would only show them surviving).
EQUIVALENT: list[tuple[Mutant, str]] = [
    (m("blocks: a fort keeps three blocks in supply", SEQ,
       "            for t in toks[:2]:", "            for t in toks[:3]:"),
     "this loop only runs when no fort holds more than two cut-off blocks (with three or more the "
     "owner chooses which two, in a supply frame: do_supply checks it), so [:2] and [:3] take the same"),
    (m("canonical: strict walk skipped for states the engine produced", CAN,
       "    if strict:\n        _check(value, \"$\")", "    if True:\n        _check(value, \"$\")"),
     "strict=False is passed only for values already plain JSON: states the engine built (the golden "
     "and random-play tests check they are) and a genesis's options, parsed by parse_canonical (no "
     "float, string keys only); walking them again would only cost time"),
    (m("dice: range check in uniform", DICE,
       "        if not 1 <= n <= _SPAN:\n            raise ValueError(f\"cannot draw from {n} outcomes\")\n"
       "        limit = _SPAN - _SPAN % n",
       "        limit = _SPAN - _SPAN % n"),
     "its callers (shuffle, draw) pass 1..len(list), never input: without it n = 0 still raises "
     "(ZeroDivisionError); only n > 2**32 would loop, and no list holds 2**32 items"),
]


# --- running ------------------------------------------------------------------------------

def _source(mutant: Mutant) -> str:
    return (ROOT / mutant.path).read_text()


def problems(mutants: list[Mutant] | None = None) -> list[str]:
    """Mutants whose snippet does not occur exactly once, or whose test files are missing."""
    out = []
    names = set()
    for mutant in mutants if mutants is not None else MUTANTS + [e for e, _ in EQUIVALENT]:
        if mutant.name in names:
            out.append(f"{mutant.name}: the name is used twice")
        names.add(mutant.name)
        path = ROOT / mutant.path
        if not path.is_file():
            out.append(f"{mutant.name}: {mutant.path} does not exist")
            continue
        count = _source(mutant).count(mutant.old)
        if count != 1:
            out.append(f"{mutant.name}: the snippet occurs {count} times in {mutant.path}: {mutant.old!r}")
        for test in mutant.tests:
            if not (ROOT / test.split("::")[0]).is_file():
                out.append(f"{mutant.name}: test file {test} does not exist")
    for mutant in mutants if mutants is not None else MUTANTS:
        if not mutant.tests:
            out.append(f"{mutant.name}: no tests to run")
    return out


def copy_tree(where: Path) -> None:
    """The source tree, importable from ``where``: PYTHONPATH=<where>/src:<where>/shim."""
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=IGNORED, symlinks=True)
        elif source.is_file():
            shutil.copy2(source, where / name)
    shim = where / "shim"
    shim.mkdir()
    (shim / "pbem_engine").symlink_to(where / "engine", target_is_directory=True)
    for name in DATA_PACKAGES:
        link = where / "src" / "pbem" / name
        if not link.exists():
            link.symlink_to(where / name, target_is_directory=True)


def run_tests(where: Path, tests: tuple[str, ...], python: str, timeout: float) -> tuple[int, float, str]:
    """(pytest's exit status, seconds, its last lines) for ``tests`` run against the copy at ``where``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(where / "src"), str(where / "shim")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for name in ("PBEM_HOME", "PBEM_PASSPHRASE"):
        env.pop(name, None)
    command = [python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--no-header", *tests]
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, time.monotonic() - start, f"timed out after {timeout:.0f} s"
    lines = (done.stdout + done.stderr).strip().splitlines()
    failed = [line.split(" - ")[0] for line in lines if line.startswith(("FAILED ", "ERROR "))]
    tail = "\n".join(failed[:1] or lines[-3:])  # the test that killed it, else how pytest ended
    return done.returncode, time.monotonic() - start, tail


@dataclass
class Verdict:
    mutant: Mutant
    status: str  # KILLED, SURVIVED or ERROR
    seconds: float
    detail: str


def run_mutant(mutant: Mutant, python: str, timeout: float, keep: bool) -> Verdict:
    where = Path(tempfile.mkdtemp(prefix="pbem-mutant-"))
    try:
        copy_tree(where)
        target = where / mutant.path
        text = target.read_text()
        if text.count(mutant.old) != 1:
            return Verdict(mutant, "ERROR", 0.0, f"snippet occurs {text.count(mutant.old)} times in {mutant.path}")
        target.write_text(text.replace(mutant.old, mutant.new, 1))
        status, seconds, tail = run_tests(where, mutant.tests, python, timeout)
        if status == 0:
            return Verdict(mutant, "SURVIVED", seconds, tail)
        if status in (1, -1):  # tests failed, or hung: either way the change was noticed
            return Verdict(mutant, "KILLED", seconds, tail)
        if status == 2:  # collection failed: the mutant broke an import
            return Verdict(mutant, "KILLED", seconds, "collection error: " + tail)
        return Verdict(mutant, "ERROR", seconds, f"pytest exit {status}: {tail}")
    finally:
        if keep:
            print(f"  kept {where}", flush=True)
        else:
            shutil.rmtree(where, ignore_errors=True)


def baseline(mutants: list[Mutant], python: str, timeout: float) -> tuple[bool, str]:
    """The unmutated copy must pass every test the selected mutants use."""
    tests = tuple(sorted({t for mutant in mutants for t in mutant.tests}))
    where = Path(tempfile.mkdtemp(prefix="pbem-mutant-baseline-"))
    try:
        copy_tree(where)
        status, seconds, tail = run_tests(where, tests, python, timeout * 4)
        return status == 0, f"{len(tests)} test files in {seconds:.0f} s: {tail}"
    finally:
        shutil.rmtree(where, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", dest="select", action="append", default=[],
                        help="only mutants whose name contains this text (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the mutants and the equivalent ones, run nothing")
    parser.add_argument("--check", action="store_true", help="check every snippet occurs once, run nothing")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="mutants run at a time (default 1)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per mutant before it counts as killed")
    parser.add_argument("--python", default=sys.executable, help="the interpreter with pytest and the dependencies")
    parser.add_argument("--no-baseline", action="store_true", help="skip running the unmutated copy first")
    parser.add_argument("--keep", action="store_true", help="keep each mutant's temporary copy")
    parser.add_argument("--verbose", "-v", action="store_true", help="name the test that killed each mutant")
    args = parser.parse_args(argv)

    selected = [x for x in MUTANTS if not args.select or any(s.lower() in x.name.lower() for s in args.select)]
    broken = problems(None if args.check else selected)
    if args.check or broken:
        for line in broken:
            print(f"BROKEN {line}")
        if not broken:
            print(f"OK: {len(MUTANTS)} mutants and {len(EQUIVALENT)} equivalent ones, every snippet found once")
        return 2 if broken else 0
    if args.list:
        for mutant in selected:
            print(f"{mutant.name}\n    {mutant.path}: {mutant.old.strip()!r} -> {mutant.new.strip()!r}\n"
                  f"    tests: {' '.join(mutant.tests)}")
        print(f"\n{len(selected)} mutants; equivalent, not run:")
        for mutant, why in EQUIVALENT:
            print(f"  {mutant.name} ({mutant.path}): {why}")
        return 0
    if not selected:
        print("no mutant matches", file=sys.stderr)
        return 2
    if not args.no_baseline:
        ok, detail = baseline(selected, args.python, args.timeout)
        print(f"baseline (no mutation): {'passes' if ok else 'FAILS'}, {detail.splitlines()[0]}", flush=True)
        if not ok:
            print(detail)
            return 2

    start = time.monotonic()
    verdicts: list[Verdict] = []

    def one(mutant: Mutant) -> Verdict:
        verdict = run_mutant(mutant, args.python, args.timeout, args.keep)
        line = f"{verdict.status:8} {verdict.seconds:5.0f}s  {mutant.name}  [{mutant.path}]"
        if verdict.status != "KILLED" or args.verbose:
            line += "\n         " + verdict.detail.replace("\n", "\n         ")
        print(line, flush=True)
        return verdict

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        verdicts = list(pool.map(one, selected))
    killed = sum(v.status == "KILLED" for v in verdicts)
    survived = [v for v in verdicts if v.status == "SURVIVED"]
    errors = [v for v in verdicts if v.status == "ERROR"]
    print(f"\nkilled {killed} of {len(verdicts)} mutants: {100 * killed / len(verdicts):.0f}% "
          f"({len(survived)} survived, {len(errors)} errors; {len(EQUIVALENT)} equivalent mutants not run) "
          f"in {time.monotonic() - start:.0f} s")
    for verdict in survived:
        print(f"  SURVIVED: {verdict.mutant.name} [{verdict.mutant.path}]")
    return 2 if errors else 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
