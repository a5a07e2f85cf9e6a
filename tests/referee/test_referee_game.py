"""Scripted games under MSO and JBL: the opening roll, plays, the cube, the end of the game and
the score (MSO-clock 3.3, MSO 4.7, 5.3, 5.4; JBL 4.4.2, 4.4.3)."""

from __future__ import annotations

import pytest

from kiosk.referee.board import START_SIDES
from kiosk.rules import Position
from tests.referee.table import Table, config, kinds

RULESETS = ("mso", "jbl")


def race(on_roll: dict[int, int], other: dict[int, int]) -> Position:
    """A position from point maps (checkers not listed are borne off)."""
    return Position.from_points(on_roll, other)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_opening_lower_die_starts_the_higher_players_clock(ruleset: str) -> None:
    """MSO-clock 3.3: one die each; the lower die hits the clock, the higher die moves."""
    table = Table(config(ruleset))
    raised = table.opening(winner=1, high=6, low=2)
    assert kinds(raised) == []
    game = table.state.game
    assert game.phase == "moving"
    assert game.turn == 1
    assert (game.dice.first, game.dice.second) == (6, 2)  # type: ignore[union-attr]
    assert table.state.clock is not None
    assert table.state.clock.running == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_higher_die_pressing_is_an_incident(ruleset: str) -> None:
    """MSO-clock 3.3: the player of the lower die presses; a press by the higher is refused."""
    table = Table(config(ruleset))
    table.board(START_SIDES)
    from kiosk.referee import DiceRead, DieSeen

    rows = {p: table.config.player_row(p) for p in (0, 1)}
    table.send(
        DiceRead(
            (DieSeen(5, False, table.zone(0), rows[0]), DieSeen(3, False, table.zone(1), rows[1])),
            table.later(),
        )
    )
    assert kinds(table.press(0)) == ["opening_press_wrong"]
    assert table.state.clock is not None
    assert table.state.clock.running is None
    assert kinds(table.press(1)) == []
    assert table.state.clock.running == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_equal_opening_dice_are_rolled_again(ruleset: str) -> None:
    """backgammon-rules.txt: equal opening dice are rolled again."""
    table = Table(config(ruleset))
    table.board(START_SIDES)
    table.dice(4, 4, roller=0)
    assert table.state.game.phase == "opening"
    assert table.state.prompt is not None
    assert table.state.prompt.kind == "roll_again"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_legal_plays_are_followed_turn_by_turn(ruleset: str) -> None:
    """Each play is matched against the legal plays; the clock passes at each press."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    assert kinds(table.play("8/5 6/5")) == []
    assert table.turn == 1
    table.dice(6, 4)
    assert table.state.game.phase == "moving"
    assert kinds(table.play("24/14")) == []
    table.dice(5, 5)
    assert kinds(table.play("13/3(2)")) == []
    assert table.state.incidents == ()
    assert table.state.game.rolls == 3


@pytest.mark.parametrize("ruleset", RULESETS)
def test_double_take_and_gammon_win_the_match(ruleset: str) -> None:
    """MSO 5.4 / JBL 4.4.2-4.4.3: double, take; a gammon counts twice the cube (MSO 5.3) and
    wins a 3-point match."""
    table = Table(config(ruleset, match_length=3))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    # Player 1 to roll in a race: one checker left; player 0 has borne off none.
    table.set_position(race({1: 1}, {6: 5, 5: 5, 4: 5}), on_roll=1)
    assert kinds(table.touch("double", 1)) == []
    assert table.state.game.phase == "cube_offered"
    assert table.state.prompt is not None
    assert table.state.prompt.kind == "double_offered"
    assert table.state.prompt.to == 0
    table.press(1)
    table.touch("take", 0)
    table.press(0)
    assert table.state.game.cube.value == 2
    assert table.state.game.cube.owner == 0
    table.dice(2, 1)
    raised = table.play("1/off")
    assert kinds(raised)[-2:] == ["game_won", "match_won"]
    assert table.state.match.score == (0, 4)
    assert table.state.match.winner == 1
    assert table.state.game.phase == "match_over"
    assert table.state.match.games[-1].kind == "gammon"
    record = [(e.player, e.action, e.dice, e.play, e.value) for e in table.state.logs[-1]]
    assert record == [
        (0, "move", (3, 1), "8/5 6/5", None),
        (1, "double", None, None, 2),
        (0, "take", None, None, None),
        (1, "move", (2, 1), "1/off", None),
        (1, "win", None, None, 4),
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pass_scores_the_cube_before_the_double(ruleset: str) -> None:
    """MSO 5.4: a pass loses the value before the double; the next game starts."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.touch("double", 1)
    table.touch("pass", 0)
    assert table.state.match.score == (0, 1)
    assert table.state.game.number == 2
    assert table.state.game.phase == "opening"
    assert table.state.clock is not None
    assert table.state.clock.running is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_backgammon_with_a_checker_on_the_bar(ruleset: str) -> None:
    """MSO 4.7 and backgammon-rules.txt: a loser with a checker on the bar is backgammoned."""
    table = Table(config(ruleset, match_length=5))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.set_position(race({2: 1}, {25: 1, 6: 14}), on_roll=1)
    table.dice(3, 1)
    raised = table.play("2/off")
    assert "game_won" in kinds(raised)
    assert table.state.match.score == (0, 3)
    assert table.state.match.games[-1].kind == "backgammon"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_closed_out_player_presses_without_rolling(ruleset: str) -> None:
    """MSO-clock 3.4, GA 'Rolling and moving': a closed-out player need not roll."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    closed = race({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5})
    table.set_position(closed, on_roll=1)
    assert kinds(table.press(1)) == []
    assert table.turn == 0
    assert table.state.clock is not None
    assert table.state.clock.running == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_press_before_rolling_is_refused(ruleset: str) -> None:
    """MSO-clock 3.4, JBL 4.1.6: the play ends with the press; pressing before a roll is not a
    play."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.press(1)) == ["press_before_roll"]
    assert table.turn == 1
    assert table.state.clock is not None
    assert table.state.clock.running == 1


def test_without_clocks_lifting_the_dice_ends_the_turn() -> None:
    """MSO 4.5: without clocks the turn ends when the dice are lifted."""
    table = Table(config("mso", clocks=False, reserve_ms=None))
    table.opening(winner=0, high=3, low=1)
    assert table.state.game.phase == "moving"
    assert kinds(table.play("8/5 6/5")) == []
    assert table.turn == 1
    assert table.state.clock is None
