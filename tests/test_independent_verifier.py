"""A second verifier, written from docs/spec.md alone (tests/independent_verifier.py: the standard
library and PyNaCl, nothing of pbem), holds pbem to its own specification.

Over the golden games it must accept every turn file and reach the same last state hash and the
same number of envelopes as `pbem verify`, and re-derive from the files alone every die `pbem
audit` lists (its links, declarations hash, seed and values).  On tampered copies (a signature
byte flipped, a file dropped, a header changed, content re-signed out of canonical form or with a
false chain link, a die changed) it must refuse as `pbem verify` refuses, naming the same envelope.
"""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests import independent_verifier as iv

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
VERIFIER = ROOT / "tests" / "independent_verifier.py"
GAMES = ("barrage", "hill60", "gallipoli-blocks", "raid", "assault-on-gallipoli", "blood-on-the-tigris", "tabletop")
TAMPERED = ("barrage", "hill60", "gallipoli-blocks")


def _turns(game: str) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((GOLDEN / game / "turns").glob("*.pbem"))}


def _cli(*args, home: Path):
    from pbem.cli import cli

    return CliRunner().invoke(cli, [str(a) for a in args], env={"PBEM_HOME": str(home)}, catch_exceptions=False)


@cache
def _campaign(game: str, root: Path) -> tuple[Path, str, str]:
    """A campaign of the game's first side holding every golden turn file, ingested by `pbem
    ingest`, and what `pbem verify` and `pbem audit` say of it.  Its own secrets are fresh: verify
    and audit read only what the files hold."""
    from pbem.chain import history
    from pbem.play.campaign import Campaign
    from pbem.wire.envelope import read_envelopes

    turns = _turns(game)
    [genesis] = read_envelopes(next(iter(turns.values())))
    directory = root / game
    camp = Campaign.start_new(directory, genesis.author, "spectator", genesis.game, os.urandom(32), 4096,
                              os.urandom(32))
    camp.store([history.apply(genesis, None, None, None)])
    camp.ledger.close()
    paths = [GOLDEN / game / "turns" / name for name in list(turns)[1:]]
    ingested = _cli("ingest", "--campaign", directory, *paths, home=root / "home")
    assert ingested.exit_code == 0, ingested.output
    verified = _cli("verify", directory, home=root / "home")
    audited = _cli("audit", directory, home=root / "home")
    assert verified.exit_code == 0 and audited.exit_code == 0, verified.output + audited.output
    return directory, verified.output, audited.output


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("independent")


_ROLL = re.compile(r"^roll \d+: #(\d+)->#(\d+) (\S+) (\S+) "
                   r"links (\S+)\[(\d+)\]=([0-9a-f]{16}) (\S+)\[(\d+)\]=([0-9a-f]{16}) "
                   r"decl ([0-9a-f]{16}) seed ([0-9a-f]{16}) \| (.*)$", re.M)


def _audit_rolls(audit: str) -> list[dict]:
    """Every roll of `pbem audit`'s text: its envelopes, actor, links, hashes (16 hex), spec and values."""
    out = []
    for m in _ROLL.finditer(audit):
        rest = m.group(13).split(" | ")
        spec, values = rest[-2].split(": ", 1)
        values, _, result = values.partition(" = ")
        out.append({"declared_in": int(m[1]), "resolved_in": int(m[2]), "actor": m[3], "mode": m[4],
                    "links": [(m[5], int(m[6]), m[7]), (m[8], int(m[9]), m[10])], "declarations": m[11], "seed": m[12],
                    "spec": spec, "values": [int(v) if v.isdigit() else v for v in values.split()],
                    "result": int(result) if result.isdigit() else None, "check": rest[-1]})
    return out


def _claims(rolls: list[dict]) -> list[dict]:
    """What the rules know and the files do not: which envelope declared a roll, and its spec."""
    keep = ("declared_in", "resolved_in", "actor", "spec", "values", "result")
    return [{k: r[k] for k in keep} for r in rolls]


# --- the verifier is independent --------------------------------------------------------------------------

