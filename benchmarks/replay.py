"""Benchmark: ``replay`` of a 25-point match (target <= 1 s), parse and replay separately.

Run: ``.venv/bin/python benchmarks/replay.py [MATCH.mat] [--repeat N] [--json]``; the default
record is the 25-point match gnubg played against itself (tests/matfile/data). Reports the
best and median of N runs in seconds, with the number of decisions replayed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from kiosk.matfile import parse_mat, replay
from kiosk.rulesets import load_ruleset

DEFAULT = Path(__file__).parent.parent / "tests" / "matfile" / "data" / "gnubg-25pt-seed3.mat"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match_file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    text = args.match_file.read_text("utf-8")
    rules = load_ruleset("mso")
    totals, parses = [], []
    decisions = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        record = parse_mat(text, str(args.match_file))
        parsed = time.perf_counter()
        result = replay(record, rules)
        totals.append(time.perf_counter() - start)
        parses.append(parsed - start)
        decisions = sum(len(game.decisions) for game in result.games)
    report = {
        "file": args.match_file.name,
        "match_length": record.match_length,
        "games": len(record.games),
        "decisions": decisions,
        "flags": len(result.flags),
        "parse_s": round(min(parses), 4),
        "best_s": round(min(totals), 4),
        "median_s": round(statistics.median(totals), 4),
    }
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
