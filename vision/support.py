"""What a cocked die could lean on: a die comes to rest tilted only against something.

A die is cocked when it does not lie flat (MSO 4.2, JBL 4.1.4): tipped against a checker, the
raised wall of the playing surface or the bar, the cube or the other die. In a half of the
playing surface with none of these within reach, a die the judge of leaning dice
(``vision.lean``) calls cocked lies flat: ``unpropped`` says so, from the board's reading (where
its counts put the checkers). On the bar (a die there is void however it lies) and off the
playing surface (on the table, in a tray) nothing is said.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vision.board import BoardView
from vision.columns import column_axis, point_column
from vision.labels import XY, PointCount


def unpropped(
    view: BoardView,
    points: Sequence[PointCount],
    rests: XY,
    others: Sequence[XY],
    reach: float,
) -> bool:
    """Whether a die resting at ``rests`` (frame pixels, the board point beneath it) in a half
    of the playing surface has nothing within ``reach`` (canonical pixels) of its centre to
    lean on: no wall of the surface (its edges, the bar's sides), no checker where ``points``
    put them (each point's checkers a pitch apart from its edge, as many as its count or,
    where unsure, its most, rows overflowing towards the middle included), and none of
    ``others`` (the other dice and the cube, frame pixels, taken as reached at their
    centres). False on the bar and off the surface."""
    x, y = view.canonical_point(*rests)
    if not (0.0 <= y <= view.height and (0.0 <= x < view.bar[0] or view.bar[1] < x <= view.width)):
        return False
    walls = (y, view.height - y, x, view.width - x, abs(x - view.bar[0]), abs(x - view.bar[1]))
    if min(walls) <= reach:
        return False
    for point in points:
        count = point.max if point.count is None else point.count
        column, top = point_column(point.point)
        axis, pitch = column_axis(view, column)
        for k in range(count):
            along = (k + 0.5) * pitch
            centre = (axis, along if top else view.height - along)
            if math.dist((x, y), centre) - pitch / 2 <= reach:
                return False
    return all(math.dist((x, y), view.canonical_point(*other)) > reach for other in others)
