"""Tests of ``server.tournament``: schedule, standings, store, runner, hand-ins, reports,
the cluster."""
