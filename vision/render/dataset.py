"""Rendered datasets: frames plus one JSON line of label per frame, reproducible from seeds.

Frame ``k`` of a dataset starting at seed ``s`` is ``render_scene(scene_for_seed(s + k))``.
Seed ranges (keep them disjoint, so the evaluation never sees a frame used for tuning):

- tuning and tests: seeds ``0 .. 999_999`` (:data:`TUNING_SEEDS`);
- evaluation: seeds from ``1_000_000`` on (:data:`EVALUATION_SEEDS`); the reported figures use
  the 2,000 frames ``1_000_000 .. 1_001_999`` at 1280 x 720.

A dataset folder holds ``labels.jsonl`` and the images it names. Each line is
``{"image": "000000.png", "seed": 1000000, "tags": [...], "label": {...}, "principal_point":
[0.52, 0.47], "focal_length": 0.87}`` where ``label`` is ``vision.labels.Reading.to_json()``,
``principal_point`` the camera's (shares of the frame's width and height) and ``focal_length``
its focal length (shares of the frame's width), as a calibration would give them (each absent in
datasets written before it was recorded).

Run ``python -m vision.render.dataset OUT_DIR --frames 2000 --seed-start 1000000`` to write one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import CameraCalibration, focal_length_from, principal_point_from
from vision.labels import Label, Reading
from vision.render.render import render_scene
from vision.render.scene import scene_for_seed

TUNING_SEEDS = range(1_000_000)
EVALUATION_SEEDS = range(1_000_000, 2_000_000)
LABELS_FILE = "labels.jsonl"

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Frame:
    """One labelled frame: its seed, variation tags and label (image kept separately), and its
    camera's calibration (None: not recorded)."""

    seed: int
    tags: tuple[str, ...]
    label: Label
    camera: CameraCalibration | None = None


def render_frames(
    seed_start: int,
    frames: int,
    width: int = 1280,
    height: int = 720,
    against_share: float = 0.0,
) -> Iterator[tuple[Image, Frame]]:
    """Render ``frames`` frames from seed ``seed_start`` on, with their labels
    (``against_share``: ``vision.render.scene.sample_scene``'s)."""
    for seed in range(seed_start, seed_start + frames):
        scene = scene_for_seed(seed, width, height, against_share)
        image, label = render_scene(scene)
        yield image, Frame(seed, scene.tags, label, scene.camera.calibration())


def write_dataset(
    folder: Path,
    frames: int,
    seed_start: int,
    width: int = 1280,
    height: int = 720,
    image_format: str = "png",
    against_share: float = 0.0,
) -> Path:
    """Write ``frames`` rendered frames and ``labels.jsonl`` into ``folder``; returns the latter.

    ``image_format`` is ``png`` (lossless) or ``jpg`` (quality 95, smaller).
    """
    if image_format not in ("png", "jpg"):
        raise ValueError(f"image_format: expected 'png' or 'jpg', got {image_format!r}")
    folder.mkdir(parents=True, exist_ok=True)
    labels_path = folder / LABELS_FILE
    params = (
        [cv2.IMWRITE_PNG_COMPRESSION, 3]
        if image_format == "png"
        else [cv2.IMWRITE_JPEG_QUALITY, 95]
    )
    with labels_path.open("w", encoding="utf-8") as out:
        rendered = render_frames(seed_start, frames, width, height, against_share)
        for index, (image, frame) in enumerate(rendered):
            name = f"{index:06d}.{image_format}"
            if not cv2.imwrite(str(folder / name), image, params):
                raise OSError(f"could not write {folder / name}")
            record = {
                "image": name,
                "seed": frame.seed,
                "tags": list(frame.tags),
                "label": frame.label.to_json(),
            }
            if frame.camera is not None:
                record["principal_point"] = list(frame.camera.principal_point)
                record["focal_length"] = frame.camera.focal_length
            out.write(json.dumps(record) + "\n")
    return labels_path


def read_dataset(folder: Path) -> Iterator[tuple[Path, Frame]]:
    """The image paths and labelled frames of a dataset folder, in order.

    Raises ``ValueError`` naming the line of a malformed record.
    """
    labels_path = folder / LABELS_FILE
    with labels_path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                frame = Frame(
                    seed=int(record["seed"]),
                    tags=tuple(str(tag) for tag in record.get("tags", [])),
                    label=Reading.from_json(record["label"]),
                    camera=_calibration(record),
                )
                image = folder / str(record["image"])
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{labels_path}:{number}: {error}") from error
            yield image, frame


def _calibration(record: dict[str, object]) -> CameraCalibration | None:
    """The camera's calibration a dataset's record holds (None where it holds no principal
    point; the focal length None where it holds none); ValueError naming what is wrong."""
    principal = record.get("principal_point")
    if principal is None:
        return None
    focal = record.get("focal_length")
    try:
        return CameraCalibration(
            principal_point_from(principal),
            None if focal is None else focal_length_from(focal),
        )
    except ValueError as error:
        raise ValueError(f"camera: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.render.dataset OUT_DIR [--frames N] [--seed-start S] [--format F]``."""
    parser = argparse.ArgumentParser(description="Write a rendered, labelled dataset.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--seed-start", type=int, default=EVALUATION_SEEDS.start)
    parser.add_argument("--format", choices=("png", "jpg"), default="png")
    args = parser.parse_args(argv)
    path = write_dataset(args.folder, args.frames, args.seed_start, image_format=args.format)
    print(f"wrote {args.frames} frames and {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
