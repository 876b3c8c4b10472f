"""Blood on the Tigris: The Iraq Campaign 1914-1917 (rules document 004).

Not yet registered: phase 1 (charts and combat only).  ``charts`` holds the four charts the
rulebook references but does not print (our PROVISIONAL reconstructions, and the check of a
player's own chart file); ``combat`` resolves ground and air combat by the rulebook's
sections.  See RULES.md.
"""
