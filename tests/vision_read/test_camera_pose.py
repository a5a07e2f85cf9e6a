"""The camera over the board from its outline: nadir, and the point beneath a point above it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision import camera_pose, lean
from vision.config import ReadConfig
from vision.render.render import label_scene, render_scene
from vision.render.scene import scene_for_seed


def test_the_nadir_is_where_vertical_lines_meet() -> None:
    """``nadir_of`` from the board's outline and the camera's principal point: exact for a lens
    that does not distort (tuning seeds 650,000..650,029). On the same frames as rendered (72
    dice; half the lenses distort mildly) the direction from each die to the nadir is off by
    under 0.01 degrees at the median and 1.0 at p90 (the distorting lenses); with the principal
    point taken at the frame's centre instead (the renderer's cameras have theirs up to about
    100 pixels off it), by 14.0 and 52.7 (the thresholds sit above)."""
    from vision.render.scene import scene_for_seed

    errors: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(650_000, 650_030):
        scene = scene_for_seed(seed)
        camera = scene.camera
        down = np.array([[camera.position[0], camera.position[1], camera.position[2] - 1000.0]])
        ideal = replace(camera, k1=0.0)
        corners = [tuple(c) for c in ideal.project(scene.geometry.corners())]
        truth = ideal.project(down)[0]
        size = (camera.width, camera.height)
        nadir = camera_pose.nadir_of(corners, *size, camera.principal_share())
        assert nadir == pytest.approx(truth, abs=0.5)
        if not scene.board:
            continue
        _, label = render_scene(scene)
        assert label.board.corners is not None
        seen = camera.distort(camera.project(down))[0]
        for calibrated in (True, False):
            principal = camera.principal_share() if calibrated else (0.5, 0.5)
            estimate = camera_pose.nadir_of(label.board.corners, *size, principal)
            for die in label.dice:
                turn = lean.nadir_angle(die.center, estimate) - lean.nadir_angle(die.center, seen)
                errors[calibrated].append(abs((turn + 180.0) % 360.0 - 180.0))
    assert len(errors[True]) == 72
    assert np.median(errors[True]) < 0.1
    assert np.percentile(errors[True], 90) < 2.0
    assert np.median(errors[False]) < 16.0
    assert np.percentile(errors[False], 90) < 58.0


def test_a_known_focal_length_holds_the_nadir_where_corners_are_found_a_pixel_off() -> None:
    """Tuning seeds 650,000..650,029, their lenses made ideal: with the camera's focal length
    given (``ReadConfig.focal_length``, in shares of the width) the nadir is exact for exact
    corners. With each corner moved up to a pixel either way (5 draws a camera, as a found
    outline strays), the nadir stays within 19 pixels of the truth (median 5); found from the
    outline's right angle instead, the focal length lets it stray 26 pixels at the median and
    up to 432."""
    rng = np.random.default_rng(0)
    errors: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(650_000, 650_030):
        scene = scene_for_seed(seed)
        camera = replace(scene.camera, k1=0.0)
        down = np.array([[camera.position[0], camera.position[1], camera.position[2] - 1000.0]])
        truth = camera.project(down)[0]
        corners = camera.project(scene.geometry.corners())
        size = (camera.width, camera.height)
        principal, focal = camera.principal_share(), camera.focal_share()
        exact = camera_pose.nadir_of([tuple(c) for c in corners], *size, principal, focal)
        assert exact == pytest.approx(tuple(truth), abs=0.5)
        for _ in range(5):
            strayed = [tuple(c) for c in corners + rng.uniform(-1.0, 1.0, corners.shape)]
            for known in (True, False):
                nadir = camera_pose.nadir_of(strayed, *size, principal, focal if known else None)
                errors[known].append(float(np.hypot(*(np.array(nadir) - truth))))
    assert np.median(errors[True]) < 7.0
    assert max(errors[True]) < 20.0
    assert np.median(errors[False]) > 20.0
    assert max(errors[False]) > 300.0


def test_where_the_outline_gives_no_believable_focal_length_a_typical_cameras_is_taken() -> None:
    """Tuning seeds 650,000..650,199, their lenses made ideal, not calibrated (the principal
    point taken at the centre): for 68 boards the outline's right angle gives no focal length
    within ``FOCAL_SHARES``, and ``DEFAULT_FOCAL_SHARE`` (0.75) is taken. The nadir then lies a
    median 96 pixels from the truth (90th percentile 162); at 1.2, 220 (454)."""
    errors: dict[float, list[float]] = {camera_pose.DEFAULT_FOCAL_SHARE: [], 1.2: []}
    for seed in range(650_000, 650_200):
        scene = scene_for_seed(seed)
        if not scene.board:
            continue
        camera = replace(scene.camera, k1=0.0)
        down = np.array([[camera.position[0], camera.position[1], camera.position[2] - 1000.0]])
        truth = camera.project(down)[0]
        corners = [tuple(c) for c in camera.project(scene.geometry.corners())]
        found = camera_pose.board_camera(corners, camera.width, camera.height)
        if found.focal != camera_pose.DEFAULT_FOCAL_SHARE * camera.width:
            continue
        for share, seen in errors.items():
            pose = camera_pose.BoardCamera(found.homography, found.principal, share * camera.width)
            seen.append(float(np.hypot(*(np.array(pose.nadir()) - truth))))
    taken, before = errors.values()
    assert len(taken) == 68
    assert np.median(taken) < 110.0 < 200.0 < np.median(before)
    assert np.percentile(taken, 90) < 180.0 < 400.0 < np.percentile(before, 90)


def test_the_point_beneath_a_point_above_the_board_is_exact_for_an_ideal_camera() -> None:
    """Tuning seeds 650,000..650,029, their lenses made ideal: a point 0 to 40 mm above the
    board, seen where the camera shows it, is taken to where the camera shows the board point
    beneath it, to within a hundredth of a pixel (the cameras lie up to 20 degrees off
    vertical, their principal points up to about 100 pixels off the centre)."""
    rng = np.random.default_rng(0)
    for seed in range(650_000, 650_030):
        scene = scene_for_seed(seed)
        camera = replace(scene.camera, k1=0.0)
        geometry = scene.geometry
        corners = [tuple(c) for c in camera.project(geometry.corners())]
        pose = camera_pose.board_camera(
            corners, camera.width, camera.height, camera.principal_share()
        )
        width = geometry.surface_width
        for _ in range(5):
            x, y = rng.uniform(0, width), rng.uniform(0, geometry.surface_height)
            height = float(rng.uniform(0.0, 40.0))
            above, below = camera.project(np.array([[x, y, -height], [x, y, 0.0]]))
            beneath = pose.beneath((float(above[0]), float(above[1])), height / width)
            assert beneath == pytest.approx(tuple(below), abs=0.01)
        assert pose.beneath((300.0, 200.0), 0.0) == pytest.approx((300.0, 200.0), abs=1e-6)


def test_a_flat_die_rests_beneath_its_top_face() -> None:
    """Tuning seeds 650,000..650,099 as rendered (half the lenses distort mildly), the 139 flat
    dice on the playing surface: the top face shows 0.6 to 10.6 pixels from where the die rests
    (median 4.4); the point the die's side beneath it lies within 0.02 pixel of it at the
    median, 1.0 at most, and the point ``ReadConfig.die_share`` of the board's width beneath it
    (the side the reader expects, not the die's own), 0.24 at the median, 2.4 at most."""
    apart: dict[str, list[float]] = {"top": [], "side": [], "expected": []}
    expected = ReadConfig().die_share
    for seed in range(650_000, 650_100):
        scene = scene_for_seed(seed)
        label = label_scene(scene)
        if label.board.corners is None:
            continue
        camera = scene.camera
        pose = camera_pose.board_camera(
            label.board.corners, camera.width, camera.height, camera.principal_share()
        )
        width = scene.geometry.surface_width
        dice = [s for s in scene.solids if s.kind == "die"]
        for solid, die in zip(dice, label.dice, strict=True):
            if solid.tilt_deg or solid.base_height or die.zone == "off-board":
                continue
            rests = camera.distort(camera.project(np.array([[solid.x, solid.y, 0.0]])))[0]
            for key, point in (
                ("top", die.center),
                ("side", pose.beneath(die.center, solid.size / width)),
                ("expected", pose.beneath(die.center, expected)),
            ):
                apart[key].append(float(np.linalg.norm(np.subtract(point, rests))))
    assert len(apart["top"]) == 139
    assert np.median(apart["top"]) > 4.0
    assert np.median(apart["side"]) < 0.05
    assert max(apart["side"]) < 1.1
    assert np.median(apart["expected"]) < 0.3
    assert max(apart["expected"]) < 2.5


def test_a_surface_seen_through_its_camera_is_square_and_a_corner_moved_skews_it() -> None:
    """Tuning seeds 650,000..650,029, their lenses made ideal: the playing surface's own
    outline seen through its camera (``BoardCamera.skew_degrees``) makes a right angle within
    0.01 degrees. With one corner moved 30 px outward along the top or bottom side (as onto a
    tray's corner), the 120 outlines lie 1.66 degrees off at the median, 118 of them more than
    ``BoardConfig.max_skew_degrees`` (0.5) off."""
    limit = ReadConfig().board.max_skew_degrees
    skews = []
    for seed in range(650_000, 650_030):
        scene = scene_for_seed(seed)
        camera = replace(scene.camera, k1=0.0)
        corners = camera.project(scene.geometry.corners())
        size = (camera.width, camera.height)
        principal, focal = camera.principal_share(), camera.focal_share()
        seen = camera_pose.board_camera([tuple(c) for c in corners], *size, principal, focal)
        assert seen.skew_degrees() < 0.01
        for corner in range(4):
            outward = corners[corner] - corners[corner ^ 1]  # TL from TR, BR from BL, ...
            moved = corners.copy()
            moved[corner] += 30.0 * outward / np.linalg.norm(outward)
            skewed = camera_pose.board_camera([tuple(c) for c in moved], *size, principal, focal)
            skews.append(skewed.skew_degrees())
    assert np.median(skews) > 1.5
    assert sum(skew > limit for skew in skews) >= 118
