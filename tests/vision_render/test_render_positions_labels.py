"""Positions for rendered scenes, checker layout, and the label type's JSON form."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.labels import Board, Cube, Die, PointCount, Reading, SideCounts
from vision.render.positions import HOME_CORNERS, Position, random_position, starting_position


def test_starting_position_bottom_right_home() -> None:
    position = starting_position("bottom-right")
    expected = {24: ("light", 2), 13: ("light", 5), 8: ("light", 3), 6: ("light", 5)}
    expected |= {1: ("dark", 2), 12: ("dark", 5), 17: ("dark", 3), 19: ("dark", 5)}
    for number in range(1, 25):
        assert position.points[number - 1] == expected.get(number, (None, 0))


@pytest.mark.parametrize("corner", HOME_CORNERS)
def test_starting_position_home_board_in_its_corner(corner: str) -> None:
    position = starting_position(corner)  # type: ignore[arg-type]
    home = {
        "bottom-right": range(1, 7),
        "bottom-left": range(7, 13),
        "top-left": range(13, 19),
        "top-right": range(19, 25),
    }[corner]
    light_home = sum(
        position.points[p - 1][1] for p in home if position.points[p - 1][0] == "light"
    )
    assert light_home == 5  # the five on the 6-point


def test_random_positions_are_valid() -> None:
    rng = np.random.default_rng(7)
    for _ in range(2000):
        position = random_position(rng)  # __post_init__ checks 15 a side, one colour a point
        assert all(count <= 15 for _, count in position.points)


def test_position_rejects_wrong_totals() -> None:
    points: list[tuple[Any, int]] = [(None, 0)] * 24
    points[0] = ("light", 15)
    points[1] = ("dark", 14)
    with pytest.raises(ValueError, match="dark: 14 checkers"):
        Position(points=tuple(points), bar=(0, 0), off=(0, 0))


def _reading() -> Reading:
    points = tuple(
        PointCount(
            n,
            "dark" if n == 1 else None,
            2 if n == 1 else 0,
            2 if n == 1 else 0,
            2 if n == 1 else 0,
        )
        for n in range(1, 25)
    )
    return Reading(
        board=Board(True, ((1.0, 2.0), (3.0, 4.0), (5.0, 6.0), (7.0, 8.0))),
        points=points,
        bar=SideCounts(0, 1),
        off=SideCounts(None, None),
        dice=(Die(5, (10.0, 20.0), "right-half", False), Die(None, (1.5, 2.5), "on-bar", True)),
        cube=Cube(64, (30.0, 40.0)),
        occluded=False,
        ms=12.5,
    )


def test_reading_json_matches_the_read_contract() -> None:
    data = _reading().to_json()
    assert data["board"] == {
        "found": True,
        "corners": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]],
    }
    assert data["points"][0] == {"point": 1, "color": "dark", "count": 2, "min": 2, "max": 2}
    assert data["bar"] == {"light": 0, "dark": 1}
    assert data["off"] == {"light": None, "dark": None}
    assert data["dice"][0] == {
        "value": 5,
        "center": [10.0, 20.0],
        "zone": "right-half",
        "cocked": False,
    }
    assert data["cube"] == {"value": 64, "center": [30.0, 40.0]}
    assert data["occluded"] is False
    assert data["ms"] == 12.5
    assert Reading.from_json(data) == _reading()


def test_reading_without_board() -> None:
    data: dict[str, Any] = {"board": {"found": False}, "dice": [], "cube": None}
    reading = Reading.from_json(data)
    assert not reading.board.found
    assert reading.points == ()
    assert reading.bar == SideCounts(None, None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(board=[]), "board: expected an object"),
        (lambda d: d["board"].update(corners=[[1, 2]]), "board.corners: expected 4 corners"),
        (lambda d: d["points"][3].update(count="2"), r"points\[3\].count: expected an integer"),
        (lambda d: d["points"][0].update(color="red"), r"points\[0\].color"),
        (lambda d: d["points"][0].update(point=25), r"points\[0\].point: expected 1..24"),
        (lambda d: d["dice"][1].update(zone="table"), r"dice\[1\].zone"),
        (lambda d: d["dice"][0].update(center=[1]), r"dice\[0\].center"),
        (lambda d: d.update(occluded="no"), "occluded: expected true or false"),
        (lambda d: d.update(ms="fast"), "ms: expected a number"),
    ],
)
def test_reading_json_errors_name_the_field(change: Any, message: str) -> None:
    data = _reading().to_json()
    change(data)
    with pytest.raises(ValueError, match=message):
        Reading.from_json(data)


def test_checkers_on_the_board_never_overlap_in_one_layer() -> None:
    from vision.render import scene_for_seed

    for seed in range(150):
        scene = scene_for_seed(seed)
        d = scene.geometry.checker_diameter
        for level in range(4):
            flat = [(c.x, c.y) for c in scene.checkers if c.level == level and not c.standing]
            if len(flat) < 2:
                continue
            xy = np.array(flat)
            gaps = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
            np.fill_diagonal(gaps, np.inf)
            hidden_layer = any(c.hidden for c in scene.checkers if c.level == level)
            if not hidden_layer:
                assert gaps.min() > 0.9 * d, f"seed {seed} level {level}"
