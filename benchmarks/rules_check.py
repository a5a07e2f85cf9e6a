"""Benchmark of the rules core: legality verdicts, play generation, and the ``check`` command.

Run: ``.venv/bin/python benchmarks/rules_check.py [--positions N] [--repeat R]``. Prints:

* per-verdict median and p99 in-process (JSON in and out), through the C accelerator
  (``kiosk.rules._speedups``, where built) and through the pure-Python rules core, and the C
  verdict alone by outcome (a play that is not legal costs a full generation for the closest);
* full play generation (``legal_results``, pure Python) median and p99;
* the batch ``gammon-kiosk check --jsonl`` with process start-up: wall time best and median of R
  runs and best CPU time, for the mixed workload and a legal-only one, C and pure
  (``GAMMON_KIOSK_PURE=1``);
* GNU Backgammon's ``gnubg_nn.moves`` on the same positions, best of R (where the x86_64-only
  gnubg-nn package is installed), and the ratio of the best batch wall time to it.

On a shared machine, compare best figures: they come from the quietest moments.

Targets (issue 2): verdict median <= 20 us, p99 <= 1 ms; generation p99 <= 1 ms; the check command
within 3x of gnubg_nn.moves.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kiosk.cli.check import check_record, check_record_pure
from kiosk.cli.positions import parse_position
from kiosk.rules.dice import Dice
from kiosk.rules.fast import PURE_VARIABLE, load_speedups
from kiosk.rules.ids import position_id
from kiosk.rules.movegen import legal_results
from kiosk.rules.position import START, Position

Record = dict[str, object]


def workload(count: int, seed: int, legal_share: float = 0.5) -> list[Record]:
    """Check requests from random games: a share of legal plays, the rest plays of another roll
    (legal or not for the roll asked)."""
    rng = random.Random(seed)
    records: list[Record] = []
    position = START
    while len(records) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        results = list(legal_results(position, dice))
        if rng.random() < legal_share:
            mover, opponent = rng.choice(results)
        else:
            other = Dice(rng.randint(1, 6), rng.randint(1, 6))
            mover, opponent = rng.choice(list(legal_results(position, other)))
        records.append(
            {
                "id": len(records),
                "position": position_id(position),
                "dice": [dice.first, dice.second],
                "after": position_id(Position(opponent, mover)),
            }
        )
        chosen = rng.choice(results)
        position = Position(chosen[1], chosen[0])
        if position.is_game_over():
            position = START
    return records


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(samples: list[float]) -> str:
    """Median, p99 and max of durations in seconds, in microseconds."""
    return (
        f"median {statistics.median(samples) * 1e6:.1f} us,"
        f" p99 {percentile(samples, 0.99) * 1e6:.1f} us, max {max(samples) * 1e6:.0f} us"
    )


def time_each(function: Callable[[str], object], lines: list[str]) -> list[float]:
    durations = []
    clock = time.perf_counter
    for line in lines:
        start = clock()
        function(line)
        durations.append(clock() - start)
    return durations


def batch_seconds(lines: list[str], repeat: int, pure: bool) -> list[tuple[float, float]]:
    """(wall, CPU) times of ``gammon-kiosk check --jsonl`` on ``lines``, start-up included."""
    env = {**os.environ, PURE_VARIABLE: "1" if pure else ""}
    times = []
    with tempfile.TemporaryDirectory() as folder:
        stdin_path = Path(folder) / "check.jsonl"
        stdin_path.write_text("\n".join(lines) + "\n")
        for _ in range(repeat):
            with stdin_path.open() as stdin:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "kiosk", "check", "--jsonl"],
                    stdin=stdin,
                    stdout=subprocess.DEVNULL,
                    check=True,
                    env=env,
                )
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                times.append((wall, cpu))
    return times


def report_batch(label: str, lines: list[str], repeat: int, pure: bool) -> float:
    """Print and return the best wall time of the batch command."""
    times = batch_seconds(lines, repeat, pure)
    walls = [wall for wall, _ in times]
    best, typical = min(walls), statistics.median(walls)
    cpu = min(cpu for _, cpu in times)
    per_line = 1e6 / len(lines)
    print(
        f"check --jsonl batch, {label}, {len(lines)} lines, start-up included:"
        f" wall best {best:.3f} s ({best * per_line:.1f} us per line),"
        f" median of {repeat} {typical:.3f} s ({typical * per_line:.1f} us per line);"
        f" CPU best {cpu:.3f} s ({cpu * per_line:.1f} us per line)"
    )
    return best


def gnubg_seconds(records: list[Record], repeat: int) -> tuple[float, float] | None:
    """Best times of ``gnubg_nn.moves`` over the records' positions and rolls, and of gnubg's own
    check loop (decode both IDs, generate, test membership); None without gnubg-nn."""
    try:
        import gnubg_nn
    except ImportError:
        return None
    requests = []
    for record in records:
        position = parse_position(str(record["position"]))
        dice = record["dice"]
        assert isinstance(dice, list)
        requests.append(([list(position.opponent[1:]), list(position.on_roll[1:])], dice))
    moves_times, check_times = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        for board, (first, second) in requests:
            gnubg_nn.moves(board, first, second)
        moves_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = 0
        for record in records:
            board = gnubg_nn.board_from_position_id(record["position"])
            first, second = record["dice"]  # type: ignore[misc]
            keys = set(gnubg_nn.moves(board, first, second))
            after = gnubg_nn.board_from_position_id(record["after"])
            found += gnubg_nn.key_of_board([after[1], after[0]]) in keys
        check_times.append(time.perf_counter() - start)
    return min(moves_times), min(check_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each batch command")
    args = parser.parse_args()
    records = workload(args.positions, args.seed)
    lines = [json.dumps(record) for record in records]
    legal_lines = [json.dumps(r) for r in workload(args.positions, args.seed + 1, legal_share=1)]
    speedups = load_speedups()
    loads, dumps = json.loads, json.dumps

    if speedups is None:
        print("C accelerator not built (or GAMMON_KIOSK_PURE set): pure Python only")
    else:
        verdicts = time_each(lambda line: dumps(check_record(loads(line))), lines)
        print(f"check verdict, C, in-process (json module in and out): {summary(verdicts)}")
        verdicts = time_each(speedups.check_line, lines)
        print(
            f"check verdict, C, in-process (whole line in C, as the command): {summary(verdicts)}"
        )
        legal: list[float] = []
        not_legal: list[float] = []
        for record in records:
            dice = record["dice"]
            assert isinstance(dice, list)
            start = time.perf_counter()
            verdict = speedups.check(record["position"], dice[0], dice[1], record["after"])
            (legal if isinstance(verdict, str) else not_legal).append(time.perf_counter() - start)
        print(f"  C verdict alone, {len(legal)} legal: {summary(legal)}")
        print(
            f"  C verdict alone, {len(not_legal)} not legal (full generation): {summary(not_legal)}"
        )
    verdicts = time_each(lambda line: dumps(check_record_pure(loads(line))), lines)
    print(f"check verdict, pure Python, in-process (JSON in and out): {summary(verdicts)}")

    generation = []
    for record in records:
        position = parse_position(str(record["position"]))
        dice = record["dice"]
        assert isinstance(dice, list)
        roll = Dice(dice[0], dice[1])
        start = time.perf_counter()
        legal_results(position, roll)
        generation.append(time.perf_counter() - start)
    print(f"full play generation (pure Python legal_results): {summary(generation)}")

    batches = {}
    for pure in (False, True):
        if not pure and speedups is None:
            continue
        name = "pure Python" if pure else "C"
        batches[name] = report_batch(f"{name}, mixed", lines, args.repeat, pure)
        report_batch(f"{name}, legal only", legal_lines, args.repeat, pure)

    gnubg = gnubg_seconds(records, args.repeat)
    if gnubg is None:
        print("gnubg_nn not installed: no comparison")
        return
    moves_time, check_time = gnubg
    print(
        f"gnubg_nn.moves on the same positions, best of {args.repeat}: {moves_time:.3f} s"
        f" ({moves_time / len(records) * 1e6:.1f} us each); with ID decoding and the membership"
        f" test: {check_time:.3f} s ({check_time / len(records) * 1e6:.1f} us each)"
    )
    for name, best in batches.items():
        print(
            f"check --jsonl ({name}, best) / gnubg_nn.moves: {best / moves_time:.2f}x;"
            f" / gnubg check loop: {best / check_time:.2f}x"
        )


if __name__ == "__main__":
    main()
