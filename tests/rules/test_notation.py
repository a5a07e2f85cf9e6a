"""Move notation: canonical formatting, the variants of real match files, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from kiosk.rules.dice import Dice
from kiosk.rules.movegen import apply_play, legal_results
from kiosk.rules.notation import Hop, NotationError, format_play, parse_play, resolve_play
from kiosk.rules.play import CheckerMove, Play
from kiosk.rules.position import BAR, OFF, START, Position
from tests.rules.strategies import dice_rolls, positions


@settings(max_examples=300, deadline=None)
@given(positions, dice_rolls)
def test_every_legal_play_round_trips_through_its_text(position: Position, dice: Dice) -> None:
    for (mover, opponent), play in legal_results(position, dice).items():
        text = format_play(play)
        resolved, legal = resolve_play(position, dice, text)
        assert legal, text
        assert apply_play(position, resolved) == Position(mover, opponent), text
        assert format_play(resolved) == text


@pytest.mark.parametrize(
    ("variant", "canonical"),
    [
        ("25/22", "bar/22"),
        ("bar/22", "bar/22"),
        ("BAR/22", "bar/22"),
        ("6/0", "6/off"),
        ("6/OFF", "6/off"),
        ("13/7*(2)", "13/7*(2)"),
        ("24/18 13/11*", "24/18 13/11*"),
    ],
)
def test_variants_parse_to_the_same_hops(variant: str, canonical: str) -> None:
    assert parse_play(variant) == parse_play(canonical)


def test_hops_of_written_forms() -> None:
    assert parse_play("24/18/12") == [Hop(24, 18, False), Hop(18, 12, False)]
    assert parse_play("13/7*(2)") == [Hop(13, 7, True), Hop(13, 7, True)]
    assert parse_play("25/22 6/0") == [Hop(BAR, 22, False), Hop(6, OFF, False)]
    assert parse_play("Cannot Move") == []
    assert parse_play("") == []


def test_hits_written_without_a_star_are_found_from_the_board() -> None:
    """Real match files often omit ``*``: the hit is a fact of the position."""
    position = Position.from_points({13: 2, 6: 13}, {15: 1, 6: 14})  # their blot on our 10
    with_star, legal_star = resolve_play(position, Dice(3, 1), "13/10*")
    without_star, legal_plain = resolve_play(position, Dice(3, 1), "13/10 6/5")
    assert legal_plain
    assert without_star.moves[0] == CheckerMove(13, 10, True)
    assert format_play(without_star) == "13/10* 6/5"
    assert not legal_star  # a 3-1 must play both dice
    assert with_star.moves == (CheckerMove(13, 10, True),)


def test_combined_move_takes_the_route_the_star_names() -> None:
    """``24/18*/13`` hits on 18; ``24/13`` may pass over 19 instead without hitting."""
    position = Position.from_points({24: 2, 6: 13}, {7: 1, 5: 14})  # their blot on our 18
    hit_route, _ = resolve_play(position, Dice(6, 5), "24/18*/13")
    assert format_play(hit_route) == "24/18*/13"
    quiet_route, legal = resolve_play(position, Dice(6, 5), "24/13")
    assert legal
    assert format_play(quiet_route) == "24/13"


def test_illegal_but_playable_text_is_resolved_and_marked_illegal() -> None:
    play, legal = resolve_play(START, Dice(3, 1), "24/21")
    assert play == Play((CheckerMove(24, 21, False),))
    assert not legal


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("24-18", "not a move"),
        ("18/24", "forward"),
        ("24/18(5)", "repeated"),
        ("off/3", "forward"),
        ("6/off*", "cannot hit"),
        ("24/18 24/18 13/7 13/7 8/2", "at most 4"),
        ("26/20", "0-25"),
    ],
)
def test_bad_notation_names_the_token(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_play(text)


def test_text_that_the_dice_cannot_make_is_an_error() -> None:
    with pytest.raises(NotationError, match="cannot be played with 3-1"):
        resolve_play(START, Dice(3, 1), "24/18")
