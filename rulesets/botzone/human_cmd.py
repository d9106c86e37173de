"""Botzone's human match records on the command line.

* ``server verify FILE``: every match played on the exact judge
  (``human_judge.judge_match``): the first line it disagrees with, per match;
* ``server replay FILE --match ID [--html PAGE]``: one match drawn as any game is,
  through its game record (``view``, ``replay``, ``page``);
* ``server human convert FILE --out ARRAYS.npz [--jobs N | --cluster ADDRESS]``: the
  training arrays (``human_arrays``), chunks of matches spread over processes here or
  Ray tasks (``server.cluster.ray_cluster``; the project installed on every node), the
  rows in the file's order either way;
* ``server human write PATH... --out FILE``: every finished Botzone game found
  (match and tournament folders, ``game.json`` files, an environment's
  ``write_log``) written in the format (``human_judge.to_match``).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rulesets.botzone.human import (
    HumanFormatError,
    HumanMatch,
    blocks,
    format_file,
    parse_match,
)
from rulesets.botzone.human_judge import judge_match, to_match
from rulesets.botzone.records import find_record
from server.seam.contract import CommandArgs, VerifyReport
from server.seam.errors import InputError

CHUNKS_PER_JOB = 8  # chunks per process: the bar moves, and the last chunk ends soon


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text (byte {error.start}): not a file of "
                         "human match records") from None


def is_human_file(path: Path) -> bool:
    """A text file whose first line that is not blank starts a match."""
    if not path.is_file() or path.suffix == ".json":
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return head.lstrip().startswith(b"Match ")


# --- verify ---------------------------------------------------------------------------

def verify_file(path: Path) -> VerifyReport:
    """Every match of the file on the judge; a progress bar on a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    report = VerifyReport()
    found = list(blocks(read_text(path)))
    console = Console(stderr=True, emoji=False)
    with Progress("verifying", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("matches", total=len(found))
        for block in found:
            _verify_block(path, block, report)
            bar.advance(task)
    if not report.checked:
        raise InputError(f"{path}: no match in the file (a match starts with 'Match ID')")
    return report


def _verify_block(path: Path, block: Sequence[tuple[int, str]], report: VerifyReport) -> None:
    try:
        match = parse_match(block)
    except HumanFormatError as error:
        report.checked.append(f"line {block[0][0]}")
        report.problems.append(f"{path}: {error}")
        return
    report.checked.append(match.match_id)
    problem = judge_match(match).problem
    if problem is not None:
        report.problems.append(f"{path}: match {match.match_id}, line {problem.line}: "
                               f"{problem.text}")


# --- replay ---------------------------------------------------------------------------

def find_match(path: Path, match_id: str | None) -> HumanMatch:
    """The match ``match_id`` of the file (the only one when None)."""
    found: list[HumanMatch] = []
    for block in blocks(read_text(path)):
        words = block[0][1].split()
        if match_id is None or (len(words) == 2 and words[1] == match_id):
            found.append(parse_match(block))
            if match_id is not None or len(found) > 1:
                break
    if match_id is None and len(found) != 1:
        raise InputError(f"{path} holds {'no match' if not found else 'several matches'}: "
                         "say which with --match ID")
    if not found:
        raise InputError(f"{path}: no match {match_id!r}")
    return found[0]


def replay(args: CommandArgs) -> int:
    from rich.console import Console

    from rulesets.botzone.page import write_game_page
    from rulesets.botzone.replay import show_game, view_of
    from server.output.paths import output_file

    path: Path = args["path"]
    match = find_match(path, args.get("match_id"))
    judged = judge_match(match, display_fans=True)
    console = Console(emoji=False)
    if judged.problem is not None:
        console.print(f"note: match {match.match_id}, line {judged.problem.line}: "
                      f"{judged.problem.text}; shown as far as the judge went", markup=False)
    where = f"{path} match {match.match_id}"
    view = view_of(judged.record, where)
    if args.get("html_out") is not None:
        write_game_page(view, output_file(args["html_out"], "--html"),
                        title=f"Human match {match.match_id}")
        console.print(f"wrote {args['html_out']}", markup=False)
        return 0
    show_game(view, args.get("at"), args.get("codes"), console, where=where)
    return 0


# --- convert --------------------------------------------------------------------------

def _pieces(items: Sequence[Any], count: int) -> list[tuple[int, Sequence[Any]]]:
    size = max(1, -(-len(items) // max(1, count)))
    return [(i, items[i:i + size]) for i in range(0, len(items), size)]


def convert(args: CommandArgs) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from rulesets.botzone.human_arrays import ENCODERS, Chunk, arrays, convert_blocks, save
    from server.output.paths import output_file

    path: Path = args["path"]
    encoder = str(args.get("encoder", "default"))
    if encoder not in ENCODERS:
        raise InputError(f"--encoder {encoder}: one of {', '.join(ENCODERS)}")
    jobs = int(args.get("jobs", 1))
    cluster: str | None = args.get("cluster")
    if cluster is not None and "jobs" in args.given:
        raise InputError("--jobs and --cluster: give one (a cluster's tasks take its CPUs)")
    out = output_file(args["out"], "--out")
    matches = list(blocks(read_text(path)))
    if not matches:
        raise InputError(f"{path}: no match in the file (a match starts with 'Match ID')")
    console = Console(stderr=True, emoji=False)
    chunks: list[Chunk] = []
    start = time.perf_counter()
    with Progress("converting", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal
                  ) as progress:
        task = progress.add_task("matches", total=len(matches))
        if cluster is not None:
            from server.cluster.ray_cluster import connected

            with connected(cluster) as ray_cluster:
                cpus = max(1, int(sum(n.cpus for n in ray_cluster.nodes())))
                pieces = _pieces(matches, cpus * CHUNKS_PER_JOB)
                refs = [ray_cluster.submit(convert_blocks, piece, first, encoder, cpus=1)
                        for first, piece in pieces]
                for ref in refs:  # in the file's order, as each is ready
                    chunks.append(ray_cluster.ray.get(ref))
                    progress.advance(task, len(chunks[-1].match_ids))
        else:
            pieces = _pieces(matches, jobs * CHUNKS_PER_JOB if jobs > 1
                             else 1 + len(matches) // 50)
            for chunk in _chunks(pieces, encoder, jobs):
                chunks.append(chunk)
                progress.advance(task, len(chunk.match_ids))
    seconds = time.perf_counter() - start
    where = f"on the Ray cluster {cluster}" if cluster is not None else f"with --jobs {jobs}"
    data = arrays(chunks)
    save(out, data)
    problems = [p for c in chunks for p in c.problems]
    for problem in problems[:10]:
        console.print(f"skipped: {problem}", markup=False)
    if len(problems) > 10:
        console.print(f"... and {len(problems) - 10} more skipped", markup=False)
    console.print(f"wrote {out}: {len(data['action'])} decision(s) of "
                  f"{len(matches) - len(problems)} match(es) ({len(problems)} skipped), "
                  f"{len(matches) / max(seconds, 1e-9):.1f} matches/s {where}",
                  markup=False)
    return 1 if problems else 0


def _chunks(pieces: list[tuple[int, Sequence[Any]]], encoder: str,
            jobs: int) -> Iterator[Any]:
    from rulesets.botzone.human_arrays import convert_blocks

    if jobs == 1:
        for first, piece in pieces:
            yield convert_blocks(piece, first, encoder)
        return
    with ProcessPoolExecutor(min(jobs, len(pieces)),
                             mp_context=multiprocessing.get_context("spawn")) as executor:
        futures = [executor.submit(convert_blocks, piece, first, encoder)
                   for first, piece in pieces]
        for future in futures:
            yield future.result()


# --- write ----------------------------------------------------------------------------

def game_records(paths: Sequence[Path]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every Botzone game record under ``paths``, with a match id from where it was found."""
    for root in paths:
        if not root.exists():
            raise InputError(f"{root}: no such file or folder")
        files = [root] if root.is_file() else sorted(root.rglob("*.json"))
        for file in files:
            try:
                record = find_record(file)
            except InputError:
                if root.is_file():
                    raise
                record = None  # a folder's other JSON files are no games
            if record is not None and not isinstance(record.get("judge"), list):
                record = None  # a match folder's match.json names its ruleset too
            if record is None:
                if root.is_file():
                    raise InputError(f"{file}: not a Botzone game record")
                continue
            where = file.parent if file.name == "game.json" else file.with_suffix("")
            label = where.relative_to(root.parent) if root.is_dir() else Path(where.name)
            yield "/".join(label.parts).replace(" ", "_") or "game", record


def write(args: CommandArgs) -> int:
    from rich.console import Console

    from server.output.paths import output_file

    console = Console(stderr=True, emoji=False)
    matches: list[HumanMatch] = []
    unfinished = inexact = 0
    for match_id, record in game_records(args["paths"]):
        match = to_match(record, match_id)
        if match is None:
            unfinished += 1
            continue
        matches.append(match)
        if record.get("variant") != "classic" or any(
                (o.get("display") or {}).get("action") == "BUHUA"
                for o in record.get("judge") or []):
            inexact += 1
    out = output_file(args["out"], "--out")
    out.write_text(format_file(matches), encoding="utf-8")
    console.print(f"wrote {out}: {len(matches)} match(es); {unfinished} game(s) left out "
                  "(unfinished, or ended by an error: the format has neither)", markup=False)
    if inexact:
        console.print(f"note: {inexact} of them drew flowers or played duplicate walls, "
                      "which the format keeps not: 'server verify' judges them on one wall "
                      "of 136 tiles, where their ends or fans may differ", markup=False)
    return 0


def run(args: CommandArgs) -> int:
    """``server human ACTION``."""
    action = args["action"]
    if action == "convert":
        return convert(args)
    if action == "write":
        return write(args)
    raise InputError(f"server human {action}: no such command")
