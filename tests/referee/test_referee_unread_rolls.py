"""The play of a roll the camera did not read tells the roll (``board.fitting_rolls``), checked
on positions reached by random play: the board a legal play leaves fits, and the roll played is
among those that reach it, whichever of its values were read."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.match.players import Player
from kiosk.referee.board import (
    fitting_rolls,
    judge,
    position_of,
    reading_of,
    reading_ranges,
    sides_of,
)
from kiosk.rules import (
    Dice,
    Position,
    apply_play,
    format_play,
    legal_plays,
    legal_results,
    rolls_showing,
)
from tests.referee.table import Table, config, kinds
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


@pytest.mark.parametrize(("ruleset", "seed"), [("mso", 1), ("jbl", 2), ("biba", 3), ("ga", 4)])
def test_games_with_rolls_left_unread_go_on_as_played(ruleset: str, seed: int) -> None:
    """Random games in which a third of the rolls are read with one value or none: the referee
    follows every play exactly, nobody is asked to roll again, and nothing but the director's
    notes on rolls several rolls could make is raised."""
    rng = random.Random(seed)
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    for _ in range(40):
        if table.state.game.phase != "roll":
            break
        mover = table.turn
        rolled = Dice(rng.randint(1, 6), rng.randint(1, 6))
        shown = [rolled.first, rolled.second]
        if rng.random() < 1 / 3:
            for index in rng.sample((0, 1), rng.randint(1, 2)):
                shown[index] = None  # type: ignore[call-overload]
        raised = table.dice(shown[0], shown[1])
        assert table.state.game.phase == "moving"
        before = position_of(table.state.game.sides, mover)
        play = rng.choice(legal_plays(before, rolled))
        after = sides_of(apply_play(before, play), mover)
        raised += table.play_board(after)
        allowed = {"dice_unreadable", "game_won", "match_won"} if None in shown else set()
        assert set(kinds(raised)) <= allowed, (rolled, shown, format_play(play), raised)
        assert table.state.game.sides == after or table.state.game.number > 1
        assert table.state.prompt is None or table.state.prompt.kind != "dice_unreadable"
