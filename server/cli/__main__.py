"""``python -m server.cli ...``: the ``server`` command, as it ran before the command
line became a package."""

from server.cli.app import main

main()
