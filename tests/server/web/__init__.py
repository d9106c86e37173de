"""Tests of ``server.web``: hand-in tokens, safe unpacking, the upload page over HTTP."""
