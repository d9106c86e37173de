"""Botzone's Chinese Standard Mahjong (国标麻将) as Botzone's official judge plays it.

The pure core of the ``botzone`` ruleset (SPEC-botzone): tiles and walls
(``tiles``), the judge's fan calculator (``fans``), the judge itself
(``judge``), the match formats (``formats``) and a game step by step
(``view``). Its side of the shell, from the bottom up: ``records`` (finding,
reading and describing a game record or match folder), ``rules`` (the turn
driver's hooks, ``--initdata``), then ``play``, ``replay``, ``page``,
``report`` and ``verify``; at the top ``ruleset`` (``RULESET``, found by the
registry), which no module of the package imports. For training (the ``rl`` extra):
``seat_view`` (a seat's view, its legal actions, the 235-action codec; pure),
``encoders``, ``env`` (the PettingZoo environment, policies as bots) and
``course_env`` (the PKU course's ``MahjongGBEnv`` on the judge) with ``course_agent``
(its ``FeatureAgent`` interface on the seat view). Nothing is imported here,
so listing the ruleset costs nothing.
"""
