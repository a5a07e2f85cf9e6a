"""``gammon-kiosk evaluate-vision``: accuracy and speed of the frame reader on a labelled set.

``--set synthetic`` (default) reads rendered frames: rendered in memory from ``--seed-start``
(default: the evaluation seeds, ``vision.render.dataset``), or taken from a dataset folder
``--data DIR`` (written there first when it holds no ``labels.jsonl``), at ``--size``
(width x height pixels, default the kiosk camera's 1280x720; the same view, its blur and
motion blur drawn in the scene, so a wider frame is as blurred in scene units),
``--against-share`` of the flat dice lying against a checker (default 0, the evaluation frames:
a flat die against a checker is the judge of cocked dice's weak spot). ``--set dice-photos``
reads the real dice photos (``--data``, default ``../shared/data/dice-photos`` beside the
repository). Figures are defined in ``vision.evaluate``.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.evaluate import FrameHook, FrameScore, Image
    from vision.labels import Reading

NAME = "evaluate-vision"
HELP = "score the vision reader on rendered frames or the real dice photos (chesscog-style)"
_DEFAULT_DICE_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "dice-photos"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set",
        choices=("synthetic", "dice-photos"),
        default="synthetic",
        dest="dataset",
        help="rendered frames (default) or the real dice photos",
    )
    parser.add_argument(
        "--frames", type=int, default=2000, help="frames (or photos) to read, default 2000"
    )
    parser.add_argument(
        "--seed-start", type=int, default=None, help="first render seed (default 1000000)"
    )
    parser.add_argument("--data", type=Path, default=None, help="dataset folder")
    parser.add_argument(
        "--size",
        type=frame_size,
        default=(1280, 720),
        metavar="WxH",
        help="size of the rendered frames in pixels, default 1280x720",
    )
    parser.add_argument(
        "--against-share",
        type=float,
        default=0.0,
        help="share of the flat dice rendered lying against a checker, default 0",
    )
    parser.add_argument(
        "--label-corners",
        action="store_true",
        help="give the reader the labelled corners (scores counting apart from board finding)",
    )
    parser.add_argument(
        "--calibrated-camera",
        action="store_true",
        help="give the reader each frame's camera principal point and focal length, as a kiosk "
        "whose camera is calibrated knows them (default: the principal point taken at the "
        "frame's centre, the focal length from the board's outline)",
    )
    parser.add_argument(
        "--failures",
        type=Path,
        default=None,
        help="write each frame read wrong (PNG + JSON: label, reading, score) into this folder",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def frame_size(text: str) -> tuple[int, int]:
    """``WxH`` as (width, height) pixels, each 64..8192."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels, got {text!r}")
    size = int(width), int(height)
    if not all(64 <= side <= 8192 for side in size):
        raise argparse.ArgumentTypeError(f"each side must be 64..8192 pixels, got {text!r}")
    return size


def _synthetic_frames(args: argparse.Namespace, seed_start: int) -> Iterator[Any]:
    import cv2
    import numpy as np

    from kiosk.cli import CliError
    from vision.render.dataset import LABELS_FILE, read_dataset, render_frames, write_dataset

    width, height = args.size
    against: float = args.against_share
    calibrated: bool = args.calibrated_camera
    if args.data is None:
        for image, frame in render_frames(seed_start, args.frames, width, height, against):
            yield image, frame.label, frame.tags, frame.camera if calibrated else None
        return
    folder: Path = args.data
    if not (folder / LABELS_FILE).exists():
        try:
            write_dataset(folder, args.frames, seed_start, width, height, against_share=against)
        except OSError as error:
            raise CliError(f"--data: cannot write a dataset into {folder}: {error}") from None
    try:
        for path, frame in itertools.islice(read_dataset(folder), args.frames):
            loaded = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if loaded is None:
                raise CliError(f"--data: {path} is not a readable image")
            if calibrated and frame.camera is None:
                raise CliError(
                    f"--calibrated-camera: {folder / LABELS_FILE} records no principal point "
                    f"for seed {frame.seed} (write the dataset again)"
                )
            camera = frame.camera if calibrated else None
            yield np.asarray(loaded, dtype=np.uint8), frame.label, frame.tags, camera
    except ValueError as error:
        raise CliError(f"--data: {error}") from None


