"""tools/mutate.py, the mutation run of the security checks, kept from rotting.

The run itself is an optional job (minutes per module, see docs/threat-model.md). Here only
what is cheap: every mutant's snippet still occurs exactly once in its file (a check that moved
or changed must have its mutant updated, not silently dropped), and the harness works end to
end on one fast mutant: the copy imports its own ``pbem`` and ``pbem_engine``, the unmutated
copy passes, and the mutant is killed.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "mutate.py"

pytestmark = pytest.mark.skipif(not TOOL.is_file(), reason="tools/ is not shipped in the wheel: a checkout only")


def load():
    spec = importlib.util.spec_from_file_location("pbem_mutate_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_every_mutant_snippet_occurs_once_and_its_tests_exist():
    tool = load()
    assert tool.problems() == []
    assert len(tool.MUTANTS) >= 40
    for mutant, why in tool.EQUIVALENT:
        assert why.strip(), f"{mutant.name}: an equivalent mutant says why"


def test_the_copy_imports_its_own_sources(tmp_path):
    tool = load()
    tool.copy_tree(tmp_path)
    probe = ("import pbem, pbem_engine, pbem_engine.chance.dice, pbem.templates, pbem.packs, pbem.bench; "
             "print(pbem.__file__, pbem_engine.chance.dice.__file__, list(pbem.templates.__path__)[0])")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": f"{tmp_path / 'src'}:{tmp_path / 'shim'}", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert all(path.startswith(str(tmp_path)) for path in done.stdout.split()), done.stdout


def test_a_fast_mutant_is_killed_and_the_unmutated_copy_passes():
    done = subprocess.run([sys.executable, str(TOOL), "-k", "dice: no rejection in the uniform draw", "-v"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "baseline (no mutation): passes" in done.stdout
    assert "KILLED" in done.stdout and "test_dice_rejection.py" in done.stdout
    assert "killed 1 of 1 mutants: 100%" in done.stdout
