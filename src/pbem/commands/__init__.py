"""The commands of the command line (click), each loaded only when it runs
(``pbem.cli``'s lazy table), their shared options (``cli_common``) and the demo.

May import: every room.
"""
