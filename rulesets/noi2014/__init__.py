"""The NOI 2014 team contest's Mahjong (SPEC-noi2014.md): blood-battle rules with
target hands, Botzone-style bots, and its Swiss tournament.

Pure core: ``tiles`` (codes, the wall), ``hands`` (winning hands, target hands,
distance and chance value), ``engine`` (one game as a ``server.seam.contract.TurnGame``).
Its side of the shell, from the bottom up: ``records`` (finding, reading and
describing a game record or match folder), ``rules`` (the turn driver's hooks),
then ``play``, ``replay``, ``report`` and ``verify``; at the top the ruleset
object the shell uses, ``rulesets.noi2014.ruleset.RULESET``, which no module of
the package imports.
"""
