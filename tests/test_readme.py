"""The README's claims that a test can check."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    command = next(line for line in ci.splitlines() if "pytest" in line and not line.startswith("#"))
    assert f"    {command}\n" in README


def test_readme_names_only_commands_that_exist():
    from pbem.cli import cli

    import click

    commands = set(cli.list_commands(click.Context(cli)))
    named = set(re.findall(r"`pbem ([\w-]+)", README))
    assert named <= commands, named - commands


def test_readme_names_only_modules_that_exist():
    from pbem_engine.registry import BUILTIN_GAMES

    table = README.split("## Games")[1].split("\n\n")[1]  # the first table: the rules modules
    assert set(re.findall(r"\| `([\w-]+)` \|", table)) == set(BUILTIN_GAMES)


def test_ci_runs_the_readme_first_command_outside_the_checkout():
    ci = (ROOT / ".ci" / "run").read_text()
    first = next(line.strip() for line in README.splitlines() if line.strip().endswith("pbem demo"))
    assert first.replace("pip install .", 'pip install "$repo"') in ci
    assert 'cd "$user"' in ci
