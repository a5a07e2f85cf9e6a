"""The clock state machine: allowance then reserve, centring, breaks, expiry, director actions."""

from __future__ import annotations

import pytest

from kiosk.clock import (
    ClockState,
    breaks_allowed,
    centre,
    director_add,
    director_set,
    display,
    forfeit_allowance,
    forfeit_wait_ms,
    new_clock,
    press,
    reset_after_expiry,
    resume,
    take_break,
    tick,
)
from kiosk.match import Player
from kiosk.rulesets import load_ruleset, with_overrides

MIN = 60_000


def _started(name: str = "jbl", reserve_ms: int = 10 * MIN, length: int = 7) -> ClockState:
    """Opening roll done: player 0 rolled the lower die and pressed, player 1 is on turn at t=0."""
    step = press(new_clock(load_ruleset(name), reserve_ms, length), 0, 0)
    assert step.state.running == 1
    return step.state


def test_turn_within_allowance_costs_nothing_jbl_3_4_5() -> None:
    """JBL 3.4.5: the reserve only runs once a move takes longer than 12 s."""
    step = press(_started(), 1, 12_000)
    assert step.ended_turn is not None
    assert step.ended_turn.charged_ms == 0
    assert step.state.reserve_ms == (10 * MIN, 10 * MIN)
    assert step.state.running == 0


def test_overrun_is_charged_to_the_millisecond_biba_time_allowances() -> None:
    """BIBA 'Time Allowances': the reserve is used only beyond 12 s per move."""
    step = press(_started("biba"), 1, 12_001)
    assert step.ended_turn is not None
    assert step.ended_turn.charged_ms == 1
    assert step.state.reserve_ms == (10 * MIN, 10 * MIN - 1)


def test_display_counts_allowance_down_then_reserve() -> None:
    state = _started()
    shown = display(state, 5_000)
    assert (shown.allowance_left_ms, shown.reserves_ms) == (7_000, (10 * MIN, 10 * MIN))
    shown = display(state, 20_000)
    assert (shown.allowance_left_ms, shown.reserves_ms) == (0, (10 * MIN, 10 * MIN - 8_000))


def test_mso_has_no_allowance_unless_the_director_sets_one_mso_clock_2_1() -> None:
    """MSO-clock 2.1 states no per-move allowance: every ms comes off the reserve."""
    step = press(_started("mso"), 1, 3_000)
    assert step.state.reserve_ms[1] == 10 * MIN - 3_000
    event = with_overrides(load_ruleset("mso"), {"clock.delay_s": 12})
    state = press(new_clock(event, 10 * MIN, 7), 0, 0).state
    assert press(state, 1, 3_000).state.reserve_ms[1] == 10 * MIN


def test_press_out_of_turn_is_an_incident_not_a_crash() -> None:
    """MSO-clock 3.4: the turn passes by hitting one's own clock; the other button does nothing."""
    state = _started()
    step = press(state, 0, 4_000)
    assert [i.kind for i in step.incidents] == ["press_out_of_turn"]
    assert step.incidents[0].side == 0
    assert step.state.running == 1
    assert step.ended_turn is None
    assert press(step.state, 1, 13_000).ended_turn is not None


def test_time_going_backwards_is_an_incident() -> None:
    state = press(_started(), 1, 5_000).state
    step = press(state, 0, 4_000)
    assert [i.kind for i in step.incidents] == ["time_went_backwards"]
    assert step.state == state


def test_fallen_dice_pause_keeps_the_turn_mso_clock_4_1_d() -> None:
    """MSO-clock 4.1(d): clocks centred to retrieve fallen dice; the turn goes on afterwards."""
    paused = centre(_started(), 10_000, "fallen_dice")
    assert paused.incidents == ()
    assert paused.state.running is None
    later = resume(paused.state, 70_000)
    assert later.state.running == 1
    ended = press(later.state, 1, 75_000).ended_turn
    assert ended is not None
    assert ended.elapsed_ms == 15_000  # 10 s before the pause, 5 s after
    assert ended.charged_ms == 3_000


def test_press_by_the_waiting_side_restarts_a_paused_turn() -> None:
    paused = centre(_started(), 10_000, "summon_director").state
    step = press(paused, 0, 20_000)
    assert step.state.running == 1
    assert step.ended_turn is None
    assert step.state.turn_elapsed_ms == 10_000


