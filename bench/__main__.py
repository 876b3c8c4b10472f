"""python -m pbem.bench [PART ...]: the whole bench at full size, or only the parts named (PARTS)."""

import sys

import click

from . import run
from .rally import where

run(10_000, 200_000, 100, click.echo, only=set(sys.argv[1:]) or None, rally=where())
