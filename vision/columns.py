"""Where the points lie on the canonical board (``vision.board.BoardView``): twelve columns,
six either side of the bar, each holding a point hanging from the top edge and one from the
bottom (``vision.checkers`` reads them); and a point's row cut from the frame itself, from the
point's edge (``row_crops``: the judges of stacks, of edges and of long rows,
``vision.stacks``, ``vision.edges`` and ``vision.long_rows``, look at it closer than the
checker net), and the bar's halves so, from its middle (``bar_crops``: the judge of the bar,
``vision.bar``)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardView
from vision.config import CheckerConfig, RowCropConfig
from vision.labels import POINTS

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

COLUMNS = 12


def column_points(column: int) -> tuple[int, int]:
    """The top and bottom points of a column (0 = leftmost): 13 and 12, ..., 24 and 1."""
    return 13 + column, 12 - column


def point_column(point: int) -> tuple[int, bool]:
    """The column of ``point`` (1..24) and whether it hangs from the top edge."""
    return (point - 13, True) if point >= 13 else (12 - point, False)


def column_axis(view: BoardView, column: int) -> tuple[float, float]:
    """Canonical x of a column's axis (0 = leftmost) and its points' pitch (pixels)."""
    bar_left, bar_right = view.bar
    if column < 6:
        pitch = bar_left / 6
        return (column + 0.5) * pitch, pitch
    pitch = (view.width - bar_right) / 6
    return bar_right + (column - 6 + 0.5) * pitch, pitch


def crop_spans(view: BoardView, config: CheckerConfig) -> list[tuple[float, float]]:
    """Canonical x (left, right) of the 13 crops: the 12 columns, each ``across_share`` of a
    point's pitch wide around its axis, then the bar, ``bar_share`` of its width."""
    spans = []
    for column in range(COLUMNS):
        centre, pitch = column_axis(view, column)
        half = pitch * config.across_share / 2
        spans.append((centre - half, centre + half))
    bar_left, bar_right = view.bar
    centre, half = (bar_left + bar_right) / 2, (bar_right - bar_left) * config.bar_share / 2
    spans.append((centre - half, centre + half))
    return spans


def _strip_to_canonical(
    across: tuple[float, float], start: float, down: bool, along: float, config: RowCropConfig
) -> Matrix:
    """The affine map (3 x 3) from a crop's pixels to canonical pixels, for a strip
    ``across`` = (centre, width) canonical pixels across, running ``along`` canonical pixels
    from y = ``start`` downwards, or (``down`` False) upwards, the crop turned half a turn: the
    strip's start at the crop's top."""
    centre, width = across
    sx, sy = width / config.crop_width, along / config.crop_height
    if down:
        return np.array(
            [[sx, 0.0, centre - width / 2 + sx / 2], [0.0, sy, start + sy / 2], [0, 0, 1.0]]
        )
    return np.array(
        [[-sx, 0.0, centre + width / 2 - sx / 2], [0.0, -sy, start - sy / 2], [0, 0, 1.0]]
    )


def crop_to_canonical(view: BoardView, point: int, config: RowCropConfig) -> Matrix:
    """The affine map (3 x 3) from pixels of ``point``'s row crop to canonical pixels: the
    point's edge at the crop's top, a bottom point's crop turned half a turn."""
    column, top = point_column(point)
    centre, pitch = column_axis(view, column)
    across = (centre, pitch * config.across_share)
    along = view.height * config.along_share
    return _strip_to_canonical(across, 0.0 if top else float(view.height), top, along, config)


def bar_to_canonical(view: BoardView, upper: bool, config: RowCropConfig) -> Matrix:
    """The affine map (3 x 3) from pixels of a bar half's crop to canonical pixels: the bar's
    middle at the crop's top (checkers on the bar lie from the middle outwards), the upper
    half's crop turned half a turn; ``across_share`` of the bar's width across."""
    left, right = view.bar
    across = ((left + right) / 2, (right - left) * config.across_share)
    along = view.height * config.along_share
    return _strip_to_canonical(across, view.height / 2, not upper, along, config)


def strip_crops(
    image_bgr: Image, view: BoardView, maps: Sequence[Matrix], config: RowCropConfig
) -> Image:
    """The crops (len(maps) x ``crop_height`` x ``crop_width`` x 3, BGR) cut from the frame
    through each map from crop to canonical pixels and the view's homography."""
    from_canonical = np.linalg.inv(view.to_canonical)
    crops = np.empty((len(maps), config.crop_height, config.crop_width, 3), np.uint8)
    for index, to_canonical in enumerate(maps):
        crops[index] = cv2.warpPerspective(
            image_bgr,
            from_canonical @ to_canonical,
            (config.crop_width, config.crop_height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return crops


def row_crops(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: RowCropConfig
) -> Image:
    """The row crops of ``points`` (1..24) from the frame: len(points) x ``crop_height`` x
    ``crop_width`` x 3, BGR; ValueError for a point off the board."""
    bad = [p for p in points if not 1 <= p <= POINTS]
    if bad:
        raise ValueError(f"row crops: points run 1..{POINTS}, got {bad}")
    maps = [crop_to_canonical(view, point, config) for point in points]
    return strip_crops(image_bgr, view, maps, config)


def bar_crops(image_bgr: Image, view: BoardView, config: RowCropConfig) -> Image:
    """The crops of the bar's upper and lower half (``bar_to_canonical``): 2 x ``crop_height``
    x ``crop_width`` x 3, BGR."""
    maps = [bar_to_canonical(view, upper, config) for upper in (True, False)]
    return strip_crops(image_bgr, view, maps, config)
