"""``pbem serve``: the local web page, another face of play, undo, ingest and report
(``serve``: the Flask app and its guards; ``serve_game``: one seat at one campaign).

May import: the mailbox and every room below it; never the command line.
"""
