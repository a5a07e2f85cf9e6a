"""Issue 6 end to end: every irregularity the referee flags, in scripted matches played through
the whole pipeline (rendered frames read by the perfect camera, settled, refereed, journaled
with snapshots), under MSO and JBL, with BIBA or GA where their rule differs.

Each test asserts the incidents raised in order (the journal must hold the same ones, checked
by ``run_script``) and the outcome: score, board, cube or clocks. The camera is the renderer's
exact labels (``LabelReader``): vision accuracy is issue 4's measurement, not this suite's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.gin import BearoffTables, build_tables
from kiosk.referee import gin_judge
from kiosk.referee.board import START_SIDES, Sides
from kiosk.rules import BAR, OFF, Position
from tests.e2e.e2e_match import Script, run_script, vision_reader
from tests.e2e.e2e_scenes import CAMERA_SIZE, SIZE, DieShown
from tests.referee.table import config

RULESETS = ("mso", "jbl")


@pytest.fixture(scope="module")
def tables() -> BearoffTables:
    """Bear-off tables for up to 6 checkers: enough for the end-game positions below."""
    return build_tables(6)


def started(ruleset: str, size: tuple[int, int] = SIZE, **changes: object) -> Script:
    """A 5-point match under ``ruleset``: set up, player 0 wins the opening 3-1 and plays
    8/5 6/5; player 1 is to roll. ``size``: of the rendered frames."""
    script = Script(config(ruleset, **changes), size)
    script.setup()
    script.opening(0, 3, 1)
    script.play(0, "8/5 6/5")
    return script


def setup_with(player: int, changes: dict[int, int]) -> Sides:
    """The starting setup with ``player``'s slots changed."""
    sides = [list(START_SIDES[0]), list(START_SIDES[1])]
    for slot, change in changes.items():
        sides[player][slot] += change
    return (tuple(sides[0]), tuple(sides[1]))


def test_a_clean_game_with_a_double_taken_and_a_redouble_passed(tmp_path: Path) -> None:
    """MSO 5.4 / JBL 4.4: take and pass; the passer loses the cube's value before the double."""
    script = started("mso")
    script.roll(1, 6, 4)
    script.play(1, "24/18 13/9")
    script.double(0, "take")
    script.roll(0, 6, 2)
    script.play(0, "13/11 13/7*")
    script.double(1, "pass")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["game_won"]
    assert run.state.match.score == (0, 2)
    assert run.state.game.number == 2
    assert run.snapshots == 1


# -- setup (MSO 4.7, JBL 4.2.4) --------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_setup_error_corrected_in_time(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.7 / JBL 4.2.4: found at the opening roll, put right after the first play."""
    script = Script(config(ruleset))
    script.setup(setup_with(0, {6: -1, 7: +1}))
    script.opening(0, 2, 1)
    script.play(0, "13/11 6/5")
    script.board(0, script.moved(0, {7: -1, 6: +1}))
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.prompts == ["setup_error"]
    assert run.kinds() == ["setup_error", "setup_corrected"]
    assert run.of("setup_error")[0].position_id == "4HPwATDgc/ABMA"
    assert run.state.game.setup_status == "ok"
    assert run.state.game.sides == script.sides
    assert run.snapshots == 2


def test_mso_setup_too_late_becomes_official(tmp_path: Path) -> None:
    """MSO 4.7: not corrected before the fifth roll, the setup is official."""
    script = Script(config("mso"))
    script.setup(setup_with(0, {6: -1, 7: +1}))
    script.opening(0, 2, 1)
    script.play(0, "13/11 6/5")
    script.roll(1, 6, 4)
    script.play(1, "13/7 13/9")
    script.roll(0, 3, 1)
    script.play(0, "8/5 6/5")
    script.roll(1, 2, 1)
    script.play(1, "13/11 6/5")
    script.roll(0, 6, 5)
    run = run_script(script, tmp_path)
    assert run.kinds() == ["setup_error", "setup_official"]
    assert run.state.game.setup_status == "official"


