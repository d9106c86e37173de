"""Tests of Botzone's ruleset (docs/SPEC-botzone.md)."""
