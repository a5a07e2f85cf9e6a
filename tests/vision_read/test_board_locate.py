"""Finding the board without markers (``vision.board.find_board``) on rendered tuning frames.

Figures asserted are the ones measured on these seeds (tuning seeds, not among the ones the
board nets were trained on, never evaluation seeds); thresholds sit near the measured figure,
so a regression fails.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from kiosk.demo import load_demo
from vision.board import (
    _located,
    bar_centred,
    board_from_corners,
    centred_bar,
    centred_bar_fit,
    find_bar,
    find_board,
    locate_corners,
    locator_image,
    locator_outputs,
    to_input,
)
from vision.config import BoardConfig, ReadConfig
from vision.evaluate import score_frame
from vision.labels import Reading
from vision.read import read_frame
from vision.render import render_scene, scene_for_seed
from vision.render.scene import Scene

SEEDS = range(24)
NO_BOARD_SEEDS = (59, 128, 145, 157, 165)  # tuning seeds whose scene has no board
Image = np.ndarray


@cache
def _frame(seed: int) -> tuple[Scene, Image, Reading]:
    scene = scene_for_seed(seed)
    image, label = render_scene(scene)
    return scene, image, label


def _true_bar(scene: Scene, view_corners: object, width: int) -> tuple[float, float]:
    """The bar's edges (mean x along each) on the surface with these corners rectified
    ``width`` pixels wide, from the scene's geometry seen through its camera and lens."""
    g = scene.geometry
    ys = np.linspace(0.0, g.surface_height, 9)
    edges = []
    for x in (g.bar_rect[0], g.bar_rect[2]):
        world = np.stack([np.full_like(ys, x), ys, np.zeros_like(ys)], axis=1)
        pixels = scene.camera.distort(scene.camera.project(world))
        unit = cv2.getPerspectiveTransform(
            np.array(view_corners, np.float32),
            np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32),
        )
        seen = cv2.perspectiveTransform(pixels.reshape(1, -1, 2), unit).reshape(-1, 2)
        edges.append(float(seen[:, 0].mean() * width))
    return (edges[0], edges[1])


def test_boards_found_with_their_corners_and_bar() -> None:
    """Measured on seeds 0..23 (24 boards): all found, corner error mean 0.85 px, worst 4.5 px;
    the bar's edges within 0.27 canonical px on average, worst 1.3 px."""
    config = BoardConfig()
    corner_errors, bar_errors = [], []
    for seed in SEEDS:
        scene, image, label = _frame(seed)
        view = find_board(image, config)
        if not scene.board:
            assert view is None
            continue
        assert view is not None, f"seed {seed}: board not found"
        assert label.board.corners is not None
        corner_errors += list(
            np.linalg.norm(np.array(view.corners) - np.array(label.board.corners), axis=1)
        )
        bar_errors += list(np.abs(np.subtract(view.bar, _true_bar(scene, view.corners, 540))))
    assert len(corner_errors) == 4 * len(SEEDS)
    assert float(np.mean(corner_errors)) <= 1.1
    assert float(np.max(corner_errors)) <= 6.0
    assert float(np.mean(bar_errors)) <= 0.5
    assert float(np.max(bar_errors)) <= 2.0


def test_the_locator_reads_a_mirrored_frame_as_the_frame_mirrored() -> None:
    """Read each way it learnt frames, the locator gives a frame mirrored left to right (or
    upside down) the frame's own outputs mirrored, corners swapped (TL with TR, or with BL)."""
    _, image, _ = _frame(1)
    config = BoardConfig()
    heat, offsets, presence = locator_outputs(to_input(locator_image(image, config)), config)
    rows, columns = heat.shape[1:]
    offsets = offsets.reshape(4, 2, rows, columns)
    for mirrored, corners, axis in (
        (image[:, ::-1], [1, 0, 3, 2], 0),
        (image[::-1], [3, 2, 1, 0], 1),
    ):
        small = to_input(locator_image(np.ascontiguousarray(mirrored), config))
        other_heat, other_offsets, other_presence = locator_outputs(small, config)
        other_offsets = other_offsets.reshape(4, 2, rows, columns)
        flip = (slice(None), slice(None, None, -1)) if axis == 0 else (slice(None, None, -1),)
        assert other_presence == pytest.approx(presence, abs=1e-4)
        for k, j in enumerate(corners):
            assert other_heat[k][flip] == pytest.approx(heat[j], abs=1e-3)
            sign = np.array([-1.0, 1.0] if axis == 0 else [1.0, -1.0])[:, None, None]
            expected = offsets[j] * sign
            assert other_offsets[k][(slice(None), *flip)] == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize("seed", [40, 359, 391])
