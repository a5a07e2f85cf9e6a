"""Benchmark: the match journal's append latency (WAL) and the restore time of a long match.

Run: ``.venv/bin/python benchmarks/store_append.py [--events N] [--restore-events N]
[--readings-every K] [--dir PATH] [--json]``. ``--dir`` picks the filesystem measured (default: a
temporary directory; on a Pi pass a directory on the SD card, where each commit's fsync dominates).

- append: one event per transaction, p50/p99/max in ms, with ``synchronous=FULL`` (the kiosk's
  setting: every commit synced, survives a power cut) and ``NORMAL`` for comparison; every K-th
  event (default 6: a dice and a board reading per turn among presses, touches and 1 s ticks) is
  a board reading (~1.9 KB of JSON, the ``read --json`` structure), the others a clock press
  (~60 bytes); ``--readings-every 2`` is a pessimistic mix;
- checkpoint: the 0.5 s clock heartbeat (FULL);
- incident: encoding a 1280x720 board snapshot as JPEG, then appending the incident with it;
- restore: opening the journal (including SQLite's quick_check) and replaying a match of
  ``--restore-events`` events (default 20,000, about a 25-point match) with 200 snapshot
  incidents through a reducer that only counts: the store's share of the 5 s kiosk start.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import numpy as np

from kiosk.store import JOURNAL_FILENAME, JsonDict, Store, encode_snapshot, restore
from kiosk.store.schema import Synchronous

RESTORE_TARGET_S = 5.0


def _press(t_ms: int) -> JsonDict:
    return {"kind": "press", "t_ms": t_ms, "side": t_ms % 2}


def _reading(t_ms: int, rng: random.Random) -> JsonDict:
    points = []
    for point in range(1, 25):
        count = rng.randint(0, 5)
        color = None if count == 0 else rng.choice(["light", "dark"])
        points.append({"point": point, "color": color, "count": count, "min": count, "max": count})
    return {
        "kind": "frame",
        "t_ms": t_ms,
        "reading": {
            "board": {"found": True, "corners": [[101, 52], [1180, 49], [1183, 668], [98, 671]]},
            "points": points,
            "bar": {"light": 0, "dark": 0},
            "off": {"light": None, "dark": None},
            "dice": [
                {"value": 5, "center": [812, 340], "zone": "right-half", "cocked": False},
                {"value": 2, "center": [870, 352], "zone": "right-half", "cocked": False},
            ],
            "cube": {"value": 64, "center": [640, 360]},
            "occluded": False,
            "ms": 11.4,
        },
    }


def _event(index: int, rng: random.Random, readings_every: int) -> JsonDict:
    t_ms = index * 700
    return _reading(t_ms, rng) if index % readings_every == 0 else _press(t_ms)


def _stats(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    return {
        "p50_ms": round(ordered[len(ordered) // 2], 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
        "max_ms": round(ordered[-1], 3),
    }


def _timed(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def measure_appends(
    directory: Path, events: int, readings_every: int, synchronous: Synchronous
) -> dict[str, object]:
    """Append latency of ``events`` single-event transactions, plus heartbeats under FULL."""
    rng = random.Random(1)
    report: dict[str, object] = {}
    with Store(directory, synchronous=synchronous) as store:
        journal = store.new_match({"benchmark": "append"})
        samples = [
            _timed(lambda i=i: journal.append_event(_event(i, rng, readings_every)))
            for i in range(events)
        ]
        report["append"] = _stats(samples)
        if synchronous == "FULL":
            beats = [_timed(lambda i=i: journal.checkpoint(i * 500)) for i in range(events // 4)]
            report["checkpoint"] = _stats(beats)
            image = np.random.default_rng(2).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
            image[:] = image // 8 + 100  # a low-contrast board, closer to a photo than noise
            encodes, appends = [], []
            for n in range(20):
                start = time.perf_counter()
                jpeg = encode_snapshot(image)
                encodes.append((time.perf_counter() - start) * 1000)
                incident = {"kind": "illegal_move", "t_ms": n, "play": "13/7 8/7"}
                start = time.perf_counter()
                journal.append_incident(incident, jpeg)
                appends.append((time.perf_counter() - start) * 1000)
            report["snapshot_encode"] = _stats(encodes)
            report["snapshot_kb"] = round(len(jpeg) / 1024, 1)
            report["incident_append"] = _stats(appends)
    return report


def measure_restore(directory: Path, events: int, readings_every: int) -> dict[str, object]:
    """Build a match of ``events`` events and 200 snapshot incidents; time open + replay."""
    rng = random.Random(3)
    jpeg = encode_snapshot(np.full((720, 1280, 3), 90, np.uint8))
    with Store(directory, synchronous="NORMAL") as store:
        journal = store.new_match({"benchmark": "restore", "length": 25})
        batch = 500
        for first in range(0, events, batch):
            journal.append_events(
                [_event(i, rng, readings_every) for i in range(first, min(events, first + batch))]
            )
            journal.append_incident({"kind": "illegal_move", "t_ms": first * 700}, jpeg)
        for n in range(200 - events // batch):
            journal.append_incident({"kind": "press_out_of_turn", "t_ms": events * 700 + n}, jpeg)
        journal.checkpoint(events * 700)
    size_mb = sum(p.stat().st_size for p in directory.glob(JOURNAL_FILENAME + "*")) / 2**20
    start = time.perf_counter()
    store = Store(directory)
    opened = time.perf_counter()
    info = store.unfinished()
    assert info is not None
    restored = restore(store.journal(info.id), lambda count, _event: count + 1, 0)
    replayed = time.perf_counter()
    verified = store.journal(info.id).verify()
    done = time.perf_counter()
    store.close()
    assert restored.state == events
    assert verified.ok
    return {
        "events": events,
        "readings": len(range(0, events, readings_every)),
        "incidents": verified.head[0],
        "journal_mb": round(size_mb, 1),
        "open_s": round(opened - start, 3),
        "replay_s": round(replayed - opened, 3),
        "verify_chain_s": round(done - replayed, 3),
        "target_s": RESTORE_TARGET_S,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2_000)
    parser.add_argument("--restore-events", type=int, default=20_000)
    parser.add_argument("--readings-every", type=int, default=6)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory(dir=args.dir) as base:
        for synchronous in ("FULL", "NORMAL"):
            folder = Path(base) / synchronous.lower()
            report[synchronous] = measure_appends(
                folder, args.events, args.readings_every, synchronous
            )
        report["restore"] = measure_restore(
            Path(base) / "restore", args.restore_events, args.readings_every
        )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for section, values in report.items():
            print(f"{section}: {values}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
