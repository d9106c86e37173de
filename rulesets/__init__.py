"""The rulesets this server hosts, one package each, found by name through
``server.seam.registry``: ``default`` (docs/SPEC.md), ``botzone``, ``noi2014``,
``thupc2021``. ``botzone_bots`` is what the two rulesets on Botzone's bot protocol
share. A ruleset uses the shell's services and never imports another ruleset.
"""

import protocol.compiled  # noqa: F401  (first: MAHJONG_PURE acts before a compiled module)

