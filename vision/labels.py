"""The reading of one frame: what ``gammon-kiosk read --json`` prints (DESIGN.md section 4).

The reader (``vision.read.read_frame``) returns a :class:`Reading`; the synthetic renderer
(``vision.render``) labels each frame with the same type, filled from exact truth; the evaluation
(``vision.evaluate``) compares the two. All coordinates are image pixels ``(x, y)``, origin at the
top-left of the image.

Conventions (DESIGN.md section 4):

- ``board.corners`` run top-left, top-right, bottom-right, bottom-left of the playing surface: the
  24 points and the bar, the trays excluded.
- Point numbers are image-relative: 1 is the bottom-row point at the bottom-right corner, 1..12 run
  right to left along the bottom row, 13..24 left to right along the top row.
- ``color`` is ``"light"`` or ``"dark"`` (the lighter of the two checker colours), ``None`` for
  an empty point. ``count`` is ``None`` when it cannot be read exactly; ``min``/``max`` bound it.
- A die's ``zone`` is where it lies relative to the bar: ``left-half``, ``right-half``, ``on-bar``
  or ``off-board``. A value that cannot be read is ``None``, never a guess.

In a rendered label the counts are the true counts (``count`` is never ``None``) and
``min``/``max`` say what a camera could know: ``min == max == count`` where every checker is
visible. Where checkers stacked on top of others are hidden, ``min`` is the number of checkers
visible on the point and ``max`` the most it can hold given the checkers of that colour seen
elsewhere (15 minus those), while ``count`` stays the truth; so is every full row of a colour
that hides checkers, hiding some or none: a camera cannot tell which full rows hide them. Die
and cube values are always known in a label, cocked dice included. A centred cube shows 64.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

Color = Literal["light", "dark"]
Zone = Literal["left-half", "right-half", "on-bar", "off-board"]
XY = tuple[float, float]

COLORS: tuple[Color, ...] = ("light", "dark")
ZONES: tuple[Zone, ...] = ("left-half", "right-half", "on-bar", "off-board")
CUBE_VALUES: tuple[int, ...] = (2, 4, 8, 16, 32, 64)
CHECKERS_PER_SIDE = 15
POINTS = 24


@dataclass(frozen=True)
class Board:
    """Whether the playing surface was found and, if so, its corners (TL, TR, BR, BL) in pixels."""

    found: bool
    corners: tuple[XY, XY, XY, XY] | None = None


@dataclass(frozen=True)
class PointCount:
    """Checkers on one point (1..24, image-relative numbering)."""

    point: int
    color: Color | None
    count: int | None
    min: int
    max: int


@dataclass(frozen=True)
class SideCounts:
    """A count per checker colour (bar or trays); ``None`` where it cannot be read."""

    light: int | None
    dark: int | None

    def or_else(self, other: SideCounts) -> SideCounts:
        """Each colour's count, or ``other``'s where this one is None."""
        return SideCounts(
            self.light if self.light is not None else other.light,
            self.dark if self.dark is not None else other.dark,
        )


@dataclass(frozen=True)
class Die:
    """One die: value 1..6 (``None`` if unreadable), centre of its top face in pixels, zone."""

    value: int | None
    center: XY
    zone: Zone
    cocked: bool


@dataclass(frozen=True)
class Cube:
    """The doubling cube: value on its top face (2..64, ``None`` if unreadable), centre (pixels)."""

    value: int | None
    center: XY


@dataclass(frozen=True)
class Reading:
    """One frame read (or labelled). ``points`` is empty when no board was found.

    ``ms`` is the time the reader took in milliseconds (``None`` in a rendered label).
    """

    board: Board
    points: tuple[PointCount, ...]
    bar: SideCounts
    off: SideCounts
    dice: tuple[Die, ...]
    cube: Cube | None
    occluded: bool
    ms: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of DESIGN.md section 4 (plain dicts, lists, numbers, strings)."""
        board: dict[str, Any] = {"found": self.board.found}
        if self.board.corners is not None:
            board["corners"] = [[x, y] for x, y in self.board.corners]
        return {
            "board": board,
            "points": [
                {"point": p.point, "color": p.color, "count": p.count, "min": p.min, "max": p.max}
                for p in self.points
            ],
            "bar": {"light": self.bar.light, "dark": self.bar.dark},
            "off": {"light": self.off.light, "dark": self.off.dark},
            "dice": [
                {"value": d.value, "center": list(d.center), "zone": d.zone, "cocked": d.cocked}
                for d in self.dice
            ],
            "cube": None
            if self.cube is None
            else {"value": self.cube.value, "center": list(self.cube.center)},
            "occluded": self.occluded,
            "ms": self.ms,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reading:
        """Parse :meth:`to_json` output; raises ``ValueError`` naming the first bad field."""
        board_data = _mapping(data.get("board"), "board")
        found = _bool(board_data.get("found"), "board.found")
        corners_data = board_data.get("corners")
        corners = None
        if corners_data is not None:
            items = _sequence(corners_data, "board.corners")
            if len(items) != 4:
                raise ValueError("board.corners: expected 4 corners")
            c = [_xy(item, f"board.corners[{i}]") for i, item in enumerate(items)]
            corners = (c[0], c[1], c[2], c[3])
        points = tuple(
            _point(item, f"points[{i}]")
            for i, item in enumerate(_sequence(data.get("points", []), "points"))
        )
        dice = tuple(
            _die(item, f"dice[{i}]")
            for i, item in enumerate(_sequence(data.get("dice", []), "dice"))
        )
        cube_data = data.get("cube")
        cube = None
        if cube_data is not None:
            cube_map = _mapping(cube_data, "cube")
            cube = Cube(
                value=_optional_int(cube_map.get("value"), "cube.value"),
                center=_xy(cube_map.get("center"), "cube.center"),
            )
        ms = data.get("ms")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int | float)):
            raise ValueError("ms: expected a number or null")
        return cls(
            board=Board(found=found, corners=corners),
            points=points,
            bar=_sides(data.get("bar", {}), "bar"),
            off=_sides(data.get("off", {}), "off"),
            dice=dice,
            cube=cube,
            occluded=_bool(data.get("occluded", False), "occluded"),
            ms=None if ms is None else float(ms),
        )


