"""``server tournament``: the console shell around the runner (progress, standings, reports)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import structlog
import trio
from rich.columns import Columns
from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from server.bots.person import DEFAULT_CLOCK, PersonOptions, PersonSetupError, person_options
from server.bots.remote import RemoteOptions, RemoteSetupError, remote_options
from server.bots.sandbox import BotLimits, SandboxError
from server.bots.seats import Sandbox, TableOptions
from server.cluster.ray_cluster import Cluster, ClusterError, connected
from server.output.console import configure_logging
from server.output.paths import output_folder
from server.output.say import (
    Repeats,
    err_console,
    error_line,
    fault_key,
    fault_line,
    out_console,
    warning_line,
)
from server.output.stopping import say_terminated, stopped_status, until_terminated
from server.seam.contract import FaultNote
from server.seam.errors import InputError
from server.seam.registry import DEFAULT, limit_defaults, listing, load
from server.tournament.bot_stats import entry_stats
from server.tournament.cluster import on_cluster
from server.tournament.entries import EntriesError, load_entries, scan_folder
from server.tournament.exports import games_file
from server.tournament.report import Machines, unit_of, write_reports
from server.tournament.runner import (
    Runner,
    SeatPages,
    TournamentConfig,
    rules_meta,
    table_dir,
)
from server.tournament.schedule import TablePlan
from server.tournament.sealed import sealed_tables, table_name, tournament_over
from server.tournament.standings import Standing, Standings, standings
from server.tournament.store import Entry, Store, StoreError

DB_NAME = "tournament.sqlite"


def remote_for(entries: Sequence[Entry], listen: str | None, token_pairs: Sequence[str],
               resume: bool = False) -> RemoteOptions | None:
    """Where the remote entries (``tcp:NAME``) connect and their tokens; None without any."""
    remote = [e for e in entries if e.remote is not None]
    if not remote:
        if listen is not None or token_pairs:
            raise EntriesError("--listen and --token are for remote bots (command "
                               "\"tcp:NAME\"), and there are none")
        return None
    if listen is None:
        names = ", ".join(f"{e.name!r} (tcp:{e.remote})" for e in remote)
        again = " again (it is not stored; nor are the tokens)" if resume else ""
        raise EntriesError(f"remote bots {names} need --listen HOST:PORT{again}")
    try:
        return remote_options([e.command[0] for e in remote], listen, token_pairs)
    except RemoteSetupError as exc:
        raise EntriesError(str(exc)) from None


def persons_for(entries: Sequence[Entry], clock: float | None, bind: str | None
                ) -> PersonOptions | None:
    """The persons' seats (``web:NAME`` entries): fresh tokens, their clock and where
    their pages are served; None without any."""
    if not any(e.person is not None for e in entries):
        if clock is not None or bind is not None:
            raise EntriesError("--clock and --seat-bind are for persons (command "
                               "\"web:NAME\"), and there are none")
        return None
    try:
        options = person_options([e.command[0] for e in entries if e.person is not None],
                                 DEFAULT_CLOCK if clock is None else clock,
                                 bind or "127.0.0.1:0")
    except PersonSetupError as exc:
        raise EntriesError(str(exc)) from None
    # a student who never opens the page holds up their table ten of their moves, not
    # for ever: then their seat plays on timing out (each table would wait again until
    # they come, with --jobs 1 the whole tournament)
    return None if options is None else replace(options,
                                                page_wait=PAGE_WAIT_MOVES * options.clock)


PAGE_WAIT_MOVES = 10
"""How many of a person's moves a tournament table waits for their page to open."""


def current_standings(store: Store, n: int) -> Standings:
    return standings_job(store, n)()


def standings_job(store: Store, n: int) -> Callable[[], Standings]:
    """The standings from what the store holds now: read now, computed when called (in
    another thread if need be: nothing of the store is touched then)."""
    entries = store.entries()
    rules = load(store.meta().get("ruleset", DEFAULT))
    tiebreak, ranking = rules.swiss_tiebreak, rules.ranking
    names, results, rows = [e.name for e in entries[:n]], store.table_results(), \
        store.hand_rows()
    return lambda: standings(names, results, rows, len(entries), tiebreak, ranking)