def test_jbl_misplaced_checker_found_too_late_becomes_official(tmp_path: Path) -> None:
    """JBL 4.2.4: found after the third roll, misplaced checkers are not moved: the setup is
    official (the opponent's choice is about missing checkers); a choice touched then is out of
    phase."""
    script = Script(config("jbl"))
    script.setup(setup_with(0, {6: -1, 7: +1}))
    script.opening(0, 2, 1)
    script.play(0, "13/11 6/5")
    script.roll(1, 6, 4)
    script.play(1, "13/7 13/9")
    script.roll(0, 3, 1)
    script.touch(1, "setup_play_on")
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["setup_error", "setup_official", "out_of_phase"]
    assert run.of("setup_official")[0].rule.startswith("JBL 4.2.4")
    assert run.state.game.setup_status == "official"
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize(("choice", "on_bar"), [("setup_missing_to_bar", 1), ("setup_play_on", 0)])
def test_jbl_missing_checker_found_too_late_opponent_chooses(
    choice: str, on_bar: int, tmp_path: Path
) -> None:
    """JBL 4.2.4: a checker missing from play found after the third roll: the opponent chooses
    to play on or to put it on the bar."""
    script = Script(config("jbl"))
    script.setup(setup_with(0, {6: -1, OFF: +1}))  # a checker left in the tray
    script.opening(0, 2, 1)
    script.play(0, "13/11 6/5")
    script.roll(1, 6, 4)
    script.play(1, "13/7 13/9")
    script.roll(0, 3, 1)
    script.touch(0, choice)  # not his choice
    script.touch(1, choice)
    if on_bar:
        script.board(0, script.moved(0, {OFF: -1, BAR: +1}))
    script.play(0, "bar/22 6/5" if on_bar else "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["setup_error", "setup_choice", "out_of_phase", "setup_official"]
    assert run.state.game.sides == script.sides


# -- the cube at the start (MSO 5.2, JBL 4.4.1) ----------------------------------------------------


@pytest.mark.parametrize(("ruleset", "wrong"), [("mso", True), ("jbl", False)])
def test_cube_showing_1_at_the_start(ruleset: str, wrong: bool, tmp_path: Path) -> None:
    """MSO 5.2: centred showing 64; JBL 4.4.1: 1 or 64."""
    script = Script(config(ruleset))
    script.setup(cube=(1, "centre"))
    script.opening(0, 3, 1)
    run = run_script(script, tmp_path)
    assert run.kinds() == (["cube_start_wrong"] if wrong else [])


# -- rolls (MSO 4.2, JBL 4.1.4) --------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    ("cocked", "zone"), [(True, None), (False, "on-bar"), (False, "off-board")]
)
def test_invalid_roll_rolled_again(
    ruleset: str, cocked: bool, zone: str | None, tmp_path: Path
) -> None:
    """MSO 4.2 / JBL 4.1.4: cocked, on the bar or off the board: roll again."""
    script = started(ruleset)
    script.roll(1, 6, 4, cocked=cocked, zone=zone)  # type: ignore[arg-type]
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.prompts == ["roll_again"]
    assert run.kinds() == ["invalid_roll"]
    assert run.incidents[0].player == 1
    assert run.state.game.turn == 0
    assert run.state.game.phase == "roll"
    assert run.state.game.sides == script.sides


def test_mso_roll_on_the_wrong_side_of_the_bar(tmp_path: Path) -> None:
    """MSO 4.2: to the right of the bar (the top player's right is the image's left half)."""
    script = started("mso")
    script.roll(1, 6, 4, zone="right-half")
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.prompts == ["roll_again"]
    assert run.kinds() == ["invalid_roll"]
    assert run.state.game.sides == script.sides


def test_jbl_roll_in_the_other_half_needs_permission(tmp_path: Path) -> None:
    """JBL 4.1.4: the roller's own home board, or the other half with the opponent's
    permission."""
    script = started("jbl")
    script.roll(1, 6, 4, zone="left-half")
    script.touch(0, "permit_other_half")
    script.roll(1, 6, 3, zone="left-half")
    script.play(1, "24/15")
    run = run_script(script, tmp_path)
    assert run.prompts == ["roll_again"]
    assert run.kinds() == ["invalid_roll"]
    assert run.state.game.sides == script.sides


# -- illegal moves (MSO 4.8, JBL 4.2.3, GA "Illegal moves") ----------------------------------------


