"""Property tests of legal play generation against the slow reference (backgammon-rules.txt)."""

from __future__ import annotations

from hypothesis import given, settings

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import apply_play, legal_results
from kiosk.rules.position import CHECKERS_PER_SIDE, Position
from tests.rules.reference import reference_results
from tests.rules.strategies import dice_rolls, positions


@settings(max_examples=400, deadline=None)
@given(positions, dice_rolls)
def test_generated_plays_are_exactly_the_reference_plays(position: Position, dice: Dice) -> None:
    results = legal_results(position, dice)
    assert set(results) == reference_results(position, dice.first, dice.second)


@settings(max_examples=300, deadline=None)
@given(positions, dice_rolls)
def test_every_play_keeps_fifteen_checkers_a_side_and_replays_to_its_result(
    position: Position, dice: Dice
) -> None:
    assert position.is_valid()
    for (mover, opponent), play in legal_results(position, dice).items():
        assert sum(mover) == CHECKERS_PER_SIDE
        assert sum(opponent) == CHECKERS_PER_SIDE
        after = apply_play(position, play)
        assert (after.on_roll, after.opponent) == (mover, opponent)
        assert after.is_valid()


@settings(max_examples=300, deadline=None)
@given(positions, dice_rolls)
def test_all_plays_have_the_same_number_of_moves(position: Position, dice: Dice) -> None:
    lengths = {len(play) for play in legal_results(position, dice).values()}
    assert len(lengths) == 1
    assert lengths.pop() <= (4 if dice.is_double else 2)