def test_the_verifier_imports_nothing_of_pbem_and_stays_small():
    imported = set()
    siblings = ("independent_verifier_forks", "independent_verifier_referee", "independent_verifier_witness",
                "independent_verifier_teams")
    for path in (VERIFIER, *(VERIFIER.with_name(f"{name}.py") for name in siblings)):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported |= {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= set(sys.stdlib_module_names) | {"nacl", *siblings}, imported
    assert "pbem" not in imported and "pbem_engine" not in imported
    assert all(len(p.read_text(encoding="utf-8").splitlines()) <= 600 for p in VERIFIER.parent.glob("independent_verifier*.py"))


def test_the_verifier_runs_where_pbem_cannot_be_imported(root: Path):
    """From the command line, with pbem and pbem_engine made unimportable: the golden Barrage and
    its six rolls, as `pbem audit` lists them."""
    _, _, audit = _campaign("barrage", root)
    rolls = root / "barrage-rolls.json"
    rolls.write_text(json.dumps(_claims(_audit_rolls(audit))))
    blocked = ("import runpy, sys; sys.modules['pbem'] = sys.modules['pbem_engine'] = None; "
               f"sys.argv = ['iv', {str(GOLDEN / 'barrage' / 'turns')!r}, '--rolls', {str(rolls)!r}]; "
               f"runpy.run_path({str(VERIFIER)!r}, run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("OK: 9 envelopes, 6 rolls (36 dice) re-derived"), run.stdout


# --- agreement with pbem verify and pbem audit -----------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_verifier_agrees_with_pbem_verify_and_audit(game: str, root: Path):
    _, verified, audit = _campaign(game, root)
    report = iv.verify_files(list(_turns(game).values()))
    summary = re.match(r"OK: (\d+) envelopes, \d+ actions, (\d+) dice checked.*; state ([0-9a-f]{16})$",
                       verified.strip())
    assert summary, verified
    assert len(report.envelopes) == int(summary[1]) and report.state[:16] == summary[3]
    assert [e.hash for e in report.envelopes[:-1]] == [e.prev for e in report.envelopes[1:]]
    rolls = _audit_rolls(audit)
    assert len(rolls) == len(re.findall(r"^roll \d+:", audit, re.M))
    derived = iv.derive_rolls(report, _claims(rolls))
    assert sum(len(a["values"]) for a in rolls) == int(summary[2])
    for audited, mine in zip(rolls, derived, strict=True):
        assert mine["seed"][:16] == audited["seed"] and mine["declarations"][:16] == audited["declarations"]
        assert [(s, i, link[:16]) for s, i, link in mine["links"]] == audited["links"]
        if mine["values"] is None:  # a shuffle or a draw: its items are the rules', its stream kept in step
            assert audited["check"] == "checked by replay (verify)", audited
            continue
        assert audited["check"] == "re-derived" and mine["values"] == audited["values"], (audited, mine)
        assert audited["result"] is None or mine["result"] == audited["result"], (audited, mine)


def test_what_the_verifier_found_in_the_golden_games_is_there(root: Path):
    """Not a verifier that checks nothing: the block game's rolls sealed at once, Trench Raid's
    openings and both secrets, Assault on Gallipoli's shuffle checked against the cards played."""
    blocks = iv.derive_rolls(iv.verify_files(list(_turns("gallipoli-blocks").values())),
                             _claims(_audit_rolls(_campaign("gallipoli-blocks", root)[2])))
    assert any(r["declared_in"] == r["resolved_in"] for r in blocks)
    assert any(r["resolved_in"] == r["declared_in"] + 1 for r in blocks)
    raid = iv.verify_files(list(_turns("raid").values()))
    assert raid.openings >= 10 and sorted(raid.secrets) == ["allied", "ottoman"]
    assault = iv.verify_files(list(_turns("assault-on-gallipoli").values()))
    vector = json.loads((ROOT / "docs" / "vectors" / "deck-shuffle.json").read_text(encoding="utf-8"))
    assert assault.deck_orders[(vector["deck"], 0)] == vector["order"] and assault.deck_plays >= 4


def _mailed(text: str) -> str:
    """What mail does to a turn file: the base64 re-wrapped at 50 columns, every line quoted with
    '> ' (twice for the body), trailing spaces, CR LF line ends, text around it."""
    lines = text.split("\n")
    blank = lines.index("")
    body = "".join(lines[blank + 1:-2])
    wrapped = [f"> > {body[i:i + 50]}   " for i in range(0, len(body), 50)]
    quoted = [f"> {line}  " for line in lines[:blank + 1]] + wrapped + [f">{lines[-2]}"]
    return "\r\n".join(["Bob wrote:", *quoted, "", "-- ", "sent from my phone"])


@pytest.mark.parametrize("game", TAMPERED)
def test_what_mail_does_is_tolerated_by_both(game: str):
    from pbem.wire.envelope import read_envelopes

    files = list(_turns(game).values())
    mailed = [_mailed(text) for text in files]
    assert mailed[2] != files[2]
    ours = [read_envelopes(text)[0].hash for text in mailed]
    assert [e.hash for e in iv.verify_files(mailed).envelopes] == ours
    assert ours == [e.hash for e in iv.verify_files(files).envelopes]


# --- tampered copies: refused by both ---------------------------------------------------------------------------

def _payload(text: str) -> tuple[list[str], bytes]:
    lines = text.split("\n")
    blank = lines.index("")
    return lines, base64.b64decode("".join(lines[blank + 1:-2]))


def _armored(lines: list[str], payload: bytes) -> str:
    blank = lines.index("")
    body = base64.b64encode(payload).decode()
    return "\n".join(lines[:blank + 1] + [body[i:i + 64] for i in range(0, len(body), 64)] + lines[-2:])


def _resigned(text: str, creator: str, content: dict, data: bytes | None = None) -> str:
    """The file signed again by its author's TEST-ONLY key (the golden games' keys are public:
    alice created every golden game, bob joined it), with other content or other JSON bytes."""
    from pbem.wire.armor import armor
    from pbem.wire.envelope import DOMAIN, headers_for
    from pbem_engine.canonical import canonical_json
    from tests.test_golden import identity

    who = identity("alice" if content["author"] == creator else "bob")
    data = canonical_json(content) if data is None else data
    return armor(headers_for(content, who.public), who.sign(DOMAIN + data) + who.public + data)


def _tamper(kind: str, files: dict[str, str], k: int) -> dict[str, str | None]:
    """The files with envelope #k tampered (None: dropped)."""
    from pbem.wire.envelope import read_envelopes

    name, creator = list(files)[k], read_envelopes(next(iter(files.values())))[0].author
    text = files[name]
    content = read_envelopes(text)[0].content
    out: dict[str, str | None] = dict(files)
    if kind == "signature":
        lines, payload = _payload(text)
        out[name] = _armored(lines, payload[:5] + bytes([payload[5] ^ 0x40]) + payload[6:])
    elif kind == "dropped":
        out[name] = None
    elif kind == "header":
        out[name] = re.sub(r"^Seq: \d+$", f"Seq: {k + 1}", text, flags=re.M)
    elif kind == "not-canonical":  # the default json.dumps: a space after every ',' and ':'
        out[name] = _resigned(text, creator, content, json.dumps(content, sort_keys=True, ensure_ascii=False).encode())
    elif kind == "false-link":  # any 64 hex but the next link of the author's chain
        out[name] = _resigned(text, creator, dict(content, body=dict(content["body"], reveal=content["prev"])))
    return out


TAMPERS = {  # what pbem verify says, and the code the independent verifier gives
    "signature": ("bad signature", "bad-signature"),
    "dropped": ("gap", "gap"),
    "header": ("header does not match", "header-mismatch"),
    "not-canonical": ("not canonical", "not-canonical"),
    "false-link": ("does not hash to", "bad-reveal"),
}


def _pbem_verify_of(directory: Path, tampered: dict[str, str | None], k: int, where: Path, root: Path) -> str:
    """`pbem verify` of a copy of the campaign's database whose envelope #k is the tampered one."""
    from pbem.wire.envelope import read_envelopes

    where.mkdir(parents=True)
    db = where / "campaign.db"
    shutil.copy(directory / "campaign.db", db)
    text = list(tampered.values())[k]
    con = sqlite3.connect(db)
    try:
        if text is None:
            con.execute("delete from envelopes where seq = ?", (k,))
        else:
            try:
                digest = read_envelopes(text)[0].hash  # the index column follows the content, as an edit would
            except Exception:  # noqa: BLE001 - pbem cannot read it: the column stays, verify says why
                digest = con.execute("select hash from envelopes where seq = ?", (k,)).fetchone()[0]
            con.execute("update envelopes set raw = ?, hash = ? where seq = ?", (text, digest, k))
        con.commit()
    finally:
        con.close()
    result = _cli("verify", where, home=root / "home")
    assert result.exit_code != 0, f"pbem verify accepted a copy with #{k} tampered: {result.output}"
    return result.output


@pytest.mark.parametrize("kind", TAMPERS)
@pytest.mark.parametrize("game", TAMPERED)
def test_a_tampered_copy_is_refused_by_both(game: str, kind: str, root: Path, tmp_path: Path):
    directory, _, _ = _campaign(game, root)
    files = _turns(game)
    k = len(files) // 2 + (len(files) // 2) % 2  # a turn in the middle, the creator's
    tampered = _tamper(kind, files, k)
    said, code = TAMPERS[kind]
    pbem_says = _pbem_verify_of(directory, tampered, k, tmp_path / "copy", root)
    assert said in pbem_says, pbem_says
    with pytest.raises(iv.Refused) as refused:
        iv.verify_files([t for t in tampered.values() if t is not None])
    assert refused.value.code == code, refused.value
    named = k + 1 if kind == "dropped" else k  # a file dropped: the next one does not follow
    assert refused.value.seq == named and f"#{named}" in pbem_says, (refused.value, pbem_says)


@pytest.mark.parametrize("game", TAMPERED)
def test_a_die_changed_is_refused_by_both(game: str, root: Path, tmp_path: Path):
    """The files are intact; one die of the first roll is claimed otherwise: pbem verify refuses the
    derived table that says so, the independent verifier the claim."""
    directory, _, audit = _campaign(game, root)
    claims = _claims(_audit_rolls(audit))
    claims[0]["values"][0] = claims[0]["values"][0] % 6 + 1
    with pytest.raises(iv.Refused) as refused:
        iv.derive_rolls(iv.verify_files(list(_turns(game).values())), claims)
    assert refused.value.code == "bad-dice"
    where = tmp_path / "copy"
    where.mkdir()
    shutil.copy(directory / "campaign.db", where / "campaign.db")
    con = sqlite3.connect(where / "campaign.db")
    try:
        con.execute("update rolls set dice = ? where rowid = (select min(rowid) from rolls)",
                    (json.dumps(claims[0]["values"]),))
        con.commit()
    finally:
        con.close()
    result = _cli("verify", where, home=root / "home")
    assert result.exit_code != 0 and "rolls table does not match" in result.output, result.output
    assert f"#{claims[0]['resolved_in']}" in result.output and refused.value.seq == claims[0]["resolved_in"]
