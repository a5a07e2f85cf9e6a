"""Benchmark of the rules core: legality verdicts, play generation, and the ``check`` command.

Run: ``.venv/bin/python benchmarks/rules_check.py [--positions N]``. Prints per-verdict median and
p99 (in-process, JSON included), full play generation p99, the batch ``gammon-kiosk check --jsonl``
wall time with process start-up, and GNU Backgammon's ``gnubg_nn.moves`` on the same positions
(where the x86_64-only gnubg-nn package is installed). Targets (issue 2): verdict median <= 20 us,
p99 <= 1 ms; generation p99 <= 1 ms; the check command within 3x of gnubg_nn.moves.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kiosk.cli.check import check_record
from kiosk.rules.dice import Dice
from kiosk.rules.ids import position_id
from kiosk.rules.movegen import legal_results
from kiosk.rules.position import START, Position


def workload(count: int, seed: int) -> list[dict[str, object]]:
    """Check requests from random games: half legal plays, half plays of another roll."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    position = START
    while len(records) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        results = list(legal_results(position, dice))
        if rng.random() < 0.5:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    records = workload(args.positions, args.seed)
    lines = [json.dumps(record) for record in records]

    verdicts = []
    for line in lines:
        start = time.perf_counter()
        json.dumps(check_record(json.loads(line)))
        verdicts.append(time.perf_counter() - start)
    print(
        f"check verdict (in-process, JSON in and out): median {statistics.median(verdicts) * 1e6:.1f} us,"
        f" p99 {percentile(verdicts, 0.99) * 1e6:.1f} us, max {max(verdicts) * 1e6:.0f} us"
    )

    from kiosk.cli.positions import parse_position

    generation = []
    positions = [(parse_position(str(r["position"])), Dice(*r["dice"])) for r in records]  # type: ignore[misc]
    for position, dice in positions:
        start = time.perf_counter()
        legal_results(position, dice)
        generation.append(time.perf_counter() - start)
    print(
        f"full play generation: median {statistics.median(generation) * 1e6:.1f} us,"
        f" p99 {percentile(generation, 0.99) * 1e6:.1f} us, max {max(generation) * 1e6:.0f} us"
    )

    with tempfile.TemporaryDirectory() as folder:
        stdin_path = Path(folder) / "check.jsonl"
        stdin_path.write_text("\n".join(lines) + "\n")
        with stdin_path.open() as stdin:
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "kiosk", "check", "--jsonl"],
                stdin=stdin,
                stdout=subprocess.DEVNULL,
                check=True,
            )
            batch = time.perf_counter() - start
    print(
        f"check --jsonl batch of {len(lines)} lines, start-up included: {batch:.3f} s"
        f" ({batch / len(lines) * 1e6:.1f} us per line)"
    )

    try:
        import gnubg_nn  # type: ignore[import-not-found]
    except ImportError:
        print("gnubg_nn not installed: no comparison")
        return
    boards = [[list(p.opponent[1:]), list(p.on_roll[1:])] for p, _ in positions]
    start = time.perf_counter()
    for board, (_, dice) in zip(boards, positions, strict=True):
        gnubg_nn.moves(board, dice.first, dice.second)
    moves_time = time.perf_counter() - start
    start = time.perf_counter()
    for record in records:
        board = gnubg_nn.board_from_position_id(record["position"])
        dice_pair = record["dice"]
        keys = set(gnubg_nn.moves(board, dice_pair[0], dice_pair[1]))  # type: ignore[index]
        after = gnubg_nn.board_from_position_id(record["after"])
        gnubg_nn.key_of_board([after[1], after[0]]) in keys
    gnubg_check_time = time.perf_counter() - start
    print(
        f"gnubg_nn.moves on the same positions: {moves_time:.3f} s"
        f" ({moves_time / len(lines) * 1e6:.1f} us each);"
        f" with ID decoding and the membership test: {gnubg_check_time:.3f} s"
    )
    print(
        f"check --jsonl / gnubg_nn.moves: {batch / moves_time:.2f}x;"
        f" / gnubg check loop: {batch / gnubg_check_time:.2f}x"
    )


if __name__ == "__main__":
    main()
