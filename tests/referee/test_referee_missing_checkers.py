"""Checkers missing at the start of a game (MSO 4.7, JBL 4.2.4): a checker that is not on the
playing surface at the setup check (left in the tray, or nowhere to be seen) is missing, not
misplaced. It is never borne off: its player can still be gammoned (MSO 4.7, JBL 4.2.4(1)); found
after JBL's deadline, the opponent of the player at fault chooses to play on as is or to put the
missing checkers on the bar."""

from __future__ import annotations

import pytest

from kiosk.referee.board import START_SIDES, Sides
from kiosk.rules import BAR, OFF, Position
from tests.referee.table import Table, config, kinds


def setup_with(player: int, changes: dict[int, int]) -> Sides:
    """The starting setup with ``player``'s slots changed."""
    sides = [list(START_SIDES[0]), list(START_SIDES[1])]
    for slot, change in changes.items():
        sides[player][slot] += change
    return (tuple(sides[0]), tuple(sides[1]))


IN_TRAY = setup_with(0, {6: -1, OFF: +1})
"""Player 0 left one checker of his 6 point in the tray."""
NOWHERE = setup_with(0, {6: -1})
"""Player 0 has only 14 checkers in sight (the tray read empty)."""


def to_third_roll(table: Table, setup: Sides) -> None:
    """Opening 2-1 by player 0 from ``setup``, one play each, then player 0's 3-1: the third
    roll of the game (JBL 4.2.4's deadline)."""
    table.opening(winner=0, high=2, low=1, setup=setup)
    table.play("13/11 6/5")
    table.dice(6, 4)
    table.play("13/7 13/9")
    table.dice(3, 1)


@pytest.mark.parametrize("ruleset", ["mso", "jbl"])
def test_checker_in_the_tray_at_the_start_is_missing_not_misplaced(ruleset: str) -> None:
    """MSO 4.7 / JBL 4.2.4: a checker in the tray at the setup check is missing: it is not read
    as played off the 6 point ("6/off")."""
    table = Table(config(ruleset))
    assert kinds(table.opening(winner=0, high=2, low=1, setup=IN_TRAY)) == ["setup_error"]
    incident = table.state.incidents[0]
    assert "player 0: 1 checker missing" in incident.detail
    assert "off" not in incident.detail.split(";")[0]
    assert table.state.game.missing == (1, 0)
    assert table.state.game.sides == IN_TRAY  # the tray as the camera sees it


@pytest.mark.parametrize("ruleset", ["mso", "jbl"])
def test_missing_checker_put_back_in_time_is_a_corrected_setup(ruleset: str) -> None:
    """MSO 4.7 / JBL 4.2.4: the checker put back on the 6 point before the deadline."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=2, low=1, setup=IN_TRAY)
    table.play("13/11 6/5")
    assert kinds(table.board(table.moved(0, {OFF: -1, 6: +1}))) == ["setup_corrected"]
    assert table.state.game.missing == (0, 0)
    assert table.state.game.setup_status == "ok"


@pytest.mark.parametrize("setup", [IN_TRAY, NOWHERE], ids=["in-tray", "nowhere"])
def test_jbl_missing_checker_to_the_bar(setup: Sides) -> None:
    """JBL 4.2.4(2): after the third roll the opponent of the player at fault chooses to put the
    missing checker on the bar (from the tray, or fetched from wherever it is)."""
    table = Table(config("jbl"))
    to_third_roll(table, setup)
    assert kinds(table.raised[-1:]) == ["setup_choice"]
    prompt = table.state.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.to) == ("setup_choice", 1)
    assert kinds(table.touch("setup_missing_to_bar", 0)) == ["out_of_phase"]  # not his choice
    assert kinds(table.touch("setup_missing_to_bar", 1)) == ["setup_official"]
    side = table.state.game.sides[0]
    assert (side[BAR], side[OFF], sum(side)) == (1, 0, 15)
    assert table.state.game.missing == (0, 0)
    table.board()
    assert kinds(table.play("bar/22 6/5")) == []
    assert table.turn == 1


def test_jbl_play_on_as_is_keeps_the_checker_missing() -> None:
    """JBL 4.2.4(1): play on as is: the missing checker is not added and stays in the tray."""
    table = Table(config("jbl"))
    to_third_roll(table, IN_TRAY)
    assert kinds(table.touch("setup_play_on", 1)) == ["setup_official"]
    assert table.state.game.sides[0][OFF] == 1
    assert table.state.game.missing == (1, 0)
    assert kinds(table.play("8/5 6/5")) == []
    assert table.state.game.setup_status == "official"


RACE_END = Position.from_points({1: 1}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 4})
"""Player 1 (on roll) bears off his last checker; player 0 has 14 checkers in his home board."""


@pytest.mark.parametrize(("setup", "points"), [(IN_TRAY, 2), (START_SIDES, 1)])
def test_jbl_missing_checker_still_loses_a_gammon(setup: Sides, points: int) -> None:
    """JBL 4.2.4(1), as MSO 4.7: a player who played on with 14 checkers and bore none off loses
    a gammon; the missing checker in his tray does not count as borne off."""
    table = Table(config("jbl"))
    to_third_roll(table, setup)
    if setup != START_SIDES:
        table.touch("setup_play_on", 1)
    table.play("8/5 6/5")
    table.set_position(RACE_END, on_roll=1)
    table.dice(2, 1)
    table.play("1/off")
    assert table.state.match.score == (0, points)
    assert table.state.match.games[-1].kind == ("gammon" if points == 2 else "single")


def test_jbl_gin_is_asked_without_the_missing_checker_as_borne_off() -> None:
    """MSO 4.7 / JBL 4.2.4(1): the gin judge sees only the checkers really borne off."""
    asked = []

    def judge(question: object) -> bool | None:
        asked.append(question)
        return None

    table = Table(config("jbl"), gin=judge)  # type: ignore[arg-type]
    to_third_roll(table, IN_TRAY)
    table.touch("setup_play_on", 1)
    table.play("8/5 6/5")
    table.set_position(RACE_END, on_roll=1)
    table.touch("claim", 1, kind="gammon")
    (question,) = asked
    assert question.position.opponent[OFF] == 0  # type: ignore[attr-defined]
    assert question.position.on_roll[OFF] == 14  # type: ignore[attr-defined]
