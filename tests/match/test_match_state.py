"""Match state: score, Crawford and post-Crawford games, results, penalty points, money play."""

from __future__ import annotations

import pytest

from kiosk.match import (
    GameInProgressError,
    InvalidResultError,
    Match,
    MatchError,
    MatchOverError,
    NoGameInProgressError,
    award_penalty,
    end_match,
    finish_game,
    new_match,
    result_kind,
    start_game,
)
from kiosk.rulesets import load_ruleset, with_overrides

MSO = load_ruleset("mso")
JBL = load_ruleset("jbl")
MONEY = load_ruleset("money")


def _play(match: Match, winner: int, kind: str = "single", cube: int = 1) -> Match:
    side = 0 if winner == 0 else 1
    assert kind in ("single", "gammon", "backgammon")
    return finish_game(start_game(match), MSO, side, kind, cube, "bear_off", cube > 1)  # type: ignore[arg-type]


def test_results_score_cube_times_single_gammon_backgammon_mso_5_3() -> None:
    """MSO 5.3: gammons and backgammons count at all times (x cube)."""
    match = new_match(MSO, 25)
    match = _play(match, 0, "single", 2)
    match = _play(match, 1, "gammon", 4)
    match = _play(match, 0, "backgammon", 1)
    assert match.score == (5, 8)
    assert [g.points for g in match.games] == [2, 8, 3]
    assert [g.number for g in match.games] == [1, 2, 3]


def test_fewer_than_15_checkers_can_be_gammoned_mso_4_7() -> None:
    """MSO 4.7 / JBL 4.2.4(1): a player short of checkers, none borne off, is gammoned."""
    assert result_kind(loser_borne_off=0, loser_in_winners_home_or_on_bar=False) == "gammon"
    assert result_kind(loser_borne_off=0, loser_in_winners_home_or_on_bar=True) == "backgammon"
    assert result_kind(loser_borne_off=1, loser_in_winners_home_or_on_bar=True) == "single"
    with pytest.raises(InvalidResultError, match="loser_borne_off"):
        result_kind(-1, False)


def test_crawford_game_then_post_crawford_mso_5_5() -> None:
    """MSO 5.5: when a player reaches match point the cube is out for that one game only."""
    match = _play(new_match(MSO, 5), 0, "gammon", 2)  # 4-0: player 0 at match point
    crawford = start_game(match)
    assert crawford.crawford_game
    with pytest.raises(InvalidResultError, match="Crawford"):
        finish_game(crawford, MSO, 1, "single", 2, "pass")
    after = finish_game(crawford, MSO, 1, "single", 1, "bear_off")
    assert after.crawford_played
    assert after.post_crawford
    assert not start_game(after).crawford_game
    assert after.games[-1].crawford


def test_no_crawford_when_the_rule_is_off() -> None:
    no_crawford = with_overrides(MSO, {"cube.crawford": False})
    match = new_match(no_crawford, 3)
    match = finish_game(start_game(match), no_crawford, 0, "gammon", 1, "bear_off")
    assert not start_game(match).crawford_game


def test_match_under_way_at_match_point_starts_with_crawford_jbl_4_4_4() -> None:
    """JBL 4.4.4: the game after a player comes within 1 point is the Crawford game."""
    assert start_game(new_match(JBL, 7, (6, 2))).crawford_game


def test_end_of_match_and_nothing_after() -> None:
    match = _play(new_match(MSO, 3), 1, "backgammon", 1)
    assert match.over
    assert (match.winner, match.ended_by) == (1, "score")
    with pytest.raises(MatchOverError):
        start_game(match)


def test_pass_is_a_single_game_at_the_old_value_mso_5_4() -> None:
    """MSO 5.4: a passed double ends the game; the doubler scores the value before it."""
    match = finish_game(start_game(new_match(MSO, 7)), MSO, 0, "single", 2, "pass", True)
    assert match.score == (2, 0)
    with pytest.raises(InvalidResultError, match="single game"):
        finish_game(start_game(new_match(MSO, 7)), MSO, 0, "gammon", 2, "pass", True)


