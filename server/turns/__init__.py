"""The turn driver: one shell for every turn-based ruleset (Botzone's, NOI 2014's).

A ruleset's pure ``TurnGame`` says each turn what each seat is sent; ``driver``
plays one game with any bot transport, ``match`` a match of games with its log
folder, ``match_cli`` runs it from the command line, and ``verify`` and
``report`` re-run and draw a match folder the same way for every such ruleset.

May import: ``server.bots``, ``server.output``, ``server.seam``. Never a ruleset.
"""
