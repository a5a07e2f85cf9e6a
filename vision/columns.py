"""Where the points lie on the canonical board (``vision.board.BoardView``): twelve columns,
six either side of the bar, each holding a point hanging from the top edge and one from the
bottom (``vision.checkers`` reads them); and a point's row cut from the frame itself, from the
point's edge (``row_crops``: the judges of stacks and of edges, ``vision.stacks`` and
``vision.edges``, look at it closer than the checker net)."""

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


def crop_to_canonical(view: BoardView, point: int, config: RowCropConfig) -> Matrix:
    """The affine map (3 x 3) from pixels of ``point``'s row crop to canonical pixels: the
    point's edge at the crop's top, a bottom point's crop turned half a turn."""
    column, top = point_column(point)
    centre, pitch = column_axis(view, column)
    across = pitch * config.across_share / config.crop_width
    along = view.height * config.along_share / config.crop_height
    left = centre - pitch * config.across_share / 2
    if top:
        return np.array([[across, 0.0, left + across / 2], [0.0, along, along / 2], [0, 0, 1.0]])
    right = centre + pitch * config.across_share / 2
    return np.array(
        [[-across, 0.0, right - across / 2], [0.0, -along, view.height - along / 2], [0, 0, 1.0]]
    )


def row_crops(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: RowCropConfig
) -> Image:
    """The row crops of ``points`` (1..24) from the frame: len(points) x ``crop_height`` x
    ``crop_width`` x 3, BGR; ValueError for a point off the board."""
    bad = [p for p in points if not 1 <= p <= POINTS]
    if bad:
        raise ValueError(f"row crops: points run 1..{POINTS}, got {bad}")
    from_canonical = np.linalg.inv(view.to_canonical)
    crops = np.empty((len(points), config.crop_height, config.crop_width, 3), np.uint8)
    for index, point in enumerate(points):
        to_frame = from_canonical @ crop_to_canonical(view, point, config)
        crops[index] = cv2.warpPerspective(
            image_bgr,
            to_frame,
            (config.crop_width, config.crop_height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return crops
