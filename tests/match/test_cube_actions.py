"""The doubling cube per rule set."""

from __future__ import annotations

import pytest

from kiosk.cube import (
    AutomaticDoubleError,
    BeaverNotAllowedError,
    CubeLimitError,
    CubeState,
    NoOfferError,
    Offer,
    TurnState,
    WrongSideError,
    automatic_double,
    beaver,
    complete_move,
    double,
    freeze,
    new_game_cube,
    pass_double,
    start_face_ok,
    take,
)
from kiosk.match import finish_game, new_match, start_game
from kiosk.rulesets import RuleSet, load_ruleset, with_overrides

MSO = load_ruleset("mso")
JBL = load_ruleset("jbl")
BIBA = load_ruleset("biba")
GA = load_ruleset("ga")
MONEY = load_ruleset("money")
BEFORE_ROLL_0 = TurnState(on_roll=0)
BEFORE_ROLL_1 = TurnState(on_roll=1)


def _fresh(rules: RuleSet = MSO) -> CubeState:
    return new_game_cube(rules, start_game(new_match(rules, 7)))


def test_cube_centred_at_the_start_mso_5_2_jbl_4_4_1() -> None:
    """MSO 5.2: middle of the board, 64 showing; JBL 4.4.1: 1 or 64."""
    cube = _fresh()
    assert (cube.value, cube.owner, cube.available) == (1, None, True)
    assert start_face_ok(MSO, 64)
    assert not start_face_ok(MSO, 1)
    assert start_face_ok(JBL, 1)
    assert start_face_ok(JBL, 64)
    assert not start_face_ok(JBL, 2)


def test_double_take_then_only_the_owner_redoubles() -> None:
    """MSO 5.4 / JBL 4.4.3: the taker keeps the cube; backgammon-rules.txt: only he redoubles."""
    step = double(_fresh(), MSO, 0, BEFORE_ROLL_0)
    assert step.ruling.kind == "offered"
    assert step.ruling.rule.startswith("MSO 5.4")
    cube = take(step.state, 1)
    assert (cube.value, cube.owner, cube.offer, cube.turned) == (2, 1, None, True)
    refused = double(cube, MSO, 0, BEFORE_ROLL_0)
    assert refused.ruling.kind == "refused_not_owner"
    assert refused.state == cube
    redouble = double(cube, MSO, 1, BEFORE_ROLL_1)
    assert take(redouble.state, 0).value == 4


def test_pass_scores_the_value_before_the_double_mso_5_4() -> None:
    """MSO 5.4: "pass" ends the game; the doubler wins the cube's value before the double."""
    cube = take(double(_fresh(), MSO, 0, BEFORE_ROLL_0).state, 1)
    passed = pass_double(double(cube, MSO, 1, BEFORE_ROLL_1).state, 0)
    assert (passed.winner, passed.cube_value) == (1, 2)
    match = start_game(new_match(MSO, 7))
    after = finish_game(match, MSO, passed.winner, "single", passed.cube_value, "pass", True)
    assert after.score == (0, 2)


def test_double_only_before_rolling_mso_5_4() -> None:
    """MSO 5.4: only on one's turn, before throwing, not after cocked dice."""
    after_roll = double(_fresh(), MSO, 0, TurnState(on_roll=0, rolled=True))
    assert after_roll.ruling.kind == "refused_after_roll"
    cocked = double(_fresh(), MSO, 0, TurnState(on_roll=0, cocked=True))
    assert cocked.ruling.kind == "refused_after_cocked"
    assert cocked.ruling.rule.startswith("MSO 5.4")


def test_cocked_dice_are_rolling_dice_biba_5_4() -> None:
    """BIBA 5.4: cocked dice are deemed rolling dice: no double after them."""
    cocked = double(_fresh(BIBA), BIBA, 0, TurnState(on_roll=0, cocked=True))
    assert cocked.ruling.kind == "refused_after_cocked"
    assert cocked.ruling.rule.startswith("BIBA 5.4")


def test_not_on_turn_and_opponent_not_moving_is_refused() -> None:
    """MSO 5.4: only when it is one's turn to throw."""
    assert double(_fresh(), MSO, 1, BEFORE_ROLL_0).ruling.kind == "refused_not_turn"


def test_no_cube_in_the_crawford_game_jbl_4_4_4() -> None:
    """JBL 4.4.4: a double in the Crawford game is not recognised."""
    match = start_game(new_match(JBL, 5, (4, 1)))
    assert match.crawford_game
    cube = new_game_cube(JBL, match)
    step = double(cube, JBL, 1, BEFORE_ROLL_1)
    assert step.ruling.kind == "void_crawford"
    assert step.ruling.rule.startswith("JBL 4.4.4")
    assert step.state == cube


def test_frozen_cube_after_penalty_points_mso_clock_5_2() -> None:
    """MSO-clock 5.2: frozen regardless of its location and value."""
    cube = take(double(_fresh(), MSO, 0, BEFORE_ROLL_0).state, 1)
    frozen = freeze(cube, MSO)
    assert (frozen.value, frozen.owner) == (2, 1)
    step = double(frozen, MSO, 1, BEFORE_ROLL_1)
    assert step.ruling.kind == "frozen"
    assert step.ruling.rule.startswith("MSO-clock 5.2")


