"""``server compare``: a paired test of two bots on the same deals, for every ruleset.

It reaches a ruleset only through the seam (``server.seam``).
"""
