"""Tests of ``server.output``: terminal lines and logging."""
