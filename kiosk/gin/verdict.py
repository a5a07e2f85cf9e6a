"""Gin verdicts: is an outcome certain, possible or impossible in a no-contact position?

For the side on roll (A) against the other side (B), whatever the dice. An outcome good for one
side is *certain* when that side can force it against any dice and any play of the other, and
*impossible* when the other side can force it away; otherwise it is *possible*. Results: single
game, gammon (loser has borne off nothing; fewer than 15 checkers can still be gammoned, MSO 4.7,
JBL 4.2.4(1)), backgammon (loser still has a checker on the bar or in the winner's home board).

Without contact the sides race independently. A finishes on its turn ``t_A``, B on its turn
``t_B``, and A's turn ``k`` comes before B's turn ``k``: A wins iff ``t_A <= t_B``. Each side is
summarised by bounds on the turns it needs (:class:`SideBounds`); A's win is certain iff A's most
turns (worst dice, best play) <= B's least turns (best dice, any play), impossible iff B's most <
A's least. The gammon and backgammon tests compare the winner's finish with the loser's first
bear-off or its escape from the winner's home board in the same way.

Where a side has every checker home its bounds are the exact one-sided table values
(:mod:`kiosk.gin.tables`), so with both sides home every verdict is exact. Elsewhere they are
sound bounds: at least ``ceil(pips / 24)`` and ``ceil(checkers / 4)`` turns (24 pips and 4
checkers at most per turn); at most ``n + ceil(D / 3)`` turns to bring ``n`` outside checkers
``D`` pips home by always moving the farthest one (a turn that brings none in moves 3 pips or
more), then the table's most turns from the home board with those checkers on the six-point (a
board that is no worse: ``least`` and ``most`` never grow when a checker moves forward, which
the tests check over the whole table; for the first checker off, the table's envelope over
forward moves, ``most_first_forward``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kiosk.gin.tables import HOME, BearoffTables
from kiosk.rules import BAR, OFF, Position

Verdict = Literal["certain", "possible", "impossible"]

_ZONE = 19
"""A side's points 19-24 are the other side's home board; with the bar (25) the backgammon zone."""
_MOST_PIPS_PER_TURN = 24
_MOST_CHECKERS_PER_TURN = 4
_LEAST_PIPS_PER_TURN = 3


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True, slots=True)
class SideBounds:
    """Turns one side needs (counted from its next turn), as bounds valid whatever the dice.

    ``least``/``most``: to bear off every checker (best dice and any play / worst dice and
    best play); ``least_first``/``most_first``: to bear off a first checker (0 when one is
    already off); ``least_escape``/``most_escape``: to leave the bar and the other side's home
    board (0 when nothing is there). ``exact`` when the side is all home: then these are the
    true values.
    """

    off: int
    least: int
    most: int
    least_first: int
    most_first: int
    least_escape: int
    most_escape: int
    exact: bool


def side_bounds(side: tuple[int, ...], tables: BearoffTables) -> SideBounds:
    """Bounds for one side (26 slots in its own numbering) in a position without contact."""
    on_board = sum(side[1:])
    outside = [(index, side[index]) for index in range(HOME + 1, BAR + 1) if side[index]]
    back = [(index, count) for index, count in outside if index >= _ZONE]
    least_escape = most_escape = 0
    if back:
        escape_pips = sum((index - _ZONE + 1) * count for index, count in back)
        back_checkers = sum(count for _, count in back)
        least_escape = max(
            _ceil_div(escape_pips, _MOST_PIPS_PER_TURN),
            _ceil_div(back_checkers, _MOST_CHECKERS_PER_TURN),
        )
        most_escape = back_checkers + _ceil_div(escape_pips, _LEAST_PIPS_PER_TURN)
    home = side[1 : HOME + 1]
    if not outside:
        i = tables.index(home)
        already = side[OFF] > 0
        return SideBounds(
            side[OFF],
            tables.least[i],
            tables.most[i],
            0 if already else min(1, on_board),
            0 if already else tables.most_first[i],
            0,
            0,
            exact=True,
        )
    distance = sum((index - HOME) * count for index, count in outside)
    entering = sum(count for _, count in outside)
    pips = sum(index * count for index, count in enumerate(side))
    bring_in = entering + _ceil_div(distance, _LEAST_PIPS_PER_TURN)
    stacked = tables.index((*home[:-1], home[-1] + entering))
    return SideBounds(
        side[OFF],
        max(_ceil_div(pips, _MOST_PIPS_PER_TURN), _ceil_div(on_board, _MOST_CHECKERS_PER_TURN)),
        bring_in + tables.most[stacked],
        0
        if side[OFF]
        else max(
            _ceil_div(distance + 1, _MOST_PIPS_PER_TURN),
            _ceil_div(entering + 1, _MOST_CHECKERS_PER_TURN),
        ),
        0 if side[OFF] else bring_in + tables.most_first_forward[stacked],
        least_escape,
        most_escape,
        exact=False,
    )


@dataclass(frozen=True, slots=True)
class GinVerdict:
    """Each outcome for the side on roll; ``exact`` when both sides are all home (every
    verdict is then the true one; otherwise "certain" and "impossible" are proven, "possible"
    may be unproven)."""

    contact: bool
    win: Verdict
    gammon_win: Verdict
    backgammon_win: Verdict
    gammon_loss: Verdict
    backgammon_loss: Verdict
    exact: bool


def _verdict(certain: bool, impossible: bool) -> Verdict:
    if certain:
        return "certain"
    return "impossible" if impossible else "possible"


def gin(position: Position, tables: BearoffTables) -> GinVerdict:
    """The verdicts for the player on roll. The board is taken as given: the borne-off counts
    are ``on_roll[0]`` and ``opponent[0]`` (not 15 minus the checkers on the board)."""
    if position.is_game_over():
        raise ValueError("the game is over: a side has borne off all its checkers")
    a, b = position.on_roll, position.opponent
    if position.has_contact():
        return GinVerdict(
            True,
            "possible",
            _verdict(False, b[OFF] > 0),
            _verdict(False, b[OFF] > 0),
            _verdict(False, a[OFF] > 0),
            _verdict(False, a[OFF] > 0),
            exact=False,
        )
    us, them = side_bounds(a, tables), side_bounds(b, tables)
    # A's turn k comes before B's turn k: A is first to an event at turn s before B's at t iff
    # s <= t; B is first iff t < s.
    return GinVerdict(
        contact=False,
        win=_verdict(us.most <= them.least, them.most < us.least),
        gammon_win=_verdict(
            them.off == 0 and us.most <= them.least_first,
            them.off > 0 or them.most_first < us.least,
        ),
        backgammon_win=_verdict(
            them.off == 0 and them.least_escape > 0 and us.most <= them.least_escape,
            them.off > 0 or them.least_escape == 0 or them.most_escape < us.least,
        ),
        gammon_loss=_verdict(
            us.off == 0 and them.most < us.least_first,
            us.off > 0 or us.most_first <= them.least,
        ),
        backgammon_loss=_verdict(
            us.off == 0 and us.least_escape > 0 and them.most < us.least_escape,
            us.off > 0 or us.least_escape == 0 or us.most_escape <= them.least,
        ),
        exact=us.exact and them.exact,
    )