def test_illegal_transitions_raise_specific_errors() -> None:
    match = new_match(MSO, 7)
    with pytest.raises(NoGameInProgressError):
        finish_game(match, MSO, 0, "single", 1, "bear_off")
    with pytest.raises(GameInProgressError):
        start_game(start_game(match))
    with pytest.raises(InvalidResultError, match="power of two"):
        finish_game(start_game(match), MSO, 0, "single", 3, "bear_off")
    with pytest.raises(MatchError, match="length"):
        new_match(MSO, -1)
    with pytest.raises(MatchError, match="score"):
        new_match(MSO, 7, (7, 0))
    with pytest.raises(MatchError, match="at least 1"):
        award_penalty(match, MSO, 0, 0, "director", "x")


def test_penalty_points_can_end_the_match_mso_clock_5_1() -> None:
    """MSO-clock 5.1: penalty points may end the match immediately."""
    match = start_game(new_match(MSO, 5, (3, 0)))
    after = award_penalty(match, MSO, 0, 2, "time_expiry", "MSO-clock 5.1")
    assert (after.winner, after.ended_by, after.score) == (0, "penalty_points", (5, 0))
    assert after.penalties[0].points == 2


def test_penalty_to_match_point_freezes_cube_and_forces_crawford_mso_clock_5_2() -> None:
    """MSO-clock 5.2: penalty points bring a player within one point: the cube is frozen for the
    game in progress and the next game is the Crawford game."""
    match = start_game(new_match(MSO, 7, (4, 2)))
    after = award_penalty(match, MSO, 0, 2, "time_expiry", "MSO-clock 5.1")
    assert after.score == (6, 2)
    assert after.cube_frozen
    assert after.in_game
    finished = finish_game(after, MSO, 1, "single", 1, "bear_off")
    assert not finished.cube_frozen
    assert start_game(finished).crawford_game


def test_penalty_short_of_match_point_leaves_the_cube() -> None:
    match = start_game(new_match(MSO, 9, (2, 2)))
    assert not award_penalty(match, MSO, 1, 2, "time_expiry", "MSO-clock 5.1").cube_frozen


def test_late_arrival_penalty_before_the_first_game_mso_2_3() -> None:
    """MSO 2.3: penalty points to the opponent of a latecomer, before any game."""
    match = award_penalty(new_match(MSO, 7), MSO, 1, 1, "late_arrival", "MSO 2.3")
    assert match.score == (0, 1)
    assert match.penalties[0].game == 0


def test_end_match_on_time_biba_time_expiration() -> None:
    """BIBA 'Time Expiration': the expired player loses the match."""
    match = end_match(start_game(new_match(load_ruleset("biba"), 11, (3, 2))), 1, "time")
    assert (match.winner, match.ended_by, match.in_game) == (1, "time", False)


def test_money_session_never_ends_and_has_no_crawford() -> None:
    session = new_match(MONEY, 0)
    for _ in range(3):
        session = finish_game(start_game(session), MONEY, 0, "gammon", 4, "bear_off", True)
    assert session.score == (24, 0)
    assert not session.over
    assert not session.crawford_game
    with pytest.raises(MatchError, match="money"):
        end_match(session, 0, "time")


def test_jacoby_rule_money_play() -> None:
    """backgammon-rules.txt 'Optional Rule': with Jacoby, gammons count only after a double."""
    jacoby = with_overrides(MONEY, {"cube.jacoby": True})
    no_double = finish_game(start_game(new_match(jacoby, 0)), jacoby, 1, "gammon", 1, "bear_off")
    assert no_double.score == (0, 1)
    assert no_double.games[0].jacoby_applied
    automatic = finish_game(start_game(new_match(jacoby, 0)), jacoby, 1, "gammon", 2, "bear_off")
    assert automatic.score == (0, 2)  # an automatic double is not an offer
    doubled = finish_game(
        start_game(new_match(jacoby, 0)), jacoby, 1, "backgammon", 2, "bear_off", True
    )
    assert doubled.score == (0, 6)
    plain = finish_game(start_game(new_match(MONEY, 0)), MONEY, 1, "gammon", 1, "bear_off")
    assert plain.score == (0, 2)


def test_no_crawford_game_when_both_players_are_at_match_point_mso_5_5() -> None:
    """MSO 5.5: the Crawford game follows a player's reaching match point; a 1-point match, or
    double match point after the Crawford game, has none."""
    assert not start_game(new_match(MSO, 1)).crawford_game
    assert not start_game(new_match(JBL, 7, (6, 6))).crawford_game
    assert start_game(new_match(JBL, 7, (6, 5))).crawford_game
