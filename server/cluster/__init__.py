"""Ray: work carried past one machine (tournament tables, simulated hands).

``ray_cluster`` starts or joins a cluster and ships a run's files to it; what
runs there is decided by its caller (``server.tournament.cluster``, the default
ruleset's ``simulate_spread``).

May import: ``server.seam``. Never a ruleset.
"""
