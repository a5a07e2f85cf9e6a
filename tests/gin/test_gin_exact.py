"""Gin verdicts against the brute-force game tree (rules: backgammon-rules.txt "Bearing off",
gammons and backgammons MSO 5.3, 4.7; fewer than 15 checkers can be gammoned, MSO 4.7)."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

from kiosk.gin import BearoffTables, GinVerdict, gin
from kiosk.gin.tables import HOME, build_tables, home_positions
from kiosk.rules import Position

sys.path.insert(0, str(Path(__file__).parent))
from gin_bruteforce import expected_verdicts

Side = tuple[int, ...]
OUTCOMES = ("win", "gammon_win", "backgammon_win", "gammon_loss", "backgammon_loss")


def sides(most_on_board: int, points: range | list[int], borne_off: tuple[int, ...]) -> list[Side]:
    """Every side of 1..``most_on_board`` checkers on ``points`` with each borne-off count."""
    found = []
    for count in range(1, most_on_board + 1):
        for combo in itertools.combinations_with_replacement(points, count):
            for off in borne_off:
                side = [0] * 26
                side[0] = off
                for point in combo:
                    side[point] += 1
                found.append(tuple(side))
    return found


def as_dict(verdict: GinVerdict) -> dict[str, str]:
    return {name: getattr(verdict, name) for name in OUTCOMES}


def test_known_table_values(tables: BearoffTables) -> None:
    """15 checkers on the six-point: 4 turns with 6-6 every time, 30 with 2-1 every time."""
    full = tables.index((0, 0, 0, 0, 0, 15))
    assert (tables.least[full], tables.most[full]) == (4, 30)
    two_on_ace = tables.index((2, 0, 0, 0, 0, 0))
    assert (tables.least[two_on_ace], tables.most[two_on_ace]) == (1, 1)
    one_on_six = tables.index((0, 0, 0, 0, 0, 1))
    assert (tables.least[one_on_six], tables.most[one_on_six], tables.most_first[one_on_six]) == (
        1,
        2,
        2,
    )
    assert len(tables.positions) == 54264


def test_tables_never_worse_after_a_forward_move(tables: BearoffTables) -> None:
    """The lemma behind the bounds outside the home board: moving any checker one pip forward
    (or off from the ace point) never increases least or most turns, nor the forward envelope
    of the most turns to a first checker off (which bounds ``most_first``)."""
    for i, home in enumerate(tables.positions):
        for point in range(HOME):
            if not home[point]:
                continue
            after = list(home)
            after[point] -= 1
            if point:
                after[point - 1] += 1
            j = tables.index(tuple(after))
            first_after = 0 if point == 0 else tables.most_first_forward[j]
            assert tables.least[j] <= tables.least[i], home
            assert tables.most[j] <= tables.most[i], home
            assert first_after <= tables.most_first_forward[i], home
        assert tables.most_first[i] <= tables.most_first_forward[i]


def test_most_first_is_not_monotone(tables: BearoffTables) -> None:
    """Why the envelope exists: 3 and 5 bear off a checker with any roll, 2 and 5 not with 3-1."""
    assert tables.most_first[tables.index((0, 0, 1, 0, 1, 0))] == 1
    assert tables.most_first[tables.index((0, 1, 0, 0, 1, 0))] == 2


def test_small_build_agrees_with_full_tables(tables: BearoffTables) -> None:
    """Tables built for up to 4 checkers give the same values as the full build."""
    small = build_tables(max_checkers=4)
    assert list(small.positions) == home_positions(4)
    for i, home in enumerate(small.positions):
        j = tables.index(home)
        small_values = (small.least[i], small.most[i], small.most_first[i])
        assert small_values == (tables.least[j], tables.most[j], tables.most_first[j])


def test_exact_when_both_sides_home_exhaustive(tables: BearoffTables) -> None:
    """Every pair of home boards of 1-3 checkers (none or one borne off): each verdict equals
    the brute-force game tree over all 21 rolls and all legal plays."""
    homes = sides(3, range(1, 7), (0, 1))
    checked = 0
    for a in homes:
        for b in homes:
            verdict = gin(Position(a, b), tables)
            assert verdict.exact
            assert as_dict(verdict) == expected_verdicts(a, b), (a, b)
            checked += 1
    assert checked == len(homes) ** 2 > 20000


def test_sound_with_checkers_outside_home(tables: BearoffTables) -> None:
    """Checkers outside the home board, and in the opponent's home board (backgammon zone):
    "certain" and "impossible" are never wrong against brute force."""
    outside = sides(2, range(1, 11), (0,))
    pairs = [(a, b) for a in outside for b in outside]
    home = sides(2, range(1, 7), (0,))
    back = sides(2, [3, 19, 20, 21], (0,))
    pairs += [(a, b) for a in home for b in back] + [(b, a) for a in home for b in back]
    decided = 0
    for a, b in pairs:
        position = Position(a, b)
        if position.has_contact():
            continue
        expected = expected_verdicts(a, b)
        verdict = as_dict(gin(position, tables))
        for name, got in verdict.items():
            if got != "possible":
                assert got == expected[name], (a, b, name)
                decided += 1
    assert decided > 10000


def test_contact_is_never_certain(tables: BearoffTables) -> None:
    """With contact nothing is claimed except what borne-off checkers already rule out."""
    from kiosk.rules import START

    verdict = gin(START, tables)
    assert verdict.contact
    assert "certain" not in as_dict(verdict).values()


def test_game_over_is_rejected(tables: BearoffTables) -> None:
    over = Position((15,) + (0,) * 25, (0, 0, 0, 0, 0, 15) + (0,) * 20)
    with pytest.raises(ValueError, match="game is over"):
        gin(over, tables)


@pytest.mark.slow
def test_exact_with_four_checkers_a_side(tables: BearoffTables) -> None:
    """Random home boards of 4 checkers a side, none borne off (so gammons are in play): every
    verdict equals the brute-force game tree."""
    rng = random.Random(4)
    for _ in range(12):
        a, b = (home_side(rng, 4), home_side(rng, 4))
        assert as_dict(gin(Position(a, b), tables)) == expected_verdicts(a, b), (a, b)


def home_side(rng: random.Random, checkers: int) -> Side:
    side = [0] * 26
    for _ in range(checkers):
        side[rng.randint(1, HOME)] += 1
    return tuple(side)
