"""Boards by player, readings as ranges, and the match of a reading against legal plays.

``Sides`` holds both players' checkers, indexed by player (0, 1), each a 26-slot side in that
player's own numbering (``kiosk.rules.position``: 0 borne off, 1..24 points, 25 the bar).
A reading becomes ``Ranges``: for every slot of every player the lowest and highest count the
reading allows (stacked checkers hide each other; an unreadable tray allows anything). A play is
judged by taking the legal results of the roll (``kiosk.rules.legal_results``) that fit every range:
exactly one is the play; none is an illegal move; more than one needs a better reading (DESIGN.md
section 2: never a silent guess).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kiosk.match.players import Player, opponent
from kiosk.referee.config import RefereeConfig
from kiosk.referee.events import BoardReading, CubeSeen, PointSeen
from kiosk.rules import BAR, OFF, START, Dice, Play, Position, closest_plays, legal_results

Side = tuple[int, ...]
Sides = tuple[Side, Side]
SLOTS = 26
CHECKERS = 15

START_SIDES: Sides = (START.on_roll, START.opponent)
"""The starting setup (backgammon-rules.txt "Setup"), both players."""


def position_of(sides: Sides, on_roll: Player) -> Position:
    """The rules core's position with ``on_roll`` to play."""
    return Position(sides[on_roll], sides[opponent(on_roll)])


def sides_of(position: Position, on_roll: Player) -> Sides:
    """``Sides`` from a position whose player on roll is ``on_roll``."""
    if on_roll == 0:
        return (position.on_roll, position.opponent)
    return (position.opponent, position.on_roll)


def on_board(side: Side) -> int:
    """Checkers still in play (points and bar)."""
    return sum(side[1:])


def borne_off(side: Side, missing: int) -> int:
    """Checkers of ``side`` really borne off: those not on the playing surface less the
    ``missing`` ones, which never were on it (MSO 4.7, JBL 4.2.4(1): they still lose a gammon)."""
    return max(0, CHECKERS - missing - on_board(side))


def as_played(sides: Sides, missing: tuple[int, int]) -> Sides:
    """``sides`` with each borne-off slot holding only the checkers really borne off."""
    played = [list(sides[0]), list(sides[1])]
    for player in (0, 1):
        played[player][OFF] = borne_off(sides[player], missing[player])
    return (tuple(played[0]), tuple(played[1]))


def game_over(sides: Sides) -> Player | None:
    """The player with no checker left in play, if any (fewer than 15 checkers can still be
    borne off: MSO 4.7, JBL 4.2.4(1))."""
    for player in (0, 1):
        if on_board(sides[player]) == 0:
            return player
    return None


def closed_out(sides: Sides, player: Player) -> bool:
    """``player`` has a checker on the bar and the opponent holds all six points of his home board:
    no roll can be played (MSO-clock 3.4, GA "Rolling and moving", BIBA 4.5)."""
    other = sides[opponent(player)]
    return sides[player][BAR] > 0 and all(other[point] >= 2 for point in range(1, 7))


@dataclass(frozen=True)
class Ranges:
    """Per player and slot the count range a reading allows."""

    low: Sides
    high: Sides

    def fits(self, sides: Sides) -> bool:
        """Every slot of both players is within its range."""
        for player in (0, 1):
            low, high, side = self.low[player], self.high[player], sides[player]
            for slot in range(SLOTS):
                if not low[slot] <= side[slot] <= high[slot]:
                    return False
        return True

    def implausible(self) -> str | None:
        """Why no board can fit (more than 15 checkers of a colour seen), or None."""
        for player in (0, 1):
            if sum(self.low[player][1:]) > CHECKERS:
                return f"more than {CHECKERS} checkers of player {player} are seen"
        return None


def reading_ranges(reading: BoardReading, config: RefereeConfig) -> Ranges:
    """The ranges a reading allows, in each player's own numbering."""
    low = [[0] * SLOTS, [0] * SLOTS]
    high = [[0] * SLOTS, [0] * SLOTS]
    for seen in reading.points:
        owners: tuple[Player, ...]
        owners = (0, 1) if seen.colour is None else (config.colour_player(seen.colour),)
        for player in owners:
            slot = config.own_point(player, seen.point)
            low[player][slot] = seen.low if seen.colour is not None else 0
            high[player][slot] = seen.high
    for player in (0, 1):
        index = reading.colour_index(config.player_colour(player))
        for slot, counts in ((BAR, reading.bar), (OFF, reading.off)):
            count = counts[index]
            low[player][slot] = 0 if count is None else count
            high[player][slot] = CHECKERS if count is None else count
    return Ranges((tuple(low[0]), tuple(low[1])), (tuple(high[0]), tuple(high[1])))


def estimate(reading: BoardReading, config: RefereeConfig) -> Sides:
    """One board for a reading, to show and record: the lowest count of each range; an unread
    tray holds the checkers not seen elsewhere."""
    ranges = reading_ranges(reading, config)
    sides: list[Side] = []
    for player in (0, 1):
        side = list(ranges.low[player])
        if ranges.high[player][OFF] > ranges.low[player][OFF]:
            side[OFF] = max(0, CHECKERS - sum(side[1:]))
        sides.append(tuple(side))
    return (sides[0], sides[1])


def exact_sides(reading: BoardReading, config: RefereeConfig) -> Sides | None:
    """The board when every point and the bar are read exactly, else None."""
    ranges = reading_ranges(reading, config)
    for player in (0, 1):
        if any(ranges.low[player][s] != ranges.high[player][s] for s in range(1, SLOTS)):
            return None
    return estimate(reading, config)


