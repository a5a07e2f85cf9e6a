"""Property tests on full-size positions (15 checkers a side): a "certain" outcome happens in
every playout in which its side plays the strategy behind the bound (fewest turns guaranteed)
and the other side plays at random, whatever the dice; "impossible" likewise from the other side.
Rules: backgammon-rules.txt "Bearing off"; gammons MSO 5.3."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.gin import BearoffTables, gin, side_bounds
from kiosk.rules import Dice, Position, legal_results

Side = tuple[int, ...]
EMPTY: Side = (15,) + (0,) * 25


@st.composite
def race_sides(draw: st.DrawFn, highest: int) -> Side:
    """A side of 15 checkers, some borne off, the rest on points 1..``highest``."""
    off = draw(st.integers(0, 13))
    side = [0] * 26
    side[0] = off
    for _ in range(15 - off):
        side[draw(st.integers(1, highest))] += 1
    return tuple(side)


def plays(side: Side, dice: Dice) -> list[Side]:
    return [mover for mover, _ in legal_results(Position(side, EMPTY), dice)]


def guided(side: Side, dice: Dice, tables: BearoffTables, goal: str) -> Side:
    """The play that keeps the guaranteed bound lowest (finish, or bear off a first checker)."""

    def bound(after: Side) -> int:
        if not any(after[1:]):
            return 0
        bounds = side_bounds(after, tables)
        return bounds.most if goal == "finish" else bounds.most_first

    return min(plays(side, dice), key=bound)


def playout(
    a: Side, b: Side, tables: BearoffTables, seed: int, guided_a: str | None, guided_b: str | None
) -> tuple[str, Side, Side]:
    """Play the race to the end: A first; returns the winner ("a"/"b") and the final sides."""
    rng = random.Random(seed)
    sides = [a, b]
    goals = [guided_a, guided_b]
    turn = 0
    while True:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        goal = goals[turn]
        if goal is None:
            sides[turn] = rng.choice(plays(sides[turn], dice))
        else:
            sides[turn] = guided(sides[turn], dice, tables, goal)
        if not any(sides[turn][1:]):
            return ("a" if turn == 0 else "b"), sides[0], sides[1]
        turn = 1 - turn


@settings(max_examples=60, deadline=None)
@given(race_sides(6), race_sides(6), st.integers(0, 2**32))
def test_certain_wins_and_losses_hold_in_playouts(
    tables: BearoffTables, a: Side, b: Side, seed: int
) -> None:
    verdict = gin(Position(a, b), tables)
    assert verdict.exact
    if verdict.win == "certain":
        winner, _, final_b = playout(a, b, tables, seed, "finish", None)
        assert winner == "a"
        if verdict.gammon_win == "certain":
            assert final_b[0] == 0
    if verdict.win == "impossible":
        winner, final_a, _ = playout(a, b, tables, seed, None, "finish")
        assert winner == "b"
        if verdict.gammon_loss == "certain":
            assert final_a[0] == 0
    if verdict.gammon_loss == "impossible" and a[0] == 0:
        _, final_a, _ = playout(a, b, tables, seed, "first", None)
        assert final_a[0] > 0


@settings(max_examples=40, deadline=None)
@given(race_sides(11), race_sides(11), st.integers(0, 2**32))
def test_sound_outside_home_in_playouts(tables: BearoffTables, a: Side, b: Side, seed: int) -> None:
    """Checkers up to the 11-point (no contact possible): the bounds' strategy meets them."""
    position = Position(a, b)
    assert not position.has_contact()
    verdict = gin(position, tables)
    if verdict.win == "certain":
        assert playout(a, b, tables, seed, "finish", None)[0] == "a"
    if verdict.win == "impossible":
        assert playout(a, b, tables, seed, None, "finish")[0] == "b"
