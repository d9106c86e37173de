"""Tests of ``server.cli``: the command line's messages and paths."""
