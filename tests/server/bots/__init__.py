"""Tests of ``server.bots``: processes, limits, sandbox, leftovers, TCP seats, Botzone
bots, hostile bots."""
