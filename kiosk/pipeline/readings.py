"""A vision reading (``vision.labels.Reading``) as the referee's board and dice readings.

Both use the image-relative point numbering and the light/dark colours of DESIGN.md section 4;
the referee's configuration (``RefereeConfig.player0_home`` and colours) maps them to players.
A point read exactly (``count``) becomes the range ``count..count``; an uncertain one
``min..max``. A reading with no board, or counts the referee's types refuse, gives no board
reading (None): never a guess.

Where a die lies (``DieSeen.row``) and where the cube lies (``CubeSeen.place``) come from its
centre (image pixels) projected through the homography of the board's corners (TL, TR, BR, BL
of the playing surface) onto the unit square: ``u`` 0..1 left to right, ``v`` 0..1 from the top
row's edge to the bottom row's, so perspective does not shift the middle line. ``top`` and
``bottom`` are the board's own rows, image-relative like the points (13..24 top, 1..12
bottom); the referee's configuration (``RefereeConfig.row_player``) says which player sits on
each (the roller of an opening die thrown into his own home board, JBL 4.1.4).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kiosk.referee.events import (
    BoardReading,
    CubePlace,
    CubeSeen,
    DieSeen,
    PointSeen,
    Row,
)
from vision.labels import XY, Cube, Die, Reading

Homography = npt.NDArray[np.float64]

ROW_MIDDLE_BAND = 0.04
"""Half-width (share of the surface's height) of the band along the middle line where a die's
row is not told (None): about half a checker, so a die on the line is never assigned by a guess."""

CUBE_CENTRE_BAND = 1 / 6
"""Half-width (share of the surface's height) of the band along the middle line where the cube
counts as centred (MSO 5.2, JBL 4.4.1); beyond it the cube lies on that row's player's side
(MSO 5.4, JBL 4.4.3: the taker draws it to his side)."""

CUBE_SIDE_MARGIN = 0.2
"""How far (share of the surface's width) beside the playing surface the cube still lies on the
board, "at the side of the board" (backgammon-rules.txt): the frame and a tray, about 12% of the
surface's width. Beyond it, or above or below the surface, it is ``off-board`` (removed, MSO
5.2, JBL 4.4.1)."""

_UNIT_SQUARE = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def board_reading(reading: Reading) -> BoardReading | None:
    """The referee's reading of the board, or None when the board was not read."""
    if not reading.board.found:
        return None
    try:
        points = tuple(
            PointSeen(
                p.point,
                p.color,
                p.min if p.count is None else p.count,
                p.max if p.count is None else p.count,
            )
            for p in reading.points
        )
        return BoardReading(
            points=points,
            bar=(reading.bar.light, reading.bar.dark),
            off=(reading.off.light, reading.off.dark),
            cube=None if reading.cube is None else _cube(reading.cube, _to_board(reading)),
            occluded=reading.occluded,
        )
    except ValueError:
        return None


def dice_seen(reading: Reading) -> tuple[DieSeen, ...]:
    """The dice on the table, in a canonical order (by zone, then value, cocked, row; unreadable
    first), so that the same dice read in another order are the same reading."""
    to_board = _to_board(reading)
    return tuple(
        sorted(
            (_die(d, to_board) for d in reading.dice),
            key=lambda d: (d.zone, d.value or 0, d.cocked, d.row or ""),
        )
    )


def board_homography(corners: tuple[XY, XY, XY, XY]) -> Homography | None:
    """The homography taking image pixels to the board's unit square (corners TL, TR, BR, BL to
    (0, 0), (1, 0), (1, 1), (0, 1)), scaled so that the surface's points have ``w > 0``; None
    when the corners make no convex quadrilateral run in that order (three in a line, crossed,
    or listed anticlockwise on the image)."""
    if not _clockwise(corners):
        return None
    rows: list[list[float]] = []
    targets: list[float] = []
    for (x, y), (u, v) in zip(corners, _UNIT_SQUARE, strict=True):
        rows.append([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y])
        rows.append([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y])
        targets += [u, v]
    try:
        h = np.linalg.solve(np.array(rows), np.array(targets))
    except np.linalg.LinAlgError:
        return None
    matrix = np.append(h, 1.0).reshape(3, 3)
    x, y = corners[0]
    return matrix if (matrix @ np.array([x, y, 1.0]))[2] > 0.0 else -matrix


def board_point(to_board: Homography, center: XY) -> XY | None:
    """Image pixel ``center`` as ``(u, v)`` on the board's unit square, or None where it lies
    beyond the vanishing line (no point of the board's plane)."""
    x, y, w = to_board @ np.array([center[0], center[1], 1.0])
    if w <= 0.0:
        return None
    return (float(x / w), float(y / w))


def die_row(to_board: Homography | None, center: XY) -> Row | None:
    """The row a die's centre lies in; None off the playing surface, within ``ROW_MIDDLE_BAND``
    of the middle line, or with no board to measure against."""
    where = None if to_board is None else board_point(to_board, center)
    if where is None:
        return None
    u, v = where
    if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0) or abs(v - 0.5) < ROW_MIDDLE_BAND:
        return None
    return "top" if v < 0.5 else "bottom"


def cube_place(to_board: Homography | None, center: XY) -> CubePlace | None:
    """Where the cube's centre lies: ``centre`` (the middle band, on the bar, on the surface or
    beside it), ``top``/``bottom`` (that row's player's side), ``off-board``; None with no
    board to measure against."""
    if to_board is None:
        return None
    where = board_point(to_board, center)
    if where is None:
        return "off-board"
    u, v = where
    if not (-CUBE_SIDE_MARGIN <= u <= 1.0 + CUBE_SIDE_MARGIN and 0.0 <= v <= 1.0):
        return "off-board"
    if abs(v - 0.5) <= CUBE_CENTRE_BAND:
        return "centre"
    return "top" if v < 0.5 else "bottom"


def _to_board(reading: Reading) -> Homography | None:
    corners = reading.board.corners
    return None if corners is None else board_homography(corners)


def _die(die: Die, to_board: Homography | None) -> DieSeen:
    row = None if die.zone == "off-board" else die_row(to_board, die.center)
    return DieSeen(die.value, die.cocked, die.zone, row)


def _cube(cube: Cube, to_board: Homography | None) -> CubeSeen:
    return CubeSeen(cube.value, cube_place(to_board, cube.center))


def _clockwise(corners: tuple[XY, XY, XY, XY]) -> bool:
    """Whether the corners make a convex quadrilateral run clockwise on the image (y down), as
    TL, TR, BR, BL do."""
    turns = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = (corners[(i + k) % 4] for k in range(3))
        turns.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    return all(turn > 0.0 for turn in turns)
