"""Rulings per rule set: time expiry, late arrival, concessions."""

from __future__ import annotations

import pytest

from kiosk.clock import display, new_clock, press, reset_after_expiry, resume, tick
from kiosk.cube import TurnState, double, freeze, new_game_cube
from kiosk.match import (
    MatchError,
    apply_expiry,
    end_match,
    finish_game,
    late_arrival,
    new_match,
    rule_on_concession,
    rule_on_expiry,
    rule_on_rejection,
    setup_correctable,
    start_game,
)
from kiosk.rulesets import load_ruleset

MIN = 60_000


def test_mso_first_expiry_two_points_then_one_mso_clock_5_1() -> None:
    """MSO-clock 5.1: 2 penalty points for the first offence, 1 for each repeat, +5 minutes."""
    mso = load_ruleset("mso")
    match = start_game(new_match(mso, 11, (3, 4)))
    first = rule_on_expiry(mso, match, 1, offence=1, cube_value=2, gin_wins_match=None)
    assert (first.outcome, first.penalty_points, first.reset_reserve_ms) == (
        "penalty_points",
        2,
        5 * MIN,
    )
    assert first.rule.startswith("MSO-clock 5.1")
    match = apply_expiry(match, mso, first)
    assert match.score == (5, 4)
    repeat = rule_on_expiry(mso, match, 1, offence=2, cube_value=2, gin_wins_match=None)
    assert repeat.penalty_points == 1
    assert apply_expiry(match, mso, repeat).score == (6, 4)


def test_mso_expiry_penalty_freezes_cube_mso_clock_5_2() -> None:
    """MSO-clock 5.2 through an expiry ruling: opponent reaches match point in mid-game."""
    mso = load_ruleset("mso")
    match = start_game(new_match(mso, 7, (4, 0)))
    ruling = rule_on_expiry(mso, match, 1, offence=1, cube_value=1, gin_wins_match=None)
    after = apply_expiry(match, mso, ruling)
    assert after.cube_frozen
    assert after.away(0) == 1


@pytest.mark.parametrize("name", ["biba", "ga", "jbl"])
def test_expiry_loses_the_match_unless_gin(name: str) -> None:
    """BIBA 'Time Expiration', GA 'Time Control', JBL 4.3.3: lost unless a gin win of the match."""
    rules = load_ruleset(name)
    match = start_game(new_match(rules, 7, (6, 5)))
    pending = rule_on_expiry(rules, match, 0, offence=1, cube_value=1, gin_wins_match=None)
    assert pending.outcome == "gin_verdict_needed"
    with pytest.raises(MatchError, match="gin_verdict_needed"):
        apply_expiry(match, rules, pending)
    lost = rule_on_expiry(rules, match, 0, offence=1, cube_value=1, gin_wins_match=False)
    assert apply_expiry(match, rules, lost).winner == 1
    won = rule_on_expiry(rules, match, 0, offence=1, cube_value=1, gin_wins_match=True)
    after = apply_expiry(match, rules, won)
    assert (after.winner, after.ended_by) == (0, "time_gin")


def test_biba_gammons_count_where_they_win_the_match_biba_time_expiration() -> None:
    """BIBA 'Time Expiration'*: gammons and backgammons (x cube) count where they win the match;
    a player further away than this game can give loses without a gin question."""
    biba = load_ruleset("biba")
    match = start_game(new_match(biba, 11, (5, 9)))  # player 0 is 6 away
    reachable = rule_on_expiry(biba, match, 0, offence=1, cube_value=2, gin_wins_match=None)
    assert reachable.outcome == "gin_verdict_needed"  # a backgammon at 2 = 6 points
    beyond = rule_on_expiry(biba, match, 0, offence=1, cube_value=1, gin_wins_match=True)
    assert beyond.outcome == "match_lost"
    assert "needs 6" in beyond.detail


def test_jbl_loses_whatever_the_score_jbl_4_3_3() -> None:
    """JBL 4.3.3: the expired player loses the match whatever the score, even far ahead."""
    jbl = load_ruleset("jbl")
    match = start_game(new_match(jbl, 11, (9, 0)))
    ruling = rule_on_expiry(jbl, match, 0, offence=1, cube_value=1, gin_wins_match=False)
    assert apply_expiry(match, jbl, ruling).winner == 1
    assert ruling.rule.startswith("JBL 4.3.3")


def test_money_expiry_goes_to_the_director() -> None:
    money = load_ruleset("money")
    match = start_game(new_match(money, 0))
    ruling = rule_on_expiry(money, match, 0, offence=1, cube_value=1, gin_wins_match=None)
    assert ruling.outcome == "director"


def test_offence_counts_from_one() -> None:
    mso = load_ruleset("mso")
    with pytest.raises(MatchError, match="offence"):
        rule_on_expiry(mso, new_match(mso, 5), 0, offence=0, cube_value=1, gin_wins_match=None)


@pytest.mark.parametrize(
    ("late_min", "points", "forfeit"),
    [(9.99, 0, False), (10, 0, False), (15, 1, False), (24, 2, False), (30, 4, True)],
)
def test_mso_late_arrival_mso_2_1_2_3(late_min: float, points: int, forfeit: bool) -> None:
    """MSO 2.1/2.3: after 10 minutes absent, 1 point per 5 minutes; over 50% of 7 forfeits."""
    ruling = late_arrival(load_ruleset("mso"), int(late_min * MIN), 7)
    assert (ruling.points, ruling.forfeit) == (points, forfeit)


