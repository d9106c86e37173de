"""Rulesets other than the default one, each in its own package over the shared core."""