def test_new_game_centring_ends_the_turn_mso_clock_3_3() -> None:
    """MSO-clock 3.3: at the start of each game both buttons are centred; the lower die presses."""
    step = centre(_started(), 30_000, "end_of_game")
    assert step.ended_turn is not None
    assert step.ended_turn.charged_ms == 18_000
    assert step.state.turn_side is None
    assert resume(step.state, 31_000).incidents[0].kind == "nothing_to_resume"
    opening = press(step.state, 1, 40_000)
    assert opening.state.running == 0
    assert opening.ended_turn is None


def test_centring_reason_outside_jbl_4_3_2_is_an_incident() -> None:
    """JBL 4.3.2: the clock may be stopped only in seven cases (not to verify the score)."""
    step = centre(_started("jbl"), 1_000, "verify_score_or_cube")
    assert [i.kind for i in step.incidents] == ["centring_not_allowed"]
    assert step.incidents[0].rule is not None
    assert step.incidents[0].rule.startswith("JBL 4.3.2")
    assert step.state.running is None
    assert centre(_started("ga"), 1_000, "verify_score_or_cube").incidents == ()


def test_resume_while_running_is_an_incident() -> None:
    assert resume(_started(), 1_000).incidents[0].kind == "already_running"


def test_flag_falls_at_the_exact_millisecond_ga_time_control() -> None:
    """GA 'Time Control': 12 s per move, then the reserve; at zero the flag falls."""
    state = _started("ga", reserve_ms=60_000)
    step = tick(state, 100_000)
    assert [i.kind for i in step.incidents] == ["flag_fell"]
    assert step.incidents[0].t_ms == 72_000
    assert step.state.flag == 1
    assert step.state.expiries == (0, 1)
    assert display(step.state, 100_000).reserves_ms == (60_000, 0)
    assert step.ended_turn is not None
    assert step.ended_turn.charged_ms == 60_000
    assert tick(state, 71_999).incidents == ()


def test_presses_after_the_flag_are_incidents() -> None:
    flagged = tick(_started("ga", reserve_ms=1_000), 20_000).state
    step = press(flagged, 1, 21_000)
    assert [i.kind for i in step.incidents] == ["press_after_flag"]
    assert step.state.flag == 1


def test_mso_reset_after_expiry_adds_five_minutes_mso_clock_5_1() -> None:
    """MSO-clock 5.1: the penalised clock is reset for an additional five minutes; play goes on."""
    flagged = tick(_started("mso", reserve_ms=1_000), 5_000).state
    assert flagged.flag == 1
    step = reset_after_expiry(flagged, 60_000)
    assert step.state.flag is None
    assert display(step.state, 60_000).reserves_ms == (1_000, 5 * MIN)
    assert step.state.adjustments[-1].reason == "expiry_reset"
    running = resume(step.state, 61_000).state
    assert running.running == 1
    assert display(running, 62_000).reserves_ms == (1_000, 5 * MIN - 1_000)


def test_reset_without_a_flag_is_an_incident() -> None:
    assert reset_after_expiry(_started("mso"), 1_000).incidents[0].kind == "no_flag"
    flagged = tick(_started("jbl", reserve_ms=1_000), 20_000).state
    assert reset_after_expiry(flagged, 21_000).incidents[0].kind == "no_flag"


def test_director_sets_times_while_running_jbl_3_6_2() -> None:
    """JBL 3.6.2 / GA 'Faulty clocks': the director sets both players' remaining time."""
    state = _started(reserve_ms=10 * MIN)
    step = director_set(state, 30_000, (4 * MIN, 3 * MIN), "faulty_clock")
    assert display(step.state, 30_000).reserves_ms == (4 * MIN, 3 * MIN)
    assert display(step.state, 31_000).reserves_ms == (4 * MIN, 3 * MIN - 1_000)
    assert step.state.adjustments[-1].before_ms == (10 * MIN, 10 * MIN - 18_000)
    bad = director_set(state, 30_000, (-1, 0), "adjustment")
    assert bad.incidents[0].kind == "invalid_adjustment"


