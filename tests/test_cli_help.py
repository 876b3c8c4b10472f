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


def test_an_option_or_card_file_an_invitation_cannot_carry_is_refused_without_a_traceback(tmp_path):
    """A fraction has no canonical JSON form: refused before anything is written (misuse, exit 2;
    a card file, exit 1), for a two-player and a refereed game alike."""
    from click.testing import CliRunner

    from tests.conftest import assert_no_traceback, new_player, pbem

    runner = CliRunner()
    alice, bob = new_player(runner, tmp_path, "alice", "allied"), new_player(runner, tmp_path, "bob", "ottoman")
    for extra in (["--as", "allied", "--opponent", str(bob.pub)],
                  ["--referee", "--player", f"allied={bob.pub}", "--player", f"ottoman={alice.pub}"]):
        r = runner.invoke(cli, ["new", "gallipoli-blocks", "--key", "alice", *extra, "--option", "turns=1.5",
                                "--campaign", str(tmp_path / "g")], env=alice.env)
        assert_no_traceback(r)
        assert r.exit_code == 2 and "cannot go in an invitation" in r.output
        assert not (tmp_path / "g").exists()
    (tmp_path / "cards.toml").write_text("x = 0.5\n")
    r = runner.invoke(cli, ["new", "gallipoli-blocks", "--key", "alice", "--as", "allied", "--opponent", str(bob.pub),
                            "--cards", str(tmp_path / "cards.toml"), "--campaign", str(tmp_path / "g")], env=alice.env)
    assert_no_traceback(r)
    assert r.exit_code == 1 and "bad-cards" in r.output + (r.stderr or "")
    assert not (tmp_path / "g").exists()


def test_a_question_the_tool_relays_keeps_its_question_mark():
    from pbem.commands.cli_common import sentence

    assert sentence("Advance into it, or stay in Hill 60?") == "Advance into it, or stay in Hill 60?"
    assert sentence("waiting for ottoman") == "waiting for ottoman."