Label = Reading
"""A rendered frame's label: a :class:`Reading` filled from exact truth."""


def _mapping(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{field}: expected an object")
    return cast(Mapping[str, Any], value)


def _sequence(value: object, field: str) -> Sequence[Any]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"{field}: expected a list")
    return value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{field}: expected true or false")
    return value


def _int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{field}: expected an integer")
    return value


def _optional_int(value: object, field: str) -> int | None:
    return None if value is None else _int(value, field)


def _xy(value: object, field: str) -> XY:
    items = _sequence(value, field)
    if len(items) != 2 or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in items
    ):
        raise ValueError(f"{field}: expected [x, y] numbers")
    return (float(items[0]), float(items[1]))


def _color(value: object, field: str) -> Color | None:
    if value is None:
        return None
    if value == "light" or value == "dark":
        return value
    raise ValueError(f"{field}: expected 'light', 'dark' or null")


def _point(value: object, field: str) -> PointCount:
    data = _mapping(value, field)
    point = _int(data.get("point"), f"{field}.point")
    if not 1 <= point <= POINTS:
        raise ValueError(f"{field}.point: expected 1..24")
    return PointCount(
        point=point,
        color=_color(data.get("color"), f"{field}.color"),
        count=_optional_int(data.get("count"), f"{field}.count"),
        min=_int(data.get("min"), f"{field}.min"),
        max=_int(data.get("max"), f"{field}.max"),
    )


def _sides(value: object, field: str) -> SideCounts:
    data = _mapping(value, field)
    return SideCounts(
        light=_optional_int(data.get("light"), f"{field}.light"),
        dark=_optional_int(data.get("dark"), f"{field}.dark"),
    )


def _die(value: object, field: str) -> Die:
    data = _mapping(value, field)
    zone = data.get("zone")
    if zone not in ZONES:
        raise ValueError(f"{field}.zone: expected one of {', '.join(ZONES)}")
    return Die(
        value=_optional_int(data.get("value"), f"{field}.value"),
        center=_xy(data.get("center"), f"{field}.center"),
        zone=cast(Zone, zone),
        cocked=_bool(data.get("cocked"), f"{field}.cocked"),
    )