# The standings' columns: header, cell, and whether a narrow console keeps it.
_COLUMNS: tuple[tuple[str, Callable[[Standing], str | Text], bool], ...] = (
    ("#", lambda s: str(s.rank), True),
    ("bot", lambda s: Text(s.name), True),
    ("rank pts", lambda s: str(s.rank_points), True),  # only when ranked by them
    ("points", lambda s: str(s.points), True),
    ("/hand", lambda s: f"{s.per_hand:+.2f}", True),
    ("95% CI", lambda s: f"{s.ci_low:+.1f}..{s.ci_high:+.1f}" if s.hands > 1 else "-", False),
    ("dup", lambda s: f"{s.duplicate:+.2f}", False),
    ("rating", lambda s: f"{s.rating:.2f}", True),
    ("hands", lambda s: str(s.hands), True),
    ("won", lambda s: str(s.wins), False),
    ("drawn", lambda s: str(s.draws), False),
    ("fines", lambda s: str(s.fines), True),
    ("faults", lambda s: str(s.faults), True),
    ("errors", lambda s: str(s.errors), True),  # only when a bot's framework answered for it
    ("stalls", lambda s: str(s.stalls), False),
)
FULL_WIDTH = 120  # columns the whole standings table needs; narrower consoles get fewer


# A turn-based ruleset's words: its tables play games, and it has no fines or host stalls.
_GAME_WORDS = {"/hand": "/game", "hands": "games"}
_NOT_IN_GAMES = ("fines", "stalls")


def standings_table(st: Standings, title: str, width: int | None = None,
                    unit: str = "hand") -> Table:
    """The standings as a table; on a console narrower than ``FULL_WIDTH`` only the
    main columns (the CSV, JSON and HTML reports always have them all). ``unit``: "game"
    for a turn-based ruleset (Botzone, NOI 2014), in its words, without fines or stalls."""
    columns = [c for c in _COLUMNS if width is None or width >= FULL_WIDTH or c[2]]
    if all(s.rank_points is None for s in st.rows):
        columns = [c for c in columns if c[0] != "rank pts"]
    if not any(s.errors for s in st.rows):
        columns = [c for c in columns if c[0] != "errors"]
    if unit != "hand":
        columns = [(_GAME_WORDS.get(h, h), cell, keep) for h, cell, keep in columns
                   if h not in _NOT_IN_GAMES]
    table = Table(title=title)
    for header, _, _ in columns:
        table.add_column(header, justify="left" if header == "bot" else "right", no_wrap=True)
    for s in st.rows:
        table.add_row(*(cell(s) for _, cell, _ in columns))
    return table


def write_all(config: TournamentConfig, store: Store) -> Standings:
    return reports_job(config, store)()


def reports_job(config: TournamentConfig, store: Store) -> Callable[[], Standings]:
    """Writing the reports (``write_all``) as two halves: what the store holds, read now
    (the store's connection belongs to this thread), and the standings and the files,
    made when the job returned is called. Nothing of a sealed table's hands, nor the
    tournament's seed before it is over, goes in them (``server.tournament.sealed``)."""
    n = len(config.entries)
    compute = standings_job(store, n)
    plans = store.plans()
    dirs = {(p.round, p.table): d for p in plans
            if (d := store.log_dir(p.round, p.table)) is not None}
    entries, done, meta = store.entries(), store.plans("done"), store.meta()
    stalls, programs = store.host_stalls(), store.programs()
    machines = Machines(store.nodes(), store.replays())
    games = store.hand_results()
    rules = load(meta.get("ruleset", DEFAULT))
    finished = {(p.round, p.table) for p in done}
    sealed = frozenset(sealed_tables(plans, finished))
    over = tournament_over(plans, finished, int(meta.get("rounds", config.rounds)))
    shown = [p for p in done if table_name(p) not in sealed]

    def write() -> Standings:
        st = compute()
        write_reports(config.out, st, entries, done, meta, dirs, stalls, programs, machines,
                      games, stats=entry_stats(rules, shown, dirs, n), sealed=sealed,
                      over=over)
        return st

    return write


