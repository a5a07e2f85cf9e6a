"""Hypothesis strategies: positions reached by random play from the start, and rolls."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import legal_results
from kiosk.rules.position import START, Position


def play_randomly(seed: int, turns: int) -> Position:
    """The position after up to ``turns`` random legal plays from the start, stopping before a
    play that would end the game (so the game is still on)."""
    rng = random.Random(seed)
    position = START
    for _ in range(turns):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        mover, opponent = rng.choice(list(legal_results(position, dice)))
        following = Position(opponent, mover)
        if following.is_game_over():
            break
        position = following
    return position


dice_rolls = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))
positions = st.builds(play_randomly, st.integers(0, 2**32 - 1), st.integers(0, 120))
