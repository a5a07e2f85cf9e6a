"""Where things lie across the board in a reading (``kiosk.pipeline.readings``): the homography
of the board's corners, and the cube's place (centre, top, bottom, off-board) from its centre.

Differential against OpenCV's perspective transform on random perspective quads, exact on
hand-made quads, and end to end on the renderer's labels (``vision.render``: real camera
perspective, the cube where ``scripts.make_demo.placed_cube`` puts it).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.pipeline.readings import (
    CUBE_CENTRE_BAND,
    CUBE_SIDE_MARGIN,
    ROW_MIDDLE_BAND,
    board_homography,
    board_point,
    board_reading,
    cube_place,
    dice_seen,
    die_row,
)
from kiosk.referee.events import CubePlace, Row
from scripts.make_demo import placed_cube
from vision.labels import XY, Board, Cube, Die, PointCount, Reading, SideCounts
from vision.render.render import label_scene
from vision.render.scene import Scene, sample_scene

Quad = tuple[XY, XY, XY, XY]

RECTANGLE: Quad = ((100.0, 50.0), (500.0, 50.0), (500.0, 350.0), (100.0, 350.0))
KEYSTONE: Quad = ((220.0, 60.0), (420.0, 60.0), (600.0, 400.0), (40.0, 400.0))
"""A board seen from its bottom side, the top row far away: the top edge is short."""


def unit_to_image(corners: Quad, u: float, v: float) -> XY:
    """The image pixel of board point (u, v), by OpenCV's homography of the same corners."""
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    to_image = cv2.getPerspectiveTransform(square.astype(np.float32), np.array(corners, np.float32))
    x, y = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), to_image)[0, 0]
    return (float(x), float(y))


def projected(corners: Quad, center: XY) -> XY:
    homography = board_homography(corners)
    assert homography is not None
    where = board_point(homography, center)
    assert where is not None
    return where


@st.composite
def perspective_quads(draw: st.DrawFn) -> Quad:
    """TL, TR, BR, BL of a board seen from the bottom side at a random angle: a trapezoid (top
    edge shorter), sheared sideways and jittered."""
    half_bottom = draw(st.floats(150.0, 400.0))
    half_top = half_bottom * draw(st.floats(0.45, 1.0))
    height = draw(st.floats(120.0, 400.0))
    shear = draw(st.floats(-80.0, 80.0))
    jitter = [draw(st.floats(-15.0, 15.0)) for _ in range(8)]
    cx, top, bottom = 640.0, 100.0, 100.0 + height
    points = [
        (cx - half_top + shear, top),
        (cx + half_top + shear, top),
        (cx + half_bottom, bottom),
        (cx - half_bottom, bottom),
    ]
    tl, tr, br, bl = ((x + jitter[2 * i], y + jitter[2 * i + 1]) for i, (x, y) in enumerate(points))
    return (tl, tr, br, bl)


@settings(max_examples=150, deadline=None)
@given(
    perspective_quads(),
    st.floats(-0.3, 1.3),
    st.floats(-0.3, 1.3),
)
def test_board_point_inverts_opencvs_homography(corners: Quad, u: float, v: float) -> None:
    """A board point drawn into the image by OpenCV's homography comes back where it was."""
    back = projected(corners, unit_to_image(corners, u, v))
    assert back == pytest.approx((u, v), abs=1e-6)


@pytest.mark.parametrize("corners", [RECTANGLE, KEYSTONE])
def test_the_corners_go_to_the_unit_squares_corners(corners: Quad) -> None:
    for corner, expected in zip(corners, [(0, 0), (1, 0), (1, 1), (0, 1)], strict=True):
        assert projected(corners, corner) == pytest.approx(expected, abs=1e-9)


def test_perspective_moves_the_middle_line_towards_the_far_edge() -> None:
    """On the keystone the board's middle line lies above the pixel half-way between the top
    and bottom edges (far rows look shorter): a linear split of the pixels would be wrong."""
    middle_x, middle_y = unit_to_image(KEYSTONE, 0.5, 0.5)
    assert middle_y < (60.0 + 400.0) / 2 - 20.0
    assert projected(KEYSTONE, (middle_x, middle_y))[1] == pytest.approx(0.5, abs=1e-9)
    assert projected(KEYSTONE, (320.0, 230.0))[1] > 0.5 + CUBE_CENTRE_BAND / 2


