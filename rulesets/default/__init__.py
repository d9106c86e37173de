"""The default ruleset (docs/SPEC.md): 96-hand duplicate matches on the line protocol.

Its pure core is ``engine`` (the hand state machine, deals, the original log
format and records) with ``protocol`` (tiles, messages: its wire vocabulary)
and ``scoring`` (the simplified GB fan table); around it the persistent
line-protocol ``table``, the duplicate ``match``, its files (``logs``), its
commands (``check_bot``, ``verify``, ``replay``, ``pages``, ``fans_cmd``, the
in-process simulation) and, at the top, ``ruleset``: the ``RULESET`` the shell
finds by name. Beside the commands, ``env`` is the ruleset as a PettingZoo
training environment (with ``policy_bot`` and ``bot_actor``), over ``encoding``
(observations), ``seat_view`` (one seat's knowledge from its lines) and
``actions`` (the answers as 128 actions); only ``env`` and ``encoding`` need the
``rl`` extra.

May import: the shell's services (``server.bots``, ``server.output``,
``server.seam``, ``server.cluster``), never ``server.cli`` or another ruleset.
"""
