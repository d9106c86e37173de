"""Tests of ``server.seam``: rulesets found by name, options checked, logs sent home."""
