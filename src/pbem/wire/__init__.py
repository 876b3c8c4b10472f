"""The wire: what travels between players, byte for byte.

The armor a turn file wears in a mail (``armor``: BEGIN/END lines, headers, base64 body, what
mail may do to it), the signed envelope (``envelope``), identities and their Ed25519 keys
(``keys``), checking many signatures at once (``signatures``) and the plain MIME a turn file's
mail is written in (``mime``).

May import: ``pbem.errors``, ``pbem.limits``, the store; cryptography and PyNaCl.
"""
