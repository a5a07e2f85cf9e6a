"""Position values: the start, pip counts, contact, and the validity of reported boards."""

from __future__ import annotations

import pytest

from kiosk.rules.dice import Dice, InvalidDiceError, rolls_showing
from kiosk.rules.position import (
    START,
    InvalidPositionError,
    Position,
    ProblemKind,
)


def test_start_position_has_fifteen_a_side_and_167_pips() -> None:
    """backgammon-rules.txt: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6."""
    assert START.is_valid()
    assert START.pips() == (167, 167)
    assert START.swapped() == START
    assert START.has_contact()


def test_pips_count_the_bar_as_25() -> None:
    position = Position.from_points({25: 1, 6: 14}, {1: 15})
    assert position.pips() == (25 + 6 * 14, 15)


def test_contact_ends_when_the_sides_have_passed() -> None:
    race = Position.from_points({12: 15}, {12: 15})  # our 12 and their 12 (our 13)
    assert not race.has_contact()
    engaged = Position.from_points({13: 15}, {13: 15})  # our 13 faces their 13 = our 12
    assert engaged.has_contact()
    assert Position.from_points({25: 1, 1: 14}, {1: 15}).has_contact()


def test_a_reading_with_a_missing_checker_is_representable_and_reported() -> None:
    reading = Position.from_sides([0] * 6 + [4] + [0] * 19, START.opponent)
    kinds = [problem.kind for problem in reading.problems()]
    assert kinds == [ProblemKind.TOO_FEW_CHECKERS]
    with pytest.raises(InvalidPositionError, match="fewer than 15"):
        reading.validate()


def test_both_colours_on_one_point_and_negative_counts_are_reported() -> None:
    on_roll = list(START.on_roll)
    on_roll[1] = 1  # our 1 is their 24, where they have 2 checkers
    on_roll[6] -= 1
    problems = Position.from_sides(on_roll, START.opponent).problems()
    assert [p.kind for p in problems] == [ProblemKind.BOTH_COLOURS_ON_POINT]
    assert problems[0].index == 1
    negative = list(START.opponent)
    negative[6] = -1
    negative[0] = 6
    kinds = {p.kind for p in Position.from_sides(START.on_roll, negative).problems()}
    assert ProblemKind.NEGATIVE_COUNT in kinds


def test_too_many_checkers_and_both_sides_finished() -> None:
    extra = list(START.on_roll)
    extra[6] += 1
    kinds = [p.kind for p in Position.from_sides(extra, START.opponent).problems()]
    assert kinds == [ProblemKind.TOO_MANY_CHECKERS]
    finished = [15] + [0] * 25
    kinds = [p.kind for p in Position.from_sides(finished, finished).problems()]
    assert kinds == [ProblemKind.BOTH_SIDES_BORNE_OFF]


def test_a_side_has_26_slots() -> None:
    with pytest.raises(ValueError, match="26 slots"):
        Position.from_sides([0] * 25, START.opponent)
    with pytest.raises(ValueError, match="not a point"):
        Position.from_points({26: 1}, {})


def test_dice_values_and_parsing() -> None:
    assert Dice(3, 5).moves == (5, 3)
    assert Dice(4, 4).moves == (4, 4, 4, 4)
    assert Dice.parse("5-2") == Dice(5, 2)
    assert Dice.parse("52") == Dice(5, 2)
    assert str(Dice(5, 2)) == "52"
    with pytest.raises(InvalidDiceError, match="first die"):
        Dice(0, 3)
    with pytest.raises(InvalidDiceError, match="second die"):
        Dice(3, 7)
    with pytest.raises(InvalidDiceError, match="two digits"):
        Dice.parse("5")


def test_the_rolls_a_pair_of_dice_may_show() -> None:
    assert len(rolls_showing(())) == 21
    assert rolls_showing((4,)) == tuple(
        Dice(max(4, v), min(4, v)) for v in (1, 2, 3) if v < 4
    ) + tuple(Dice(v, 4) for v in (4, 5, 6))
    assert rolls_showing((3, 3)) == (Dice(3, 3),)
    assert rolls_showing((2, 5)) == (Dice(5, 2),)
    assert all(len(rolls_showing((v,))) == 6 for v in range(1, 7))
    with pytest.raises(InvalidDiceError, match="first die"):
        rolls_showing((7,))
    with pytest.raises(InvalidDiceError, match="two values"):
        rolls_showing((1, 2, 3))
