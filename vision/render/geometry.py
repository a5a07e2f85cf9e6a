"""Board geometry in world millimetres (frame of ``vision.render.camera``).

The playing surface spans ``[0, surface_width] x [0, surface_height]``: the left half (points
12..7 along the bottom, 13..18 along the top), the bar, then the right half (6..1 and 19..24).
The frame surrounds it; trays lie outside the frame strip on the left, right or both sides.
The frame's top is ``frame_height`` mm above the playing surface and the trays (its inner walls
show under perspective, and its lip hides the edge of the surface on the far side); the bar is
level with the surface, and so is the table around the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.labels import Zone

Side = Literal["left", "right"]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Geometry:
    """Sizes of one board and its checkers, in millimetres."""

    checker_diameter: float
    checker_thickness: float
    point_width: float
    bar_width: float
    surface_height: float
    point_length: float
    frame_width: float
    tray_width: float
    trays: tuple[Side, ...]
    frame_height: float

    @property
    def surface_width(self) -> float:
        """Width of the playing surface: twelve points and the bar."""
        return 12.0 * self.point_width + self.bar_width

    @property
    def bar_rect(self) -> Rect:
        """The bar, between the two halves."""
        left = 6.0 * self.point_width
        return (left, 0.0, left + self.bar_width, self.surface_height)

    def point_x(self, point: int) -> float:
        """Centre x of the column of ``point`` (1..24, image-relative numbering)."""
        column = 12 - point if point <= 12 else point - 13  # 0 = leftmost column
        x = (column + 0.5) * self.point_width
        return x + (self.bar_width if column >= 6 else 0.0)

    def is_top(self, point: int) -> bool:
        """Whether ``point`` hangs from the top edge (points 13..24)."""
        return point >= 13

    def tray_rect(self, side: Side) -> Rect:
        """The tray on ``side``: outside the frame strip, as tall as the playing surface."""
        if side == "right":
            x0 = self.surface_width + self.frame_width
        else:
            x0 = -self.frame_width - self.tray_width
        return (x0, 0.0, x0 + self.tray_width, self.surface_height)

    @property
    def outer_rect(self) -> Rect:
        """The whole board: frame, playing surface and trays."""
        tray = self.tray_width + self.frame_width
        left = -self.frame_width - (tray if "left" in self.trays else 0.0)
        right = self.surface_width + self.frame_width + (tray if "right" in self.trays else 0.0)
        return (left, -self.frame_width, right, self.surface_height + self.frame_width)

    def corners(self) -> np.ndarray:
        """Playing-surface corners TL, TR, BR, BL as world points (4 x 3, on the board plane)."""
        w, h = self.surface_width, self.surface_height
        return np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, h, 0.0], [0.0, h, 0.0]])

    def holes(self) -> tuple[Rect, ...]:
        """The recesses of the frame: the playing surface (with the bar) and the trays."""
        surface = (0.0, 0.0, self.surface_width, self.surface_height)
        return (surface, *(self.tray_rect(side) for side in self.trays))

    def on_frame(self, x: float, y: float) -> bool:
        """Whether board-plane point (x, y) lies on the raised frame."""
        x0, y0, x1, y1 = self.outer_rect
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        return not any(a <= x <= c and b <= y <= d for a, b, c, d in self.holes())

    def zone(self, x: float, y: float) -> Zone:
        """Zone of a die whose centre rests at board-plane point ``(x, y)``."""
        if not (0.0 <= x <= self.surface_width and 0.0 <= y <= self.surface_height):
            return "off-board"
        bar_left, _, bar_right, _ = self.bar_rect
        if x < bar_left:
            return "left-half"
        if x > bar_right:
            return "right-half"
        return "on-bar"


def sample_geometry(rng: np.random.Generator) -> Geometry:
    """A board of realistic proportions: 36-42 mm checkers, five fit along a point."""
    diameter = float(rng.uniform(36.0, 42.0))
    point_width = diameter * float(rng.uniform(1.04, 1.16))
    height = diameter * float(rng.uniform(11.2, 12.4))
    trays: tuple[Side, ...] = (("left",), ("right",), ("left", "right"))[int(rng.integers(3))]
    return Geometry(
        checker_diameter=diameter,
        checker_thickness=float(rng.uniform(5.0, 8.0)),
        point_width=point_width,
        bar_width=diameter * float(rng.uniform(1.05, 1.6)),
        surface_height=height,
        point_length=height * float(rng.uniform(0.36, 0.42)),
        frame_width=float(rng.uniform(14.0, 32.0)),
        tray_width=diameter * float(rng.uniform(1.15, 1.35)),
        trays=trays,
        frame_height=float(rng.uniform(4.0, 14.0)),
    )
