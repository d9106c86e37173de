"""Sample AIs for the NOI 2014 contest's Mahjong (``--ruleset noi2014``).

Each bot is one self-contained file, as a contestant hands it in: see README.md
in this folder.
"""
