"""Benchmark: a clock press until the other clock runs, in the pure clock (target <= 1 ms).

Run: ``.venv/bin/python benchmarks/clock_press.py [--presses N] [--ruleset NAME] [--json]``.
Each sample is one ``kiosk.clock.press`` call on a running match clock (alternating sides,
1.7 s to 20 s turns so some turns use the reserve), checked to have started the other clock.
Reports p50, p99 and max in microseconds and how many presses exceeded 1 ms (on a shared machine
those are scheduler stalls, not work: compare with p99).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from kiosk.clock import new_clock, press
from kiosk.rulesets import load_ruleset


def measure(ruleset: str, presses: int, seed: int = 1) -> list[float]:
    """Latencies (µs) of ``presses`` presses; a fresh clock each time a flag falls."""
    rules = load_ruleset(ruleset)
    rng = random.Random(seed)
    state = press(new_clock(rules, 10**9, 11), 0, 0).state
    t = 0
    samples: list[float] = []
    for _ in range(presses):
        side = state.running
        assert side is not None
        t += rng.randint(1_700, 20_000)
        start = time.perf_counter_ns()
        step = press(state, side, t)
        samples.append((time.perf_counter_ns() - start) / 1000)
        state = step.state
        if state.running != 1 - side:
            raise SystemExit(f"press at {t} ms did not start the other clock: {step.incidents}")
    return samples


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100_000)
    parser.add_argument("--ruleset", default="jbl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    samples = measure(args.ruleset, args.presses)
    report = {
        "ruleset": args.ruleset,
        "presses": args.presses,
        "p50_us": round(_percentile(samples, 0.50), 2),
        "p99_us": round(_percentile(samples, 0.99), 2),
        "max_us": round(max(samples), 2),
        "over_target": sum(1 for sample in samples if sample > 1000),
        "target_us": 1000,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"clock press -> other clock running ({args.ruleset}, {args.presses} presses): "
            f"p50 {report['p50_us']} µs, p99 {report['p99_us']} µs, max {report['max_us']} µs, "
            f"{report['over_target']} over the 1000 µs target"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
