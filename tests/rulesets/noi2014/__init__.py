"""Tests of NOI 2014's ruleset (docs/SPEC-noi2014.md)."""
