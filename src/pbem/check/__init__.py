"""Checking a history: ``verify`` replays a campaign from its genesis and re-checks
everything; ``audit`` re-derives every roll and tests the dice (``dice_stats``).

May import: the views and the rooms below them.
"""
