"""``gammon-kiosk read IMAGE [--corners x1,y1,...,x4,y4] [--principal-point x,y] [--focal-length F]
[--json]``: read a still image.

Prints the reading of DESIGN.md section 4: the board's corners, checkers per point (image-relative
numbering), bar and trays, dice with zone and cocked flag, cube, occlusion and the milliseconds
the reading took. A file that cannot be read or an empty image is a clear error (exit status 2);
an image without a board gives ``"board": {"found": false}``.
"""

from __future__ import annotations

import argparse
import json

NAME = "read"
HELP = "read checkers, dice and cube from a still image of the board"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="image file (PNG, JPEG, ...) of the board from above")
    parser.add_argument(
        "--corners",
        help="playing-surface corners x1,y1,x2,y2,x3,y3,x4,y4 in pixels: top-left, top-right, "
        "bottom-right, bottom-left (skips the board search)",
    )
    parser.add_argument(
        "--principal-point",
        help="the camera's principal point x,y in shares of the image's width and height, from "
        "its calibration (default: not calibrated, dice zones as their top faces show; the "
        "judge of cocked dice takes it at the centre)",
    )
    parser.add_argument(
        "--focal-length",
        help="the camera's focal length in shares of the image's width (fx / width), from its "
        "calibration (default: found from the board's outline, loosely for a camera nearly "
        "above the board)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")


Corner = tuple[float, float]


def _numbers(text: str, count: int) -> list[float]:
    """``count`` comma-separated numbers from ``text``; ValueError naming what is wrong."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != count:
        raise ValueError(f"expected {count} comma-separated numbers, got {len(parts)}")
    try:
        return [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"not a number in {text!r}") from None


def parse_principal_point(text: str) -> tuple[float, float]:
    """The principal point (x, y) in shares of the frame from ``x,y``, each 0..1; ValueError
    naming what is wrong."""
    x, y = _numbers(text, 2)
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        raise ValueError(f"each share must lie in 0..1 (a point of the frame), got {text!r}")
    return (x, y)


def principal_point_option(text: str | None) -> tuple[float, float] | None:
    """``--principal-point``'s value parsed (None where not given); a ``CliError`` naming the
    option otherwise."""
    from kiosk.cli import CliError

    if text is None:
        return None
    try:
        return parse_principal_point(text)
    except ValueError as error:
        raise CliError(f"--principal-point: {error}") from None


def focal_length_option(text: str | None) -> float | None:
    """``--focal-length``'s value parsed (None where not given); a ``CliError`` naming the
    option otherwise."""
    from kiosk.cli import CliError
    from vision.config import focal_length_from

    if text is None:
        return None
    try:
        return focal_length_from(_numbers(text, 1)[0])
    except ValueError as error:
        raise CliError(f"--focal-length: {error}") from None


def parse_corners(text: str) -> tuple[Corner, Corner, Corner, Corner]:
    """Four (x, y) corners from ``x1,y1,...,x4,y4``; ValueError naming what is wrong."""
    numbers = _numbers(text, 8)
    if not all(abs(n) < 1e6 for n in numbers):
        raise ValueError("a coordinate is not a finite pixel position")
    corners = (
        (numbers[0], numbers[1]),
        (numbers[2], numbers[3]),
        (numbers[4], numbers[5]),
        (numbers[6], numbers[7]),
    )
    area = 0.0
    for (x0, y0), (x1, y1) in zip(corners, (*corners[1:], corners[0]), strict=True):
        area += x0 * y1 - x1 * y0
    if abs(area) < 1.0:
        raise ValueError("the four corners enclose no area")
    return corners


def _text(reading: dict[str, object]) -> str:
    """The reading for people: board, points, bar, trays, dice, cube, flags."""
    board = reading["board"]
    assert isinstance(board, dict)
    lines = []
    if board["found"]:
        corners = " ".join(f"({x:.0f},{y:.0f})" for x, y in board["corners"])
        lines.append(f"board: found, corners TL TR BR BL {corners}")
    else:
        lines.append("board: not found")
    points = reading["points"]
    assert isinstance(points, list)
    for entry in points:
        if entry["color"] is None:
            continue
        count = entry["count"] if entry["count"] is not None else f"{entry['min']}-{entry['max']}"
        lines.append(f"point {entry['point']:2d}: {count} {entry['color']}")
    for name in ("bar", "off"):
        sides = reading[name]
        assert isinstance(sides, dict)
        shown = ", ".join(
            f"{colour} {'?' if sides[colour] is None else sides[colour]}"
            for colour in ("light", "dark")
        )
        lines.append(f"{name}: {shown}")
    dice = reading["dice"]
    assert isinstance(dice, list)
    for die in dice:
        value = "?" if die["value"] is None else die["value"]
        cocked = ", cocked" if die["cocked"] else ""
        x, y = die["center"]
        lines.append(f"die: {value} at ({x:.0f},{y:.0f}), {die['zone']}{cocked}")
    cube = reading["cube"]
    if isinstance(cube, dict):
        value = "?" if cube["value"] is None else cube["value"]
        x, y = cube["center"]
        lines.append(f"cube: {value} at ({x:.0f},{y:.0f})")
    else:
        lines.append("cube: not found")
    lines.append(f"occluded: {'yes' if reading['occluded'] else 'no'}")
    lines.append(f"time: {reading['ms']} ms")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import time
    from dataclasses import replace
    from pathlib import Path

    import cv2
    import numpy as np

    from kiosk.cli import CliError
    from vision.config import ReadConfig
    from vision.read import read_frame

    corners = None
    if args.corners is not None:
        try:
            corners = parse_corners(args.corners)
        except ValueError as error:
            raise CliError(f"--corners: {error}") from None
    principal = principal_point_option(args.principal_point)
    config = ReadConfig(
        principal_point=principal, focal_length=focal_length_option(args.focal_length)
    )
    path = Path(args.image)
    if not path.is_file():
        raise CliError(f"IMAGE: no such file: {path}")
    data = np.fromfile(path, dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise CliError(f"IMAGE: not a readable image file: {path}")
    if image.size == 0:
        raise CliError(f"IMAGE: the image is empty: {path}")
    started = time.perf_counter()
    try:
        reading = read_frame(np.asarray(image, np.uint8), config, corners)
    except ValueError as error:
        raise CliError(f"IMAGE: {error}") from None
    elapsed = round((time.perf_counter() - started) * 1000.0, 1)
    result = replace(reading, ms=elapsed).to_json()
    print(json.dumps(result) if args.json else _text(result))
    return 0
