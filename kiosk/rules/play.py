"""Checker moves and plays (one turn's moves) in the mover's own numbering.

Points are numbered from the mover's view: 25 is the bar, 1..24 the points, 0 borne off.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.position import BAR, OFF


@dataclass(frozen=True, slots=True, order=True)
class CheckerMove:
    """One checker moved by one die: ``source`` (25 = bar) to ``destination`` (0 = off).

    ``hit`` is True when it lands on a blot of the opponent, which goes to the bar.
    """

    source: int
    destination: int
    hit: bool = False

    def __post_init__(self) -> None:
        if not OFF < self.source <= BAR:
            raise ValueError(f"a move starts on a point 1-24 or the bar (25), not {self.source}")
        if not OFF <= self.destination < self.source:
            raise ValueError(
                f"a move goes forward to a lower point or off: {self.source} to {self.destination}"
            )
        if self.hit and self.destination == OFF:
            raise ValueError("bearing off cannot hit")

    @property
    def pips(self) -> int:
        """Distance moved in pips (a bear-off from a lower point than the die counts the point)."""
        return self.source - self.destination


@dataclass(frozen=True, slots=True)
class Play:
    """The moves of one turn in the order played; empty when the roll cannot be played."""

    moves: tuple[CheckerMove, ...] = ()

    def __len__(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        from kiosk.rules.notation import format_play

        return format_play(self)
