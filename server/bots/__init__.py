"""Bot transports: how a seat gets its bot and talks to it, whatever the ruleset.

Processes (``processes``: start, pipe lines, kill the process group), their
limits and sandbox (``sandbox``, ``memlimit``, ``spawn``, ``scripts``), what an
earlier server left running (``leftovers``), a seat's bot for a hand
(``seats``), bots over TCP (``remote``, and ``connect``, its other end), and
bots on Botzone's protocol (``botzone_io``, pure; ``botzone_bots``).

May import: ``server.output``, ``server.seam``, ``protocol`` (the line
framing and the bots' report lines). Never a ruleset.
"""