def test_wrong_claim_gives_the_opponent_five_minutes_jbl_4_3_2_7() -> None:
    """JBL 4.3.2(7): a game declared over that is not: the opponent receives 5 minutes."""
    state = centre(_started(), 20_000, "concession").state
    step = director_add(state, 25_000, 0, 5 * MIN, "claim_bonus")
    assert display(step.state, 25_000).reserves_ms == (15 * MIN, 10 * MIN - 8_000)
    too_much = director_add(state, 25_000, 1, -11 * MIN, "adjustment")
    assert too_much.incidents[0].kind == "invalid_adjustment"


def test_breaks_recorded_and_counted_mso_2_2() -> None:
    """MSO 2.2: three 5-minute recesses per match; a fourth is an incident."""
    state = centre(_started("mso"), 20_000, "end_of_game").state
    sides: tuple[Player, ...] = (0, 1, 0)
    for n, side in enumerate(sides):
        step = take_break(state, 30_000 + n * 1_000, side)
        assert step.incidents == ()
        state = step.state
    assert [b.reserves_ms for b in state.breaks] == [(10 * MIN, 10 * MIN - 20_000)] * 3
    assert take_break(state, 40_000, 0).incidents[0].kind == "break_limit_exceeded"


def test_jbl_breaks_between_games_by_length_jbl_2_2_2() -> None:
    """JBL 2.2.2: 1 break up to 9 points, 2 up to 25; between games only."""
    jbl = load_ruleset("jbl").clock
    assert [breaks_allowed(jbl, n) for n in (5, 9, 11, 25)] == [1, 1, 2, 2]
    mid_game = take_break(_started("jbl"), 5_000, 1)
    assert [i.kind for i in mid_game.incidents] == ["break_mid_game"]


def test_ga_breaks_per_player_per_11_points_ga_breaks() -> None:
    """GA 'Breaks': one 5-minute break per 11-point match, per player."""
    ga = load_ruleset("ga").clock
    assert [breaks_allowed(ga, n) for n in (7, 11, 13, 23)] == [1, 1, 2, 3]
    state = centre(_started("ga", length=11), 20_000, "end_of_game").state
    state = take_break(state, 21_000, 0).state
    assert take_break(state, 22_000, 1).incidents == ()
    assert take_break(state, 22_000, 0).incidents[0].kind == "break_limit_exceeded"


def test_biba_breaks_not_counted() -> None:
    """BIBA 'Stopping the clocks' (c): breaks recorded, their number not stated."""
    assert breaks_allowed(load_ruleset("biba").clock, 11) is None


def test_biba_4_6_forfeited_allowance_next_turn() -> None:
    """BIBA 4.6: picking up the dice before the opponent hits the clock forfeits the 12 s; the
    penalised player may not roll until 12 s have passed."""
    state = _started("biba")
    step = forfeit_allowance(state, 0, 3_000)
    assert step.incidents == ()
    after = press(step.state, 1, 5_000).state
    assert after.turn_allowance_ms == 0
    assert forfeit_wait_ms(after, 9_000) == 8_000
    assert forfeit_wait_ms(after, 20_000) == 0
    ended = press(after, 0, 10_000).ended_turn
    assert ended is not None
    assert ended.charged_ms == 5_000
    following = press(press(after, 0, 10_000).state, 1, 20_000).state
    assert following.turn_allowance_ms == 12_000  # only one turn forfeited


def test_biba_4_6_forfeit_on_own_turn_applies_now() -> None:
    state = _started("biba")
    step = forfeit_allowance(state, 1, 2_000)
    assert step.state.turn_allowance_ms == 0
    assert display(step.state, 2_000).reserves_ms[1] == 10 * MIN - 2_000


def test_forfeit_outside_biba_is_an_incident() -> None:
    step = forfeit_allowance(_started("jbl"), 0, 3_000)
    assert [i.kind for i in step.incidents] == ["forfeit_not_in_rules"]


@pytest.mark.parametrize("name", ["mso", "biba", "ga", "jbl", "money"])
def test_new_clock_is_centred_with_both_reserves(name: str) -> None:
    state = new_clock(load_ruleset(name), (5 * MIN, 6 * MIN), 7, t_ms=1_000)
    assert state.running is None
    assert display(state, 2_000).reserves_ms == (5 * MIN, 6 * MIN)
