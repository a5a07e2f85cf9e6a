"""Benchmark: gin verdicts (target <= 1 ms once the tables exist) and the bear-off table build
(target <= 60 s on first use) and load.

Run: ``.venv/bin/python benchmarks/gin.py [--verdicts N] [--skip-build] [--json]``.
The build is timed into a temporary directory (as on first use); verdicts are timed on random
no-contact positions, half with both sides home (exact tables), half with checkers outside home
(bounds), each with the match-level verdict. Reports p50, p99 and max in microseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from kiosk.gin import gin, load_tables, match_gin
from kiosk.rules import MatchInfo, Position


def random_side(rng: random.Random, highest: int) -> tuple[int, ...]:
    """15 checkers: some borne off, the rest on points 1..``highest``."""
    side = [0] * 26
    side[0] = rng.randint(0, 12)
    for _ in range(15 - side[0]):
        side[rng.randint(1, highest)] += 1
    return tuple(side)


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verdicts", type=int, default=20000)
    parser.add_argument("--skip-build", action="store_true", help="load from the user cache")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, float | int] = {}
    with tempfile.TemporaryDirectory() as folder:
        if args.skip_build:
            tables = load_tables()
        else:
            start = time.perf_counter()
            tables = load_tables(Path(folder))
            report["build_s"] = round(time.perf_counter() - start, 2)
            start = time.perf_counter()
            load_tables(Path(folder))
            report["load_s"] = round(time.perf_counter() - start, 3)
    rng = random.Random(1)
    info = MatchInfo(cube_value=2, match_length=7, score=(3, 5))
    positions = [
        Position(random_side(rng, 6 if k % 2 else 11), random_side(rng, 6 if k % 2 else 11))
        for k in range(args.verdicts)
    ]
    samples = []
    for position in positions:
        start = time.perf_counter()
        match_gin(gin(position, tables), info)
        samples.append((time.perf_counter() - start) * 1e6)
    report.update(
        verdicts=len(samples),
        p50_us=round(percentile(samples, 0.5), 1),
        p99_us=round(percentile(samples, 0.99), 1),
        max_us=round(max(samples), 1),
        over_1ms=sum(sample > 1000 for sample in samples),
    )
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