@pytest.mark.parametrize(
    "corners",
    [
        ((100.0, 50.0), (300.0, 50.0), (500.0, 50.0), (100.0, 350.0)),  # three in a line
        ((100.0, 50.0), (100.0, 350.0), (500.0, 350.0), (500.0, 50.0)),  # anticlockwise
        ((100.0, 50.0), (500.0, 350.0), (500.0, 50.0), (100.0, 350.0)),  # crossed (bow tie)
        ((100.0, 50.0), (100.0, 50.0), (500.0, 350.0), (100.0, 350.0)),  # two the same
        ((100.0, 50.0), (500.0, 50.0), (200.0, 120.0), (100.0, 350.0)),  # not convex
    ],
)
def test_corners_that_make_no_board_give_no_homography(corners: Quad) -> None:
    assert board_homography(corners) is None


def test_a_point_beyond_the_vanishing_line_is_no_board_point() -> None:
    """Strong perspective: the sides meet above the board; a pixel above that is not on the
    board's plane at all."""
    steep: Quad = ((300.0, 100.0), (340.0, 100.0), (600.0, 400.0), (40.0, 400.0))
    homography = board_homography(steep)
    assert homography is not None
    assert board_point(homography, (320.0, 20.0)) is None
    assert cube_place(homography, (320.0, 20.0)) == "off-board"


@pytest.mark.parametrize("corners", [RECTANGLE, KEYSTONE])
@pytest.mark.parametrize(
    ("u", "v", "place"),
    [
        (0.5, 0.5, "centre"),
        (0.5, 0.5 - CUBE_CENTRE_BAND + 0.01, "centre"),
        (0.5, 0.5 + CUBE_CENTRE_BAND - 0.01, "centre"),
        (0.5, 0.5 - CUBE_CENTRE_BAND - 0.01, "top"),
        (0.5, 0.1, "top"),
        (0.5, 0.9, "bottom"),
        (0.2, 0.5 + CUBE_CENTRE_BAND + 0.01, "bottom"),
        (-0.08, 0.5, "centre"),  # at the side of the board, in a left tray
        (1.08, 0.85, "bottom"),  # in a right tray, on the bottom player's side
        (-CUBE_SIDE_MARGIN - 0.05, 0.5, "off-board"),
        (1.0 + CUBE_SIDE_MARGIN + 0.05, 0.5, "off-board"),
        (0.5, -0.1, "off-board"),
        (0.5, 1.1, "off-board"),
    ],
)
def test_cube_place_from_its_centre(corners: Quad, u: float, v: float, place: CubePlace) -> None:
    homography = board_homography(corners)
    assert cube_place(homography, unit_to_image(corners, u, v)) == place


def test_no_board_homography_no_cube_place() -> None:
    assert cube_place(None, (10.0, 10.0)) is None


def reading(corners: Quad | None, cube: XY | None) -> Reading:
    """A reading of an empty board with these corners and the cube at ``cube`` (pixels)."""
    return Reading(
        board=Board(found=True, corners=corners),
        points=tuple(PointCount(point, None, 0, 0, 0) for point in range(1, 25)),
        bar=SideCounts(0, 0),
        off=SideCounts(0, 0),
        dice=(),
        cube=None if cube is None else Cube(64, cube),
        occluded=False,
    )


def test_board_reading_places_the_cube() -> None:
    seen = board_reading(reading(KEYSTONE, unit_to_image(KEYSTONE, 0.5, 0.88)))
    assert seen is not None
    assert seen.cube is not None
    assert (seen.cube.face, seen.cube.place) == (64, "bottom")


@pytest.mark.parametrize(
    "corners",
    [None, ((100.0, 50.0), (100.0, 350.0), (500.0, 350.0), (500.0, 50.0))],
)
def test_without_usable_corners_the_cube_place_is_unknown(corners: Quad | None) -> None:
    seen = board_reading(reading(corners, (300.0, 200.0)))
    assert seen is not None
    assert seen.cube is not None
    assert seen.cube.place is None


def rendered_tables() -> list[Scene]:
    """Random rendered tables (random camera perspective) that have a board and a cube."""
    tables = []
    for seed in range(10):
        scene = sample_scene(np.random.default_rng(seed), 640, 360, dice=())
        if scene.board and any(s.kind == "cube" for s in scene.solids):
            tables.append(scene)
    assert len(tables) >= 6
    return tables