class Rewriter:
    """Rewrites standings.json, standings.csv and tournament.html after every table that
    ends (the match reports already written are kept), so a page that reads the folder
    follows a running tournament. The files are made in a worker thread, not in the event
    loop that keeps the bots' clocks; tables that end while a rewrite runs are taken in by
    one more rewrite after it. A rewrite that fails is said in the log and left to the
    next one (and to the last, at the end)."""

    def __init__(self, config: TournamentConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.lock = trio.Lock()
        self.again = False
        self.rewrites = 0

    async def __call__(self) -> None:
        if self.lock.locked():
            self.again = True
            return
        async with self.lock:
            self.again = True
            while self.again:
                self.again = False
                try:
                    await trio.to_thread.run_sync(reports_job(self.config, self.store))
                    self.rewrites += 1
                except Exception:
                    structlog.get_logger().exception("reports_rewrite_failed",
                                                     out=str(self.config.out))


def stalls_line(store: Store) -> str:
    """The host stalls, by node when more than one machine played."""
    nodes = store.nodes()
    line = f"host stalls: {store.host_stalls()}"
    if len(nodes) > 1:
        line += " (" + ", ".join(f"{n or '?'}: {st} in {k} tables" for n, k, st in nodes) + ")"
    replays = store.replays()
    if replays:
        line += f"; {len(replays)} tables played again after their node died"
    return line


def run(config: TournamentConfig, resume: bool, quiet: bool = False,
        cluster: str | None = None, serve: str | None = None, handins: bool = False,
        seat_pages: SeatPages | None = None) -> int:
    """Play (or resume) the tournament; 0 when every table has been played. With
    ``cluster`` (an address, or ``local``), the tables play on a Ray cluster; with
    ``serve`` (HOST:PORT), the web view of the folder is served meanwhile (a child
    process, ``server.bots.web_child``), taking hand-ins through its page with
    ``handins``. ``seat_pages`` serves the persons' pages (``web:NAME`` entries)."""
    console = err_console()
    configure_logging(False)
    config.out.mkdir(parents=True, exist_ok=True)
    db = config.out / DB_NAME
    if db.exists() and not resume:
        console.print(error_line(f"{db} exists: add --resume to go on with it, "
                                 "or choose another --out"))
        return 2
    if resume and not db.exists():
        console.print(error_line(nothing_to_resume(config.out)))
        return 2
    if not quiet:
        console.print(sandbox_line(config.sandbox.kind), markup=False, emoji=False,
                      highlight=False)
        console.print(f"seed {config.seed} (the deals follow from it: it stays off the pages "
                      f"until the tournament is over; --seed {config.seed} plays them again)",
                      markup=False, emoji=False, highlight=False)
    if serve is not None:
        from server.bots.web_child import serving

        with serving(config.out, serve, handins):
            return _play(config, db, quiet, cluster, seat_pages)
    return _play(config, db, quiet, cluster, seat_pages)


def _play(config: TournamentConfig, db: Path, quiet: bool, cluster: str | None,
          seat_pages: SeatPages | None = None) -> int:
    console = err_console()
    if cluster is None:
        return _run(config, db, quiet, None, seat_pages)
    remote = [e.name for e in config.entries if e.remote is not None]
    if remote:
        console.print(error_line(f"remote bots ({', '.join(remote)}) connect to this machine: "
                                 "a tournament with them cannot play on a cluster"))
        return 2
    persons = [e.name for e in config.entries if e.person is not None]
    if persons:
        console.print(error_line(f"persons ({', '.join(persons)}) play from pages this "
                                 "machine serves: a tournament with them cannot play on a "
                                 "cluster (leave out --cluster)"))
        return 2
    try:
        with connected(cluster) as ray_cluster:
            return _run(config, db, quiet, ray_cluster, seat_pages)
    except ClusterError as exc:  # Ray missing or unreachable: before anything was stored
        console.print(error_line(exc))
        return 2


def _run(config: TournamentConfig, db: Path, quiet: bool, cluster: Cluster | None,
         seat_pages: SeatPages | None = None) -> int:
    console = err_console()
    store = Store(db)
    try:
        runner = Runner(config, store)
        runner.seat_pages = seat_pages
        live = Live(console=console, refresh_per_second=2, transient=True,
                    redirect_stderr=False) if not quiet else None
        n = len(config.entries)
        unit = unit_of(config.ruleset)

        def view() -> Group:
            p = runner.progress
            done = f"{p.tables_done}/{p.tables_total} tables, {p.hands_done}/{p.hands_total} " \
                f"{unit}s"
            running = ", ".join(f"r{r}t{t} {h}" for (r, t), h in sorted(p.running.items()))
            stalls = f"; host stalls {p.stalls}" if unit == "hand" else ""
            title = f"{config.format}, round {p.round or '-'}: {done}{stalls}"
            bar = ProgressBar(total=max(1, p.hands_total), completed=p.hands_done, width=40)
            return Group(standings_table(latest[0], title, console.width, unit),
                         Columns([bar, f"{p.hands_done}/{p.hands_total} {unit}s; "
                                       f"playing: {running or '-'}"]))

        latest = [current_standings(store, n)]

        def listener(what: str, plan: TablePlan | None) -> None:
            if what == "listening":
                say_listening(console, runner, config.remote)
                return
            if what == "persons":
                say_persons(console, runner, config.persons)
                return
            # Standings are recomputed when a table ends, not on every hand: this
            # runs in the event loop that keeps the bots' clocks.
            if live is None:
                return
            if what != "hand":
                latest[0] = current_standings(store, n)
            live.update(view())

        runner.listener = listener

        def faults(plan: TablePlan, note: FaultNote) -> None:
            name = runner.entries[plan.players[note.player]].name
            file = None if note.stderr_file is None \
                else table_dir(config.out, plan) / note.stderr_file
            where = f"r{plan.round}t{plan.table} {note.unit} {note.hand}"
            who = f"{name} (P{note.player})"
            key = (name, note.problem) if note.problem \
                else fault_key(name, note.cause, note.stderr_tail)
            if repeats.first(key, name, where):
                line = fault_line(where, who, note.cause, note.stderr_tail, file,
                                  stdout_tail=note.stdout_tail, advice=note.advice) \
                    if note.charged else f"{where}: {who}: {note.cause}"
                console.print(line, markup=False, emoji=False, highlight=False)

        repeats = Repeats()

        runner.fault_listener = faults

        def notice(text: str, warning: bool) -> None:
            console.print(warning_line(text) if warning else text, markup=False, emoji=False,
                          highlight=False)

        runner.notice_listener = notice
        runner.after_table = Rewriter(config, store)
        if cluster is not None:
            runner.tables = on_cluster(cluster, runner, store)
        try:
            if live is not None:
                live.start()
                live.update(view())
            terminated = trio.run(until_terminated, runner.run)
        except BaseExceptionGroup as group:  # Ctrl-C while tables play, or a bad command
            if group.subgroup(KeyboardInterrupt) is not None:
                raise KeyboardInterrupt from None
            bad = group.subgroup(InputError)
            if bad is None:
                raise
            raise as_one(bad) from None
        finally:
            if live is not None:
                live.stop()
        st = write_all(config, store)
        for line in repeats.summary():
            console.print(line, markup=False, emoji=False, highlight=False)
        if terminated is not None:
            say_terminated(console, terminated, "; finished tables are kept; go on with "
                           "--resume")
            return stopped_status(terminated)
        if quiet:
            return 0
        out = out_console()
        out.print(standings_table(st, f"Final standings ({config.format}, seed {config.seed})",
                                  out.width, unit))
        stalls = f"{stalls_line(store)}; " if unit == "hand" else ""
        out_console().print(f"{stalls}reports in {config.out}/ "
                            f"(tournament.html, standings.csv, {games_file(config.ruleset)}, "
                            "standings.json)", markup=False)
        return 0
    except KeyboardInterrupt:
        write_all(config, store)
        console.print("stopped: finished tables are kept; go on with --resume")
        return 130
    except RemoteSetupError as exc:  # before anything was stored
        console.print(error_line(exc))
        if not store.meta():  # a new tournament that never started: no file to resume
            store.close()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
        return 2
    except (StoreError, EntriesError) as exc:
        console.print(error_line(exc))
        return 2
    except InputError as exc:  # met while tables played (a bot's command that cannot run)
        write_all(config, store)
        console.print(error_line(exc))
        console.print("finished tables are kept; go on with --resume once it is mended",
                      markup=False)
        return 2
    finally:
        store.close()


def sandbox_line(kind: str) -> Text | str:
    """How the tournament runs its bots, said once at the start."""
    if kind == "none":
        return warning_line("--sandbox none: every bot runs without a sandbox, as you, and "
                            "can read and change what you can (hand-ins included)")
    return (f"sandbox: {kind} (each bot sees only its own program, the system's runtimes "
            "and a private /tmp; --sandbox none to run them as you)")


def as_one(group: BaseExceptionGroup[InputError]) -> InputError:
    """The errors of a (nested) exception group as one: tables that stopped at once for
    different reasons (two bots' programs missing) are all named."""
    said: list[str] = []
    for error in leaves(group):
        if str(error) not in said:
            said.append(str(error))
    first = leaves(group)[0]
    if len(said) == 1 and isinstance(first, InputError):
        return first
    return InputError("; ".join(said))


def leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for e in error.exceptions for leaf in leaves(e)]
    return [error]


