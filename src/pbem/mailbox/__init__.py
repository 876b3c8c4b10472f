"""The mailbox: a turn file's mail written (``mail``), sent (``mail_send``), fetched and
ingested (``mail_fetch``, ``mailbox_in``), the notes it keeps and answers it gives
(``mail_notes``), the unattended run of a referee or a player (``mail_run``), waiting for mail
with IMAP IDLE (``mail_watch``), the notify hook (``notify``), a join from the mailbox
(``mail_join``), and the outbox folders and mail record as ``pbem status`` reads them
(``outbox``, which imports nothing else, so that a cold status loads no mail stack).

May import: the check, the views, the play flow and the rooms below them.
"""
