"""Shell completion, as the README documents it: the installed ``pbem`` script answers click's
completion protocol, lazy commands included, and bash's own completion function uses it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PBEM = Path(sys.executable).parent / "pbem"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("_PBEM", "COMP_"))}
    env["PBEM_HOME"] = str(tmp_path / "home")
    return {**env, **extra}


def complete(tmp_path: Path, line: str) -> list[str]:
    """What ``pbem`` offers for the last word of ``line`` (bash's protocol: 'type,value' lines)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    out = subprocess.run([str(PBEM)], env=_env(tmp_path, _PBEM_COMPLETE="bash_complete", COMP_WORDS=line,
                                               COMP_CWORD=str(cword)),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr, out.stderr
    return [entry.partition(",")[2] for entry in out.stdout.splitlines()]


def test_the_console_script_is_installed_next_to_python():
    assert PBEM.exists(), f"no pbem script beside {sys.executable}: install the package (pip install -e .)"


def test_commands_complete(tmp_path):
    assert complete(tmp_path, "pbem ve") == ["verify"]
    assert set(complete(tmp_path, "pbem ")) >= {"demo", "ingest", "keys", "mail", "new", "play", "verify"}


def test_lazy_subcommands_and_options_complete(tmp_path):
    assert set(complete(tmp_path, "pbem keys ")) == {"export", "import", "list", "new", "show"}
    assert complete(tmp_path, "pbem keys n") == ["new"]
    assert complete(tmp_path, "pbem mail r") == ["run"]
    assert "--campaign" in complete(tmp_path, "pbem status --")
    assert complete(tmp_path, "pbem demo --game h") == ["hill60"]
    assert complete(tmp_path, "pbem new g") == ["gallipoli-1915", "gallipoli-blocks"]
    assert {"assault-on-gallipoli", "blood-on-the-tigris", "hill60", "tabletop"} <= set(complete(tmp_path, "pbem new "))


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_as_the_readme_installs_it(tmp_path):
    """eval "$(_PBEM_COMPLETE=bash_source pbem)" registers a completion function that works."""
    script = ('eval "$(_PBEM_COMPLETE=bash_source pbem)" && complete -p pbem && '
              'COMP_WORDS=(pbem keys i) && COMP_CWORD=2 && _pbem_completion pbem && '
              'printf "offered %s\\n" "${COMPREPLY[@]}"')
    env = _env(tmp_path, PATH=f"{PBEM.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "-F _pbem_completion pbem" in out.stdout
    assert "offered import" in out.stdout.splitlines()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_documented_shell_gets_a_script(tmp_path, shell):
    out = subprocess.run([str(PBEM)], env=_env(tmp_path, _PBEM_COMPLETE=f"{shell}_source"), capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"_PBEM_COMPLETE={shell}_complete" in out.stdout
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert f"_PBEM_COMPLETE={shell}_source pbem" in readme