def say_folder(folder: Path, console: Console) -> None:
    """Which files of a folder of bots were taken, and which were passed over and why."""
    bots, skipped = scan_folder(folder)
    console.print(f"{len(bots)} bots in {folder}: "
                  + ", ".join(f"{e.name} ({Path(e.command[-1]).name})" for e in bots),
                  markup=False, emoji=False)
    if skipped:
        console.print(f"not bots in {folder}: "
                      + "; ".join(f"{name} ({why})" for name, why in skipped),
                      markup=False, emoji=False)


def say_listening(console: Console, runner: Runner, remote: RemoteOptions | None) -> None:
    """Where remote bots connect, and the tokens that were made up (as ``match`` does)."""
    if runner.remote is None or remote is None:
        return
    for host, port in runner.remote.addresses:
        console.print(f"listening on {host}:{port} for "
                      + ", ".join(f"tcp:{n}" for n in remote.tokens), markup=False, emoji=False)
    for name in remote.generated:
        console.print(f"token for tcp:{name}: {remote.tokens[name]}", markup=False,
                      emoji=False)


def say_persons(console: Console, runner: Runner, persons: PersonOptions | None) -> None:
    """Each person's link, with its token (stdout, as ``match`` prints them), and how
    the pages go."""
    if persons is None:
        return
    for name, link in runner.person_links:
        print(f"web:{name} plays at {link}", flush=True)
    console.print("each person opens their link in a browser: it follows them from table "
                  "to table, and a person's first table starts when their page is open; "
                  f"{persons.clock:g} s a move", markup=False, emoji=False)


