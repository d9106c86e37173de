"""Tests of the default ruleset (docs/SPEC.md)."""
