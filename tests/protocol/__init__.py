"""Tests of ``protocol``: tiles, messages, framing."""
