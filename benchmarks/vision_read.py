"""Milliseconds per frame (1280x720 unless ``--size``) for ``vision.read.read_frame`` on one core.

``python benchmarks/vision_read.py [--frames N] [--size WxH]`` renders N frames
(``vision.render``, tuning seeds) and times, per frame:

- ``calibrated``: the board located once beforehand (the kiosk's fixed camera, calibrated by
  four taps or ``--corners``; ``vision.read.view_from_corners``): checkers, dice, zones,
  occlusion;
- ``corners``: the corners given with each frame (as ``gammon-kiosk read --corners``): the bar
  is found in every frame too;
- ``search``: the board found in the frame first (marker-less localisation).

Each frame is read with its camera's calibration (``ReadConfig.principal_point`` and
``focal_length``), as a kiosk whose camera is calibrated reads: dice zones are then those of the
board points beneath the dice, and the judge of cocked dice turns its crops to the nadir
(``vision.camera_pose``).

OpenCV and the BLAS behind numpy are held to one thread, as the target is "one core"; the CPU
time of the process is printed beside the wall time, which other load on the machine inflates.

Each mode is followed by where its time goes: the milliseconds a frame each network takes
(``vision.nets.run``; crops a frame in brackets), and the rest (OpenCV and Python) beside
them.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import collections  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import cv2  # noqa: E402

from kiosk.cli.evaluate_vision import frame_size  # noqa: E402
from vision import nets  # noqa: E402
from vision.config import ReadConfig  # noqa: E402
from vision.read import read_frame, view_from_corners  # noqa: E402
from vision.render import render_scene, scene_for_seed  # noqa: E402


class NetTimer:
    """Wall milliseconds and items (the batch's first axis) per network, over the calls made
    while installed in place of ``vision.nets.run`` (``run``, which it calls)."""

    def __init__(self, run: Callable[[str, nets.Floats], tuple[nets.Floats, ...]]) -> None:
        self.ms: collections.defaultdict[str, float] = collections.defaultdict(float)
        self.items: collections.Counter[str] = collections.Counter()
        self._run = run

    def __call__(self, name: str, batch: nets.Floats) -> tuple[nets.Floats, ...]:
        started = time.perf_counter()
        outputs = self._run(name, batch)
        self.ms[name] += (time.perf_counter() - started) * 1000.0
        self.items[name] += len(batch)
        return outputs

    def summary(self, frames: int, total_ms: float) -> str:
        """Per network, ms a frame (items a frame), costliest first, then the rest."""
        parts = [
            f"{name} {ms / frames:.2f} ({self.items[name] / frames:.1f})"
            for name, ms in sorted(self.ms.items(), key=lambda item: -item[1])
        ]
        rest = (total_ms - sum(self.ms.values())) / frames
        networks = sum(self.ms.values()) / frames
        return f"  networks {networks:.1f} ms: {', '.join(parts)}; the rest {rest:.1f} ms"


def main() -> None:
    """Render, time, print mean / median / 95th percentile."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=500_000)
    parser.add_argument("--size", type=frame_size, default=(1280, 720), metavar="WxH")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    width, height = args.size
    scenes = [scene_for_seed(args.first_seed + i, width, height) for i in range(args.frames)]
    frames = [
        (image, label.board.corners, scene.camera.calibration().applied_to(ReadConfig()))
        for scene in scenes
        for image, label in [render_scene(scene)]
        if label.board.corners is not None
    ]
    read_frame(frames[0][0], frames[0][2], frames[0][1])  # warm up (model load)
    views = [view_from_corners(image, corners, config) for image, corners, config in frames]
    run = nets.run
    for mode in ("calibrated", "corners", "search"):
        times, cpu_times = [], []
        timer = NetTimer(run)
        nets.run = timer
        for (image, true_corners, config), view in zip(frames, views, strict=True):
            corners = true_corners if mode == "corners" else None
            calibrated = view if mode == "calibrated" else None
            started, started_cpu = time.perf_counter(), time.process_time()
            read_frame(image, config, corners, calibrated=calibrated)
            times.append((time.perf_counter() - started) * 1000.0)
            cpu_times.append((time.process_time() - started_cpu) * 1000.0)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        wall = (
            f"wall mean {statistics.mean(times):.1f} ms, "
            f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms"
        )
        cpu = f"CPU mean {statistics.mean(cpu_times):.1f} ms"
        nets.run = run
        print(f"{mode:10s} {len(times)} frames {width}x{height}: {wall}; {cpu}")
        print(timer.summary(len(times), sum(times)))


if __name__ == "__main__":
    main()
