"""Chance: the dice and their odds.

``dice`` turns a seed both sides committed to into die rolls (HMAC-SHA256, rejection sampling,
never the global ``random``) and holds the scripted dice the rule cases use; ``odds`` computes
exact odds with fractions for the lines a player reads beside a choice, and says where a
choice's words end and the odds begin (``SEP``, ``order_part``).

May import: the standard library only; no other room of the engine.
"""
