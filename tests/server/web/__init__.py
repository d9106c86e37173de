"""Tests of ``server.web``: the live view of a folder, its API and events, path safety; hand-in
tokens, safe unpacking, the upload page over HTTP."""
