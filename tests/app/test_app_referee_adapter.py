"""The referee's views through the adapter: every snapshot it makes parses, and the screen's
actions come back as the referee's events. Driven by a scripted referee (tests.referee.table)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk.app.actions import ActionKind, DirectorAction, DirectorActionKind, PlayerAction
from kiosk.app.cards import prompt_card
from kiosk.app.director import parse_director_snapshot
from kiosk.app.referee_adapter import (
    Seating,
    director_event,
    director_snapshot,
    table_snapshot,
    touch_event,
)
from kiosk.app.snapshot import parse_snapshot
from kiosk.referee.incidents import Prompt
from kiosk.referee.view import director_view, players_view
from tests.referee.table import Table, config

NAMES = ("Aiko", "Ben")


def _illegal_table() -> Table:
    """Player 0 (light, right seat) rolls 5-2 and plays 13/7: a 6 with 5-2."""
    table = Table(config("mso"))
    table.opening(winner=0, high=5, low=2)
    table.play_board(table.moved(0, {13: -1, 7: +1}))
    return table


def _seating(table: Table) -> Seating:
    return Seating(table.config, NAMES)


def test_players_are_shown_at_their_seats() -> None:
    table = Table(config("mso"))
    seating = _seating(table)
    snap = parse_snapshot(
        table_snapshot(players_view(table.state, table.t_ms), seating, allowance_ms=12_000)
    )
    seat0 = table.config.player_seat(0)
    left = snap.players[0 if seat0 == "left" else 1]
    assert left.name == "Aiko"
    assert left.color == table.config.player_colour(0)
    assert snap.clock.enabled
    assert snap.match.length == table.config.match_length


def test_an_illegal_move_is_drawn_with_the_play_seen() -> None:
    table = _illegal_table()
    seating = _seating(table)
    view = players_view(table.state, table.t_ms)
    snap = parse_snapshot(table_snapshot(view, seating, allowance_ms=12_000))
    prompt = snap.prompt
    assert prompt.kind == "illegal_move"
    assert prompt.side == seating.side(0)
    assert prompt.to == seating.side(1)
    assert prompt.text == "a 6 was played with 5-2"
    assert prompt.dice == (5, 2)
    assert prompt.board is not None
    assert len(prompt.moves) == 1
    card = prompt_card("en", prompt, snap.players)
    assert card is not None
    assert card.body == "A 6 was played with 5-2"
    assert [(b.kind, b.side) for b in card.buttons] == [
        (ActionKind.CONDONE, seating.side(1)),
        (ActionKind.DEMAND_LEGAL, seating.side(1)),
    ]
    # The drawn move runs from player 0's 13 point to his 7 point, in image numbering.
    ((source, destination),) = prompt.moves
    assert table.config.own_point(0, int(source)) == 13
    assert table.config.own_point(0, int(destination)) == 7


def test_touches_go_back_to_the_referee_as_the_seat_that_touched() -> None:
    table = _illegal_table()
    seating = _seating(table)
    answer = touch_event(PlayerAction(ActionKind.DEMAND_LEGAL, seating.side(1)), table.later())
    raised = table.send(answer)
    assert [i.kind for i in raised] == ["illegal_move_replay"]
    concede = touch_event(PlayerAction(ActionKind.CONCEDE, 0, "gammon"), 5)
    assert (concede.action, concede.side, concede.arg("kind")) == ("concede", "left", "gammon")
    with pytest.raises(ValueError, match="no player side"):
        touch_event(PlayerAction(ActionKind.BREAK, None), 5)


def test_director_view_lists_incidents_with_legal_plays_and_diagram() -> None:
    table = _illegal_table()
    seating = _seating(table)
    view = director_view(table.state, table.t_ms)
    snap = parse_director_snapshot(director_snapshot(view, seating, delay_s=12))
    incident = snap.incidents[-1]
    assert incident.kind == "illegal_move"
    assert incident.play_seen == "13/7"
    assert incident.legal_plays
    assert incident.board is not None
    assert snap.settings.announce


def test_director_touches_become_referee_actions() -> None:
    table = _illegal_table()
    seating = _seating(table)
    view = director_view(table.state, table.t_ms)
    side0 = seating.side(0)
    clock = director_event(
        DirectorAction(DirectorActionKind.ADJUST_CLOCK, side=side0, delta=60_000),
        view,
        seating,
        9,
    )
    assert clock is not None
    assert view.table.clocks is not None
    assert clock.verb == "set_clock"
    assert clock.arg("reserve0_ms") == view.table.clocks.reserves_ms[0] + 60_000
    assert clock.arg("reserve1_ms") == view.table.clocks.reserves_ms[1]
    score = director_event(
        DirectorAction(DirectorActionKind.ADJUST_SCORE, side=1 - side0, delta=1),
        view,
        seating,
        9,
    )
    assert score is not None
    assert (score.verb, score.arg("score0"), score.arg("score1")) == ("set_score", 0, 1)
    rule = director_event(
        DirectorAction(DirectorActionKind.RULE, incident_id=3, ruling="upheld"), view, seating, 9
    )
    assert rule is not None
    assert (rule.verb, rule.arg("incident"), rule.arg("decision")) == ("rule", 3, "upheld")
    ruleset = director_event(
        DirectorAction(DirectorActionKind.SET_RULESET, name="jbl"), view, seating, 9
    )
    assert ruleset is not None
    assert (ruleset.verb, ruleset.arg("name")) == ("set_ruleset", "jbl")
    assert director_event(DirectorAction(DirectorActionKind.EXPORT_MAT), view, seating, 9) is None


@pytest.mark.parametrize(
    ("prompt", "kind"),
    [
        (Prompt("double_offered", "player 0 doubles to 2", 1, ("take", "pass")), "cube_offered"),
        (
            Prompt("dice_unreadable", "the kiosk cannot read the dice: clear the view", 0),
            "invalid_dice",
        ),
        (Prompt("director_called", "the director is called: touch nothing"), "paused"),
        (Prompt("game_over", "player 0 wins a gammon"), "notice"),
        (Prompt("expiry_ruling", "time expired", None, verdict="gammon: certain"), "notice"),
    ],
)
def test_every_referee_prompt_becomes_a_prompt_the_screen_can_show(
    prompt: Prompt, kind: str
) -> None:
    table = Table(config("mso"))
    view = replace(players_view(table.state, table.t_ms), prompt=prompt)
    snap = parse_snapshot(table_snapshot(view, _seating(table), allowance_ms=12_000))
    assert snap.prompt.kind == kind
    assert prompt_card("en", snap.prompt, snap.players) is not None
    if prompt.kind == "expiry_ruling":
        assert snap.prompt.verdict == "gammon: certain"  # a ruling may show it (MSO 1.5)


def test_the_referees_player_numbers_become_names() -> None:
    from kiosk.app.referee_adapter import named

    assert named("player 1 concedes a gammon to Player 0", NAMES) == (
        "Ben concedes a gammon to Aiko"
    )
    assert named("players 1 and 2", NAMES) == "players 1 and 2"