def config_from_args(bots: Path | None, out: Path, resume: bool, listen: str | None = None,
                     tokens: Sequence[str] = (), **settings: object) -> TournamentConfig:
    """The tournament's settings: from the arguments, or from the stored file on --resume.

    ``listen`` and ``tokens`` (``NAME=SECRET``) are never stored: a resumed
    tournament with remote bots needs them again. Nor are the persons' ``clock``
    and ``seat_bind``; their tokens are made afresh each run. BOTS is stored (its absolute
    path) and read again as tables start, for hand-ins; ``--resume`` without
    BOTS reads the stored one, with BOTS the given one (the same bots by name and
    order; their commands may have changed).
    """
    db = out / DB_NAME
    if resume and not db.exists():
        raise EntriesError(nothing_to_resume(out))
    stored: dict[str, str] | None = None
    if resume:
        store = Store(db)
        try:
            stored, entries = store.meta(), [e for e in store.entries() if not e.fill_in]
        finally:
            store.close()
    if bots is None:
        if stored is None:
            raise EntriesError("give BOTS (a bots file or folder), or --resume to go on with "
                               f"the tournament in --out ({out})")
        meta = stored
        ruleset, ruleset_settings = ruleset_from(settings, meta)
        options, sandbox = rules_from(settings, meta, ruleset)
        return TournamentConfig(
            tuple(entries), meta["format"], int(meta["seed"]), int(meta["rounds"]), out,
            groups=int(meta["groups"]), hands=int(meta["hands"]) if meta["hands"] else None,
            jobs=int(str(settings["jobs"])), hero=int(meta["hero"] or 0),
            remote=remote_for(entries, listen, tokens, resume=True), options=options,
            persons=persons_for(entries, _float(settings.get("clock")),
                                _str(settings.get("seat_bind"))),
            sandbox=hiding(sandbox, out), ruleset=ruleset, settings=ruleset_settings,
            bots=Path(meta["bots"]) if meta.get("bots") else None,
            title=str(settings.get("title") or meta.get("title") or ""))
    ruleset, ruleset_settings = ruleset_from(settings, stored)
    entries = load_entries(bots, ruleset)
    if ruleset != DEFAULT and any(e.remote is not None for e in entries):
        raise EntriesError(f"remote bots (tcp:NAME) play the default ruleset only, not "
                           f"{ruleset}")
    remote = remote_for(entries, listen, tokens, resume)
    persons = persons_for(entries, _float(settings.get("clock")),
                          _str(settings.get("seat_bind")))
    hero_name = settings.get("hero")
    hero = 0
    if hero_name is not None:
        names = [e.name for e in entries]
        if hero_name not in names:
            raise EntriesError(f"--hero {hero_name!r} is not one of the bots")
        hero = names.index(str(hero_name))
    fmt = str(settings["format"])
    seed = settings.get("seed")
    if seed is None:  # kept on resume; else a fresh secret one (a known seed is known deals)
        seed = stored["seed"] if stored is not None else secrets.randbits(63)
    rounds = settings.get("rounds")
    if rounds is None:
        rounds = default_rounds(fmt, len(entries))
    options, sandbox = rules_from(settings, stored, ruleset)
    if not resume:  # last: a command refused for another reason leaves no folder behind
        output_folder(out, "--out")
    return TournamentConfig(tuple(entries), fmt, int(str(seed)), int(str(rounds)),
                            out, groups=int(str(settings["groups"])),
                            hands=None if settings.get("hands") is None
                            else int(str(settings["hands"])),
                            jobs=int(str(settings["jobs"])), hero=hero, remote=remote,
                            persons=persons,
                            options=options, sandbox=hiding(sandbox, out), ruleset=ruleset,
                            settings=ruleset_settings, bots=bots.resolve(),
                            title=str(settings.get("title") or (stored or {}).get("title")
                                      or ""))


