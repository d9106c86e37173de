"""Tests of the default ruleset's pure engine."""
