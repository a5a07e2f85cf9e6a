"""GNU Backgammon Position/Match IDs and XGID: golden values, round trips, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.rules.ids import (
    GameState,
    InvalidIdError,
    MatchInfo,
    decode_match_id,
    decode_position_id,
    match_id,
    position_id,
)
from kiosk.rules.position import START, Position
from kiosk.rules.xgid import Xgid, format_xgid, parse_xgid
from tests.rules.strategies import positions

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_start_position_id_encodes_the_player_not_on_roll_first() -> None:
    assert position_id(START) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == START


def test_position_id_of_an_asymmetric_position() -> None:
    """After 3-1 played 8/5 6/5, with the opponent to roll, gnubg shows ``sGfwATDgc/ABMA``."""
    after = Position.from_points({13: 5, 8: 2, 6: 4, 5: 2, 24: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert position_id(after.swapped()) == "sGfwATDgc/ABMA"
    assert decode_position_id("sGfwATDgc/ABMA") == after.swapped()


@settings(max_examples=300, deadline=None)
@given(positions)
def test_position_id_round_trips(position: Position) -> None:
    text = position_id(position)
    assert len(text) == 14
    assert decode_position_id(text) == position


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("//////////////", "checkers"),
    ],
)
def test_bad_position_ids_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(InvalidIdError, match=fragment):
        decode_position_id(text)


match_infos = st.builds(
    MatchInfo,
    cube_value=st.sampled_from([1, 2, 4, 8, 16, 32, 64]),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    player_to_act=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    match_length=st.integers(0, 64),
    score=st.tuples(st.integers(0, 63), st.integers(0, 63)),
    jacoby=st.booleans(),
)


@given(match_infos)
def test_match_id_round_trips(info: MatchInfo) -> None:
    text = match_id(info)
    assert len(text) == 12
    assert decode_match_id(text) == info


def test_match_id_golden_from_gnubg() -> None:
    """gnubg printed ``MAHrAAAAAAAE`` for a new 7-point match, player 0 to play 6-2 (its Jacoby
    setting on, recorded in the 67th bit)."""
    info = decode_match_id("MAHrAAAAAAAE")
    assert info == MatchInfo(dice=(6, 2), match_length=7, jacoby=True)
    assert match_id(info) == "MAHrAAAAAAAE"


def test_bad_match_ids_name_the_problem() -> None:
    with pytest.raises(InvalidIdError, match="12 characters"):
        decode_match_id("MAHr")
    with pytest.raises(InvalidIdError, match="base64"):
        decode_match_id("MAHr!AAAAAAE")


def test_start_xgid() -> None:
    parsed = parse_xgid(START_XGID)
    assert parsed.position == START
    assert parsed.bottom_on_roll
    assert format_xgid(parsed) == START_XGID


@settings(max_examples=200, deadline=None)
@given(positions, st.booleans(), st.sampled_from(["00", "D", "31", "66"]), st.integers(0, 25))
def test_xgid_round_trips(position: Position, bottom: bool, dice: str, length: int) -> None:
    xgid = Xgid(position, bottom, 1, -1, dice, (1, 2), 0, length, 10)
    text = format_xgid(xgid)
    assert parse_xgid(text) == xgid
    assert format_xgid(parse_xgid(text)) == text


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "cube value"),
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:00:0:0:0:0:10", "character"),
        ("XGID=-b----E-C---eE---c-e---BB-:0:0:1:00:0:0:0:0:10", "17 checkers"),
    ],
)
def test_bad_xgids_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(InvalidIdError, match=fragment):
        parse_xgid(text)
