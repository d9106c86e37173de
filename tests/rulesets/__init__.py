"""Tests of the rulesets, a folder per ruleset."""
