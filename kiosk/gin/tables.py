"""One-sided bear-off tables: for every home-board position, the least and the most turns to
bear off, and the most turns to bear off the first checker.

A home-board position is the checkers one side still has, all on its points 1-6 (up to 15
checkers: 54,264 positions including the empty one). Rules (backgammon-rules.txt, "Bearing off"):
a die bears off a checker from the point of its number, or from the highest occupied point when
it is higher; otherwise it moves a checker inside the board. Without contact nothing blocks
a checker that is home, so every die can be played and a roll is played in full (four times for a
double) or until the last checker is off.

* ``least[p]``: the fewest turns to bear off everything, with the best dice and the best play;
* ``most[p]``: the turns the side can guarantee whatever the dice (worst dice, best play):
  ``most[p] = 1 + max over the 21 rolls of min over the plays of most[result]``;
* ``most_first[p]``: the same guarantee for bearing off at least one checker;
* ``most_first_forward[p]``: the largest ``most_first`` of ``p`` and of every position reached
  from it by moving checkers forward without bearing any off. ``least`` and ``most`` never grow
  when a checker moves forward, but ``most_first`` can (3 and 5 bear off one checker with any
  roll; 2 and 5 do not with 3-1), so bounds that stack checkers use this envelope.

The fewest turns to bear off a first checker is 1 for any non-empty home position (6-6 bears off
from the highest point), so it needs no table. Pure: no I/O (see :mod:`kiosk.gin.cache`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from kiosk.rules import CHECKERS_PER_SIDE

HOME = 6
Home = tuple[int, ...]
"""Checker counts on points 1..6 (index 0 is the ace point)."""

ROLLS: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 distinct rolls."""


def home_positions(max_checkers: int = CHECKERS_PER_SIDE) -> list[Home]:
    """Every home-board position of at most ``max_checkers`` checkers, by increasing pip count."""
    found = []
    for total in range(max_checkers + 1):
        for points in combinations_with_replacement(range(HOME), total):
            counts = [0] * HOME
            for point in points:
                counts[point] += 1
            found.append(tuple(counts))
    found.sort(key=lambda home: (pips(home), home))
    return found


def pips(home: Home) -> int:
    """The pip count of a home position."""
    return sum((point + 1) * count for point, count in enumerate(home))


def one_die(home: Home, die: int) -> Iterator[Home]:
    """The positions after playing one die (the empty position stays empty)."""
    highest = max((point for point in range(HOME) if home[point]), default=-1)
    if highest < 0:
        yield home
        return
    for point in range(highest + 1):
        if not home[point]:
            continue
        number = point + 1
        after = list(home)
        after[point] -= 1
        if number > die:
            after[point - die] += 1
        elif number < die and point != highest:
            continue  # a higher die bears off only from the highest point
        yield tuple(after)


@dataclass(frozen=True)
class BearoffTables:
    """The tables (one byte per position, in turns), indexed like :attr:`positions`."""

    positions: tuple[Home, ...]
    least: bytes
    most: bytes
    most_first: bytes
    most_first_forward: bytes
    _index: dict[Home, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tables = (self.least, self.most, self.most_first, self.most_first_forward)
        sizes = {len(self.positions), *(len(table) for table in tables)}
        if len(sizes) != 1:
            raise ValueError(f"bear-off tables of different lengths: {sorted(sizes)}")
        object.__setattr__(self, "_index", {home: i for i, home in enumerate(self.positions)})

    def index(self, home: Home) -> int:
        """The table index of ``home``; KeyError when it is not in the table."""
        return self._index[home]


def build_tables(max_checkers: int = CHECKERS_PER_SIDE) -> BearoffTables:
    """Compute the tables by dynamic programming over increasing pip counts (results of a roll
    always have fewer pips, so their values are known)."""
    positions = home_positions(max_checkers)
    index = {home: i for i, home in enumerate(positions)}
    count = [sum(home) for home in positions]
    least = [0] * len(positions)
    most = [0] * len(positions)
    first = [0] * len(positions)
    # best[(i, die, moves)] = (min least, min most, min first) over every way to play ``moves``
    # times ``die`` from position i; "first" is 0 once a checker of i has been borne off.
    best: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def after_moves(i: int, die: int, moves: int) -> tuple[int, int, int]:
        key = (i, die, moves)
        found = best.get(key)
        if found is not None:
            return found
        low_least = low_most = low_first = 255
        for home in one_die(positions[i], die):
            j = index[home]
            if moves == 1:
                values = (least[j], most[j], first[j] if count[j] == count[i] else 0)
            else:
                values = after_moves(j, die, moves - 1)
                if count[j] < count[i]:
                    values = (values[0], values[1], 0)
            low_least = min(low_least, values[0])
            low_most = min(low_most, values[1])
            low_first = min(low_first, values[2])
        best[key] = result = (low_least, low_most, low_first)
        return result

    def two_dice(i: int, high: int, low: int) -> tuple[int, int, int]:
        low_least = low_most = low_first = 255
        for first_die, second_die in ((high, low), (low, high)):
            for home in one_die(positions[i], first_die):
                j = index[home]
                values = after_moves(j, second_die, 1)
                low_least = min(low_least, values[0])
                low_most = min(low_most, values[1])
                low_first = min(low_first, 0 if count[j] < count[i] else values[2])
        return low_least, low_most, low_first

    for i in range(1, len(positions)):
        roll_least = 255
        roll_most = roll_first = 0
        for high, low in ROLLS:
            values = after_moves(i, high, 4) if high == low else two_dice(i, high, low)
            roll_least = min(roll_least, values[0])
            roll_most = max(roll_most, values[1])
            roll_first = max(roll_first, values[2])
        least[i] = 1 + roll_least
        most[i] = 1 + roll_most
        first[i] = 1 + roll_first
    forward = first[:]
    for i, home in enumerate(positions):
        for point in range(1, HOME):
            if home[point]:
                moved = list(home)
                moved[point] -= 1
                moved[point - 1] += 1
                forward[i] = max(forward[i], forward[index[tuple(moved)]])
    return BearoffTables(tuple(positions), bytes(least), bytes(most), bytes(first), bytes(forward))
