"""What a player sees: the turn report (text, and HTML from ``pbem.templates``), the map
drawn as SVG (``mapsvg``) and the replay, step by step.

May import: the play flow and the rooms below it.
"""
