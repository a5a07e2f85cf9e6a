"""Where each checker lies: points, bar and trays, with overflowing and stacked points.

Five checkers fill a point from the board's edge towards the centre. Beyond five, a scene uses
one stacking style for every point:

- ``overflow``: the row continues towards the centre while it does not meet the opposite point's
  row; what does not fit goes on a second layer (as ``layered``).
- ``layered``: extra checkers sit on top, each across two checkers below (all visible).
- ``stacked``: extra checkers sit squarely on top of others and hide them from the camera;
  they are marked ``hidden`` (the label's ``min`` counts only the visible ones).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.labels import COLORS, Color
from vision.render.geometry import Geometry, Side
from vision.render.positions import Position

Stacking = Literal["overflow", "layered", "stacked"]
STACKINGS: tuple[Stacking, ...] = ("overflow", "layered", "stacked")
ROW = 5  # checkers along a point before overflowing or stacking
BAR, TRAY = 0, -1  # ``where`` of checkers on the bar or borne off


@dataclass(frozen=True)
class PlacedChecker:
    """One checker: centre on the board plane (mm), layer (0 = on the board), where it lies.

    ``where`` is the point 1..24, ``BAR`` or ``TRAY``. ``standing`` checkers (borne off) stand on
    their edge in a tray. ``hidden`` checkers lie squarely under another and cannot be seen.
    """

    color: Color
    x: float
    y: float
    level: int
    where: int
    standing: bool = False
    hidden: bool = False


@dataclass(frozen=True)
class Arrangement:
    """Choices for placing the checkers that are not fixed by the position."""

    stacking: Stacking
    tray: Side  # the tray holding borne-off checkers
    light_tray_top: bool  # light checkers borne off into the tray's top half
    light_bar_top: bool  # light checkers on the bar's top half
    bar_gap: float  # mm kept clear at the middle of the bar (for a centred cube)


def _row_lengths(n_top: int, n_bot: int, capacity: int, stacking: Stacking) -> tuple[int, int]:
    top, bot = min(n_top, ROW), min(n_bot, ROW)
    if stacking == "overflow":
        room = max(0, capacity - top - bot)
        extra_top = min(n_top - top, room)
        top += extra_top
        bot += min(n_bot - bot, room - extra_top)
    return top, bot


def _point_checkers(
    geometry: Geometry,
    point: int,
    color: Color,
    count: int,
    row: int,
    stacking: Stacking,
    rng: np.random.Generator,
) -> list[PlacedChecker]:
    d = geometry.checker_diameter
    spacing = d * float(rng.uniform(1.0, 1.03))
    x0 = geometry.point_x(point)
    sign = 1.0 if geometry.is_top(point) else -1.0
    edge = 0.0 if geometry.is_top(point) else geometry.surface_height
    jitter = rng.uniform(-0.04 * d, 0.04 * d, size=(count, 2))
    rows = [edge + sign * (d / 2 + k * spacing) for k in range(row)]
    placed = [
        PlacedChecker(color, x0 + jitter[k, 0], rows[k] + jitter[k, 1] * 0.3, 0, point)
        for k in range(row)
    ]
    extra = count - row
    if stacking == "stacked":
        for j in range(extra):
            below = placed[j % row]
            placed.append(
                PlacedChecker(
                    color,
                    below.x + jitter[row + j, 0] * 0.3,
                    below.y + jitter[row + j, 1] * 0.3,
                    1 + j // row,
                    point,
                    hidden=True,
                )
            )
        return placed
    level, layer = 1, rows
    while extra > 0:
        layer = [(a + b) / 2 for a, b in itertools.pairwise(layer)]
        for y in layer[:extra]:
            k = len(placed)
            placed.append(PlacedChecker(color, x0 + jitter[k, 0], y, level, point))
        extra -= min(extra, len(layer))
        level += 1
    return placed


def layout_checkers(
    geometry: Geometry,
    position: Position,
    arrangement: Arrangement,
    rng: np.random.Generator,
) -> tuple[PlacedChecker, ...]:
    """Every checker of ``position`` placed on the board, in drawing order (lowest first)."""
    d = geometry.checker_diameter
    capacity = int(geometry.surface_height // (d * 1.03))
    placed: list[PlacedChecker] = []
    for column in range(12):
        top_point, bot_point = 13 + column, 12 - column
        top_color, n_top = position.points[top_point - 1]
        bot_color, n_bot = position.points[bot_point - 1]
        top_row, bot_row = _row_lengths(n_top, n_bot, capacity, arrangement.stacking)
        for point, color, count, row in (
            (top_point, top_color, n_top, top_row),
            (bot_point, bot_color, n_bot, bot_row),
        ):
            if color is not None:
                placed += _point_checkers(
                    geometry, point, color, count, row, arrangement.stacking, rng
                )
    bar_x = (geometry.bar_rect[0] + geometry.bar_rect[2]) / 2
    middle = geometry.surface_height / 2
    tray_x0, _, tray_x1, _ = geometry.tray_rect(arrangement.tray)
    thickness = geometry.checker_thickness
    for side, color in enumerate(COLORS):
        up = arrangement.light_bar_top == (color == "light")
        for k in range(position.bar[side]):
            offset = arrangement.bar_gap / 2 + d / 2 + k * d * 1.02
            placed.append(
                PlacedChecker(color, bar_x, middle - offset if up else middle + offset, 0, BAR)
            )
        top = arrangement.light_tray_top == (color == "light")
        for k in range(position.off[side]):
            offset = 3.0 + thickness / 2 + k * thickness * 1.04
            y = offset if top else geometry.surface_height - offset
            placed.append(PlacedChecker(color, (tray_x0 + tray_x1) / 2, y, 0, TRAY, standing=True))
    return tuple(sorted(placed, key=lambda c: c.level))
