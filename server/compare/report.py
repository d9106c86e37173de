"""What ``server compare`` tells: one JSON object, or a few plain lines that say which bot is
better, by how much and how sure; and the files of ``-o DIR`` (every deal, the summary).

Pure text: the command line prints it.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from server.compare.run import Outcome, Plan
from server.compare.stats import Deal, EloModel, Sprt, Summary, summarize

CI_METHOD = "Student's t over deals, 95%"


def _num(x: float, digits: int = 4) -> float | None:
    """A JSON number (None for an infinite one: one deal has no interval)."""
    return round(x, digits) if math.isfinite(x) else None


def as_json(plan: Plan, outcome: Outcome) -> dict[str, Any]:
    s = summarize(outcome.test)
    model = plan.model
    hypotheses: dict[str, Any] = ({"model": "elo", "elo0": model.elo0, "elo1": model.elo1}
                                  if isinstance(model, EloModel) else
                                  {"model": "points", "p0": model.p0, "p1": model.p1})
    return {
        "ruleset": plan.ruleset, "variant": plan.variant, "seed": plan.seed,
        "candidate": plan.candidate, "baseline": plan.baseline,
        "opponents": list(plan.opponents),
        "deals": s.deals, "games": s.games,
        "mean": _num(s.mean), "ci_low": _num(s.ci_low), "ci_high": _num(s.ci_high),
        "ci": CI_METHOD,
        "candidate_mean": _num(s.candidate_mean), "baseline_mean": _num(s.baseline_mean),
        "score": _num(s.score), "elo": _num(s.elo, 1),
        "decision": s.decision, "finding": s.finding, "llr": _num(s.llr),
        "llr_baseline": _num(s.llr_baseline), "bounds": [_num(s.lower), _num(s.upper)],
        **hypotheses, "alpha": plan.alpha, "beta": plan.beta,
        "faults": {"candidate": outcome.faults[0], "baseline": outcome.faults[1]},
        "interrupted": outcome.interrupted,
    }


def progress_line(plan: Plan, outcome: Outcome) -> str:
    """One line of how far the comparison is: the deals counted of at most how many, the
    mean difference so far, and each test's LLR between its bounds (it stops at either)."""
    s = summarize(outcome.test)
    mean = f"{_pm(s.mean)} a game" if s.deals else "no deal yet"
    return (f"compare: {s.deals} of at most {plan.max_deals} deals ({s.games} games), "
            f"candidate minus baseline {mean}; LLR {s.llr:+.2f} (baseline's "
            f"{s.llr_baseline:+.2f}), decided at {s.upper:+.2f} or both at {s.lower:+.2f}")


def _pm(x: float) -> str:
    return f"{x:+.2f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _interval(s: Summary) -> str:
    if not math.isfinite(s.ci_low):
        return "no interval from one deal"
    return f"95% CI {_pm(s.ci_low)} to {_pm(s.ci_high)}"


def plain_lines(plan: Plan, outcome: Outcome) -> list[str]:
    s = summarize(outcome.test)
    cand, base = plan.candidate, plan.baseline
    variant = f", {plan.variant}" if plan.variant else ""
    elo = f"{s.elo:+.0f}" if math.isfinite(s.elo) else _pm(s.elo)
    lines = [
        f"compare ({plan.ruleset} ruleset{variant}, seed {plan.seed}): candidate {cand} "
        f"against baseline {base}, each from every seat of the same deals, with "
        f"{', '.join(plan.opponents)} in the other seats",
        f"{s.deals} deal(s), {s.games} game(s) each: {cand} {s.candidate_mean:+.2f}, "
        f"{base} {s.baseline_mean:+.2f} points per game",
        f"difference (candidate - baseline): {_pm(s.mean)} points per game, {_interval(s)} "
        f"({CI_METHOD})",
        f"{cand} did better than {base} in {100 * s.score:.1f}% of the games, ties half "
        f"(Elo {elo})",
    ]
    model = plan.model
    bounds = f"bounds {s.lower:.2f} and {s.upper:.2f}"
    lines.append(f"SPRT {model.describe()}, and the same with the bots swapped; alpha "
                 f"{plan.alpha:g} (half each way), beta {plan.beta:g}: LLR {s.llr:.2f} for "
                 f"the candidate, {s.llr_baseline:.2f} for the baseline, {bounds}")
    if outcome.faults != (0, 0):
        lines.append(f"faults: {cand} in {outcome.faults[0]} game(s), {base} in "
                     f"{outcome.faults[1]}" + (f" (first: {outcome.notes[0]})"
                                               if outcome.notes else ""))
    h1 = (f"Elo {model.elo1:+g}" if isinstance(model, EloModel)
          else f"{model.p1:+g} points per game")
    h0 = (f"Elo {model.elo0:+g}" if isinstance(model, EloModel)
          else f"{model.p0:+g} points per game")
    by = f"by {abs(s.mean):.2f} points per game (candidate - baseline: {_interval(s)})"
    sure = (f"the chance of this verdict were the two equal ({h0}) is at most alpha / 2 = "
            f"{plan.alpha / 2:g}")
    if s.decision == "candidate":
        verdict = (f"{cand} (the candidate) is better, {by}: the SPRT accepted {h1} after "
                   f"{s.deals} deals; {sure}")
    elif s.decision == "baseline":
        verdict = (f"{base} (the baseline) is better, {by}: the SPRT accepted {h1} in its "
                   f"favour after {s.deals} deals; {sure}")
    elif s.finding == "equal":
        verdict = (f"no difference: neither bot is better by {h1} (mean {_pm(s.mean)} "
                   f"points per game, {_interval(s)}); both one-sided tests accepted {h0} "
                   f"after {s.deals} deals, each wrong with a chance of at most beta = "
                   f"{plan.beta:g}")
    else:
        why = "interrupted" if outcome.interrupted else f"the cap of {plan.max_deals} deals"
        verdict = (f"no decision ({why}): the mean difference is {_pm(s.mean)} points per "
                   f"game ({_interval(s)}); a test's LLR is still between the bounds")
    lines.append("verdict: " + verdict)
    if outcome.uncounted:
        lines.append(f"({outcome.uncounted} deal(s) played past the stop by other workers "
                     "were not counted: the result is the one --jobs 1 gives)")
    return lines


def write_folder(folder: Path, plan: Plan, outcome: Outcome) -> None:
    """``deals.csv`` (every counted deal's scores by seat, its difference, match score
    and the two tests' LLRs after it) and ``summary.json`` (the ``--json`` object)."""
    folder.mkdir(parents=True, exist_ok=True)
    replay = Sprt(plan.model, plan.alpha, plan.beta)
    with (folder / "deals.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        seats = len(outcome.scores[0].candidate) if outcome.scores else 4
        writer.writerow(["deal", *(f"candidate_seat{k}" for k in range(seats)),
                         *(f"baseline_seat{k}" for k in range(seats)), "difference",
                         "score", "llr", "llr_baseline"])
        for index, scores in enumerate(outcome.scores):
            deal = Deal(tuple(scores.candidate), tuple(scores.baseline))
            replay.add(deal)
            writer.writerow([index, *scores.candidate, *scores.baseline,
                             round(deal.difference, 6), round(deal.score, 6),
                             round(replay.llr, 6), round(replay.llr_baseline, 6)])
    (folder / "summary.json").write_text(json.dumps(as_json(plan, outcome), indent=2) + "\n",
                                         encoding="utf-8")