def test_the_locator_read_mirrored_too_finds_boards_it_missed(seed: int) -> None:
    """Tuning frames whose board the locator read once does not find (measured on seeds
    0..399: three found so, one lost, 102), the search for another outline aside (with the
    locator read once it finds two of them)."""
    _, image, label = _frame(seed)
    config = BoardConfig()
    assert label.board.corners is not None
    view = find_board(image, config)
    assert view is not None
    assert np.abs(np.subtract(view.corners, label.board.corners)).max() <= 1.5
    once = replace(config, locator_mirrored=False, outline_search=False)
    assert find_board(image, once) is None


@pytest.mark.parametrize("seed", [650_555, 660_830, 650_314])
def test_the_search_moves_a_corner_the_locator_put_on_another(seed: int) -> None:
    """Tuning frames whose located outline has one corner 44 to 54 px off, on the corner of a
    tray or of the frame (the refiner sees a corner there in 650,555 and 660,830, none in
    650,314): the checks reject it and the search (``search_outline``) moves that corner to
    the surface's own. Without the search no board is found."""
    _, image, label = _frame(seed)
    config = BoardConfig()
    assert label.board.corners is not None
    located = _located(image, config)
    assert located is not None
    assert np.abs(located[0] - np.array(label.board.corners)).max() >= 40.0
    view = find_board(image, config)
    assert view is not None
    assert np.abs(np.subtract(view.corners, label.board.corners)).max() <= 1.5
    assert find_board(image, replace(config, outline_search=False)) is None


@pytest.mark.parametrize(("seed", "without"), [(650_750, None), (660_143, None), (651_125, 73.0)])
def test_a_camera_whose_focal_length_is_known_finds_the_rectangles_outline(
    seed: int, without: float | None
) -> None:
    """Tuning frames where, through the camera's known focal length, only outlines that can
    be a rectangle's are taken or weighed as rivals (``_square``): in 650,750 (top right not
    seen, 50 px off) and 660,143 an outline with a corner on a tray's scored within
    ``search_margin`` of the true one and no board was found; 651,125's located outline, its
    bottom right corner 73 px off, passed every other check, 3 degrees off a right angle (a
    board confidently wrong). Each is found within 4 px."""
    scene, image, label = _frame(seed)
    config = BoardConfig()
    assert label.board.corners is not None
    view = find_board(image, config, scene.camera.calibration())
    assert view is not None
    assert np.abs(np.subtract(view.corners, label.board.corners)).max() <= 4.0
    blind = find_board(image, config)
    if without is None:
        assert blind is None
    else:
        assert blind is not None
        assert np.abs(np.subtract(blind.corners, label.board.corners)).max() >= without - 1.0


def test_a_camera_whose_focal_length_is_known_takes_no_skewed_outline() -> None:
    """Tuning frame 660,363, whose search, blind to the camera, takes an outline with a
    corner 28 px off. Through the camera's focal length that outline is no rectangle's, and
    the one rectangle's among the outlines weighed lies 160 px off and fits a bar far worse
    than the located one: no board is found. (Tuning frame 650,447, blind 56 px off, was a
    second case until 2026-12-07: on an AMD EPYC machine (AVX2, no AVX-512) both searches
    find it 9 px off, with ONNX Runtime 1.30 to 1.32, OpenCV 5.0 or 5.1 and numpy 2.4.5 or
    2.4.6 alike: the machine, not those versions, decides that frame.)"""
    scene, image, label = _frame(660_363)
    config = BoardConfig()
    assert label.board.corners is not None
    blind = find_board(image, config)
    assert blind is not None
    assert np.abs(np.subtract(blind.corners, label.board.corners)).max() >= 25.0
    assert find_board(image, config, scene.camera.calibration()) is None


