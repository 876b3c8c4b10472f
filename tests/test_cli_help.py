"""Every command's --help ends with an example a user can copy, and --version is the package's."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

import pbem
from pbem.cli import cli


def _walk(group: click.Group, ctx: click.Context, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path below ``group`` (the root group is lazy: ask it, do not read .commands)."""
    paths = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, f"pbem {' '.join(path + (name,))} is listed but cannot be loaded"
        paths.append(path + (name,))
        if isinstance(command, click.Group):
            paths += _walk(command, click.Context(command, parent=ctx, info_name=name), path + (name,))
    return paths


COMMANDS = _walk(cli, click.Context(cli, info_name="pbem"))


def test_the_walk_finds_the_lazy_commands_and_subcommands():
    assert {("demo",), ("verify",), ("keys",), ("keys", "import"), ("mail", "run"), ("pack", "check")} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_help_ends_with_an_example(path):
    result = CliRunner().invoke(cli, [*path, "--help"], prog_name="pbem")
    assert result.exit_code == 0, result.output
    # What the docstring says comes before the Options (and, for a group, Commands) list.
    description = result.output.split("\nOptions:")[0]
    last = [p for p in description.split("\n\n") if p.strip()][-1]
    lines = [line.strip() for line in last.splitlines()]
    assert lines[0] in ("Example:", "Examples:"), f"pbem {' '.join(path)} --help ends with:\n{last}"
    prefix = "pbem " + " ".join(path)
    assert any(line == prefix or line.startswith(prefix + " ") for line in lines[1:]), \
        f"no line starting with '{prefix}' in the example:\n{last}"


def test_version_is_the_package_version():
    result = CliRunner().invoke(cli, ["--version"], prog_name="pbem")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"pbem, version {pbem.__version__}"


def _examples(text: str) -> list[list[str]]:
    """The ``pbem ...`` lines of a help text's Example(s) block, as words (comments, redirections and
    line continuations handled the way a shell would)."""
    import shlex

    block = text.split("\nOptions:")[0].replace("\\\n", " ")
    found = []
    for line in block.splitlines():
        if line.strip().startswith("pbem "):
            words = shlex.split(line.strip(), comments=True)
            for redirect in ("<", ">"):
                if redirect in words:
                    words = words[:words.index(redirect)]
            found.append(words[1:])
    return found


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_examples_use_options_and_arguments_that_exist(path):
    """Each example parses as given: no unknown option, no missing argument, no bad choice
    (files it names need not exist here)."""
    text = CliRunner().invoke(cli, [*path, "--help"], prog_name="pbem").output
    examples = _examples(text)
    assert examples, text
    for words in examples:
        ctx = click.Context(cli, info_name="pbem")
        command: click.Command = cli
        while isinstance(command, click.Group) and words and words[0] in command.list_commands(ctx):
            sub = command.get_command(ctx, words[0])
            ctx = click.Context(sub, parent=ctx, info_name=words[0])
            command, words = sub, words[1:]
        if isinstance(command, click.Group):
            continue  # a group's example naming one of its commands was resolved above
        try:
            command.make_context(ctx.info_name, list(words), parent=ctx.parent)
        except click.BadParameter as e:
            assert "does not exist" in str(e), f"{' '.join(words)}: {e}"
        except click.UsageError as e:
            pytest.fail(f"example 'pbem {' '.join(path)} {' '.join(words)}' does not parse: {e}")
