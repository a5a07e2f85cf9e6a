"""What a cocked die could lean on (``vision.support``): on a board whose frame pixels are its
canonical ones (540 x 420, the bar from x 255 to 285, points 42.5 pixels apart), and on a
rendered tuning frame."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision_read.rendered import rendered
from vision.board import BoardView
from vision.config import ReadConfig
from vision.labels import PointCount
from vision.read import read_frame
from vision.render import scene_for_seed
from vision.support import unpropped

VIEW = BoardView(
    corners=((0.0, 0.0), (540.0, 0.0), (540.0, 420.0), (0.0, 420.0)),
    to_canonical=np.eye(3),
    width=540,
    height=420,
    bar=(255.0, 285.0),
)
REACH = 25.0  # pixels


def _points(count: int | None = 0, most: int = 0) -> list[PointCount]:
    """Point 1 (bottom right: axis x 518.75, checkers from y 398.75 up) holding ``count``
    light checkers (None: unsure, at most ``most``); the other points empty."""
    first = PointCount(1, "light", count, count or 0, most if count is None else count or 0)
    return [first, *(PointCount(n, None, 0, 0, 0) for n in range(2, 25))]


def test_a_die_in_the_open_has_nothing_to_lean_on() -> None:
    assert unpropped(VIEW, _points(5), (400.0, 210.0), [], REACH)


@pytest.mark.parametrize(
    "rests",
    [(400.0, 20.0), (400.0, 400.0), (20.0, 210.0), (520.0, 150.0), (240.0, 210.0), (300.0, 210.0)],
)
def test_a_die_by_a_wall_or_the_bars_side_may_lean_on_it(rests: tuple[float, float]) -> None:
    assert not unpropped(VIEW, _points(), rests, [], REACH)


def test_a_die_by_a_points_checkers_may_lean_on_them_as_far_as_its_count_reaches() -> None:
    beside_the_fourth = (480.0, 270.0)  # 17.5 px from the 4th checker's edge
    assert not unpropped(VIEW, _points(5), beside_the_fourth, [], REACH)
    assert unpropped(VIEW, _points(2), beside_the_fourth, [], REACH)
    assert not unpropped(VIEW, _points(None, most=5), beside_the_fourth, [], REACH)


def test_a_die_by_the_other_die_or_the_cube_may_lean_on_it() -> None:
    assert unpropped(VIEW, _points(), (400.0, 210.0), [(400.0, 240.0)], REACH)
    assert not unpropped(VIEW, _points(), (400.0, 210.0), [(400.0, 230.0)], REACH)


def test_on_the_bar_and_off_the_playing_surface_nothing_is_said() -> None:
    assert not unpropped(VIEW, _points(), (270.0, 210.0), [], 10.0)  # 15 px from both sides
    assert not unpropped(VIEW, _points(), (-40.0, 210.0), [], REACH)
    assert not unpropped(VIEW, _points(), (400.0, 460.0), [], REACH)


def test_a_flat_die_in_the_open_the_judge_calls_cocked_is_read_flat() -> None:
    """Tuning frame 660,218: a flat 5 two sides from the nearest checker, which the judge of
    leaning dice gives 0.99; with ``cocked_reach_sides`` None it is read cocked."""
    image, label = rendered(660_218)
    config = ReadConfig(principal_point=scene_for_seed(660_218).camera.principal_share())
    assert [(d.value, d.cocked) for d in label.dice] == [(5, False), (2, False)]
    read = read_frame(image, config, label.board.corners)
    assert sorted((d.value, d.cocked) for d in read.dice) == [(2, False), (5, False)]
    unasked = replace(config, dice=replace(config.dice, cocked_reach_sides=None))
    read = read_frame(image, unasked, label.board.corners)
    assert sorted((d.value, d.cocked) for d in read.dice) == [(2, False), (5, True)]
