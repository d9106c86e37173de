"""``server compare CANDIDATE BASELINE``: the options checked and turned into a plan, the
deals played (``run``), the verdict printed (``report``).

Every bad option is an ``InputError`` (one line, exit status 2) raised before any deal is
played: an unknown ruleset, a ruleset that plays no bots, a bad Elo or points pair, alpha
or beta out of range, an unknown bot (the ruleset's ``check_deal``).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.compare.report import as_json, plain_lines, progress_line, write_folder
from server.compare.run import Outcome, Plan, Progress, compare
from server.compare.stats import EloModel, Model, PointsModel, bounds
from server.seam.contract import Ruleset
from server.seam.errors import InputError
from server.seam.registry import listing, load

GAMES_PER_DEAL = 4  # one per seat, for each of the two bots
DEFAULT_ELO = (0.0, 10.0)


@dataclass(frozen=True, slots=True)
class Options:
    candidate: str
    baseline: str
    ruleset: str = "default"
    variant: str | None = None
    opponents: str | None = None
    games: int = 4000
    elo0: float | None = None
    elo1: float | None = None
    points: str | None = None
    alpha: float = 0.05
    beta: float = 0.05
    seed: int = 0
    jobs: int = 1
    cluster: str | None = None
    json_out: bool = False
    out: Path | None = None


def model_of(options: Options) -> Model:
    """The SPRT's hypotheses: ``--points P0,P1``, ``--elo0/--elo1``, or Elo 0 and 10."""
    if options.points is not None:
        if options.elo0 is not None or options.elo1 is not None:
            raise InputError("give --points P0,P1 or --elo0/--elo1, not both")
        parts = options.points.split(",")
        try:
            p0, p1 = (float(p) for p in parts) if len(parts) == 2 else (math.nan, math.nan)
        except ValueError:
            p0 = p1 = math.nan
        if not (math.isfinite(p0) and math.isfinite(p1)):
            raise InputError(f"--points {options.points!r}: two numbers P0,P1 (points per "
                             "game, H0 and H1), such as 0,2")
        try:
            return PointsModel(p0, p1)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    elo0 = DEFAULT_ELO[0] if options.elo0 is None else options.elo0
    elo1 = DEFAULT_ELO[1] if options.elo1 is None else options.elo1
    try:
        return EloModel(elo0, elo1)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def plan_of(options: Options) -> tuple[Plan, Ruleset]:
    entry = listing(options.ruleset)  # an unknown name: Unsupported, one line
    if entry.kind != "match":
        raise InputError(f"--ruleset {entry.name}: {entry.title}; it plays no bots")
    model = model_of(options)
    try:
        bounds(options.alpha, options.beta)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if options.games < 1:
        raise InputError("--games must be at least 1")
    if options.jobs < 1:
        raise InputError("--jobs must be at least 1")
    if options.cluster is not None and options.jobs != 1:
        raise InputError("--jobs is for processes on this machine; on a cluster (--cluster) "
                         "Ray plays as many deals at once as its nodes have CPUs for")
    ruleset = load(entry.name)
    if options.opponents is None:
        opponents = ruleset.compare_opponents
    else:
        opponents = tuple(s.strip() for s in options.opponents.split(","))
        if any(not s for s in opponents):
            raise InputError(f"--opponents {options.opponents!r}: an empty bot name")
    for name, spec in (("CANDIDATE", options.candidate), ("BASELINE", options.baseline)):
        if not spec.strip():
            raise InputError(f"{name}: an empty bot name")
    plan = Plan(entry.name, options.candidate, options.baseline, tuple(opponents),
                options.variant, options.seed, -(-options.games // GAMES_PER_DEAL), model,
                options.alpha, options.beta)
    ruleset.check_deal(plan.request(0))
    return plan, ruleset


def run(options: Options) -> tuple[int, str]:
    """Compare as ``options`` say: the exit status (0, or 130 when Ctrl-C stopped it) and
    the text to print (the JSON object, or the plain lines)."""
    plan, _ = plan_of(options)
    if options.out is not None:
        from server.output.paths import output_folder

        output_folder(options.out, "-o")
    if options.cluster is not None:
        from server.cluster.ray_cluster import import_ray

        import_ray()  # ClusterError (one line) when Ray is not installed
    outcome = compare(plan, options.jobs, options.cluster, on_deal=progress_reporter(plan))
    if options.out is not None:
        write_folder(options.out, plan, outcome)
    text = json.dumps(as_json(plan, outcome)) if options.json_out \
        else "\n".join(plain_lines(plan, outcome))
    return (130 if outcome.interrupted else 0), text


PROGRESS_SECONDS = 10.0
"""How often a comparison says how far it is on standard error (the verdict goes to
standard output, so ``--json`` stays one object)."""


def progress_reporter(plan: Plan, every: float = PROGRESS_SECONDS,
                      clock: Callable[[], float] = time.monotonic) -> Progress:
    """A line on standard error every ``every`` seconds while deals come in (on a
    terminal the line is rewritten in place and cleared at the end)."""
    stream = sys.stderr
    live = stream.isatty()
    last = clock()

    def report(outcome: Outcome) -> None:
        nonlocal last
        now = clock()
        done = outcome.test.finished or len(outcome.scores) >= plan.max_deals
        if now - last < every and not (live and done):
            return
        last = now
        line = progress_line(plan, outcome)
        if live:
            stream.write("\r\x1b[2K" + ("" if done else line))
        else:
            stream.write(line + "\n")
        stream.flush()

    return report