def test_mso_late_arrival_forfeit_ends_the_match_mso_2_3() -> None:
    """MSO 2.3: penalty points over 50% of the match length: the absent player forfeits."""
    mso = load_ruleset("mso")
    ruling = late_arrival(mso, 40 * MIN, 9)
    assert (ruling.points, ruling.forfeit) == (6, True)
    assert ruling.rule.startswith("MSO 2.1")
    match = end_match(new_match(mso, 9), 0, "forfeit")
    assert (match.winner, match.ended_by) == (0, "forfeit")


def test_setup_correction_deadline_mso_4_7_jbl_4_2_4() -> None:
    """MSO 4.7: correct the setup before the 5th roll; JBL 4.2.4: before the 3rd."""
    mso, jbl = load_ruleset("mso"), load_ruleset("jbl")
    assert [setup_correctable(mso, n) for n in (0, 4, 5)] == [True, True, False]
    assert [setup_correctable(jbl, n) for n in (2, 3)] == [True, False]
    assert setup_correctable(load_ruleset("ga"), 1) is None
    with pytest.raises(MatchError, match="rolls_made"):
        setup_correctable(mso, -1)


def test_jbl_late_arrival_jbl_2_2_4() -> None:
    """JBL 2.2.4: at 15 minutes 1 point to the opponent, then 1 more every 5 minutes."""
    jbl = load_ruleset("jbl")
    assert [late_arrival(jbl, m * MIN, 7).points for m in (14, 15, 19, 20, 31)] == [0, 1, 1, 2, 4]
    assert jbl.late_arrival.may_start_absent_clock_after_s == 900


def test_late_arrival_not_in_ga() -> None:
    assert late_arrival(load_ruleset("ga"), 60 * MIN, 7).points == 0
    with pytest.raises(MatchError, match="late_ms"):
        late_arrival(load_ruleset("ga"), -1, 7)


def test_concession_needs_no_contact_mso_4_9() -> None:
    """MSO 4.9: concessions only in no-contact positions, of a loss."""
    mso = load_ruleset("mso")
    assert (
        rule_on_concession(mso, contact=True, claims_win=False, certain=None).outcome == "refused"
    )
    assert (
        rule_on_concession(mso, contact=False, claims_win=True, certain=True).outcome == "refused"
    )
    allowed = rule_on_concession(mso, contact=False, claims_win=False, certain=None)
    assert (allowed.outcome, allowed.must_accept) == ("allowed", False)
    assert rule_on_rejection(mso, certain=False).outcome == "play_on"


def test_biba_concession_only_when_certain_biba_4_9() -> None:
    """BIBA 4.9: concede only where it is mathematically certain; rejection -> the director."""
    biba = load_ruleset("biba")
    assert rule_on_concession(biba, contact=False, claims_win=False, certain=None).outcome == (
        "gin_verdict_needed"
    )
    assert rule_on_concession(biba, contact=False, claims_win=False, certain=False).outcome == (
        "refused"
    )
    assert rule_on_concession(biba, contact=False, claims_win=False, certain=True).outcome == (
        "allowed"
    )
    assert rule_on_rejection(biba, certain=False).outcome == "director"


def test_ga_gin_outcome_cannot_be_rejected_ga_completing_a_game() -> None:
    """GA 'Completing a game' / 'Adjudicating gin outcomes'."""
    ga = load_ruleset("ga")
    claim = rule_on_concession(ga, contact=False, claims_win=True, certain=True)
    assert (claim.outcome, claim.must_accept) == ("allowed", True)
    assert rule_on_rejection(ga, certain=True).outcome == "outcome_stands"
    assert rule_on_rejection(ga, certain=None).outcome == "play_on_without_clocks"
    assert rule_on_rejection(ga, certain=False).outcome == "play_on"


def test_jbl_wrong_claim_gives_opponent_five_minutes_jbl_4_3_2_7() -> None:
    """JBL 4.6 and 4.3.2(7): a certain declaration must be accepted; a wrong one gives the
    opponent 5 minutes; an undecided one goes to the director."""
    jbl = load_ruleset("jbl")
    assert rule_on_rejection(jbl, certain=True).outcome == "outcome_stands"
    wrong = rule_on_rejection(jbl, certain=False)
    assert (wrong.outcome, wrong.bonus_ms) == ("play_on_with_bonus", 5 * MIN)
    assert rule_on_rejection(jbl, certain=None).outcome == "director"


def test_mso_expiry_end_to_end_mso_clock_5_1_5_2() -> None:
    """MSO-clock 5.1-5.2 as the referee composes it: the flag falls on the clock, the ruling gives
    2 points to the opponent (who reaches match point), the cube freezes, the clock gets 5 more
    minutes and the game goes on; the next game is the Crawford game."""
    mso = load_ruleset("mso")
    match = start_game(new_match(mso, 7, (4, 3)))
    cube = new_game_cube(mso, match)
    clock = press(new_clock(mso, 2 * MIN, 7), 0, 0).state  # player 1 on turn
    step = tick(clock, 3 * MIN)
    assert step.state.flag == 1
    ruling = rule_on_expiry(
        mso, match, 1, offence=step.state.expiries[1], cube_value=cube.value, gin_wins_match=None
    )
    match = apply_expiry(match, mso, ruling)
    assert match.score == (6, 3)
    assert match.cube_frozen
    cube = freeze(cube, mso)
    assert double(cube, mso, 1, TurnState(on_roll=1)).ruling.kind == "frozen"
    clock = resume(reset_after_expiry(step.state, 4 * MIN).state, 4 * MIN).state
    assert display(clock, 5 * MIN).reserves_ms == (2 * MIN, 4 * MIN)
    match = finish_game(match, mso, 1, "single", 1, "bear_off")
    assert start_game(match).crawford_game
