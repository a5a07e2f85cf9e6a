"""A vision reading (``vision.labels.Reading``) as the referee's board and dice readings.

Both use the image-relative point numbering and the light/dark colours of DESIGN.md section 4;
the referee's configuration (``RefereeConfig.player0_home`` and colours) maps them to players.
A point read exactly (``count``) becomes the range ``count..count``; an uncertain one
``min..max``. A reading with no board, or counts the referee's types refuse, gives no board
reading (None): never a guess.
"""

from __future__ import annotations

from kiosk.referee.events import BoardReading, CubeSeen, DieSeen, PointSeen
from vision.labels import Die, Reading


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
            cube=None if reading.cube is None else CubeSeen(reading.cube.value, None),
            occluded=reading.occluded,
        )
    except ValueError:
        return None


def _die(die: Die) -> DieSeen:
    return DieSeen(die.value, die.cocked, die.zone)


def dice_seen(reading: Reading) -> tuple[DieSeen, ...]:
    """The dice on the table, in a canonical order (by zone, then value; unreadable first), so
    that the same dice read in another order are the same reading."""
    return tuple(
        sorted((_die(d) for d in reading.dice), key=lambda d: (d.zone, d.value or 0, d.cocked))
    )
