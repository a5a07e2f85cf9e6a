"""The board as the kiosk sees it, in the camera reading's structure (no Kivy here).

A board is ``{"points": [{"point": 1..24, "color": "light"|"dark"|null, "count": n,
"min": n, "max": n}, ... 24 entries], "bar": {"light": n, "dark": n},
"off": {"light": n, "dark": n}}`` (a null count: unknown): the structure of
``gammon-kiosk read --json`` (DESIGN.md section 4), with image-relative point numbers (1 is
the bottom-right point, 1..12 run right to left along the bottom row, 13..24 left to right
along the top row). ``min``/``max`` are optional.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from kiosk.app.errors import SnapshotError
from kiosk.app.values import COLORS, Color, get_int, get_map, get_optional_int, get_seq

POINTS = 24


@dataclass(frozen=True)
class PointView:
    """Checkers seen on one point: ``count`` None when unknown, ``uncertain`` when min < max."""

    color: Color | None = None
    count: int | None = 0
    uncertain: bool = False


@dataclass(frozen=True)
class BoardView:
    """The board as the kiosk sees it: ``points[0]`` is point 1; bar and trays per colour."""

    points: tuple[PointView, ...] = tuple(PointView() for _ in range(POINTS))
    bar: Mapping[Color, int | None] = field(default_factory=lambda: {"light": 0, "dark": 0})
    off: Mapping[Color, int | None] = field(default_factory=lambda: {"light": 0, "dark": 0})


def parse_board(data: Mapping[str, object], where: str) -> BoardView:
    """A board in the camera reading's structure (``points``, ``bar``, ``off``)."""
    entries = get_seq(data, "points", f"{where}.points", length=POINTS, maps=True)
    points: list[PointView | None] = [None] * POINTS
    for i, entry in enumerate(entries):
        item = cast(Mapping[str, object], entry)
        here = f"{where}.points[{i}]"
        number = get_int(item, "point", f"{here}.point", low=1, high=POINTS)
        if points[number - 1] is not None:
            raise SnapshotError(f"{here}.point: point {number} appears twice")
        points[number - 1] = _point(item, here)
    bar = get_map(data, "bar", f"{where}.bar")
    off = get_map(data, "off", f"{where}.off")
    return BoardView(
        points=tuple(p for p in points if p is not None),
        bar={c: get_optional_int(bar, c, f"{where}.bar.{c}", low=0, high=15) for c in COLORS},
        off={c: get_optional_int(off, c, f"{where}.off.{c}", low=0, high=15) for c in COLORS},
    )


def _point(item: Mapping[str, object], here: str) -> PointView:
    color = item.get("color")
    if color is not None and color not in COLORS:
        raise SnapshotError(f"{here}.color: expected light, dark or null, got {color!r}")
    count = get_optional_int(item, "count", f"{here}.count", low=0, high=15)
    low = get_optional_int(item, "min", f"{here}.min", low=0, high=15)
    high = get_optional_int(item, "max", f"{here}.max", low=0, high=15)
    uncertain = count is None or (low is not None and high is not None and low < high)
    if color is None and count not in (0, None):
        raise SnapshotError(f"{here}: {count} checkers with no color")
    return PointView(color=color, count=count, uncertain=uncertain)
