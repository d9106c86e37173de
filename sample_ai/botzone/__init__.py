"""Sample AIs for Botzone's Chinese Standard Mahjong (``--ruleset botzone``).

Each bot is one self-contained file that also runs on Botzone itself; see
README.md in this folder.
"""