@pytest.mark.parametrize("place", ["centre", "top", "bottom"])
def test_rendered_cube_on_the_bar_is_placed_as_laid(place: CubePlace) -> None:
    """The renderer's exact labels: the cube laid on the bar (``placed_cube``) at the middle,
    near the top edge or near the bottom edge is read there, whatever the camera's angle."""
    for scene in rendered_tables():
        cube = next(s for s in scene.solids if s.kind == "cube")
        laid = dataclasses.replace(scene, solids=(placed_cube(cube, scene, 64, place),))
        seen = board_reading(label_scene(laid))
        assert seen is not None
        assert seen.cube is not None
        assert seen.cube.place == place


def test_rendered_cube_in_a_tray_is_centred_and_far_away_off_board() -> None:
    """At the side of the board (in a tray, middle height) the cube is centred; on the table
    well beyond the board it is off the board."""
    for scene in rendered_tables():
        g = scene.geometry
        cube = next(s for s in scene.solids if s.kind == "cube")
        x0, _, x1, _ = g.tray_rect(g.trays[0])
        spots: list[tuple[float, float, CubePlace]] = [
            ((x0 + x1) / 2, g.surface_height / 2, "centre"),
            (g.surface_width * (1.0 + CUBE_SIDE_MARGIN) + 60.0, g.surface_height / 2, "off-board"),
            (g.surface_width / 2, g.surface_height + 80.0, "off-board"),
        ]
        for x, y, place in spots:
            moved = dataclasses.replace(cube, x=x, y=y)
            seen = board_reading(label_scene(dataclasses.replace(scene, solids=(moved,))))
            assert seen is not None
            assert seen.cube is not None
            assert seen.cube.place == place, (x, y)


# -- dice rows -------------------------------------------------------------------------------------


@pytest.mark.parametrize("corners", [RECTANGLE, KEYSTONE])
@pytest.mark.parametrize(
    ("u", "v", "row"),
    [
        (0.8, 0.1, "top"),
        (0.8, 0.5 - ROW_MIDDLE_BAND - 0.01, "top"),
        (0.8, 0.5 - ROW_MIDDLE_BAND + 0.01, None),
        (0.8, 0.5 + ROW_MIDDLE_BAND - 0.01, None),
        (0.8, 0.5 + ROW_MIDDLE_BAND + 0.01, "bottom"),
        (0.2, 0.95, "bottom"),
        (-0.05, 0.8, None),
        (0.8, 1.05, None),
    ],
)
def test_die_row_from_its_centre(corners: Quad, u: float, v: float, row: Row | None) -> None:
    assert die_row(board_homography(corners), unit_to_image(corners, u, v)) == row


def test_no_board_homography_no_die_row() -> None:
    assert die_row(None, (10.0, 10.0)) is None


def with_dice(corners: Quad | None, dice: tuple[Die, ...]) -> Reading:
    return dataclasses.replace(reading(corners, None), dice=dice)


@settings(max_examples=50, deadline=None)
@given(st.permutations(range(4)))
def test_dice_seen_rows_and_canonical_order(order: list[int]) -> None:
    """Rows on the keystone; a die off the board has none; the order read does not matter."""
    dice = (
        Die(3, unit_to_image(KEYSTONE, 0.8, 0.3), "right-half", False),
        Die(3, unit_to_image(KEYSTONE, 0.8, 0.7), "right-half", False),
        Die(5, unit_to_image(KEYSTONE, 0.2, 0.7), "left-half", False),
        Die(6, unit_to_image(KEYSTONE, 0.5, 1.3), "off-board", False),
    )
    seen = dice_seen(with_dice(KEYSTONE, tuple(dice[i] for i in order)))
    assert [(d.value, d.zone, d.row) for d in seen] == [
        (5, "left-half", "bottom"),
        (6, "off-board", None),
        (3, "right-half", "bottom"),
        (3, "right-half", "top"),
    ]


def test_rendered_dice_rows_match_where_they_were_thrown() -> None:
    """The renderer's exact labels on random tables: each die's row is the half of the surface
    its centre lies in (board plane, mm), unless within the middle band."""
    told = 0
    for seed in range(10):
        scene = sample_scene(np.random.default_rng(seed), 640, 360, dice=(3, 1))
        if not scene.board:
            continue
        height = scene.geometry.surface_height
        thrown = [s for s in scene.solids if s.kind == "die"]
        label = label_scene(scene)
        assert label.board.corners is not None
        to_board = board_homography(label.board.corners)
        for solid, die in zip(thrown, label.dice, strict=True):
            share = solid.y / height
            if abs(share - 0.5) > ROW_MIDDLE_BAND + 0.02 and scene.zone(solid) != "off-board":
                assert die_row(to_board, die.center) == ("top" if share < 0.5 else "bottom")
                told += 1
    assert told >= 8
