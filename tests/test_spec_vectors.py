"""docs/spec.md cannot drift from the code: its test vectors are made again by the code and
compared with the committed files, its table of constants is read against the modules it
names, and its by-hand recipes (Python with PyNaCl, and OpenSSL) run verbatim, as printed, on
the golden Barrage game."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec.md"
VECTORS = ROOT / "docs" / "vectors"
BARRAGE = ROOT / "tests" / "golden" / "barrage"


def _make():
    spec = importlib.util.spec_from_file_location("spec_vectors_make", VECTORS / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _section(title: str) -> str:
    """The text of the spec's section whose heading contains ``title``, up to the next one."""
    text = SPEC.read_text(encoding="utf-8")
    start = next(m for m in re.finditer(r"^## .*$", text, re.M) if title in m.group(0))
    following = re.search(r"^## ", text[start.end():], re.M)
    return text[start.end(): start.end() + following.start() if following else len(text)]


def _fenced(section: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", section, re.M | re.S)


def _barrage() -> dict:
    return json.loads((VECTORS / "barrage.json").read_text(encoding="utf-8"))


# --- the vectors -------------------------------------------------------------------------------

def test_the_vectors_are_what_the_code_gives_now():
    make = _make()
    made = make.vectors()
    committed = sorted(p.name for p in VECTORS.glob("*.json"))
    assert committed == sorted(made), "docs/vectors/*.json and make.py's vectors() name different files"
    for name, content in made.items():
        assert (VECTORS / name).read_text(encoding="utf-8") == make.text(content), (
            f"docs/vectors/{name} is not what the code gives now: if the change is intended, run "
            ".venv/bin/python docs/vectors/make.py, review the diff and update docs/spec.md")


def test_every_vector_file_is_described_in_the_spec():
    table = _section("Test vectors")
    for path in VECTORS.glob("*.json"):
        assert f"`{path.name}`" in table, f"section 15 of docs/spec.md does not describe {path.name}"


def test_the_values_the_spec_quotes_are_the_vectors():
    text = SPEC.read_text(encoding="utf-8")
    vectors = _barrage()
    primitives = json.loads((VECTORS / "primitives.json").read_text(encoding="utf-8"))
    assert vectors["files"][2]["envelope_hash"] in text  # the OpenSSL recipe's envelope hash
    assert vectors["files"][3]["prev"] == vectors["files"][2]["envelope_hash"]
    assert str(vectors["rolls"][0]["values"]) in _section("by hand")
    assert f"{vectors['files'][2]['signer']}" in _section("armor")  # the armor's example header
    assert primitives["fingerprint"][1]["fingerprint"] == vectors["files"][0]["signer"]
    digest = primitives["digest"][0]
    assert " ".join([digest["preimage_hex"][:32], "00000003", "616263", "00000002", "0001"]) in text


def test_the_canonical_vectors_hold_both_ways():
    """What the vectors list as canonical parses back to the same bytes; what they list as refused
    is refused (the reasons in the file are pbem's own)."""
    from pbem_engine.canonical import NotCanonical, canonical_json, parse_canonical

    canonical = json.loads((VECTORS / "primitives.json").read_text(encoding="utf-8"))["canonical"]
    for case in canonical["accepted"]:
        data = bytes.fromhex(case["canonical_hex"])
        assert canonical_json(parse_canonical(data)) == data == case["canonical"].encode()
    for case in canonical["refused"]:
        with pytest.raises(NotCanonical):
            parse_canonical(bytes.fromhex(case["bytes_hex"]))


# --- the constants -------------------------------------------------------------------------------

def _resolve(path: str):
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise AssertionError(f"no module in {path}")


def test_the_constants_table_is_the_code():
    table = [line for line in _section("Constants").splitlines() if line.startswith("|")][2:]  # past its head
    rows = [re.fullmatch(r"\|[^|]*\| `([^`]+)` \| `([a-z_.]+\.[A-Za-z_.]+)` \|", line) for line in table]
    assert len(rows) >= 25 and all(rows), [line for line, row in zip(table, rows) if not row]
    rows = [row.groups() for row in rows]
    for literal, where in rows:
        expected, actual = ast.literal_eval(literal), _resolve(where)
        if isinstance(expected, set):
            actual = set(actual)
        assert actual == expected, f"docs/spec.md says {where} is {literal}; the code has {actual!r}"


# --- the recipes of section 14, verbatim -------------------------------------------------------------

@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder holding the golden Barrage game where a checkout holds it: where a player runs
    the recipes (they name tests/golden/barrage/turns/...)."""
    shutil.copytree(BARRAGE / "turns", tmp_path / "tests" / "golden" / "barrage" / "turns")
    return tmp_path


def _python_recipe() -> str:
    [code] = _fenced(_section("by hand"), "python")
    return code


def test_the_python_recipe_checks_the_file_and_rolls_red_s_dice(checkout: Path):
    roll = _barrage()["rolls"][0]
    assert (roll["declared_in"], roll["resolved_in"], roll["actor"]) == (2, 3, "red")
    run = subprocess.run([sys.executable, "-c", _python_recipe()], cwd=checkout, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"{roll['seed']} {roll['values']}\n"


def _flip(path: Path, offset: int) -> None:
    """One byte of the file's payload changed, the armor kept canonical: only the signature can tell."""
    import base64

    lines = path.read_text(encoding="utf-8").split("\n")
    blank = lines.index("")
    payload = bytearray(base64.b64decode("".join(lines[blank + 1:-2])))
    payload[offset] ^= 0x01
    body = base64.b64encode(bytes(payload)).decode()
    path.write_text("\n".join(lines[:blank + 1] + [body[i:i + 64] for i in range(0, len(body), 64)] + lines[-2:]),
                    encoding="utf-8")


def test_the_python_recipe_refuses_a_forged_file(checkout: Path):
    _flip(checkout / "tests" / "golden" / "barrage" / "turns" / "0002-red-turn.pbem", 10)  # in the signature
    run = subprocess.run([sys.executable, "-c", _python_recipe()], cwd=checkout, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode != 0 and "BadSignatureError" in run.stderr, run.stdout + run.stderr


def _openssl_3() -> bool:
    if shutil.which("openssl") is None or shutil.which("sh") is None:
        return False
    version = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout
    return bool(re.match(r"OpenSSL [3-9]\.", version))


@pytest.mark.skipif(not _openssl_3(), reason="needs the OpenSSL 3 command line (pkeyutl -rawin)")
@pytest.mark.parametrize("forged", [False, True])
def test_the_openssl_recipe_checks_the_signature(checkout: Path, forged: bool):
    [code] = _fenced(_section("by hand"), "sh")
    if forged:
        _flip(checkout / "tests" / "golden" / "barrage" / "turns" / "0002-red-turn.pbem", 70)  # in the JSON
    run = subprocess.run(["sh", "-c", code], cwd=checkout, capture_output=True, text=True, timeout=60)
    if forged:
        assert "Signature Verified Successfully" not in run.stdout, run.stdout
        return
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["Signature Verified Successfully",
                                       f"{_barrage()['files'][2]['envelope_hash']}  -"], run.stdout
