"""The store: a campaign on disk.

The ledger (``ledger``: SQLite holding the turn files exactly as received, hash chained and
append-only, and the tables derived from them), the campaign lock and the crash points the kill
tests use (``lock``), atomic file writes (``files``) and the secrets vault, encrypted with a
passphrase or not (``vault``), and the campaigns recorded under a player's home (``games``).

May import: ``pbem.errors``, ``pbem.limits``, ``pbem_engine.protocol.trail`` (which part of a
match state is stored beside it) and the standard library; no other room.
"""
