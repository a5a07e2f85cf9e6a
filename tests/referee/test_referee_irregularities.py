"""Irregularities under MSO and JBL (and GA where it differs): setup errors, invalid rolls,
illegal moves and the opponent's choice, readings that fit several plays, premature rolls and
doubles, checkers and dice touched out of turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk.referee import DiceRead, DieSeen, director_view
from kiosk.referee.board import START_SIDES, Sides, reading_of
from kiosk.referee.events import BoardRead, CubeSeen, PointSeen
from kiosk.referee.state import UnreadRoll
from kiosk.rules import BAR, Dice, Position
from tests.referee.table import Table, config, dice_of, kinds

RULESETS = ("mso", "jbl")


def setup_with(player: int, changes: dict[int, int]) -> Sides:
    """The starting setup with ``player``'s slots changed."""
    sides = [list(START_SIDES[0]), list(START_SIDES[1])]
    for slot, change in changes.items():
        sides[player][slot] += change
    return (tuple(sides[0]), tuple(sides[1]))


# -- setup (MSO 4.7, JBL 4.2.4) ------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_setup_error_is_announced_and_corrected_in_time(ruleset: str) -> None:
    """MSO 4.7 / JBL 4.2.4: a wrong setup is shown at the opening roll with the correct one and
    may be corrected before the deadline roll."""
    table = Table(config(ruleset))
    wrong = setup_with(0, {6: -1, 7: +1})
    raised = table.opening(winner=0, high=2, low=1, setup=wrong)
    assert kinds(raised) == ["setup_error"]
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "setup_error"
    assert prompt.correct_position_id == "4HPwATDgc/ABMA"
    table.play("13/11 6/5")
    corrected = table.moved(0, {7: -1, 6: +1})
    assert kinds(table.board(corrected)) == ["setup_corrected"]
    assert table.state.game.setup_status == "ok"
    table.dice(6, 4)
    assert kinds(table.play("24/14")) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_setup_finished_after_the_opening_dice(ruleset: str) -> None:
    """MSO 4.7 / JBL 4.2.4: a setup put right before the opening press counts as corrected."""
    table = Table(config(ruleset))
    table.board(setup_with(1, {13: -2, 12: +2}))
    rows = {p: table.config.player_row(p) for p in (0, 1)}  # type: ignore[index]
    dice = (DieSeen(2, False, table.zone(0), rows[0]), DieSeen(1, False, table.zone(1), rows[1]))
    assert kinds(table.send(DiceRead(dice, table.later()))) == ["setup_error"]
    assert kinds(table.board(START_SIDES)) == ["setup_corrected"]
    table.press(1)
    assert kinds(table.play("13/11 6/5")) == []
    assert table.state.prompt is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_setup_corrected_during_the_first_play(ruleset: str) -> None:
    """MSO 4.7 / JBL 4.2.4: corrected while the first mover plays: found when the play is
    judged."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=2, low=1, setup=setup_with(1, {13: -2, 12: +2}))
    played = table.result_of("13/11 6/5")
    assert kinds(table.play_board((played[0], START_SIDES[1]))) == ["setup_corrected"]
    assert table.state.game.setup_status == "ok"


def test_mso_setup_becomes_official_at_the_fifth_roll() -> None:
    """MSO 4.7: not corrected before the fifth roll, the setup is official."""
    table = Table(config("mso"))
    table.opening(winner=0, high=2, low=1, setup=setup_with(0, {6: -1, 7: +1}))
    table.play("13/11 6/5")
    for roll, play in (((6, 4), "13/7 13/9"), ((3, 1), "8/5 6/5"), ((2, 1), "13/11 6/5")):
        assert "setup_official" not in kinds(table.dice(*roll))
        table.play(play)
    assert kinds(table.dice(6, 5)) == ["setup_official"]
    assert table.state.game.setup_status == "official"


def test_jbl_opponent_chooses_missing_checkers_to_the_bar() -> None:
    """JBL 4.2.4: found after the third roll, the opponent of the player with missing checkers
    chooses: play on, or the missing checkers go to the bar."""
    table = Table(config("jbl"))
    table.opening(winner=0, high=2, low=1, setup=setup_with(0, {6: -1}))
    table.play("13/11 6/5")
    table.dice(6, 4)
    table.play("13/7 13/9")
    raised = table.dice(3, 1)
    assert kinds(raised) == ["setup_choice"]
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.to == 1
    assert prompt.choices == ("setup_play_on", "setup_missing_to_bar")
    assert kinds(table.touch("setup_missing_to_bar", 0)) == ["out_of_phase"]
    assert kinds(table.touch("setup_missing_to_bar", 1)) == ["setup_official"]
    assert table.state.game.sides[0][BAR] == 1


@pytest.mark.parametrize(("ruleset", "face", "wrong"), [("mso", 1, True), ("jbl", 1, False)])
def test_cube_start_face(ruleset: str, face: int, wrong: bool) -> None:
    """MSO 5.2: centred showing 64; JBL 4.4.1: 1 or 64."""
    table = Table(config(ruleset))
    table.board(START_SIDES, cube=CubeSeen(face, "centre"))
    table.dice(5, 2, roller=0)
    assert ("cube_start_wrong" in table.kinds()) is wrong


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cube_not_centred_at_the_start(ruleset: str) -> None:
    """MSO 5.2 / JBL 4.4.1: the cube starts in the middle."""
    table = Table(config(ruleset))
    table.board(START_SIDES, cube=CubeSeen(64, "bottom"))
    table.dice(5, 2, roller=0)
    assert table.kinds() == ["cube_start_wrong"]


# -- rolls (MSO 4.2, JBL 4.1.4) -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    ("cocked", "zone"), [(True, None), (False, "on-bar"), (False, "off-board")]
)
def test_invalid_roll_is_rolled_again(ruleset: str, cocked: bool, zone: str | None) -> None:
    """MSO 4.2 / JBL 4.1.4: cocked, on the bar or off the board: roll again."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    raised = table.dice(6, 4, cocked=cocked, zone=zone)  # type: ignore[arg-type]
    assert kinds(raised) == ["invalid_roll"]
    assert table.state.game.phase == "roll"
    assert table.state.prompt is not None
    assert table.state.prompt.kind == "roll_again"
    assert kinds(table.dice(6, 4)) == []
    assert table.state.game.phase == "moving"
    assert table.state.prompt is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_play_on_dice_called_cocked_is_followed(ruleset: str) -> None:
    """MSO 4.2 / JBL 4.1.4: the kiosk calls a die cocked, the dice stay as they lie and the
    mover plays on: his roll is taken as read and his play judged as any other, and the
    director is told (the kiosk may have been wrong, or the players ignored the call)."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.dice(6, 4, cocked=True)) == ["invalid_roll"]
    after = table.result_of("24/14", Dice(6, 4))
    raised = table.board(after)
    assert kinds(raised) == ["invalid_roll"]
    assert "played on after the kiosk read a die as cocked" in raised[0].detail
    assert "(6 and 4)" in raised[0].detail
    assert raised[0].player == 1
    assert table.state.game.phase == "moving"
    assert dice_of(table.state) == Dice(6, 4)
    assert table.state.prompt is None
    assert kinds(table.press(1) + table.tick()) == []
    assert table.state.game.sides == after
    assert table.state.game.turn == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_play_on_dice_called_cocked_in_the_wrong_place_is_not_taken(ruleset: str) -> None:
    """A roll void for more than the cocked die (a die on the bar, MSO 4.2, JBL 4.1.4) is not
    taken when the mover plays on: the board changed between turns."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(6, 4, cocked=True, zone="on-bar")
    raised = table.board(table.result_of("24/14", Dice(6, 4))) + table.tick()
    assert kinds(raised) == ["board_changed_out_of_turn"]
    assert table.state.game.phase == "roll"


