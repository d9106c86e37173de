"""The shell: one async match server that every ruleset plays behind one seam.

Subpackages, from the bottom up (ARCHITECTURE.md draws the map):

* ``seam``: the contract between the shell and a ruleset, the registry, bad
  input, seeds. Pure.
* ``output``: terminal lines, logging, output folders, the page skeleton, stopping.
* ``bots``: bot transports: processes, limits and sandbox, TCP seats, Botzone bots.
* ``turns``: the driver of every turn-based ruleset.
* ``cluster``: Ray.
* ``tournament``: class tournaments of any ruleset.
* ``cli``: the command line.

The shell reaches a ruleset only through ``server.seam.registry``.
"""

import protocol.compiled  # noqa: F401  (first: MAHJONG_PURE acts before a compiled module)

