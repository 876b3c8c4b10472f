"""The protocol: what a game module is, and how a match between players runs it.

``core`` is the contract every game module fulfils (setup, prompt, apply, view, outcome) and
``step``, the only way a state changes; ``chain`` is each side's hash chain of seed links;
``match`` wraps a game in the two-player protocol (commitments, reveals, dice that wait for
both sides, private pools and decks); ``referee`` does the same for a refereed game; ``trail``
says what of a match state its hash covers (protocol 3 keeps the private logs beside it);
``position`` sets up a state by hand for rule cases, with scripted dice for it.

May import: ``pbem_engine.canonical``, ``pbem_engine.chance``, ``pbem_engine.hidden`` and the
standard library; never a game module (games are found by name through ``registry``).
"""
