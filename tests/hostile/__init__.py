"""Hostile bots: small programs, each doing one bad thing
(see ``tests/server/bots/test_hostile.py``)."""