def _float(value: object) -> float | None:
    return None if value is None else float(str(value))


def _str(value: object) -> str | None:
    return None if value is None else str(value)


def hiding(sandbox: Sandbox, out: Path) -> Sandbox:
    """``sandbox`` with the output folder, its hand-ins and its programs masked wherever
    a bot's own folder holds them (``server.bots.sandbox.bwrap_argv``)."""
    out = out.absolute()
    return replace(sandbox, hide=(out, out / "handins", out / "programs"))


def ruleset_from(settings: dict[str, object], stored: dict[str, str] | None
                 ) -> tuple[str, dict[str, str]]:
    """The tournament's ruleset and its own settings: as given, or as stored on
    ``--resume`` (a different ruleset given again is refused)."""
    given = settings.get("ruleset")
    name = str(given or DEFAULT) if stored is None else stored.get("ruleset", DEFAULT)
    if stored is not None and given is not None and given != name:
        raise EntriesError(f"--ruleset {given}: this tournament plays the {name} ruleset")
    listing(name)  # an unknown name is refused here
    if name == DEFAULT:
        stray = [key for key in ("variant", "walls", "orders", "time_limit")
                 if settings.get(key) is not None]
        if stray:
            raise EntriesError(f"--{stray[0].replace('_', '-')} is an option of another "
                               "ruleset (--ruleset botzone), not of the default one")
        return name, {}
    try:
        return name, load(name).tournament_settings(settings, stored)
    except InputError as exc:
        raise EntriesError(str(exc)) from None


