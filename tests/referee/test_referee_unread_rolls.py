"""The play of a roll the camera did not read tells the roll (``board.fitting_rolls``), checked
on positions reached by random play: the board a legal play leaves fits, and the roll played is
among those that reach it, whichever of its values were read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.match.players import Player
from kiosk.referee.board import fitting_rolls, judge, reading_of, reading_ranges, sides_of
from kiosk.rules import Dice, Position, legal_results, rolls_showing
from tests.referee.table import config
from tests.rules.strategies import dice_rolls, positions

CONFIG = config("mso")


@settings(max_examples=60, deadline=None)
@given(positions, dice_rolls, st.integers(0, 2), st.sampled_from((0, 1)), st.data())
def test_the_play_of_an_unread_roll_tells_it(
    position: Position, dice: Dice, read: int, mover: Player, data: st.DataObject
) -> None:
    moved, other = data.draw(st.sampled_from(list(legal_results(position, dice))))
    before = sides_of(position, mover)
    after = sides_of(Position(moved, other), mover)
    ranges = reading_ranges(reading_of(after, CONFIG), CONFIG)
    known = (dice.first, dice.second)[:read]
    fits = fitting_rolls(before, mover, rolls_showing(known), ranges)
    (fit,) = [f for f in fits if f.result == after]  # an exact reading fits one result once
    assert len(fits) == 1
    rolls = {(d.high, d.low) for d, _ in fit.plays}
    assert (dice.high, dice.low) in rolls
    assert all(set(known) <= {d.first, d.second} for d, _ in fit.plays)
    if read == 2:  # every value read: the same verdict as the roll's own
        verdict = judge(before, mover, dice, ranges, after)
        assert verdict.kind == "legal"
        assert verdict.result == after
