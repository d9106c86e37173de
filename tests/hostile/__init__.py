"""Hostile bots: small programs, each doing one bad thing (see ``tests/test_hostile.py``)."""