def test_mso_roll_to_the_left_of_the_bar_is_invalid() -> None:
    """MSO 4.2: to the right of the bar (the top player's right is the image's left half)."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.dice(6, 4, zone="right-half")) == ["invalid_roll"]
    assert kinds(table.dice(6, 4, zone="left-half")) == []


def test_jbl_other_half_needs_the_opponents_permission() -> None:
    """JBL 4.1.4: the roller's own home board, or the other half with permission."""
    table = Table(config("jbl"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.dice(6, 4, zone="left-half")) == ["invalid_roll"]
    table.touch("permit_other_half", 0)
    assert kinds(table.dice(6, 3, zone="left-half")) == []
    assert table.state.game.phase == "moving"


def test_mso_no_double_after_cocked_dice() -> None:
    """MSO 5.4: no double after rolling cocked dice."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(6, 4, cocked=True)
    assert kinds(table.touch("double", 1)) == ["cube_refused"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_unreadable_opening_dice_are_never_guessed(ruleset: str) -> None:
    """Opening dice the camera cannot read: their values decide who starts, so the kiosk asks
    for a clearer view and waits; the roll is not voided (no "roll again")."""
    table = Table(config(ruleset))
    table.board(START_SIDES)
    rows = {p: table.config.player_row(p) for p in (0, 1)}  # type: ignore[index]
    dice = (DieSeen(None, False, table.zone(0), rows[0]), DieSeen(1, False, table.zone(1), rows[1]))
    table.send(DiceRead(dice, table.later()))
    assert table.state.game.phase == "opening"
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "dice_unreadable"
    assert "roll again" not in prompt.text
    read = (DieSeen(4, False, table.zone(0), rows[0]), dice[1])
    table.send(DiceRead(read, table.later()))  # the same dice, read at last
    assert table.state.game.opening == (4, 1)
    assert table.state.prompt is None or table.state.prompt.kind != "dice_unreadable"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unread_roll_stands_and_the_play_tells_it(ruleset: str) -> None:
    """A valid roll the camera cannot read (a 4 and a die it cannot make out) is not voided:
    nobody is asked to roll again, the player moves, and the one roll whose legal play the
    board shows (4-2: 13/9 13/11) goes in the record."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    raised = table.dice(None, 4)
    assert kinds(raised) == []
    assert table.state.game.phase == "moving"
    assert table.state.prompt is None
    assert dice_of(table.state) == UnreadRoll((4,))
    raised = table.play_board(table.result_of("13/9 13/11", Dice(4, 2)))
    raised += table.dice(5, 3)
    assert kinds(raised) == []
    moves = [(e.player, e.dice, e.play) for e in table.state.game.log if e.action == "move"]
    assert moves[-1] == (1, (4, 2), "13/11 13/9")
    assert table.state.game.phase == "moving"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unread_roll_read_later_is_the_roll(ruleset: str) -> None:
    """The roll's dice read at last while the player moves fill in the roll: no premature roll
    is seen in them."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(None, None)
    assert dice_of(table.state) == UnreadRoll(())
    assert kinds(table.dice(6, 4, lift=False)) == []
    assert dice_of(table.state) == Dice(6, 4)
    assert kinds(table.play("24/14")) == []


def test_dice_after_an_unread_roll_was_lifted_are_the_opponents() -> None:
    """An unread roll's dice lifted after a checker moved: dice landing next are not the roll
    read at last but the opponent's early roll (MSO 4.6)."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(None, None)
    table.board(table.moved(1, {24: -1, 23: +1}))
    assert kinds(table.lift()) == ["dice_touched_early"]
    assert kinds(table.dice(6, 4, roller=0)) == ["premature_roll"]
    assert dice_of(table.state) == UnreadRoll(())


def test_an_unread_roll_whose_play_fits_no_roll_goes_to_the_director() -> None:
    """No roll the unread dice may show (a 4 and another) makes the board legal: the director
    is told, nobody at the table is asked anything, and play goes on from the board seen."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(4, None)
    seen = table.moved(1, {8: -1, 6: -1, 5: +2})  # 8/5 6/5: a 3 and a 1, no 4
    raised = table.play_board(seen)
    assert kinds(raised) == ["dice_unreadable"]
    assert "no roll they may show" in raised[0].detail
    assert table.state.prompt is None
    assert table.state.game.sides == seen


def test_an_unread_roll_whose_play_many_rolls_make_is_recorded_and_noted() -> None:
    """Three checkers left on the 1 point: every roll but a double bears off two. The play of
    an unread roll that leaves one is recorded as the first of those rolls (2-1), and the
    director is told the others it could be."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    mover = table.turn
    table.set_position(Position.from_points({1: 3}, {6: 5, 5: 5, 4: 5}), mover)
    table.dice(None, None)
    raised = table.play_board(table.moved(mover, {1: -2, 0: +2}))
    assert kinds(raised) == ["dice_unreadable"]
    assert "recorded as 2-1" in raised[0].detail
    assert "6-5" in raised[0].detail
    assert "6-6" not in raised[0].detail  # a double bears off all three
    moves = [(e.dice, e.play) for e in table.state.game.log if e.action == "move"]
    assert moves[-1] == ((2, 1), "1/off(2)")


# -- illegal moves (MSO 4.8, JBL 4.2.3, GA "Illegal moves") ---------------------------------------


def _illegal_opening(table: Table) -> None:
    """Player 0 rolls 5-2 and plays 13/7: a 6 with 5-2."""
    table.opening(winner=0, high=5, low=2)
    table.play_board(table.moved(0, {13: -1, 7: +1}))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_move_is_shown_with_what_makes_it_illegal(ruleset: str) -> None:
    """MSO 4.8 / JBL 4.2.3: the opponent is asked to condone or demand a legal play; the record
    has the play seen, the closest legal plays and the position."""
    table = Table(config(ruleset))
    _illegal_opening(table)
    incident = table.state.incidents[-1]
    assert incident.kind == "illegal_move"
    assert incident.detail == "a 6 was played with 5-2"
    assert incident.play_seen == "13/7"
    assert incident.position_id == "4HPwATDgc/ABMA"
    assert incident.dice == (5, 2)
    assert "13/8 13/11" in incident.legal_plays or "13/6" in incident.legal_plays
    assert incident.rule.startswith("MSO 4.8" if ruleset == "mso" else "JBL 4.2.3")
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "illegal_move"
    assert prompt.to == 1
    assert prompt.choices == ("condone", "demand_legal_play")
    assert prompt.text == "a 6 was played with 5-2"
    assert prompt.param("play") == "13/7"
    assert (prompt.param("reason"), prompt.param("number"), prompt.param("dice")) == (
        "wrong_number",
        6,
        "5-2",
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_move_condoned_by_the_opponent(ruleset: str) -> None:
    """MSO 4.8: the opponent may condone; the board stands as played."""
    table = Table(config(ruleset))
    _illegal_opening(table)
    assert kinds(table.touch("condone", 0)) == ["out_of_phase"]
    assert kinds(table.touch("condone", 1)) == ["illegal_move_condoned"]
    assert table.state.game.sides[0][7] == 1
    entry = table.state.game.log[-1]
    assert (entry.play, entry.legal) == ("13/7", False)
    table.dice(6, 4)
    assert kinds(table.play("24/14")) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_demand_a_legal_play(ruleset: str) -> None:
    """MSO 4.8 / JBL 4.2.3: demanded, the offender plays the same roll again, legally."""
    table = Table(config(ruleset))
    _illegal_opening(table)
    assert kinds(table.touch("demand_legal_play", 1)) == ["illegal_move_replay"]
    assert table.turn == 0
    assert table.state.game.phase == "moving"
    table.press(1)  # the opponent hands the clock back (GA "Illegal moves")
    assert table.state.clock is not None
    assert table.state.clock.running == 0
    table.board(START_SIDES)
    assert kinds(table.play("13/8 13/11")) == []
    assert table.turn == 1
    assert table.state.game.sides[0][11] == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rolling_condones_an_illegal_move(ruleset: str) -> None:
    """MSO 4.8 / JBL 4.2.3: the opponent rolling condones it."""
    table = Table(config(ruleset))
    _illegal_opening(table)
    assert kinds(table.dice(6, 4)) == ["illegal_move_condoned"]
    assert table.state.game.illegal is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_doubling_condones_an_illegal_move(ruleset: str) -> None:
    """MSO 4.8 (turning the cube) / JBL 4.2.3 (offering the cube)."""
    table = Table(config(ruleset))
    _illegal_opening(table)
    assert kinds(table.touch("double", 1)) == ["illegal_move_condoned"]
    assert table.state.game.phase == "cube_offered"


def test_ga_picking_up_the_dice_condones() -> None:
    """GA "Illegal moves": picking up either die condones the illegal move."""
    table = Table(config("ga"))
    _illegal_opening(table)
    assert kinds(table.lift()) == ["illegal_move_condoned"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_silent_policy_records_for_the_director_only(ruleset: str) -> None:
    """Per-event policy: recorded silently, no prompt at the table; the illegal move waits for
    the director's ruling until the opponent's roll condones it (MSO 4.8 / JBL 4.2.3), which
    raises nothing at the table: the play stands as played and goes into the record."""
    table = Table(config(ruleset, policy="silent"))
    _illegal_opening(table)
    incident = table.state.incidents[-1]
    assert incident.kind == "illegal_move"
    assert not incident.announced
    assert table.state.prompt is None
    illegal = table.state.game.illegal
    assert illegal is not None
    assert illegal.incident == incident.id
    pending = director_view(table.state, table.t_ms).pending
    assert "illegal move (incident 1): recorded silently: the director may rule" in pending
    assert kinds(table.dice(6, 4)) == []
    assert table.state.game.illegal is None
    assert table.state.prompt is None
    (move,) = table.state.game.log
    assert (move.player, move.play, move.dice, move.legal) == (0, "13/7", (5, 2), False)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_orders_a_legal_play_of_a_silent_illegal_move(ruleset: str) -> None:
    """MSO 4.8 / JBL 4.2.3 under the silent policy: the director, called before the opponent
    rolls, orders a legal play; the offender replays the roll from the position before and the
    legal play is judged as usual (no move out of turn, no press out of turn)."""
    table = Table(config(ruleset, policy="silent"))
    _illegal_opening(table)
    table.touch("call_director", 1)
    raised = table.director("rule", incident=1, decision="replay")
    assert kinds(raised) == ["illegal_move_replay", "director_ruling"]
    assert table.turn == 0
    assert table.state.game.phase == "moving"
    assert table.state.game.sides == START_SIDES
    prompt = table.state.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.to) == ("replay", 0)  # the director's order is told
    table.director("resume")
    table.press(1)  # hands the clock back to the offender
    table.board(START_SIDES)
    assert kinds(table.play("13/8 13/11")) == []
    assert table.turn == 1
    assert [entry.play for entry in table.state.game.log] == ["13/11 13/8"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_condones_a_silent_illegal_move(ruleset: str) -> None:
    """MSO 4.8 / JBL 4.2.3 under the silent policy: the director lets the play stand."""
    table = Table(config(ruleset, policy="silent"))
    _illegal_opening(table)
    raised = table.director("rule", incident=1, decision="condone")
    assert kinds(raised) == ["illegal_move_condoned", "director_ruling"]
    assert not any(incident.announced for incident in table.state.incidents)
    assert table.state.game.illegal is None
    assert kinds(table.dice(6, 4)) == []
    assert [entry.legal for entry in table.state.game.log] == [False]


@pytest.mark.parametrize(("ruleset", "condones"), [("mso", False), ("ga", True)])
def test_silent_illegal_move_condoned_by_picking_up_the_dice_per_rule_set(
    ruleset: str, condones: bool
) -> None:
    """GA "Illegal moves": picking up the dice condones, also when recorded silently (a later
    ruling changes nothing); MSO 4.8 condones only by rolling or turning the cube."""
    table = Table(config(ruleset, policy="silent"))
    _illegal_opening(table)
    assert kinds(table.lift()) == []
    assert (table.state.game.illegal is None) == condones
    raised = table.director("rule", incident=1, decision="replay")
    assert (
        kinds(raised) == ["director_ruling"]
        if condones
        else ["illegal_move_replay", "director_ruling"]
    )


def test_silent_illegal_move_condoned_by_turning_the_cube() -> None:
    """MSO 4.8: turning the cube condones, also an illegal move recorded silently."""
    table = Table(config("mso", policy="silent"))
    _illegal_opening(table)
    assert kinds(table.touch("double", 1)) == []
    assert table.state.game.illegal is None
    assert table.state.game.phase == "cube_offered"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_policy_per_incident_kind(ruleset: str) -> None:
    """Announce everything but record illegal moves silently."""
    table = Table(config(ruleset, policy_overrides=(("illegal_move", "silent"),)))
    _illegal_opening(table)
    assert not table.state.incidents[-1].announced
    assert kinds(table.dice(6, 4, cocked=True)) == ["invalid_roll"]
    assert table.state.incidents[-1].announced


def _ambiguous_play(ruleset: str) -> tuple[Table, Sides]:
    """Player 0 plays 24/23 24/21 with 3-1 and presses; the reading leaves 24/20 possible."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    result = table.result_of("24/21 24/23")
    reading = reading_of(result, table.config)
    colour = table.config.player_colour(0)
    widened = {24, 23, 21, 20}  # 24/20 fits as well
    points = tuple(
        replace(seen, colour=colour, low=0, high=1)
        if table.config.own_point(0, seen.point) in widened
        else seen
        for seen in reading.points
    )
    table.send(BoardRead(replace(reading, points=points), table.later()))
    table.press(0)
    return table, result


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reading_that_fits_two_plays_asks_for_a_better_one(ruleset: str) -> None:
    """DESIGN.md 2: more than one legal play fits the ranges: ask, never guess; an exact reading
    then settles it."""
    table, result = _ambiguous_play(ruleset)
    raised = table.tick()
    assert kinds(raised) == ["ambiguous_reading"]
    assert set(raised[0].legal_plays) == {"24/23 24/21", "24/20"}
    assert table.state.prompt is not None
    assert "24/" not in table.state.prompt.text
    assert kinds(table.board(result)) == []
    assert table.state.game.sides == result
    assert table.state.game.pending is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_ambiguous_play_when_the_opponent_rolls_on(ruleset: str) -> None:
    """The opponent rolls before a clearer reading: the first fitting play is taken and the
    record says so for the director."""
    table, _ = _ambiguous_play(ruleset)
    table.tick()
    raised = table.dice(6, 4)
    assert kinds(raised) == ["ambiguous_reading"]
    assert "assumed" in raised[0].detail
    assert table.state.game.pending is None
    assert table.state.game.phase == "moving"


def test_unknown_colour_on_a_point_is_resolved_by_the_plays() -> None:
    """A point whose colour is not read fits either player's checkers: the legal plays decide."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    result = table.result_of("8/5 6/5")
    reading = reading_of(result, table.config)
    five = next(p for p in range(1, 25) if table.config.own_point(0, p) == 5)
    points = tuple(PointSeen(p.point, None, 0, 2) if p.point == five else p for p in reading.points)
    table.send(BoardRead(replace(reading, points=points), table.later()))
    table.press(0)
    assert kinds(table.tick()) == []
    assert table.state.game.sides == result


# -- out of turn (MSO 4.3, 4.6, MSO-clock 3.4; JBL 4.1.5, 4.2.2, 4.4.5) ---------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_checkers_moved_between_turns(ruleset: str) -> None:
    """MSO 4.3 / JBL 4.2.2: a board change during the opponent's turn is raised once, and cleared
    when the checkers are put back."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    moved = table.moved(0, {13: -1, 10: +1})
    assert kinds(table.board(moved)) == []  # reported at the next event, unless dice read with it
    raised = table.tick()
    assert kinds(raised) == ["board_changed_out_of_turn"]
    assert table.state.prompt is not None
    assert table.state.prompt.kind == "restore_position"
    assert kinds(table.board(moved) + table.tick()) == []
    assert kinds(table.board()) == []
    assert table.state.game.disturbed is None
    assert table.state.prompt is None


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("dice_later_ms", [0, 200])
def test_a_roll_read_only_with_its_play_is_the_movers(ruleset: str, dice_later_ms: int) -> None:
    """Checkers move after the roll: where the camera missed the roll (a die not found) and
    reads the dice first in the frame that shows the play made with them, the roll is taken
    and the play judged at the press, no incident. Dice read only a frame later do not explain
    the change: checkers moved between turns (MSO 4.3, JBL 4.2.2)."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.lift()
    after = table.result_of("24/14", Dice(6, 4))
    t_ms = table.later()
    raised = table.send(BoardRead(reading_of(after, table.config), t_ms))
    raised += table.send(DiceRead(_mover_dice(table, 6, 4), t_ms + dice_later_ms))
    if dice_later_ms:
        assert kinds(raised) == ["board_changed_out_of_turn"]
        return
    assert kinds(raised) == []
    assert table.state.game.phase == "moving"
    assert kinds(table.press(1) + table.tick()) == []
    assert table.state.game.sides == after
    assert table.state.game.turn == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dice_lifted_before_the_press(ruleset: str) -> None:
    """MSO-clock 3.4 / JBL 4.1.5(2): nobody touches the dice before the play is complete. Dice
    lifted before a checker moved may yet be rolled again (a cocked die the camera missed):
    the incident waits for the checkers to move or the press."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.dice(3, 1, roller=0)  # the opening dice as they lie
    assert kinds(table.lift()) == []
    assert kinds(table.board(table.result_of("8/5 6/5"))) == ["dice_touched_early"]
    assert table.state.game.phase == "moving"
    assert kinds(table.press(0)) == []
    table.dice(6, 4)
    table.board(table.moved(0, {8: -1}))  # a checker moved, then the dice lifted: at once
    assert kinds(table.lift()) == ["dice_touched_early"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dice_lifted_then_pressed_were_touched_early(ruleset: str) -> None:
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.dice(3, 1, roller=0)
    table.lift()
    assert kinds(table.press(0))[:1] == ["dice_touched_early"]


def _mover_dice(table: Table, first: int, second: int) -> tuple[DieSeen, DieSeen]:
    """Dice as the mover rolls them: in the half where his rolls land, in his row."""
    mover = table.turn
    row = table.config.player_row(mover)  # type: ignore[arg-type]
    return (
        DieSeen(first, False, table.zone(mover), row),
        DieSeen(second, False, table.zone(mover), row),
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_roll_again_before_moving_voids_the_roll_before(ruleset: str) -> None:
    """MSO 4.2, JBL 4.1.4: a die came to rest cocked, the camera did not see it, and the mover
    rolled again as the rules ask: the new roll is his (no premature roll, no dice touched
    early), and the director is told the roll before was taken as void."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(6, 4)  # one die cocked, read as lying flat
    assert kinds(table.lift()) == []
    raised = table.send(DiceRead(_mover_dice(table, 5, 2), table.later()))
    assert kinds(raised) == ["invalid_roll"]
    assert "(6-4) taken as void" in raised[0].detail
    assert table.state.prompt is None
    assert dice_of(table.state) == Dice(5, 2)
    assert table.state.game.phase == "moving"
    assert kinds(table.play("13/8 13/11")) == []


def test_the_opponents_dice_after_a_lift_are_a_premature_roll() -> None:
    """Dice lifted before moving, then the opponent's dice land (in his half): the mover
    touched his dice early and the opponent rolled early (MSO 4.6)."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.dice(6, 4)
    table.lift()
    raised = table.dice(5, 2, roller=0)
    assert kinds(raised) == ["dice_touched_early", "premature_roll"]


def test_mso_premature_roll_stands() -> None:
    """MSO 4.6: a premature roll stands; the mover finishes knowing it."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    assert kinds(table.dice(6, 4, roller=1, lift=False)) == ["premature_roll"]
    table.play("8/5 6/5")
    game = table.state.game
    assert game.turn == 1
    assert game.phase == "moving"
    assert game.dice is not None
    assert (game.dice.first, game.dice.second) == (6, 4)
    assert kinds(table.play("24/14")) == []


def test_jbl_premature_roll_rerolled_at_the_victims_choice() -> None:
    """JBL 4.1.5: the player whose turn it was chooses whether the early roll stands."""
    table = Table(config("jbl"))
    table.opening(winner=0, high=3, low=1)
    table.dice(6, 4, roller=1, lift=False)
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "premature_roll_choice"
    assert prompt.to == 0
    assert kinds(table.touch("premature_roll_reroll", 0)) == []
    table.play("8/5 6/5")
    assert table.state.game.phase == "roll"
    assert table.turn == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_premature_double_takes_effect_after_the_move(ruleset: str) -> None:
    """JBL 4.4.5 / MSO 4.6: a double before the opponent's move is complete stands once it is."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    assert kinds(table.touch("double", 1)) == ["premature_double"]
    assert table.state.game.phase == "moving"
    table.play("8/5 6/5")
    assert table.state.game.phase == "cube_offered"
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.to == 0
    table.touch("take", 0)
    assert table.state.game.cube.value == 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_double_out_of_turn_is_refused(ruleset: str) -> None:
    """MSO 5.4 / JBL 4.4.2: only on one's own turn."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.touch("double", 0)) == ["cube_refused"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_double_in_the_crawford_game_is_void(ruleset: str) -> None:
    """MSO 5.5 / JBL 4.4.4: no cube in the Crawford game."""
    table = Table(config(ruleset, score=(4, 0)))
    assert table.state.match.crawford_game
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.touch("double", 1)) == ["double_in_crawford"]
    assert table.state.game.phase == "roll"


def test_jbl_wrong_cube_level_stands() -> None:
    """JBL 4.4.6: a double to a wrong level stands once answered."""
    table = Table(config("jbl"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.touch("double", 1, to=4)) == ["wrong_cube_level"]
    table.touch("take", 0)
    assert table.state.game.cube.value == 4


@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_judged_when_no_new_reading_came(ruleset: str) -> None:
    """A mover who presses without touching a checker: no new reading comes, so the play is
    judged when the opponent rolls, from the board as last read (nothing moved: illegal)."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.press(0)
    assert kinds(table.tick()) == []
    assert table.state.game.pending is not None
    raised = table.dice(6, 4)
    assert kinds(raised) == ["illegal_move", "illegal_move_condoned"]
    assert raised[0].detail.startswith("not all of 3-1 was played")
    assert table.state.game.pending is None
    assert table.state.game.phase == "moving"


def test_mso_wrong_cube_level_is_corrected() -> None:
    """MSO 5.4: both players ensure the correct level: a cube turned to 8 is offered at 2."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.touch("double", 1, to=8)) == ["wrong_cube_level"]
    table.touch("take", 0)
    assert table.state.game.cube.value == 2
