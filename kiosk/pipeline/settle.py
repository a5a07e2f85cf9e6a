"""Settled readings only: a board or dice reading reaches the referee once it has been read the
same on ``frames`` consecutive still frames, and only when it changed.

A frame with a hand or motion over the board (``occluded``, ``vision.motion``) or without a board
breaks the streak. Pure bookkeeping: no clock, no I/O; times come with the observations.
"""

from __future__ import annotations

from kiosk.referee.events import BoardRead, BoardReading, DiceRead, DieSeen, Event

SETTLE_FRAMES = 2
"""Consecutive identical still readings needed (at 5-30 fps: 70-400 ms)."""


class Settler:
    """Turns per-frame readings into the referee's ``BoardRead``/``DiceRead`` events."""

    def __init__(
        self,
        frames: int = SETTLE_FRAMES,
        board: BoardReading | None = None,
        dice: tuple[DieSeen, ...] = (),
    ) -> None:
        """``board`` and ``dice``: the readings already settled (a restored match's last ones,
        ``kiosk.pipeline.recovery.last_readings``), which are not announced again."""
        if frames < 1:
            raise ValueError(f"frames: must be >= 1, got {frames}")
        self._frames = frames
        self._candidate: tuple[BoardReading, tuple[DieSeen, ...]] | None = None
        self._streak = 0
        self._board = board
        self._dice = dice

    def feed(self, board: BoardReading | None, dice: tuple[DieSeen, ...], t_ms: int) -> list[Event]:
        """One frame's reading (``board`` None: not read) at ``t_ms``; the events it settles."""
        if board is None or board.occluded:
            self._candidate, self._streak = None, 0
            return []
        seen = (board, dice)
        if seen == self._candidate:
            self._streak += 1
        else:
            self._candidate, self._streak = seen, 1
        if self._streak < self._frames:
            return []
        events: list[Event] = []
        if board != self._board:
            self._board = board
            events.append(BoardRead(board, t_ms))
        if dice != self._dice:
            self._dice = dice
            events.append(DiceRead(dice, t_ms))
        return events
