"""The web: ``server serve``, a live view of an output folder (a match, a tournament, or a
folder of them) over HTTP, with JSON for scripts and hand-ins through a page.

Built on hypercorn's trio worker and starlette (which runs on trio through anyio). It reads
the output folder's files only (standings.json, each table's live feed, the reports), so it
runs as its own process beside a match or a tournament (``--serve`` starts it as a child
process): a busy web page never takes time from a bot's clock. May import
``server.tournament`` and everything below it; only ``server.cli`` imports it.
"""
