"""The play flow: a campaign and what a side does in it.

``campaign`` (open, store, drafts, secrets), ``founding`` (a new game, a join), ``ingest``
(turn files in), ``turns`` (a two-player side's own turn), ``refereeing`` and
``referee_orders`` (a refereed game: the referee's adjudication and a player's orders from his
view), ``plays`` (what a turn gives back, shared by both), ``recovery`` (finishing what an
interrupted command stored but did not write), ``clock`` (who owes what since when),
``unattended`` (which files need a person; signing every one that does not) and ``overview``
(every game of a home, one line each).

May import: the chain, the wire, the store, ``pbem.errors``, ``pbem.limits`` and
``pbem_engine``; never the mailbox, a view or a command: what it needs of them is handed in
(``Campaign.open(outbox=...)``).
"""
