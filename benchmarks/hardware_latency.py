"""Hardware-path latency benchmarks (issue 5 targets).

1. Edge to press event: a GPIO edge driven on gpiozero's MockFactory, through our callback, the
   debouncer and the event sink. "ours" is measured from the moment our callback stamps the edge
   to the moment the sink has the ButtonEvent (target <= 1 ms); "total" adds gpiozero's own
   dispatch from ``pin.drive_low()``.
2. Frame grab to vision input for the replay source, 1280x720 JPEG frames: the JPEG decode
   (``cv2.imread``, OpenCV's cost, not ours) against ``ReplaySource.read()`` and
   ``CameraWatchdog.read()`` on it; "ours" is the watchdog + frame contract on frames already in
   memory (target <= 5 ms).

Run: ``.venv/bin/python benchmarks/hardware_latency.py [--presses N] [--frames N] [--json]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from gpiozero.pins.mock import MockFactory

from hardware.button_events import ButtonEvent, EventKind
from hardware.buttons import ButtonPins, GpioButtons
from hardware.camera.frame import Frame, Image, as_bgr
from hardware.camera.health import CameraEvent, WatchdogConfig
from hardware.camera.replay import ReplaySource, record_folder
from hardware.camera.watchdog import CameraWatchdog

_MS = 1_000_000


def summary(samples_ns: list[int]) -> dict[str, float]:
    """p50, p99 and max of ``samples_ns``, in milliseconds."""
    ordered = sorted(samples_ns)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "n": len(ordered),
        "p50_ms": statistics.median(ordered) / _MS,
        "p99_ms": p99 / _MS,
        "max_ms": ordered[-1] / _MS,
    }


def bench_buttons(presses: int) -> dict[str, dict[str, float]]:
    """Edge-to-press latency through MockFactory and our debouncer."""
    offset = [0]  # virtual time added between presses, so every press clears the lockout

    def clock_ns() -> int:
        return time.perf_counter_ns() + offset[0]

    ours: list[int] = []
    received: list[int] = []

    def sink(event: ButtonEvent) -> None:
        if event.kind is EventKind.PRESS:
            now = clock_ns()
            ours.append(now - event.t_ns)
            received.append(now)

    factory = MockFactory()
    totals: list[int] = []
    with GpioButtons(ButtonPins(), sink, pin_factory=factory, clock_ns=clock_ns):
        pin = factory.pin(17)
        for _ in range(presses):
            start = clock_ns()
            pin.drive_low()
            totals.append(received[-1] - start)
            offset[0] += 100 * _MS
            pin.drive_high()
            offset[0] += 100 * _MS
    factory.reset()
    assert len(ours) == presses, "every press must produce exactly one event"
    return {"edge_to_press_ours": summary(ours), "edge_to_press_total": summary(totals)}


class MemorySource:
    """Frames already decoded in memory: isolates our per-frame overhead from decoding."""

    name = "memory"

    def __init__(self, images: list[Image]) -> None:
        self._images = images
        self._seq = 0

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame:
        image = self._images[self._seq % len(self._images)]
        frame = Frame(as_bgr(image, self.name), self._seq * 33 * _MS, self._seq)
        self._seq += 1
        return frame

    def close(self) -> None:
        """Nothing to close."""


def timed(read: Callable[[], object], n: int) -> list[int]:
    samples = []
    for _ in range(n):
        start = time.perf_counter_ns()
        result = read()
        samples.append(time.perf_counter_ns() - start)
        assert result is not None
    return samples


def jpeg_roundtrip(image: Image) -> Image:
    """``image`` as a JPEG camera would deliver it (encoded, then decoded)."""
    decoded = cv2.imdecode(cv2.imencode(".jpg", image)[1], cv2.IMREAD_COLOR)
    if decoded is None:
        raise RuntimeError("JPEG round trip failed")
    return as_bgr(decoded, "benchmark")


def bench_frames(frames: int) -> dict[str, dict[str, float]]:
    """Frame grab to vision input for 1280x720 JPEG replay frames."""
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    base = as_bgr(cv2.GaussianBlur(noise, (31, 31), 0), "benchmark")  # photo-like JPEG size
    images = [np.roll(base, 7 * i, axis=1) for i in range(10)]
    no_events: list[CameraEvent] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rec"
        record_folder(folder, ((im, i * 33 * _MS) for i, im in enumerate(images)), suffix=".jpg")
        files = sorted(folder.glob("*.jpg"))
        decode = timed(lambda: cv2.imread(str(files[0]), cv2.IMREAD_COLOR), frames)
        replay = ReplaySource(folder, loop=True)
        replay.open()
        replay_read = timed(replay.read, frames)
        replay.close()
        config = WatchdogConfig(freeze_ns=None)
        watched = CameraWatchdog(ReplaySource(folder, loop=True), no_events.append, config=config)
        watchdog_read = timed(watched.read, frames)
        watched.close()
    decoded = [jpeg_roundtrip(im) for im in images]
    ours = CameraWatchdog(MemorySource(decoded), no_events.append)
    ours_read = timed(ours.read, frames)
    assert no_events == [], "the benchmark frames must not trigger camera faults"
    return {
        "jpeg_decode_opencv": summary(decode),
        "replay_read": summary(replay_read),
        "watchdog_replay_read": summary(watchdog_read),
        "frame_overhead_ours": summary(ours_read),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=20_000, help="button presses to time")
    parser.add_argument("--frames", type=int, default=200, help="frames to time per variant")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.presses < 1 or args.frames < 1:
        parser.error("--presses and --frames must be >= 1")
    results = {**bench_buttons(args.presses), **bench_frames(args.frames)}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'measure':<24} {'n':>6} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    for name, s in results.items():
        row = f"{name:<24} {s['n']:>6} {s['p50_ms']:>9.4f} {s['p99_ms']:>9.4f} {s['max_ms']:>9.3f}"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
