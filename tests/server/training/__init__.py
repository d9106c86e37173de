"""Tests of ``server.training``: the single-agent wrapper around the rulesets' environments."""