def _failure_writer(folder: Path) -> FrameHook:
    """A frame hook saving every frame with an error, for looking at what went wrong."""
    import dataclasses

    import cv2

    from kiosk.cli import CliError
    from vision import evaluate

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError(f"--failures: cannot create {folder}: {error}") from None

    def write(
        index: int, image: Image, label: Reading, reading: Reading, score: FrameScore
    ) -> None:
        if not evaluate.frame_has_errors(score):
            return
        cv2.imwrite(str(folder / f"{index:06d}.png"), image)
        record = {
            "label": label.to_json(),
            "reading": reading.to_json(),
            "score": dataclasses.asdict(score),
        }
        (folder / f"{index:06d}.json").write_text(json.dumps(record, indent=1), encoding="utf-8")

    return write


def run(args: argparse.Namespace) -> int:
    from kiosk.cli import CliError
    from vision import evaluate
    from vision.render.dataset import EVALUATION_SEEDS, TUNING_SEEDS

    if args.frames < 1:
        raise CliError("--frames: expected a positive number of frames")
    if not 0.0 <= args.against_share <= 1.0:
        raise CliError("--against-share: expected a share from 0 to 1")
    try:
        if args.dataset == "dice-photos":
            folder: Path = args.data or _DEFAULT_DICE_PHOTOS
            if not (folder / "labels.json").exists():
                raise CliError(f"--data: no labels.json in {folder} (the dice-photos folder)")
            try:
                figures = evaluate.evaluate_dice_photos(
                    folder, evaluate.load_dice_finder(), limit=args.frames
                )
            except ValueError as error:
                raise CliError(f"--data: {error}") from None
            title = f"evaluate-vision: real dice photos in {folder}"
            result: dict[str, Any] = {"set": "dice-photos", "figures": figures}
            text = evaluate.format_figures(title, figures)
        else:
            seed_start = EVALUATION_SEEDS.start if args.seed_start is None else args.seed_start
            tuning = seed_start < TUNING_SEEDS.stop
            summary, by_tag = evaluate.evaluate_synthetic(
                _synthetic_frames(args, seed_start),
                evaluate.load_frame_reader(),
                label_corners=args.label_corners,
                on_frame=None if args.failures is None else _failure_writer(args.failures),
            )
            figures = summary.figures()
            width, height = args.size
            source = (
                str(args.data)
                if args.data is not None
                else f"seeds from {seed_start}, {width}x{height}"
            )
            if args.against_share:
                source += f", {args.against_share:g} of the flat dice against a checker"
            if args.calibrated_camera:
                source += ", calibrated camera"
            title = f"evaluate-vision: {summary.frames} synthetic frames ({source})"
            if tuning:
                title += " [tuning seeds: not an evaluation figure]"
            result = {
                "set": "synthetic",
                "seed_start": seed_start,
                # the frames' size where rendered here; a dataset folder's frames keep theirs
                "size": [width, height] if args.data is None else None,
                "against_share": args.against_share,
                "label_corners": args.label_corners,
                "calibrated_camera": args.calibrated_camera,
                "tuning_seeds": tuning,
                "figures": figures,
                "by_variation": {tag: s.figures() for tag, s in by_tag.items()},
            }
            text = (
                evaluate.format_figures(title, figures)
                + "\nper variation:\n"
                + evaluate.format_tag_table(by_tag)
            )
    except evaluate.ReaderUnavailableError as error:
        raise CliError(str(error)) from None
    print(json.dumps(result) if args.json else text)
    return 0