def test_premature_double_stands_after_the_move_jbl_4_4_5() -> None:
    """JBL 4.4.5: a double before the opponent's move is complete takes effect when it is."""
    moving = TurnState(on_roll=1, rolled=True)
    step = double(_fresh(JBL), JBL, 0, moving)
    assert step.ruling.kind == "premature_pending"
    assert not step.ruling.forfeits_delay
    assert step.state.offer is None
    assert complete_move(step.state, 0) == step.state  # only the opponent's move completes it
    live = complete_move(step.state, 1)
    assert live.offer is not None
    assert live.offer.doubler == 0
    assert take(live, 1).value == 2
    assert double(step.state, JBL, 0, BEFORE_ROLL_0).ruling.kind == "refused_offer_pending"


def test_premature_double_forfeits_the_allowance_biba_4_6() -> None:
    """BIBA 4.6: doubling before the opponent hits the clock forfeits the 12 s allowance."""
    step = double(_fresh(BIBA), BIBA, 0, TurnState(on_roll=1, rolled=True))
    assert step.ruling.kind == "premature_pending"
    assert step.ruling.forfeits_delay


def test_premature_double_refused_under_ga() -> None:
    """GA 'Doubling': normal procedures, own turn only."""
    step = double(_fresh(GA), GA, 0, TurnState(on_roll=1, rolled=True))
    assert step.ruling.kind == "refused_not_turn"


def test_wrong_level_double_stands_once_answered_jbl_4_4_6() -> None:
    """JBL 4.4.6: a double from 1 to 4 stands once taken or passed."""
    step = double(_fresh(JBL), JBL, 0, BEFORE_ROLL_0, to_value=4)
    assert step.ruling.kind == "wrong_level_stands"
    assert take(step.state, 1).value == 4
    assert pass_double(step.state, 1).cube_value == 1


def test_wrong_level_double_corrected_mso_5_4() -> None:
    """MSO 5.4: both players ensure the correct level is displayed."""
    step = double(_fresh(), MSO, 0, BEFORE_ROLL_0, to_value=8)
    assert step.ruling.kind == "wrong_level_corrected"
    assert take(step.state, 1).value == 2
    odd = double(_fresh(JBL), JBL, 0, BEFORE_ROLL_0, to_value=3)
    assert odd.ruling.kind == "wrong_level_corrected"


def test_cube_limit_64_unless_set_otherwise() -> None:
    """MSO 5.2: the cube's top face 64 is the limit unless the director sets another."""
    cube = CubeState(value=64, owner=0)
    assert double(cube, MSO, 0, BEFORE_ROLL_0).ruling.kind == "refused_limit"
    raised = with_overrides(MONEY, {"cube.limit": 256})
    assert double(cube, raised, 0, BEFORE_ROLL_0).ruling.kind == "offered"


def test_answering_without_an_offer_raises() -> None:
    with pytest.raises(NoOfferError):
        take(_fresh(), 1)
    with pytest.raises(NoOfferError):
        pass_double(_fresh(), 1)
    offered = double(_fresh(), MSO, 0, BEFORE_ROLL_0).state
    with pytest.raises(WrongSideError):
        take(offered, 0)


def test_no_beavers_no_automatic_doubles_mso_5_3() -> None:
    """MSO 5.3: beavering and automatic doubles are not allowed."""
    offered = double(_fresh(), MSO, 0, BEFORE_ROLL_0).state
    with pytest.raises(BeaverNotAllowedError, match=r"MSO 5\.3"):
        beaver(offered, MSO, 1)
    with pytest.raises(AutomaticDoubleError, match=r"MSO 5\.3"):
        automatic_double(_fresh(), MSO)


def test_beaver_in_money_play_keeps_the_cube() -> None:
    """backgammon-rules.txt 'Optional Rule': the beaverer redoubles and keeps the cube."""
    rules = with_overrides(MONEY, {"cube.beavers": True})
    cube = new_game_cube(rules, start_game(new_match(rules, 0)))
    offered = double(cube, rules, 0, BEFORE_ROLL_0).state
    beavered = beaver(offered, rules, 1)
    assert beavered.offer is not None
    assert (beavered.offer.value, beavered.offer.doubler) == (4, 1)
    taken = take(beavered, 0)
    assert (taken.value, taken.owner) == (4, 1)
    assert pass_double(beavered, 0).cube_value == 2
    with pytest.raises(BeaverNotAllowedError):
        beaver(beavered, rules, 0)
    with pytest.raises(CubeLimitError):
        beaver(CubeState(value=32, offer=Offer(0, 64, 32, 1)), rules, 1)


def test_automatic_doubles_up_to_the_agreed_number() -> None:
    """backgammon-rules.txt 'Optional Rule': automatic doubles, usually limited to one a game."""
    rules = with_overrides(MONEY, {"cube.automatic_doubles": 1})
    cube = automatic_double(new_game_cube(rules, start_game(new_match(rules, 0))), rules)
    assert (cube.value, cube.owner, cube.turned) == (2, None, False)
    with pytest.raises(AutomaticDoubleError):
        automatic_double(cube, rules)
