"""Hidden information: what one side holds and the other may not see until the rules say.

Private pools drawn from a committed shuffle (``private``); the shared decks dealt by both
sides' keys, their messages, groups, table and audit (``deck``, ``deck_group``, ``deck_table``,
``deck_audit``); and in a refereed game the referee's hidden items and decks (``referee_hidden``,
``referee_deck``), committed with a salt and revealed to each side as the rules allow.

May import: ``pbem_engine.canonical``, ``pbem_engine.chance`` and the standard library.
"""
