"""The ``server`` command line (``app``): options, dispatch to a ruleset, exit status.

The top of the house: it reads what the user typed, finds the ruleset by name
(``server.seam.registry``) and calls it through the seam; a mistake is one line
and exit status 2. Nothing imports it.

May import: every other part of the shell; a ruleset only through the registry.
"""
