"""The snapshot formats: every documented field parsed, every bad field named."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kiosk.app.director import parse_director_snapshot
from kiosk.app.errors import SnapshotError
from kiosk.app.prompts import parse_prompt
from kiosk.app.snapshot import parse_snapshot
from tests.app import samples


def test_normal_play_snapshot_is_read_whole() -> None:
    snap = parse_snapshot(samples.table())
    assert snap.players[0].name == "Aiko"
    assert snap.players[1].color == "light"
    assert snap.clock.reserves_ms == (534_000, 601_000)
    assert snap.clock.running == 0
    assert snap.match.length == 7
    assert snap.match.score == (2, 3)
    assert snap.cube.value == 2
    assert snap.cube.owner == 1
    assert snap.turn == 0
    assert [d.value for d in snap.dice] == [5, 2]
    assert snap.board.points[5].color == "dark"
    assert snap.board.points[5].count == 4
    assert snap.board.points[1].color is None
    assert snap.prompt.kind == "none"


def test_points_may_come_in_any_order_and_uncertain_counts_are_marked() -> None:
    data = samples.table()
    points = data["board"]["points"]
    points.reverse()
    points[0].update({"count": None, "min": 3, "max": 6})  # point 24
    snap = parse_snapshot(data)
    assert snap.board.points[23].count is None
    assert snap.board.points[23].uncertain
    assert not snap.board.points[0].uncertain


def _set(data: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(data)
    *parents, last = path.split(".")
    target: Any = data
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    if last.isdigit():
        target[int(last)] = value
    elif value is KeyError:
        del target[last]
    else:
        target[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("clock.reserves_ms", [1], "clock.reserves_ms: expected 2 entries"),
        ("clock.reserves_ms", [1, "x"], "clock.reserves_ms[1]: expected an integer"),
        ("clock.running", 2, "clock.running: 2 is outside 0..1"),
        ("clock.enabled", "yes", "clock.enabled: expected true or false"),
        ("match.score", [1, -1], "match.score[1]: -1 is outside 0.."),
        ("match", KeyError, "match: missing"),
        ("cube.value", 3, "cube.value: expected a power of two"),
        ("turn", True, "turn: expected an integer"),
        ("dice.0.zone", "floor", "dice[0].zone: expected one of"),
        ("dice.1.value", 7, "dice[1].value: 7 is outside 1..6"),
        ("board.points.3.point", 1, "board.points[3].point: point 1 appears twice"),
        ("board.points.3.color", "red", "board.points[3].color: expected light, dark or null"),
        ("board.bar.dark", 16, "board.bar.dark: 16 is outside 0..15"),
        ("players.1.color", "dark", "players: both players have the same color"),
        ("language", "fr", "language: expected one of en, ja"),
        ("prompt.kind", "hint", "prompt.kind: expected one of"),
    ],
)
def test_bad_fields_are_named(path: str, value: object, message: str) -> None:
    with pytest.raises(SnapshotError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_snapshot(_set(samples.table(), path, value))


def test_aid_fields_are_ignored_and_never_parsed() -> None:
    # MSO 1.5, JBL 1.9: nothing in the players' snapshot can carry an aid.
    snap = parse_snapshot(samples.table(pips=[167, 160], equity=0.42, legal_plays=["13/8 6/4"]))
    assert not any("pip" in name or "equity" in name for name in vars(snap))


def test_illegal_move_prompt() -> None:
    prompt = parse_prompt(samples.ILLEGAL_MOVE, "prompt")
    assert prompt.kind == "illegal_move"
    assert prompt.side == 0
    assert prompt.dice == (5, 2)
    assert prompt.reason == "wrong_number"
    assert prompt.details == {"die": 6}
    assert prompt.moves == ((13, 7), (6, 4))
    assert prompt.board is not None


def test_illegal_move_reason_needs_its_detail() -> None:
    data = copy.deepcopy(samples.ILLEGAL_MOVE)
    del data["reason"]["die"]
    with pytest.raises(SnapshotError, match=r"prompt\.reason\.die: missing for wrong_number"):
        parse_prompt(data, "prompt")


def test_moves_accept_bar_and_off_only_as_words() -> None:
    data = copy.deepcopy(samples.ILLEGAL_MOVE)
    data["moves"] = [["bar", 20], [3, "off"]]
    assert parse_prompt(data, "prompt").moves == (("bar", 20), (3, "off"))
    data["moves"] = [[0, 20]]
    with pytest.raises(SnapshotError, match=r"prompt\.moves\[0\]\[0\]: 0 is outside 1\.\.24"):
        parse_prompt(data, "prompt")


@pytest.mark.parametrize(
    "data",
    [
        samples.SETUP_ERROR,
        {"kind": "invalid_dice", "side": 1, "reason": "cocked"},
        {"kind": "cube_offered", "side": 0, "value": 4},
        {"kind": "paused", "reason": "break"},
        {
            "kind": "ruling",
            "topic": "time_expiry",
            "side": 0,
            "decision": "penalty_point",
            "points": 1,
            "gin": {"win": "certain"},
        },
        {
            "kind": "ruling",
            "topic": "concession",
            "side": 1,
            "decision": "refused",
            "level": "gammon",
        },
    ],
)
def test_every_prompt_kind_parses(data: dict[str, Any]) -> None:
    assert parse_prompt(data, "prompt").kind == data["kind"]


def test_side_is_required_where_a_player_decides() -> None:
    with pytest.raises(SnapshotError, match=r"prompt\.side: missing"):
        parse_prompt({"kind": "cube_offered", "value": 2}, "prompt")


def test_director_snapshot() -> None:
    snap = parse_director_snapshot(samples.director())
    assert [i.id for i in snap.incidents] == [1, 2]
    assert snap.incidents[1].legal_plays[0] == "13/8 6/4"
    assert snap.incidents[1].board is not None
    assert snap.incidents[0].board is None
    assert snap.settings.ruleset == "mso"


def test_director_snapshot_rejects_duplicate_ids_and_bad_plays() -> None:
    data = samples.director()
    data["incidents"][1]["id"] = 1
    with pytest.raises(SnapshotError, match="two incidents share an id"):
        parse_director_snapshot(data)
    data = samples.director()
    data["incidents"][1]["legal_plays"] = [1]
    with pytest.raises(SnapshotError, match=r"incidents\[1\]\.legal_plays"):
        parse_director_snapshot(data)


def test_prompts_may_carry_written_text_an_answerer_and_choices() -> None:
    prompt = parse_prompt(
        {
            "kind": "illegal_move",
            "side": 1,
            "text": "a 6 was played with 5-2",
            "to": 0,
            "choices": ["condone", "demand_legal_play"],
        },
        "prompt",
    )
    assert prompt.reason == ""
    assert prompt.text == "a 6 was played with 5-2"
    assert prompt.to == 0
    assert [c.value for c in prompt.choices] == ["condone", "demand_legal_play"]
    with pytest.raises(SnapshotError, match=r"prompt\.choices\[0\]: unknown action 'hint'"):
        parse_prompt({"kind": "notice", "text": "x", "choices": ["hint"]}, "prompt")
    with pytest.raises(SnapshotError, match=r"prompt\.text: missing for a notice"):
        parse_prompt({"kind": "notice"}, "prompt")


def test_a_gin_verdict_is_kept_only_in_rulings() -> None:
    # MSO 1.5, JBL 1.9: a verdict outside a ruling is dropped, never shown.
    verdict = {"verdict": "gammon certain", "gin": {"gammon": "certain"}}
    notice = parse_prompt({"kind": "notice", "text": "Game over", **verdict}, "prompt")
    assert (notice.verdict, dict(notice.gin)) == ("", {})
    move = parse_prompt({**samples.ILLEGAL_MOVE, **verdict}, "prompt")
    assert (move.verdict, dict(move.gin)) == ("", {})
    ruling = parse_prompt(
        {"kind": "notice", "text": "Time expired", "ruling": True, **verdict}, "prompt"
    )
    assert (ruling.verdict, dict(ruling.gin)) == ("gammon certain", {"gammon": "certain"})
