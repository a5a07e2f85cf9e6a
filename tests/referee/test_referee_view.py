"""The screens: the players' view shows the match without aids (MSO 1.5, JBL 1.9); the
director's view adds the record, the legal plays and the pip counts."""

from __future__ import annotations

import dataclasses

import pytest

from kiosk.referee.incidents import Prompt
from kiosk.referee.view import DirectorView, PlayersView, director_view, players_view
from tests.referee.table import Table, config

FORBIDDEN = ("pip", "legal", "best", "equity", "gin")


@pytest.mark.parametrize("ruleset", ["mso", "jbl"])
def test_players_view_has_no_aids(ruleset: str) -> None:
    """MSO 1.5 / JBL 1.9: no pip counts, legal or best plays, equities or gin verdicts."""
    names = [field.name for field in dataclasses.fields(PlayersView)]
    names += [field.name for field in dataclasses.fields(Prompt)]
    assert not [name for name in names if any(word in name for word in FORBIDDEN)]
    table = Table(config(ruleset))
    table.opening(winner=0, high=5, low=2)
    table.play_board(table.moved(0, {13: -1, 7: +1}))
    view = players_view(table.state, table.t_ms)
    assert view.prompt is not None
    text = repr(view)
    for play in table.state.incidents[-1].legal_plays:
        assert play not in text


def test_verdict_only_when_ruling_on_an_end_of_game() -> None:
    """A gin verdict reaches the table only in a concession or expiry ruling."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.state = dataclasses.replace(
        table.state, prompt=Prompt("roll_again", "roll again", verdict="certain")
    )
    assert players_view(table.state, table.t_ms).prompt.verdict is None  # type: ignore[union-attr]
    table.state = dataclasses.replace(
        table.state, prompt=Prompt("expiry_ruling", "time", verdict="gin win of the match")
    )
    assert players_view(table.state, table.t_ms).prompt.verdict == "gin win of the match"  # type: ignore[union-attr]


def test_table_view_shows_the_match() -> None:
    """Clocks, score, length, Crawford, cube, turn, dice as read, board as followed."""
    table = Table(config("jbl", score=(4, 2)))
    table.opening(winner=1, high=6, low=5)
    view = players_view(table.state, table.t_ms + 3_000)
    assert (view.match_length, view.score, view.crawford) == (5, (4, 2), True)
    assert not view.cube_in_play
    assert view.turn == 1
    assert sorted(v for v in view.dice if v is not None) == [5, 6]
    assert view.clocks is not None
    assert view.clocks.running == 1
    assert view.clocks.allowance_left_ms == 9_000  # JBL 3.4.5: 12 s per move
    assert view.board[0] == (0, 2)  # image point 1: player 1's 24-point holds 2
    assert view.seats == ("right", "left")


def test_director_view_has_legal_plays_and_pips() -> None:
    """The director sees every legal play of the dice in play, the pips and the record."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    view: DirectorView = director_view(table.state, table.t_ms)
    assert "8/5 6/5" in view.legal_plays
    assert view.pips == (167, 167)
    assert view.position_id == "4HPwATDgc/ABMA"
    assert len(view.match_id) == 12
    table.play_board(table.moved(0, {13: -1, 8: +1}))
    view = director_view(table.state, table.t_ms)
    assert view.incidents[-1].kind == "illegal_move"
    assert view.pending