def nothing_to_resume(out: Path) -> str:
    """Why ``--resume --out OUT`` finds no tournament to go on with."""
    if not out.exists():
        return f"--resume: {out} does not exist, so it holds no tournament to go on with"
    if not out.is_dir():
        return f"--resume: --out {out} is a file, not a tournament's folder"
    return f"--resume: {out} holds no tournament (no {DB_NAME} in it)"


# A tournament's bots run under bubblewrap unless the teacher says --sandbox none (a
# store older than the stored rules included: it gets the sandbox when resumed).
TOURNAMENT_SANDBOX = "bwrap"

# The options that set the rules of every table, as they are stored (``rules_meta``).
RULE_OPTIONS = {"hard_limit": "--hard-limit", "join_limit": "--join-limit",
                "sandbox": "--sandbox", "mem_limit": "--mem-limit", "cpu_limit": "--cpu-limit",
                "file_limit": "--file-limit"}


def rules_from(settings: dict[str, object], stored: dict[str, str] | None,
               ruleset: str = DEFAULT) -> tuple[TableOptions, Sandbox]:
    """The deadlines and the sandbox of every table: as given (the ruleset's defaults
    for what is not, as in a match), or, on ``--resume``, as stored, refusing a
    different value given again: every table of a tournament plays by the same rules."""
    rules = rules_meta(TableOptions(), Sandbox())  # the defaults, as text
    rules.update({key: str(value) for key, value in limit_defaults(ruleset).items()})
    rules["sandbox"] = TOURNAMENT_SANDBOX  # students' code: sandboxed unless opted out
    if stored is not None:  # a store older than the rules was played by the defaults
        rules.update({k: v for k, v in stored.items() if k in rules})
    for key, option in RULE_OPTIONS.items():
        given = settings.get(key)
        if given is None:
            continue
        if stored is not None and str(given) != rules[key] and \
                not _same_number(str(given), rules[key]):
            raise EntriesError(f"{option} {given}: this tournament was started with "
                               f"{option} {rules[key]}, and every table plays by the same "
                               "rules (leave it out to go on)")
        rules[key] = str(given)
    work_dir = settings.get("work_dir")
    sandbox = Sandbox(BotLimits(int(rules["mem_limit"]) or None, int(rules["cpu_limit"]) or None,
                                int(rules["file_limit"]) or None), rules["sandbox"],
                      Path(str(work_dir)) if work_dir is not None else None)
    try:
        sandbox.check()
    except SandboxError as exc:
        raise EntriesError(str(exc)) from None
    options = TableOptions(float(rules["hard_limit"]), float(rules["join_limit"]),
                           host_stalls=True)
    return options, sandbox


def _same_number(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def default_rounds(fmt: str, n: int) -> int:
    """Swiss: enough rounds to sort the field (log base 4, plus one); round-robin: enough
    for every pair to meet once on average; gauntlet: 3."""
    if fmt == "swiss":
        rounds, size = 1, 4
        while size < n:
            rounds, size = rounds + 1, size * 4
        return rounds + 1
    if fmt == "round-robin":
        return max(1, -(-(n - 1) // 3))
    return 3
