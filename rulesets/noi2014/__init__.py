"""The NOI 2014 team contest's Mahjong (SPEC-noi2014.md): blood-battle rules with
target hands, Botzone-style bots, and its Swiss tournament.

Pure core: ``tiles`` (codes, the wall), ``hands`` (winning hands, target hands,
distance and chance value), ``engine`` (one game as a ``server.seam.contract.TurnGame``).
The ruleset object the shell uses is ``rulesets.noi2014.ruleset.RULESET``.
"""