def test_the_search_moves_a_corner_where_two_of_one_side_are_not_seen() -> None:
    """Tuning seed 660,768: the refiner sees neither bottom corner (the left one 45 px off,
    the right one 2 px). Searching each, the outline with the left one moved onto the
    surface's own is taken; the search used to give up where two corners were not seen."""
    _, image, label = _frame(660_768)
    config = BoardConfig()
    assert label.board.corners is not None
    located = _located(image, config)
    assert located is not None
    assert list(np.flatnonzero(located[1] < config.min_corner_logit)) == [2, 3]
    view = find_board(image, config)
    assert view is not None
    assert np.abs(np.subtract(view.corners, label.board.corners)).max() <= 2.0


def test_a_located_outline_whose_bar_the_net_also_reads_in_the_middle_is_taken() -> None:
    """Tuning seed 650,058: every located corner within 1.2 px, but the bar net peaks on a
    point's edge as surely as on the bar's left one, so the bar found is off the middle. The
    pair of edges in the middle scores as high (``centred_bar_fit``): the outline is taken
    with that bar. Weighed against outlines with a corner moved instead, one 19 px off scores
    within ``search_margin`` of it and neither would be taken."""
    scene, image, label = _frame(650_058)
    config = BoardConfig()
    assert label.board.corners is not None
    view = find_board(image, config)
    assert view is not None
    assert np.abs(np.subtract(view.corners, label.board.corners)).max() <= 1.5
    truth = _true_bar(scene, view.corners, view.width)
    assert np.abs(np.subtract(view.bar, truth)).max() <= 1.5
    assert find_board(image, replace(config, located_bar_deficit=-1.0)) is None


def test_the_search_takes_no_outline_another_scores_nearly_as_well() -> None:
    """Tuning seed 670,538: the refiner does not see the located top left corner (5 px off)
    and sees the bottom left one 60 px off, on a tray's corner. The search moves only the
    corner not seen, and the located outline fits a bar in the middle little better than
    that one: within ``search_margin`` neither is taken (with no margin, the wrong one is)."""
    _, image, label = _frame(670_538)
    config = BoardConfig()
    assert label.board.corners is not None
    assert find_board(image, config) is None
    wrong = find_board(image, replace(config, search_margin=0.0))
    assert wrong is not None
    assert np.abs(np.subtract(wrong.corners, label.board.corners)).max() >= 50.0


def test_the_bar_fit_takes_the_likeliest_bar_in_the_middle() -> None:
    config = BoardConfig()
    width = config.bar_input_size[0]
    logits = np.zeros((2, width), np.float32)
    logits[0, 77], logits[0, 117] = 11.3, 10.0  # the left edge: a point's, then the bar's
    logits[1, 139] = 12.0
    fit = centred_bar_fit(logits, config)
    assert fit.bar == pytest.approx((117 / width, 139 / width), abs=0.2 / width)
    assert fit.score == pytest.approx(22.0)
    assert fit.deficit == pytest.approx(1.3)
    logits[0, 117] = 0.0  # no left edge near the middle: the fit falls far short
    assert centred_bar_fit(logits, config).deficit >= 11.0
    logits[0, 77] = 0.0
    logits[0, 117] = 11.3  # both edges found centred: no shortfall
    assert centred_bar_fit(logits, config).deficit == pytest.approx(0.0)


def test_no_board_where_there_is_none() -> None:
    config = BoardConfig()
    for seed in NO_BOARD_SEEDS:
        scene, image, _ = _frame(seed)
        assert not scene.board
        assert find_board(image, config) is None, f"seed {seed}: a board where there is none"
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    for image in (np.zeros((720, 1280, 3), np.uint8), noise, np.full((40, 60, 3), 128, np.uint8)):
        assert find_board(image, config) is None


def test_demo_frames_located() -> None:
    """Every shot of the embedded demo (1280 x 720): measured worst corner 1.9 px."""
    demo = load_demo()
    config = BoardConfig()
    for name in sorted(set(demo.files)):
        image = np.asarray(cv2.imread(str(demo.frames_dir / name)), np.uint8)
        found = locate_corners(image, config)
        assert found is not None, f"{name}: board not found"
        truth = np.array(demo.labels[name]["board"]["corners"])
        assert np.linalg.norm(np.array(found) - truth, axis=1).max() <= 2.5, name


