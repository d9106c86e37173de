"""What a person gets: terminal lines, logging, output folders, the page skeleton,
and how a stopped run says so.

``say`` (lines that quote untrusted text), ``console`` (structured logging, the
-v account), ``paths`` (folders and files named on the command line),
``pages`` (the HTML skeleton every report shares), ``stopping`` (Ctrl-C and the
stop signals, exit statuses, a run's fresh folder), ``live`` (a table's live feed,
``live.jsonl``: its writer and its reader).

May import: ``server.seam``, ``protocol.bot_errors``. Nothing above it.
"""
