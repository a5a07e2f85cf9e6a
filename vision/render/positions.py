"""Checker positions for rendered scenes, in image-relative point numbering (DESIGN.md section 4).

Point 1 is the bottom-right point, 1..12 run right to left along the bottom row, 13..24 left to
right along the top row. A :class:`Position` holds 15 checkers a side on points, bar and trays.
These are legal-looking positions for the camera, not positions checked by the rules core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.labels import CHECKERS_PER_SIDE, COLORS, POINTS, Color

Corner = Literal["bottom-right", "bottom-left", "top-right", "top-left"]
HOME_CORNERS: tuple[Corner, ...] = ("bottom-right", "bottom-left", "top-right", "top-left")

# The starting setup from the side of a player whose home board is image points 1..6:
# two on their 24-point, five on the 13, three on the 8, five on the 6.
_START = {24: 2, 13: 5, 8: 3, 6: 5}


@dataclass(frozen=True)
class Position:
    """Checkers on points 1..24 (``points[0]`` is point 1), on the bar and borne off.

    ``bar`` and ``off`` are ``(light, dark)`` counts.
    """

    points: tuple[tuple[Color | None, int], ...]
    bar: tuple[int, int]
    off: tuple[int, int]

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise ValueError(f"points: expected {POINTS} entries, got {len(self.points)}")
        for index, (color, count) in enumerate(self.points):
            if (color is None) != (count == 0) or count < 0:
                raise ValueError(f"points[{index}]: colour {color!r} with count {count}")
        for side, color in enumerate(COLORS):
            total = self.on_points(color) + self.bar[side] + self.off[side]
            if total != CHECKERS_PER_SIDE:
                raise ValueError(f"{color}: {total} checkers, expected {CHECKERS_PER_SIDE}")

    def on_points(self, color: Color) -> int:
        """Checkers of ``color`` on the 24 points."""
        return sum(count for c, count in self.points if c == color)


def _mirror(point: int, corner: Corner) -> int:
    """Image point number of ``point`` (numbered for a home board at bottom-right)."""
    if corner in ("bottom-left", "top-left"):  # left-right mirror
        point = 13 - point if point <= 12 else 37 - point
    if corner in ("top-right", "top-left"):  # top-bottom mirror
        point = 25 - point
    return point


def starting_position(light_home: Corner) -> Position:
    """The starting setup with the light player's home board in the given image corner."""
    points: list[tuple[Color | None, int]] = [(None, 0)] * POINTS
    for own, count in _START.items():
        points[_mirror(own, light_home) - 1] = ("light", count)
        points[_mirror(25 - own, light_home) - 1] = ("dark", count)
    return Position(points=tuple(points), bar=(0, 0), off=(0, 0))


def random_position(rng: np.random.Generator) -> Position:
    """A random legal-looking position: each point one colour, 15 checkers a side.

    Most checkers are on points; a few may be on the bar; late-game positions have some borne off.
    Stacks of 6 to 12 occur often enough to exercise overflowing and stacked points.
    """
    points: list[tuple[Color | None, int]] = [(None, 0)] * POINTS
    bar = [0, 0]
    off = [0, 0]
    for side in rng.permutation(2):
        color = COLORS[int(side)]
        off[side] = int(rng.integers(1, 15)) if rng.random() < 0.25 else 0
        bar[side] = min(int(rng.integers(1, 3)), 15 - off[side]) if rng.random() < 0.15 else 0
        on_points = CHECKERS_PER_SIDE - off[side] - bar[side]
        if on_points == 0:
            continue
        free = [i for i in range(POINTS) if points[i][0] is None]
        spots = int(rng.integers(1, min(on_points, 8) + 1))
        chosen = rng.choice(free, size=spots, replace=False)
        shares = rng.dirichlet(np.full(spots, 0.8))
        counts = 1 + rng.multinomial(on_points - spots, shares)
        for index, count in zip(chosen, counts, strict=True):
            points[int(index)] = (color, int(count))
    return Position(points=tuple(points), bar=(bar[0], bar[1]), off=(off[0], off[1]))
