"""The chain: a game's history and the rules it is replayed by.

``history`` applies each envelope to the rules (``pbem_engine``) and checks every link, key,
die and state hash; ``invitation`` reads and bounds a genesis; ``referee`` is the referee's
wire format (its sealed boxes, commitments and public checks); ``datapack`` and ``gamedata``
read the data packs and a player's own data; ``hidden`` names hidden items to the one side
that may see them.

May import: the wire, the store, ``pbem.errors``, ``pbem.limits`` and ``pbem_engine``.
"""
