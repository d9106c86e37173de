"""Tests of ``server.cluster``: Ray."""
