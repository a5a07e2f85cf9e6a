"""Golden cases of legal play, each citing the rule it exercises.

Sources: ``backgammon-rules.txt`` ("Hitting and Entering Rule", "Bearing off rule") and the
standard rule of play that both dice are played when possible, otherwise the larger one (GNU
Backgammon's generator; every tournament set assumes it). Points are in the mover's numbering;
opponent maps are in the opponent's own numbering (their point ``p`` is our ``25 - p``).
"""

from __future__ import annotations

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import legal_plays
from kiosk.rules.notation import format_play
from kiosk.rules.position import START, Position


def plays_of(position: Position, first: int, second: int) -> list[str]:
    return sorted(format_play(play) for play in legal_plays(position, Dice(first, second)))


def test_larger_die_forced_when_only_one_die_can_be_played() -> None:
    """Standard rule: either die alone can be played but not both, so the larger (6) is played."""
    position = Position.from_points(
        {24: 1, 8: 1, 6: 13},
        # Our 19 and 18 (their 6 and 7) block the back checker; our 1 (their 24) stops 6/1.
        {6: 2, 7: 2, 24: 2, 13: 9},
    )
    assert plays_of(position, 6, 5) == ["8/2"]
    assert plays_of(position, 5, 6) == ["8/2"]


def test_order_that_matters_one_then_six() -> None:
    """Standard rule: both dice must be played; only the 1 first lets the 6 play (24/23/17)."""
    position = Position.from_points({24: 1, 6: 14}, {7: 2, 13: 13})  # their 7 is our 18
    assert plays_of(position, 6, 1) == ["24/17"]


def test_partial_double_enter_both_then_blocked() -> None:
    """Hitting and Entering Rule: enter as many as possible, forfeit the rest (two of 5-5)."""
    position = Position.from_points(
        {25: 2, 6: 13},
        # Their 10 is our 15 (blocks 20/15); their 24 is our 1 (blocks 6/1).
        {10: 2, 24: 2, 13: 11},
    )
    assert plays_of(position, 5, 5) == ["bar/20(2)"]


def test_enter_first_then_the_rest_with_any_checker() -> None:
    """Hitting and Entering Rule: after the last checker enters, the other number is played by
    the entered checker or another (their 6-point, our 19, is made, so only the 4 enters)."""
    position = Position.from_points({25: 1, 13: 2, 6: 12}, {6: 2, 13: 13})
    assert plays_of(position, 6, 4) == ["bar/15", "bar/21 13/7"]


def test_bar_entry_blocked_forfeits_the_roll() -> None:
    """Hitting and Entering Rule: if neither point is open, the player loses the turn."""
    position = Position.from_points({25: 1, 6: 14}, {6: 2, 5: 2, 13: 11})
    assert plays_of(position, 6, 5) == [""]


def test_dancing_against_a_closed_board() -> None:
    """Hitting and Entering Rule: no open point at all, every roll is forfeited."""
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    position = Position.from_points({25: 2, 6: 13}, closed)
    for first in range(1, 7):
        for second in range(1, 7):
            assert plays_of(position, first, second) == [""]


def test_one_checker_on_the_bar_enters_then_the_roll_continues_only_with_open_points() -> None:
    """Hitting and Entering Rule: with two on the bar and one entry point, enter one and stop."""
    position = Position.from_points({25: 2, 6: 13}, {6: 2, 13: 13})  # their 6 is our 19
    assert plays_of(position, 6, 3) == ["bar/22"]


def test_bear_off_from_the_highest_point_with_a_larger_die() -> None:
    """Bearing off rule: no checker on the point rolled nor higher, so bear off the highest."""
    position = Position.from_points({4: 1, 3: 1}, {6: 15})
    assert plays_of(position, 6, 5) == ["4/off 3/off"]


def test_bearing_off_must_move_a_higher_checker_when_one_exists() -> None:
    """Bearing off rule: no checker on the point rolled, so a checker on a higher point moves
    (with 4-1 the 3 cannot bear off while the 6 stands higher)."""
    position = Position.from_points({6: 1, 3: 1}, {6: 15})
    assert plays_of(position, 4, 1) == ["6/1", "6/2 3/2"]
    assert plays_of(position, 4, 4) == ["6/off 3/off"]


def test_no_obligation_to_bear_off() -> None:
    """Bearing off rule: a player may make an otherwise legal move instead of bearing off."""
    position = Position.from_points({6: 2, 2: 1}, {6: 15})
    assert plays_of(position, 2, 1) == ["6/3", "6/4 2/1", "6/5 2/off", "6/5 6/4"]


def test_no_bearing_off_until_all_checkers_are_home() -> None:
    """Bearing off rule: all active checkers must be home; the 7 must come in before 2/off."""
    position = Position.from_points({7: 1, 2: 14}, {6: 15})
    assert plays_of(position, 2, 1) == ["7/4", "7/5 2/1", "7/6 2/off"]


def test_hitting_on_the_way_with_doubles() -> None:
    """Hitting and Entering Rule: a checker that lands on a blot on its way hits it, so every
    play moving a checker from 13 hits on 10 (their 15)."""
    position = Position.from_points({13: 2, 6: 13}, {15: 1, 6: 14})
    assert plays_of(position, 3, 3) == [
        "13/10 13/10*/4",
        "13/10 13/10*/7 6/3",
        "13/10* 6/3(3)",
        "13/10*(2) 6/3(2)",
        "13/10*/1",
        "13/10*/4 6/3",
        "13/10*/7 6/3(2)",
        "13/10*/7(2)",
        "6/3(4)",
    ]


def test_opening_three_one_has_sixteen_plays() -> None:
    """Plays are told apart by their resulting position: 16 distinct plays of 3-1 at the start."""
    plays = plays_of(START, 3, 1)
    assert len(plays) == 16
    assert "8/5 6/5" in plays
