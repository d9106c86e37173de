"""Botzone's Chinese Standard Mahjong (国标麻将) as Botzone's official judge plays it.

The pure core of the ``botzone`` ruleset (SPEC-botzone): tiles and walls
(``tiles``), the judge's fan calculator (``fans``), the judge itself
(``judge``), the match formats (``formats``) and a game step by step
(``view``). The ruleset's commands are in ``ruleset`` (found by the
registry); ``play``, ``replay``, ``page``, ``report`` and ``verify`` are its
side of the shell. Nothing is imported here, so listing the ruleset costs
nothing.
"""