def test_manual_corners_give_the_bar_too() -> None:
    scene, image, label = _frame(0)
    assert label.board.corners is not None
    view = board_from_corners(image, label.board.corners, BoardConfig())
    truth = _true_bar(scene, label.board.corners, view.width)
    assert np.abs(np.subtract(view.bar, truth)).max() <= 1.0  # measured 0.22


def test_a_bar_misread_on_given_corners_is_centred() -> None:
    config = BoardConfig()
    offset = config.max_bar_offset_px
    assert bar_centred((0.46, 0.54), config, offset)
    assert centred_bar((0.46, 0.54), config) == (0.46, 0.54)
    assert not bar_centred((0.40, 0.56), config, offset)  # 0.02 off the middle: 10.8 px
    assert not bar_centred((0.49, 0.51), config, offset)  # too narrow for a bar
    # on given corners a bar 10.8 px off the middle stands (corners tapped a little off)
    assert centred_bar((0.40, 0.56), config) == (0.40, 0.56)
    # one edge found right, the other on a checker: the right one, mirrored
    assert centred_bar((0.302, 0.545), config) == pytest.approx((0.455, 0.545))
    assert centred_bar((0.455, 0.697), config) == pytest.approx((0.455, 0.545))
    # both halves a bar's: the left one; neither (the edges swapped): a usual bar
    assert centred_bar((0.40, 0.52), config) == pytest.approx((0.40, 0.60))
    assert centred_bar((0.23, 0.15), config) == pytest.approx((0.455, 0.545))


def test_a_misread_bar_no_longer_shifts_the_points_it_parts() -> None:
    """Tuning seed 650,090 (a dark tournament board): on its labelled corners the bar net
    puts the bar's edges at 124 and 83 canonical px (the bar is at 249..291): neither edge
    usable, the bar is a usual bar's width in the middle, 3.3 px off at most, and the board,
    which had 12 points read wrong with a count, is read right."""
    scene, image, label = _frame(650_090)
    assert label.board.corners is not None
    config = BoardConfig()
    found = find_bar(image, label.board.corners, config)
    assert not bar_centred(found, config, config.max_given_bar_offset_px)
    view = board_from_corners(image, label.board.corners, config)
    truth = _true_bar(scene, label.board.corners, view.width)
    assert np.abs(np.subtract(view.bar, truth)).max() <= 4.0
    reading = read_frame(image, ReadConfig(), label.board.corners)
    assert score_frame(label, reading).boards_exact == 1


def test_aruco_markers_locate_a_board_the_networks_do_not_see() -> None:
    """Four markers (ids 0..3 at TL, TR, BR, BL) on a plain table: the surface's corners are
    the markers' corners nearest the middle."""
    config = BoardConfig()
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, config.aruco_dictionary))
    image = np.full((720, 1280, 3), 200, np.uint8)
    side = 80
    origins = ((200, 100), (1000, 100), (1000, 540), (200, 540))  # each marker's top-left
    for marker, (x, y) in zip(config.aruco_ids, origins, strict=True):
        drawn = cv2.aruco.generateImageMarker(dictionary, marker, side)
        image[y : y + side, x : x + side] = drawn[:, :, None]
    view = find_board(image, config)
    assert view is not None
    inner = ((280, 180), (1000, 180), (1000, 540), (280, 540))
    assert np.abs(np.array(view.corners) - np.array(inner)).max() <= 1.5


def test_frame_point_is_canonical_points_inverse() -> None:
    image, label = render_scene(scene_for_seed(0))
    assert label.board.corners is not None
    view = board_from_corners(image, label.board.corners, BoardConfig())
    for corner, canonical in zip(
        view.corners,
        [(0, 0), (view.width, 0), (view.width, view.height), (0, view.height)],
        strict=True,
    ):
        assert view.frame_point(*canonical) == pytest.approx(corner, abs=1e-3)
        assert view.canonical_point(*view.frame_point(100.0, 50.0)) == pytest.approx((100.0, 50.0))
