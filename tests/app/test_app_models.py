"""Models filled headless from snapshot dicts; cards; the PIN pad."""

from __future__ import annotations

import pytest

from kiosk.app.actions import ActionKind
from kiosk.app.cards import prompt_card
from kiosk.app.errors import SnapshotError
from kiosk.app.model import (
    DirectorModel,
    TableModel,
    apply_director_snapshot,
    apply_snapshot,
)
from kiosk.app.pin import LOCKOUT_MS, MAX_DIGITS, MAX_FAILURES, PinPad
from kiosk.app.prompts import parse_prompt
from kiosk.app.snapshot import parse_snapshot
from tests.app import samples


def test_table_model_is_filled_and_dispatches_changes() -> None:
    model = TableModel()
    seen: list[object] = []
    model.bind(running=lambda _m, value: seen.append(value))
    apply_snapshot(model, samples.table())
    assert model.player(0).name == "Aiko"
    assert list(model.reserves_ms) == [534_000, 601_000]
    assert model.running == 0
    assert model.match.score == (2, 3)
    assert model.cube.owner == 1
    assert model.board.points[5].count == 4
    clock = samples.table()["clock"] | {"running": 1}
    apply_snapshot(model, samples.table(clock=clock))
    assert seen == [0, 1]


def test_a_bad_snapshot_leaves_the_model_as_it_was() -> None:
    model = TableModel()
    apply_snapshot(model, samples.table())
    with pytest.raises(SnapshotError, match="turn"):
        apply_snapshot(model, samples.table(turn=5))
    assert model.turn == 0


def test_language_toggles_and_follows_the_snapshot() -> None:
    model = TableModel()
    model.toggle_language()
    assert model.language == "ja"
    model.toggle_language()
    assert model.language == "en"
    apply_snapshot(model, samples.table(language="ja"))
    assert model.language == "ja"
    data = samples.table()
    del data["language"]
    apply_snapshot(model, data)
    assert model.language == "ja"  # a snapshot without a language keeps the players' choice


def test_director_model_keeps_the_selected_incident_across_updates() -> None:
    model = DirectorModel()
    apply_director_snapshot(model, samples.director())
    model.select(2)
    assert model.selected.play_seen == "13/7 6/4"
    apply_director_snapshot(model, samples.director())
    assert model.selected.id == 2
    data = samples.director()
    data["incidents"] = data["incidents"][:1]
    apply_director_snapshot(model, data)
    assert model.selected is None


def test_illegal_move_card_lets_the_opponent_decide() -> None:
    players = parse_snapshot(samples.table()).players
    card = prompt_card("en", parse_prompt(samples.ILLEGAL_MOVE, "prompt"), players)
    assert card is not None
    assert card.title == "Illegal move by Aiko"
    assert card.decider == "Ben, your decision:"
    assert [(b.kind, b.side) for b in card.buttons] == [
        (ActionKind.CONDONE, 1),
        (ActionKind.DEMAND_LEGAL, 1),
    ]
    assert card.wide
    assert card.moves == ((13, 7), (6, 4))


def test_setup_card_draws_the_correct_setup_and_marks_wrong_points() -> None:
    players = parse_snapshot(samples.table()).players
    card = prompt_card("en", parse_prompt(samples.SETUP_ERROR, "prompt"), players)
    assert card is not None
    assert card.highlight == (8, 9)
    assert card.board is not None
    assert card.board.points[7].count == 3
    assert card.body == "Set up the checkers as drawn (MSO 4.7)"


def test_cube_card_offers_take_and_pass_to_the_opponent() -> None:
    players = parse_snapshot(samples.table()).players
    prompt = parse_prompt({"kind": "cube_offered", "side": 1, "value": 4}, "prompt")
    card = prompt_card("ja", prompt, players)
    assert card is not None
    assert card.title == "Ben が 4 にダブル"
    assert [(b.text, b.kind, b.side) for b in card.buttons] == [
        ("テイク", ActionKind.TAKE, 0),
        ("パス", ActionKind.PASS, 0),
    ]
    assert not card.wide


def test_invalid_dice_card_says_roll_again() -> None:
    players = parse_snapshot(samples.table()).players
    prompt = parse_prompt({"kind": "invalid_dice", "side": 0, "reason": "off_board"}, "prompt")
    card = prompt_card("en", prompt, players)
    assert card is not None
    assert card.title == "A die left the board: roll again"
    assert card.buttons == ()
    assert prompt_card("en", parse_prompt({"kind": "none"}, "prompt"), players) is None


def test_pin_pad_accepts_the_pin_and_locks_out_after_failures() -> None:
    pad = PinPad()
    for digit in "1234":
        pad = pad.type(digit)
    pad, result = pad.submit("1234", now_ms=0)
    assert (pad, result) == (PinPad(), "accepted")
    for _ in range(MAX_FAILURES):
        pad, result = pad.type("9").submit("1234", now_ms=1000)
        assert result == "rejected"
    pad, result = pad.type("1").type("2").type("3").type("4").submit("1234", now_ms=2000)
    assert result == "locked"
    pad, result = (
        pad.type("1").type("2").type("3").type("4").submit("1234", now_ms=1000 + LOCKOUT_MS)
    )
    assert result == "accepted"


def test_pin_pad_limits_and_erases_digits() -> None:
    pad = PinPad()
    for _ in range(MAX_DIGITS + 3):
        pad = pad.type("7")
    assert pad.digits == "7" * MAX_DIGITS
    assert pad.erase().digits == "7" * (MAX_DIGITS - 1)
    with pytest.raises(ValueError, match="PIN digit"):
        pad.type("x")


def test_action_names_are_the_referees_touch_actions() -> None:
    from typing import get_args

    from kiosk.referee.events import TouchAction

    assert {kind.value for kind in ActionKind} == set(get_args(TouchAction))


def test_a_cube_out_of_play_cannot_be_doubled_and_a_bad_flag_is_named() -> None:
    data = samples.table(cube={"value": 1, "owner": None, "available": False})
    assert not parse_snapshot(data).cube.available
    with pytest.raises(SnapshotError, match=r"cube\.available: expected true or false"):
        parse_snapshot(samples.table(cube={"value": 1, "owner": None, "available": "no"}))
