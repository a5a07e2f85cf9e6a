"""Where the points lie on the canonical board (``vision.board.BoardView``): twelve columns,
six either side of the bar, each holding a point hanging from the top edge and one from the
bottom (``vision.checkers`` reads them)."""

from __future__ import annotations

from vision.board import BoardView
from vision.config import CheckerConfig

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
