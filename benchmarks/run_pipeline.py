"""Benchmark ``gammon-kiosk run``: start time, settled frame -> verdict latency, memory, and how
well ``vision.read`` reads the embedded demo.

Run: ``.venv/bin/python benchmarks/run_pipeline.py [--starts N] [--no-vision] [--json]``.

- start: ``python -m kiosk run --exit-after 1`` in a subprocess (offscreen SDL, no DISPLAY),
  from spawning the process to its "ready" line (the first screen frame pumped); peak RSS from
  /proc (VmHWM). Target <= 5 s, <= 400 MB.
- frame -> verdict on screen, live: the demo run ``--screen-seconds`` with its window (vision
  reading the frames); the kiosk logs, at exit, the time from the vision thread taking each
  frame that settled a reading to the UI loop's first tick after the frame that showed its
  verdict was drawn (``kiosk.pipeline.latency``).
- frame -> verdict: the demo driven headless through the pipeline. For every frame that settled
  a reading, the time from the frame entering the pipeline to the referee's new state and the
  table snapshot built for the screen, with the demo's exact labels (the pipeline's own cost);
  ``vision.read.read_frame`` adds its read time (reported per shot below). For every press:
  judging its play on the next UI frame (``MonitoredMatch.judge``) plus the snapshot. The screen
  shows a snapshot in the UI frame that built it (30 frames a second: <= 33 ms). Target: settled
  frame -> verdict on screen <= 100 ms.
- vision on the demo: boards and dice read exactly, per distinct shot, and what the referee
  concludes from vision's readings of the whole demo (readings memoised per pair of images,
  as identical frames read identically).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hardware.camera.frame import Frame
from hardware.camera.replay import ReplaySource
from kiosk.demo import load_demo
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.drive import Ticker, deliver
from kiosk.pipeline.frames import FramePipeline
from kiosk.pipeline.journal import JournalWriter
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.readers import FrameReader, LabelReader, VisionReader
from kiosk.pipeline.recovery import open_match
from kiosk.referee import BoardRead, DiceRead
from kiosk.store import Store
from vision.labels import Reading

ROOT = Path(__file__).resolve().parents[1]


def start_once(state_dir: Path, seconds: float = 1.0) -> tuple[float, int, str]:
    """Seconds from spawn to "ready", the peak RSS in KiB, and the kiosk's own line on how
    long its settled frames took to reach the screen, for a run of ``seconds``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(KIVY_NO_ARGS="1", KIVY_HOME=str(state_dir / "kivy"), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "kiosk", "run", "--exit-after", str(seconds)]
    command += ["--state-dir", str(state_dir / "state")]
    spawned = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    ready = None
    peak = 0
    screen = ""
    for line in process.stderr:
        if ready is None and "gammon-kiosk run: ready" in line:
            ready = time.perf_counter() - spawned
        if "settled frame -> verdict on screen" in line:
            screen = line.split(": ", 1)[1].strip()
        peak = max(peak, _peak_kb(process.pid))
    process.wait()
    if ready is None or process.returncode != 0:
        raise SystemExit(f"kiosk did not start (exit {process.returncode})")
    return ready, peak, screen


def _peak_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemoReader:
    """A reader memoised on (previous image, image) bytes: identical frames read identically."""

    def __init__(self, reader: FrameReader) -> None:
        self._reader = reader
        self._previous = b""
        self._memo: dict[tuple[int, int], Reading] = {}

    def __call__(self, frame: Frame) -> Reading:
        data = frame.image.tobytes()
        key = (hash(self._previous), hash(data))
        self._previous = data
        if key not in self._memo:
            self._memo[key] = self._reader(frame)
        return self._memo[key]


