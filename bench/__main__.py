import click

from . import run

run(10_000, 200_000, 100, click.echo)
