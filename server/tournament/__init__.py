"""Class tournaments: many bots, tables of four in parallel, stored and resumable standings."""

from server.tournament.entries import EntriesError, load_entries
from server.tournament.runner import Runner, TournamentConfig, default_jobs
from server.tournament.schedule import FORMATS, TablePlan
from server.tournament.standings import Standings, standings
from server.tournament.store import Entry, Store, StoreError

__all__ = [
    "FORMATS", "EntriesError", "Entry", "Runner", "Standings", "Store", "StoreError",
    "TablePlan", "TournamentConfig", "default_jobs", "load_entries", "standings",
]