def verdicts(reader: FrameReader) -> tuple[list[float], list[float], MonitoredMatch]:
    """Over the demo: the times (ms) from a frame entering the pipeline to the referee's new
    state and the table snapshot, for frames that settled a reading; the times of judging a
    press's play (``MonitoredMatch.judge``) plus the snapshot; and the match at the end."""
    demo = load_demo()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(folder)
        opened = open_match(store, demo.config, ("A", "B"), "demo")
        writer = JournalWriter(opened.journal)
        match = MonitoredMatch(opened.state, writer, opened.names)
        pipeline = FramePipeline(reader, lambda t: t // 1_000_000, DemoDriver(demo))
        ticker = Ticker()
        frames: list[float] = []
        judged: list[float] = []
        source = ReplaySource(demo.frames_dir)
        source.open()
        while (frame := source.read()) is not None:
            started = time.perf_counter()
            pending = match.state.game.pending is not None
            match.judge(frame.t_ns // 1_000_000)
            if pending and match.state.game.pending is None:
                match.table(frame.t_ns // 1_000_000)
                judged.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            result = pipeline.process(frame)
            deliver(match, result)
            match.table(result.t_ms)
            if any(isinstance(e, BoardRead | DiceRead) for e in result.events):
                frames.append((time.perf_counter() - started) * 1000)
            ticker(match, result.t_ms)
        source.close()
        writer.close()
        store.close()
    return frames, judged, match


def _wrong_points(reading: Reading, label: Reading) -> int:
    """Points whose colour or count range the reading gets wrong (all 24 without a board)."""
    if not reading.board.found or len(reading.points) != len(label.points):
        return len(label.points)
    return sum(
        seen.color != true.color or not seen.min <= (true.count or 0) <= seen.max
        for seen, true in zip(reading.points, label.points, strict=True)
    )


def vision_on_shots() -> dict[str, object]:
    """``vision.read`` on each distinct demo shot: still shots with every point, the bar and the
    dice read right; hand shots reported occluded; the time per read."""
    import cv2
    import numpy as np

    from vision.config import ReadConfig
    from vision.read import read_frame

    demo = load_demo()
    still = boards = dice = hands = flagged = wrong = 0
    read_ms = []
    for name in sorted(set(demo.files)):
        label = Reading.from_json(demo.labels[name])
        image = np.asarray(cv2.imread(str(demo.frames_dir / name)), dtype=np.uint8)
        started = time.perf_counter()
        reading = read_frame(image, ReadConfig())
        read_ms.append((time.perf_counter() - started) * 1000)
        if label.occluded:
            hands += 1
            flagged += reading.occluded
            continue
        still += 1
        missed = _wrong_points(reading, label)
        wrong += missed
        boards += missed == 0 and reading.bar == label.bar
        key = lambda d: (d.value or 0, d.zone, d.cocked)  # noqa: E731
        dice += sorted(map(key, reading.dice)) == sorted(map(key, label.dice))
    return {
        "still_shots": still,
        "boards_exact": boards,
        "wrong_points_per_board": round(wrong / still, 2),
        "dice_exact": dice,
        "hand_shots": hands,
        "hand_shots_occluded": flagged,
        "read_ms_median": round(statistics.median(read_ms), 1),
    }


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "n": len(ordered),
        "median_ms": round(statistics.median(ordered), 2),
        "max_ms": round(ordered[-1], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=3, help="kiosk starts to time (3)")
    parser.add_argument("--no-vision", action="store_true", help="skip the vision runs")
    parser.add_argument(
        "--screen-seconds",
        type=float,
        default=40.0,
        help="run the demo this long for the kiosk's settled frame -> screen line (40; 0: skip)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, object] = {}
    starts = []
    for _ in range(args.starts):
        with tempfile.TemporaryDirectory() as folder:
            starts.append(start_once(Path(folder)))
    report["start_s"] = {
        "median": round(statistics.median(s for s, _, _ in starts), 2),
        "max": round(max(s for s, _, _ in starts), 2),
    }
    if args.screen_seconds > 0:
        with tempfile.TemporaryDirectory() as folder:
            starts.append(start_once(Path(folder), args.screen_seconds))
        report["settled_frame_to_verdict_on_screen_live"] = starts[-1][2]
    report["peak_rss_mb"] = round(max(kb for _, kb, _ in starts) / 1024, 1)
    demo = load_demo()
    labels = LabelReader([Reading.from_json(demo.labels[name]) for name in demo.files])
    frames, judged, _ = verdicts(labels)
    report["settled_frame_to_referee_and_snapshot_labels"] = summary(frames)
    report["press_to_verdict_and_snapshot_next_ui_frame"] = summary(judged)
    if not args.no_vision:
        report["vision_on_demo_shots"] = vision_on_shots()
        _, _, match = verdicts(MemoReader(VisionReader()))
        kinds: dict[str, int] = {}
        for incident in match.state.incidents:
            kinds[incident.kind] = kinds.get(incident.kind, 0) + 1
        report["referee_with_vision"] = {
            "score": list(match.state.match.score),
            "expected_score": list(demo.expected.score),
            "incidents": kinds,
        }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