def illegal_opening(ruleset: str, **changes: object) -> Script:
    """Player 0 wins the opening with 5-2 and plays 13/7 (a 6 with 5-2), then presses."""
    script = Script(config(ruleset, **changes))
    script.setup()
    script.opening(0, 5, 2)
    script.play_board(0, script.moved(0, {13: -1, 7: +1}))
    return script


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_move_condoned_by_the_opponent(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.8 / JBL 4.2.3: the opponent condones on the screen; the board stands as played."""
    script = illegal_opening(ruleset)
    script.touch(0, "condone")  # the offender cannot
    script.touch(1, "condone")
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["illegal_move", "out_of_phase", "illegal_move_condoned"]
    illegal = run.incidents[0]
    assert (illegal.detail, illegal.play_seen, illegal.dice) == (
        "a 6 was played with 5-2",
        "13/7",
        (5, 2),
    )
    assert illegal.position_id == "4HPwATDgc/ABMA"
    assert illegal.rule.startswith("MSO 4.8" if ruleset == "mso" else "JBL 4.2.3")
    assert illegal.announced
    assert run.prompts == ["illegal_move"]  # announced: the opponent is asked at the table
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_move_legal_play_demanded(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.8 / JBL 4.2.3: demanded, the offender takes the play back and plays the same
    roll legally."""
    script = illegal_opening(ruleset)
    script.touch(1, "demand_legal_play")
    script.press(1)  # the opponent hands the clock back
    script.board(0, START_SIDES)
    script.play(0, "13/8 13/11")
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["illegal_move", "illegal_move_replay"]
    assert run.state.game.sides == script.sides
    first = run.state.game.log[0]
    assert (sorted(str(first.play).split()), first.legal) == (["13/11", "13/8"], True)


@pytest.mark.parametrize("ruleset", [*RULESETS, "biba"])
def test_rolling_condones_an_illegal_move(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.8 / JBL 4.2.3 / BIBA 4.8: the opponent rolling condones it."""
    script = illegal_opening(ruleset)
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.prompts == ["illegal_move"]
    assert run.kinds() == ["illegal_move", "illegal_move_condoned"]
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize("ruleset", RULESETS)
def test_doubling_condones_an_illegal_move(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.8 (turning the cube) / JBL 4.2.3 (offering the cube)."""
    script = illegal_opening(ruleset)
    script.double(1, "take")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["illegal_move", "illegal_move_condoned"]
    assert run.state.game.cube.value == 2
    assert run.state.game.cube.owner == 0


def test_ga_picking_up_the_dice_condones(tmp_path: Path) -> None:
    """GA "Illegal moves": picking up either die condones the illegal move."""
    script = illegal_opening("ga")
    script.lift(1)
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.prompts == ["illegal_move"]
    assert run.kinds() == ["illegal_move", "illegal_move_condoned"]
    assert run.state.game.sides == script.sides


# -- announce or record silently -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_silent_policy_records_for_the_director_only(ruleset: str, tmp_path: Path) -> None:
    """Recorded silently: no prompt at the table, the play stands and nothing is condoned."""
    script = illegal_opening(ruleset, policy="silent")
    script.roll(1, 6, 4, cocked=True)
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["illegal_move", "invalid_roll"]
    assert not any(incident.announced for incident in run.incidents)
    assert run.prompts == []  # nothing shown at the table
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize("ruleset", RULESETS)
def test_policy_per_incident_kind(ruleset: str, tmp_path: Path) -> None:
    """Announce everything but illegal moves, recorded silently."""
    script = illegal_opening(ruleset, policy_overrides=(("illegal_move", "silent"),))
    script.roll(1, 6, 4, cocked=True)
    run = run_script(script, tmp_path)
    assert run.kinds() == ["illegal_move", "invalid_roll"]
    assert [incident.announced for incident in run.incidents] == [False, True]
    assert run.prompts == ["roll_again"]


# -- out of turn (MSO 4.3, 4.6, MSO-clock 3.4; JBL 4.1.5, 4.2.2, 4.4.5) ----------------------------


def test_mso_a_roll_again_before_moving_is_the_movers(tmp_path: Path) -> None:
    """MSO 4.2: a die came to rest cocked but the camera saw it flat; player 1 lifts the dice
    before moving and rolls again, as the rules ask. Through the whole pipeline the new roll
    is his: the director is told the roll before was void, nothing else is raised."""
    script = started("mso")
    script.roll(1, 6, 4)
    script.lift(1)
    script.roll(1, 5, 2)
    script.play(1, "13/8 13/11")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["invalid_roll"]
    assert run.prompts == []
    assert run.state.game.turn == 0
    assert run.state.game.sides == script.sides


def premature_roll(script: Script) -> None:
    """Player 1 rolls 6-4 in his half while player 0 still plays his opening 3-1."""
    script.hand(1)
    script.dice = (DieShown(6, script.zone(1)), DieShown(4, script.zone(1)))
    script.hold()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_checkers_moved_out_of_turn_and_put_back(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.3 / JBL 4.2.2: a board change during the opponent's turn is raised once and
    cleared when the checkers are put back."""
    script = started(ruleset)
    played = script.sides
    script.board(0, script.moved(0, {13: -1, 10: +1}))
    script.board(0, played)
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.prompts == ["restore_position"]
    assert run.kinds() == ["board_changed_out_of_turn"]
    assert run.state.game.disturbed is None
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dice_lifted_before_the_press(ruleset: str, tmp_path: Path) -> None:
    """MSO-clock 3.4 / JBL 4.1.5(2): nobody touches the dice before the play is complete."""
    script = Script(config(ruleset))
    script.setup()
    script.opening(0, 3, 1)
    script.lift(0)
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["dice_touched_early"]
    assert run.state.game.turn == 1
    assert run.state.game.sides == script.sides


def test_mso_premature_roll_stands(tmp_path: Path) -> None:
    """MSO 4.6: a premature roll stands; the mover finishes his play knowing it."""
    script = Script(config("mso"))
    script.setup()
    script.opening(0, 3, 1)
    premature_roll(script)
    script.play(0, "8/5 6/5")
    script.rolled = (6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["premature_roll"]
    assert run.incidents[0].player == 1
    assert sorted(run.incidents[0].dice or ()) == [4, 6]
    assert run.state.game.turn == 0
    assert run.state.game.sides == script.sides


def test_jbl_premature_roll_rerolled_at_the_victims_choice(tmp_path: Path) -> None:
    """JBL 4.1.5: the player whose turn it was chooses; he has the early roll rolled again."""
    script = Script(config("jbl"))
    script.setup()
    script.opening(0, 3, 1)
    premature_roll(script)
    script.touch(0, "premature_roll_reroll")
    script.play(0, "8/5 6/5")
    script.roll(1, 5, 2)
    script.play(1, "13/8 13/11")
    run = run_script(script, tmp_path)
    assert run.prompts == ["premature_roll_choice"]
    assert run.kinds() == ["premature_roll"]
    assert run.state.game.turn == 0
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize("ruleset", [*RULESETS, "biba"])
def test_premature_double_takes_effect_after_the_move(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.6 / JBL 4.4.5 / BIBA 4.6: a double before the opponent's play is complete stands
    once it is."""
    script = Script(config(ruleset))
    script.setup()
    script.opening(0, 3, 1)
    script.touch(1, "double")
    script.play(0, "8/5 6/5")
    script.touch(0, "take")
    run = run_script(script, tmp_path)
    assert run.prompts == ["double_offered"]
    assert run.kinds() == ["premature_double"]
    assert run.state.game.cube.value == 2
    assert run.state.game.cube.owner == 0
    assert run.state.game.turn == 1


def test_ga_premature_double_is_refused(tmp_path: Path) -> None:
    """GA 'Doubling': normal procedures: a double only on one's own turn."""
    script = Script(config("ga"))
    script.setup()
    script.opening(0, 3, 1)
    script.touch(1, "double")
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["cube_refused"]
    assert run.state.game.cube.value == 1
    assert run.state.game.phase == "roll"


# -- the cube (MSO 5.4, 5.5; JBL 4.4.4, 4.4.6) -----------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_double_in_the_crawford_game_is_void(ruleset: str, tmp_path: Path) -> None:
    """MSO 5.5 / JBL 4.4.4: no cube in the Crawford game."""
    script = started(ruleset, score=(4, 0))
    script.touch(1, "double")
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["double_in_crawford"]
    assert run.state.match.crawford_game
    assert run.state.game.cube.value == 1
    assert run.state.match.score == (4, 0)


@pytest.mark.parametrize(("ruleset", "turned", "level"), [("mso", 8, 2), ("jbl", 4, 4)])
def test_wrong_cube_level(ruleset: str, turned: int, level: int, tmp_path: Path) -> None:
    """MSO 5.4: the correct level is ensured (offered at 2); JBL 4.4.6: the wrong level stands
    once answered."""
    script = started(ruleset)
    script.double(1, "take", to=turned)
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["wrong_cube_level"]
    assert run.state.game.cube.value == level
    assert run.state.game.cube.owner == 0


# -- ending a game early: concessions checked with gin (MSO 4.9, MSO-clock 3.6, JBL 4.6) -----------

RACE = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 3, 5: 2})
"""Player 1 (on roll) with 5 checkers left, player 0 with none off: no contact."""
SHORT = Position.from_points({1: 1}, {6: 3})
"""The player on roll bears off his last checker next roll; the other has 12 off."""


@pytest.mark.parametrize("ruleset", RULESETS)
def test_concession_refused_with_contact(ruleset: str, tmp_path: Path) -> None:
    """MSO 4.9 / JBL 4.6: only in no-contact positions."""
    script = started(ruleset)
    script.touch(1, "concede", kind="single")
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["concession_refused"]
    assert run.state.match.score == (0, 0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_concession_accepted_scores(ruleset: str, tmp_path: Path) -> None:
    """MSO-clock 3.6 / JBL 4.3.2(7): a gammon conceded in a race, accepted: 2 points."""
    script = started(ruleset)
    script.set_position(RACE, on_roll=1)
    script.touch(0, "concede", kind="gammon")
    script.touch(1, "accept")
    run = run_script(script, tmp_path)
    assert run.prompts == ["concession_offered", "game_over"]
    assert run.kinds() == ["director_adjustment", "game_won"]
    assert run.state.match.score == (0, 2)
    assert run.state.game.number == 2


def test_mso_rejected_concession_plays_on(tmp_path: Path) -> None:
    """MSO-clock 3.6: the opponent rejects and play goes on."""
    script = started("mso")
    script.set_position(RACE, on_roll=1)
    script.touch(0, "concede", kind="single")
    script.touch(1, "reject")
    run = run_script(script, tmp_path)
    assert run.prompts == ["concession_offered", "concession_ruling"]
    assert run.kinds() == ["director_adjustment", "concession_rejected"]
    assert run.state.match.score == (0, 0)
    assert run.state.game.offer is None


def test_jbl_certain_claim_must_be_accepted(tables: BearoffTables, tmp_path: Path) -> None:
    """JBL 4.6: a mathematically certain declaration (gin: player 1 bears off next roll) cannot
    be rejected: the rejection is recorded and the game scores."""
    script = started("jbl")
    script.set_position(SHORT, on_roll=1)
    script.touch(1, "claim", kind="single")
    script.touch(0, "reject")
    run = run_script(script, tmp_path, gin=gin_judge(tables))
    assert run.prompts == ["concession_offered", "game_over"]
    assert run.kinds() == ["director_adjustment", "concession_rejected", "game_won"]
    assert run.of("concession_rejected")[0].rule.startswith("JBL 4.6")
    assert run.state.match.score == (0, 1)


def test_jbl_wrong_claim_gives_the_opponent_five_minutes(
    tables: BearoffTables, tmp_path: Path
) -> None:
    """JBL 4.3.2(7): gin says the claimed gammon is not certain: rejected, the opponent gets
    5 minutes and play goes on."""
    script = started("jbl")
    script.set_position(SHORT, on_roll=1)
    script.touch(1, "claim", kind="gammon")
    script.touch(0, "reject")
    run = run_script(script, tmp_path, gin=gin_judge(tables))
    assert run.kinds() == ["director_adjustment", "concession_rejected"]
    assert run.state.match.score == (0, 0)
    assert run.state.clock is not None
    assert run.state.clock.reserve_ms[0] == 30 * 60_000 + 300_000


# -- time (MSO-clock 5.1, JBL 4.3.3, GA 'Time Control') --------------------------------------------


def test_mso_time_expiry_penalty_points(tmp_path: Path) -> None:
    """MSO-clock 5.1: 2 penalty points to the opponent, 5 more minutes, the game goes on."""
    script = Script(config("mso", reserve_ms=10_000))
    script.setup()
    script.opening(0, 3, 1)
    script.wait(24)  # 12 s delay, then the 10 s reserve
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.prompts == ["expiry_ruling"]
    assert run.kinds() == ["flag_fell", "expiry_ruling"]
    assert run.state.match.score == (0, 2)
    assert run.state.clock is not None
    assert run.state.clock.reserve_ms[0] > 290_000
    assert run.state.game.turn == 1


def test_jbl_time_expiry_loses_the_match_once_claimed(tmp_path: Path) -> None:
    """JBL 4.3.3: the time-out stands once pointed out; the expired player loses the match."""
    script = Script(config("jbl", reserve_ms=10_000))
    script.setup()
    script.opening(0, 3, 1)
    script.wait(24)
    script.touch(0, "claim_time")  # not his to claim
    script.touch(1, "claim_time")
    run = run_script(script, tmp_path)
    assert run.prompts == ["claim_time", "match_over"]
    assert run.kinds() == ["flag_fell", "out_of_phase", "expiry_ruling", "match_won"]
    assert run.state.match.winner == 1
    assert run.state.match.ended_by == "time"


def test_jbl_time_expiry_with_a_gin_match_win(tables: BearoffTables, tmp_path: Path) -> None:
    """JBL 4.3.3: the board makes the expired player's match win certain (gin): he wins."""
    script = started("jbl", reserve_ms=10_000, score=(4, 0))
    script.roll(1, 6, 4)
    script.play(1, "24/14")
    script.set_position(SHORT, on_roll=0)
    script.wait(24)
    script.touch(1, "claim_time")
    run = run_script(script, tmp_path, gin=gin_judge(tables))
    assert run.prompts == ["claim_time", "match_over"]
    assert run.kinds() == ["director_adjustment", "flag_fell", "expiry_ruling", "match_won"]
    assert run.state.match.winner == 0
    assert run.state.match.ended_by == "time_gin"


def test_ga_time_expiry_loses_the_match(tmp_path: Path) -> None:
    """GA 'Time Control': if a reserve expires the match is over (no gin win here)."""
    script = Script(config("ga", reserve_ms=10_000))
    script.setup()
    script.opening(0, 3, 1)
    script.wait(24)
    script.touch(1, "claim_time")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["flag_fell", "expiry_ruling", "match_won"]  # no claim needed
    assert run.of("expiry_ruling")[0].rule.startswith("GA 'Time Control'")
    assert run.state.match.winner == 1
    assert run.state.match.ended_by == "time"


# -- breaks and the director (MSO 2.2, JBL 2.2.2, MSO-clock 4.1(e), JBL 4.3.2(4)) ------------------


def test_mso_break_in_a_game_and_resume(tmp_path: Path) -> None:
    """MSO 2.2: a 5-minute recess stops the clocks; the player restarts them."""
    script = Script(config("mso"))
    script.setup()
    script.opening(0, 3, 1)
    script.touch(0, "break")
    script.wait(60)
    script.touch(0, "resume")
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.prompts == ["break"]
    assert run.kinds() == ["break_taken"]
    assert run.state.clock is not None
    reserve0, reserve1 = run.state.clock.reserve_ms
    assert reserve1 == 30 * 60_000
    assert reserve0 > 30 * 60_000 - 2_000  # the minute of recess is charged to nobody
    assert run.state.game.turn == 1


def test_jbl_break_only_between_games(tmp_path: Path) -> None:
    """JBL 2.2.2: breaks are between games: one taken mid-game is recorded as such."""
    script = Script(config("jbl"))
    script.setup()
    script.opening(0, 3, 1)
    script.touch(0, "break")
    script.touch(0, "resume")
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["break_mid_game", "break_taken"]
    assert run.state.game.turn == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_call_stops_the_clocks_and_the_director_rules(
    ruleset: str, tmp_path: Path
) -> None:
    """MSO-clock 4.1(e) / JBL 4.3.2(4): asked to condone or demand, player 1 calls the director
    instead: the clocks stop (MSO 6.1 / JBL 5.1: the table stays as it is); the director orders
    a legal play and restarts the clock."""
    script = illegal_opening(ruleset)
    script.touch(1, "call_director")
    script.wait(30)
    script.director("rule", incident=1, decision="replay", note="called by player 1")
    script.director("resume")
    script.press(1)  # hands the clock back to the offender, as on a demand
    script.board(0, START_SIDES)
    script.play(0, "13/8 13/11")
    run = run_script(script, tmp_path)
    assert run.prompts == ["director_called", "replay"]
    assert run.kinds() == [
        "illegal_move",
        "director_called",
        "illegal_move_replay",
        "director_ruling",
    ]
    called = run.of("director_called")[0]
    assert called.rule.startswith("MSO 6.1" if ruleset == "mso" else "JBL 5.1")
    assert run.state.clock is not None
    assert min(run.state.clock.reserve_ms) > 30 * 60_000 - 5_000  # the 30 s call: nobody's
    assert run.state.game.turn == 1
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_rules_on_a_silently_recorded_illegal_move(ruleset: str, tmp_path: Path) -> None:
    """Recorded silently for the director (policy ``silent``): called before the opponent rolls,
    the director orders the legal play (MSO 4.8 / JBL 4.2.3)."""
    script = illegal_opening(ruleset, policy="silent")
    script.touch(1, "call_director")
    script.director("rule", incident=1, decision="replay", note="called by player 1")
    script.director("resume")
    script.press(1)  # hands the clock back to the offender, as on a demand
    script.board(0, START_SIDES)
    script.play(0, "13/8 13/11")
    run = run_script(script, tmp_path)
    assert run.kinds() == [
        "illegal_move",
        "director_called",
        "illegal_move_replay",
        "director_ruling",
    ]
    assert run.state.game.turn == 1
    assert run.state.game.sides == script.sides


def test_a_three_point_match_played_to_its_end(tmp_path: Path) -> None:
    """MSO: a redouble passed (0-2), then the Crawford game (MSO 5.5: a double there is void),
    a race conceded and accepted: player 1 wins the match 3-0."""
    script = started("mso", match_length=3)
    script.roll(1, 6, 4)
    script.play(1, "24/18 13/9")
    script.double(0, "take")
    script.roll(0, 6, 2)
    script.play(0, "13/11 13/7*")
    script.double(1, "pass")
    script.setup()
    script.opening(1, 4, 2)
    script.play(1, "8/4 6/4")
    script.touch(0, "double")
    script.roll(0, 6, 5)
    script.play(0, "24/13")
    script.set_position(RACE, on_roll=1)
    script.touch(0, "concede", kind="single")
    script.touch(1, "accept")
    run = run_script(script, tmp_path)
    assert run.kinds() == [
        "game_won",
        "double_in_crawford",
        "director_adjustment",
        "game_won",
        "match_won",
    ]
    assert run.state.match.score == (0, 3)
    assert run.state.match.winner == 1
    assert run.state.game.phase == "match_over"


def test_vision_reads_a_clean_game_as_the_perfect_camera_does(tmp_path: Path) -> None:
    """The opening and first play of a scripted game read by ``vision.read`` on the rendered
    pixels, at the kiosk camera's size."""
    script = started("mso", CAMERA_SIZE)
    run = run_script(script, tmp_path, reader=vision_reader())
    assert run.kinds() == []
    assert run.state.game.sides == script.sides
    assert run.state.game.turn == 1


@pytest.mark.parametrize("ruleset", ["mso", "jbl"])
def test_opening_press_by_the_higher_die(ruleset: str, tmp_path: Path) -> None:
    """MSO-clock 3.3 (and the common rules under JBL): the lower die hits the clock; the higher
    die's press is recorded and does not start the game."""
    script = Script(config(ruleset))
    script.setup()
    script.opening(0, 3, 1, press=False)
    script.press(0)
    script.press(1)
    script.play(0, "8/5 6/5")
    run = run_script(script, tmp_path)
    assert run.kinds() == ["opening_press_wrong"]
    assert run.incidents[0].player == 0
    assert run.state.game.turn == 1
    assert run.state.game.sides == script.sides


@pytest.mark.parametrize(("ruleset", "allowed"), [("mso", True), ("jbl", False)])
def test_dice_mix_between_games(ruleset: str, allowed: bool, tmp_path: Path) -> None:
    """MSO 3.3: a dice mix before any game; JBL 4.1.3: before the match only."""
    script = Script(config(ruleset))
    script.touch(0, "dice_mix")
    script.setup()
    script.opening(0, 3, 1)
    script.play(0, "8/5 6/5")
    script.double(1, "pass")
    script.touch(1, "dice_mix")
    run = run_script(script, tmp_path)
    mix = "dice_mix" if allowed else "dice_mix_not_allowed"
    assert run.kinds() == ["dice_mix", "game_won", mix]
    assert run.state.match.score == (0, 1)  # player 0 passed
