"""The fast legality verdict agrees with full generation (backgammon-rules.txt)."""

from __future__ import annotations

from hypothesis import given, settings

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import apply_play, legal_results
from kiosk.rules.notation import format_play
from kiosk.rules.position import START, Position
from kiosk.rules.verdict import closest_plays, distance, find_play
from tests.rules.strategies import dice_rolls, positions


@settings(max_examples=300, deadline=None)
@given(positions, dice_rolls, dice_rolls)
def test_verdict_matches_membership_in_the_legal_results(
    position: Position, dice: Dice, other: Dice
) -> None:
    legal = legal_results(position, dice)
    candidates = list(legal) + list(legal_results(position, other))
    for mover, opponent in candidates:
        after = Position(mover, opponent)
        play = find_play(position, dice, after)
        if (mover, opponent) in legal:
            assert play is not None
            assert apply_play(position, play) == after
        else:
            assert play is None


CLOSED_BOARD = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
"""The opponent's checkers: all six home points made, in the opponent's numbering."""


def test_unplayable_roll_is_legal_only_when_nothing_moved() -> None:
    """backgammon-rules.txt: a checker on the bar that cannot enter forfeits the whole roll."""
    closed = Position.from_points({25: 1, 6: 14}, CLOSED_BOARD)
    play = find_play(closed, Dice(6, 5), closed)
    assert play is not None
    assert len(play) == 0
    moved = Position.from_points({25: 1, 1: 1, 6: 13}, CLOSED_BOARD)
    assert find_play(closed, Dice(6, 5), moved) is None


def test_a_hit_that_the_board_does_not_show_is_not_legal() -> None:
    """backgammon-rules.txt: landing on a blot hits it; the blot cannot stay."""
    position = Position.from_points({13: 2, 6: 13}, {24 - 0: 1, 6: 14})  # opponent blot on our 1
    after_without_hit = Position.from_points({13: 1, 6: 13, 1: 1}, {24: 1, 6: 14})
    assert find_play(position, Dice(6, 6), after_without_hit) is None


def test_closest_plays_are_the_legal_plays_nearest_the_board_seen() -> None:
    seen = apply_play(START, next(iter(legal_results(START, Dice(6, 5)).values())))
    closest = closest_plays(START, Dice(6, 4), seen)
    assert closest
    nearest = min(distance(Position(*key), seen) for key in legal_results(START, Dice(6, 4)))
    for play in closest:
        assert distance(apply_play(START, play), seen) == nearest
    texts = [format_play(play) for play in closest]
    assert texts == sorted(texts)
