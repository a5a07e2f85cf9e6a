"""Backgammon positions as immutable values, from the view of the player on roll.

A side is a tuple of 26 checker counts indexed by *pips to go* from that side's own view:
index 0 holds the checkers borne off, 1..24 the points (1 = that side's ace point, 6 its
six-point, 24 the far end of the opponent's home board), 25 the bar. A checker on index ``i``
needs ``i`` pips to be borne off, so a move with a die ``d`` goes from ``i`` to ``i - d``
(``backgammon-rules.txt``, "Movement of the checkers").

The point that the player on roll calls ``p`` is the point the opponent calls ``25 - p``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

CHECKERS_PER_SIDE = 15
OFF = 0
BAR = 25
SLOTS = 26
HOME_POINTS = range(1, 7)

Side = tuple[int, ...]


class InvalidPositionError(ValueError):
    """A position that cannot occur in a game of backgammon (see :class:`Problem`)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


class ProblemKind(Enum):
    """What makes a reported position impossible."""

    NEGATIVE_COUNT = "negative-count"
    TOO_MANY_CHECKERS = "too-many-checkers"
    TOO_FEW_CHECKERS = "too-few-checkers"
    BOTH_COLOURS_ON_POINT = "both-colours-on-point"
    BOTH_SIDES_BORNE_OFF = "both-sides-borne-off"


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a position is invalid; ``side`` is 0 (on roll) or 1 (opponent) where relevant,
    ``index`` the slot in that side's numbering (0 off, 1..24 points, 25 bar)."""

    kind: ProblemKind
    message: str
    side: int | None = None
    index: int | None = None


def _side_tuple(counts: Iterable[int]) -> Side:
    side = tuple(int(count) for count in counts)
    if len(side) != SLOTS:
        raise ValueError(f"a side has {SLOTS} slots (off, points 1-24, bar), got {len(side)}")
    return side


@dataclass(frozen=True, slots=True)
class Position:
    """The checkers of both players; ``on_roll`` is the side to play next.

    Construction does not validate, so that a camera reading with a missing checker can still be
    represented and judged; call :meth:`problems` or :meth:`validate` for that.
    """

    on_roll: Side
    opponent: Side

    @classmethod
    def from_sides(cls, on_roll: Iterable[int], opponent: Iterable[int]) -> Position:
        """Build from two 26-slot sequences (off, points 1..24, bar) in each side's own view."""
        return cls(_side_tuple(on_roll), _side_tuple(opponent))

    @classmethod
    def from_points(
        cls,
        on_roll: dict[int, int],
        opponent: dict[int, int],
    ) -> Position:
        """Build from ``{index: count}`` maps; borne-off checkers are whatever is missing of 15."""
        sides = []
        for mapping in (on_roll, opponent):
            side = [0] * SLOTS
            for index, count in mapping.items():
                if not 1 <= index <= BAR:
                    raise ValueError(f"index {index} is not a point (1-24) or the bar (25)")
                side[index] += count
            side[OFF] = CHECKERS_PER_SIDE - sum(side)
            sides.append(side)
        return cls.from_sides(sides[0], sides[1])

    def swapped(self) -> Position:
        """The same board with the other player on roll."""
        return Position(self.opponent, self.on_roll)

    def pips(self) -> tuple[int, int]:
        """Pip counts (on roll, opponent): the pips each side needs to bear off all checkers."""
        return _pips(self.on_roll), _pips(self.opponent)

    def problems(self) -> list[Problem]:
        """Everything that makes this position impossible (empty for a valid position)."""
        found: list[Problem] = []
        names = ("player on roll", "opponent")
        for side_index, side in enumerate((self.on_roll, self.opponent)):
            for index, count in enumerate(side):
                if count < 0:
                    found.append(
                        Problem(
                            ProblemKind.NEGATIVE_COUNT,
                            f"{names[side_index]} has {count} checkers at {slot_name(index)}",
                            side_index,
                            index,
                        )
                    )
            total = sum(side)
            if total > CHECKERS_PER_SIDE:
                found.append(
                    Problem(
                        ProblemKind.TOO_MANY_CHECKERS,
                        f"{names[side_index]} has {total} checkers, more than 15",
                        side_index,
                    )
                )
            elif total < CHECKERS_PER_SIDE:
                found.append(
                    Problem(
                        ProblemKind.TOO_FEW_CHECKERS,
                        f"{names[side_index]} has {total} checkers, fewer than 15",
                        side_index,
                    )
                )
        for point in range(1, 25):
            if self.on_roll[point] > 0 and self.opponent[BAR - point] > 0:
                found.append(
                    Problem(
                        ProblemKind.BOTH_COLOURS_ON_POINT,
                        f"both players have checkers on point {point} (player on roll's numbering)",
                        0,
                        point,
                    )
                )
        if self.on_roll[OFF] == CHECKERS_PER_SIDE and self.opponent[OFF] == CHECKERS_PER_SIDE:
            found.append(
                Problem(
                    ProblemKind.BOTH_SIDES_BORNE_OFF, "both players have borne off all checkers"
                )
            )
        return found

    def is_valid(self) -> bool:
        """True when :meth:`problems` finds nothing."""
        return not self.problems()

    def validate(self) -> Position:
        """Return ``self``, or raise :class:`InvalidPositionError` listing every problem."""
        found = self.problems()
        if found:
            raise InvalidPositionError(found)
        return self

    def has_contact(self) -> bool:
        """True while some checker of one side still has to pass a checker of the other."""
        mover_back = max(i for i in range(SLOTS) if self.on_roll[i] > 0 or i == 0)
        opponent_back = max(i for i in range(SLOTS) if self.opponent[i] > 0 or i == 0)
        # The opponent's furthest-back checker sits on our point 25 - opponent_back.
        return mover_back + opponent_back > BAR

    def is_game_over(self) -> bool:
        """True when either side has borne off all 15 checkers."""
        return CHECKERS_PER_SIDE in (self.on_roll[OFF], self.opponent[OFF])


def _pips(side: Side) -> int:
    return sum(index * count for index, count in enumerate(side))


def slot_name(index: int) -> str:
    """``'bar'``, ``'off'`` or ``'point N'`` for a slot index."""
    if index == BAR:
        return "the bar"
    if index == OFF:
        return "off"
    return f"point {index}"


_START_SIDE: Side = _side_tuple(
    [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
)
START = Position(_START_SIDE, _START_SIDE)
"""The starting position (``backgammon-rules.txt``, "Setup"): 2 on the 24-point, 5 on the 13,
3 on the 8, 5 on the 6, for each player."""
