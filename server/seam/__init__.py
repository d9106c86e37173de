"""The seam: what the shell and a ruleset agree on, and nothing else.

``contract`` is the ``Ruleset`` a ruleset gives the shell's commands (and the
``TurnGame`` a turn-based engine is); ``registry`` finds a ruleset by name;
``errors`` is bad input (exit status 2), which either side may raise; ``seeds``
the reproducible generator every seeded choice draws from.

Pure: no trio, no rich. May import nothing of the project, so every ruleset,
its pure engine included, may import it.
"""
