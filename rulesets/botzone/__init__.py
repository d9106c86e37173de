"""Botzone's Chinese Standard Mahjong (国标麻将) as Botzone's official judge plays it.

The pure core of the ``botzone`` ruleset (SPEC-botzone): tiles and walls
(``tiles``), the judge's fan calculator (``fans``) and the judge itself
(``judge``). No I/O: the shell drives ``Judge`` one turn at a time.
"""

from rulesets.botzone.fans import CalculatorMissing, english_name
from rulesets.botzone.judge import Judge, Reply, rejudge
from rulesets.botzone.tiles import VARIANTS

__all__ = ["VARIANTS", "CalculatorMissing", "Judge", "Reply", "english_name", "rejudge"]