def image_points(sides: Sides, config: RefereeConfig) -> tuple[tuple[int, int], ...]:
    """Per image point 1..24: (player 0's count, player 1's count), to draw a tracked board."""
    counts = []
    for image_point in range(1, 25):
        counts.append(
            (sides[0][config.own_point(0, image_point)], sides[1][config.own_point(1, image_point)])
        )
    return tuple(counts)


def add(sides: Sides, delta: Sides) -> Sides | None:
    """``sides`` plus ``delta`` slot by slot, or None when a count would go negative."""
    out: list[Side] = []
    for player in (0, 1):
        side = tuple(a + b for a, b in zip(sides[player], delta[player], strict=True))
        if min(side) < 0:
            return None
        out.append(side)
    return (out[0], out[1])


def difference(first: Sides, second: Sides) -> Sides:
    """``first`` minus ``second`` slot by slot."""
    return (
        tuple(a - b for a, b in zip(first[0], second[0], strict=True)),
        tuple(a - b for a, b in zip(first[1], second[1], strict=True)),
    )


VerdictKind = Literal["legal", "illegal", "ambiguous"]


@dataclass(frozen=True)
class Verdict:
    """A play judged: ``legal`` with the result and play, ``illegal`` with the closest legal
    plays, ``ambiguous`` with every legal play that fits the reading."""

    kind: VerdictKind
    result: Sides | None
    play: Play | None
    plays: tuple[Play, ...]


def judge(
    before: Sides, mover: Player, dice: Dice, ranges: Ranges, seen: Sides, limit: int = 5
) -> Verdict:
    """Match a reading (``ranges``; ``seen`` its estimate) against the legal plays of ``dice``
    by ``mover`` from ``before`` (backgammon-rules.txt "Movement of the checkers")."""
    fitting: list[tuple[Sides, Play]] = []
    for (moved, other), play in legal_results(position_of(before, mover), dice).items():
        result: Sides = (moved, other) if mover == 0 else (other, moved)
        if ranges.fits(result):
            fitting.append((result, play))
    if len(fitting) == 1:
        result, play = fitting[0]
        return Verdict("legal", result, play, (play,))
    if fitting:
        return Verdict("ambiguous", None, None, tuple(play for _, play in fitting))
    closest = closest_plays(position_of(before, mover), dice, position_of(seen, mover), limit)
    return Verdict("illegal", None, None, tuple(closest))


@dataclass(frozen=True)
class RollFit:
    """A result a play of a roll that was not read reaches and the reading fits: the rolls
    (of those the dice may show) whose legal plays reach it, each with its play."""

    result: Sides
    plays: tuple[tuple[Dice, Play], ...]


def fitting_rolls(
    before: Sides, mover: Player, rolls: Sequence[Dice], ranges: Ranges
) -> tuple[RollFit, ...]:
    """The results a legal play of any of ``rolls`` by ``mover`` from ``before`` reaches that
    the reading (``ranges``) fits, in the order of ``rolls``: one is the play and tells the roll
    (or the rolls it could have been); none, no roll the dice may show makes the board legal;
    several, a better reading is needed (``judge``'s rule, over every roll not ruled out)."""
    fits: dict[Sides, list[tuple[Dice, Play]]] = {}
    for dice in rolls:
        for (moved, other), play in legal_results(position_of(before, mover), dice).items():
            result: Sides = (moved, other) if mover == 0 else (other, moved)
            if ranges.fits(result):
                fits.setdefault(result, []).append((dice, play))
    return tuple(RollFit(result, tuple(plays)) for result, plays in fits.items())


def reading_of(
    sides: Sides,
    config: RefereeConfig,
    cube: CubeSeen | None = None,
    hidden: int = 0,
    trays: bool = True,
) -> BoardReading:
    """The reading a camera would report of a board, for scripted matches and the demo: exact by
    default (the inverse of ``reading_ranges``). ``hidden``: on stacks of 3 or more that many
    checkers are hidden, so the range runs from the visible ones to what the colour's checkers
    seen elsewhere leave (as ``vision.labels`` describes); ``trays=False``: borne-off counts
    unread."""
    counts: list[tuple[int, Player | None, int]] = []
    for image_point in range(1, 25):
        mine = [sides[p][config.own_point(p, image_point)] for p in (0, 1)]
        owner: Player | None = 0 if mine[0] else 1 if mine[1] else None
        count = 0 if owner is None else mine[owner]
        low = max(2, count - hidden) if count >= 3 else count
        counts.append((count, owner, low))
    seen = [sides[p][BAR] + sum(low for _, owner, low in counts if owner == p) for p in (0, 1)]
    points = []
    for image_point, (count, owner, low) in enumerate(counts, start=1):
        if owner is None:
            points.append(PointSeen(image_point, None, 0, 0))
            continue
        high = count if low == count else CHECKERS - (seen[owner] - low)
        points.append(PointSeen(image_point, config.player_colour(owner), low, high))
    light = config.colour_player("light")
    dark = opponent(light)
    off: tuple[int | None, int | None] = (sides[light][OFF], sides[dark][OFF])
    return BoardReading(
        points=tuple(points),
        bar=(sides[light][BAR], sides[dark][BAR]),
        off=off if trays else (None, None),
        cube=cube,
    )
