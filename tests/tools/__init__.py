"""Tests of ``tools``: the import-linter contract type."""
