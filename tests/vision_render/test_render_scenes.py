"""The synthetic renderer: determinism, label consistency, variations, speed."""

from __future__ import annotations

import dataclasses
import math
import time

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.labels import CHECKERS_PER_SIDE, COLORS, Reading
from vision.render import render_scene, sample_scene, scene_for_seed
from vision.render.effects import motion_blur
from vision.render.layout import ROW
from vision.render.palettes import THEMES, contrast, distance, luminance
from vision.render.render import label_scene
from vision.render.scene import (
    BLUR_PX,
    FANCY_DICE_SHARE,
    FLUSH_GAP_MM,
    LEAN_SHARE,
    MOTION_BLUR_PX,
    REFERENCE_WIDTH,
    TOUCHING_GAP_MM,
    Lighting,
    Scene,
    Solid,
    Style,
    sample_hand,
    sample_lighting,
    scaled_scene,
    touching_distance,
)
from vision.render.solids import top_center

SEEDS = range(20)


def _neutral(scene: Scene) -> Scene:
    """The scene under flat, even light with no lens or sensor effects."""
    lighting = Lighting(
        level=1.0,
        gradient=(0.0, 0.0),
        vignette=0.0,
        gains=(1.0, 1.0, 1.0),
        shadow_offset=(0.0, 0.0),
        glare=None,
        shadow=None,
        shadow_strength=0.0,
        blur_sigma=0.0,
        motion_blur=None,
        noise_sigma=0.0,
        jpeg_quality=None,
    )
    return dataclasses.replace(scene, lighting=lighting, hands=())


def test_same_seed_same_frame_and_label() -> None:
    for seed in (3, 11):
        first, label_a = render_scene(scene_for_seed(seed))
        second, label_b = render_scene(scene_for_seed(seed))
        assert np.array_equal(first, second)
        assert label_a == label_b
    other, _ = render_scene(scene_for_seed(4))
    assert not np.array_equal(first, other)


def test_frame_shape_and_type() -> None:
    image, _ = render_scene(scene_for_seed(5, width=640, height=360))
    assert image.shape == (360, 640, 3)
    assert image.dtype == np.uint8


def test_label_round_trips_through_json() -> None:
    for seed in SEEDS:
        _, label = render_scene(scene_for_seed(seed, 320, 180))
        assert Reading.from_json(label.to_json()) == label


def test_counts_sum_to_fifteen_and_ranges_hold_the_truth() -> None:
    for seed in range(300):
        scene = scene_for_seed(seed)
        if not scene.board:
            continue
        label = label_scene(scene)
        assert [p.point for p in label.points] == list(range(1, 25))
        hidden = sum(1 for c in scene.checkers if c.hidden)
        for side, color in enumerate(COLORS):
            on_points = sum(p.count or 0 for p in label.points if p.color == color)
            bar = (label.bar.light, label.bar.dark)[side]
            off = (label.off.light, label.off.dark)[side]
            assert on_points + (bar or 0) + (off or 0) == CHECKERS_PER_SIDE
        for point in label.points:
            assert point.count is not None
            assert point.min <= point.count <= point.max
            if hidden == 0:
                assert point.min == point.count == point.max


def test_hidden_checkers_lower_min_by_their_number_and_open_their_colour_s_full_rows() -> None:
    scenes = [s for s in (scene_for_seed(seed) for seed in range(200)) if "stack-stacked" in s.tags]
    assert scenes
    full_rows_hiding_none = 0
    for scene in scenes:
        label = label_scene(scene)
        hides = {
            colour: sum(
                1
                for c in scene.checkers
                if c.hidden and scene.position.points[c.where - 1][0] == colour
            )
            for colour in ("light", "dark")
        }
        for point in label.points:
            hidden = sum(1 for c in scene.checkers if c.hidden and c.where == point.point)
            assert point.min == (point.count or 0) - hidden
            # a full row may hide its colour's hidden checkers whether it does or not
            could_hide = point.color is not None and hides[point.color] > 0 and point.min >= ROW
            assert (point.max > point.min) == could_hide
            if could_hide:
                assert point.max == min(point.min + hides[point.color], CHECKERS_PER_SIDE)
                full_rows_hiding_none += hidden == 0
    assert full_rows_hiding_none > 0


def _surface_green(scene: Scene, frame_height: float) -> tuple[float, float]:
    """Render the playing surface pure green, the rest red, with the frame raised
    ``frame_height`` mm; returns (green inside the labelled corners, green outside them), each
    as a share of the labelled polygon's area."""
    green, red = (0, 255, 0), (0, 0, 255)
    style: Style = dataclasses.replace(
        scene.style,
        frame=red,
        tray=red,
        surface=green,
        points=(green, green),
        bar=green,
        point_outline=None,
    )
    geometry = dataclasses.replace(scene.geometry, frame_height=frame_height)
    camera = dataclasses.replace(scene.camera, k1=0.0)  # straight edges
    scene = dataclasses.replace(
        scene, style=style, geometry=geometry, camera=camera, checkers=(), solids=()
    )
    image, label = render_scene(_neutral(scene))
    assert label.board.corners is not None
    is_green = image[:, :, 1].astype(int) > 2 * image[:, :, 2].astype(int)
    polygon = np.zeros(image.shape[:2], np.uint8)
    corners = np.round(np.array(label.board.corners) * 16).astype(np.int32)
    cv2.fillConvexPoly(polygon, corners, 1, cv2.LINE_8, 4)
    inside = polygon.astype(bool)
    area = inside.sum()
    return (is_green & inside).sum() / area, (is_green & ~inside).sum() / area


def test_labelled_corners_outline_the_playing_surface_in_the_image() -> None:
    """With a flat frame the green area is the labelled corner polygon, to under 2 px."""
    scenes = [s for s in (scene_for_seed(seed) for seed in range(10)) if s.board][:4]
    for scene in scenes:
        inside, outside = _surface_green(scene, 0.0)
        assert inside > 0.998
        assert outside < 0.002


def test_a_raised_frame_hides_the_edge_of_the_surface_but_never_moves_it() -> None:
    tilted = [s for s in (scene_for_seed(seed) for seed in range(40)) if s.camera.tilt_deg > 12]
    for scene in tilted[:3]:
        inside, outside = _surface_green(scene, 14.0)
        assert 0.9 < inside < 0.995
        assert outside < 0.002


def test_lens_distortion_maps_invert_distort() -> None:
    camera = dataclasses.replace(scene_for_seed(1).camera, k1=-0.08)
    ideal = np.array([[100.0, 80.0], [640.0, 360.0], [1200.0, 650.0], [30.0, 700.0]])
    seen = camera.distort(ideal)
    assert np.abs(seen - ideal).max() > 5.0  # the lens moves the frame's edges
    map_x, map_y = camera.undistortion_maps()
    for (x, y), (u, v) in zip(ideal, seen, strict=True):
        i, j = round(v), round(u)
        if 0 <= i < camera.height and 0 <= j < camera.width:
            back = (map_x[i, j] + (u - j), map_y[i, j] + (v - i))
            assert np.hypot(back[0] - x, back[1] - y) < 0.6


@pytest.mark.parametrize(("angle", "still_axis"), [(0.0, 0), (90.0, 1)])
def test_motion_blur_smears_a_dot_along_its_angle_and_keeps_its_light(
    angle: float, still_axis: int
) -> None:
    dot = np.zeros((21, 21, 3), np.uint8)
    dot[10, 10] = 210
    smeared = motion_blur(dot, 7.0, angle)[..., 0].astype(np.int64)
    lit = np.argwhere(smeared > 0)
    assert len(lit) == 7  # a 7-pixel line through the dot
    assert set(lit[:, still_axis].tolist()) == {10}  # no spread across the motion
    assert int(smeared.sum()) == pytest.approx(210, abs=7)  # rounding per pixel only


def test_die_label_centre_lies_on_the_die_and_zone_matches_the_board() -> None:
    magenta = (255, 0, 255)
    checked = 0
    for seed in range(80):
        scene = scene_for_seed(seed)
        dice = [s for s in scene.solids if s.kind == "die"]
        if not dice:
            continue
        die: Solid = dataclasses.replace(
            dice[0], body=magenta, ink=magenta, translucent=False, veins=None
        )
        scene = _neutral(dataclasses.replace(scene, solids=(die,)))
        image, label = render_scene(scene)
        (read,) = label.dice
        x, y = (round(v) for v in read.center)
        patch = image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).astype(int)
        is_magenta = (patch[:, 0] > patch[:, 1] + 60) & (patch[:, 2] > patch[:, 1] + 60)
        assert is_magenta.all(), f"seed {seed}"
        if label.board.found and label.board.corners is not None:
            inside = cv2.pointPolygonTest(
                np.array(label.board.corners, np.float32), (float(x), float(y)), False
            )
            assert (inside > 0) == (read.zone != "off-board"), f"seed {seed}"
        checked += 1
    assert checked >= 20


def test_cocked_dice_are_tilted_and_flat_dice_are_not() -> None:
    for seed in range(100):
        scene = scene_for_seed(seed)
        label = label_scene(scene)
        dice = [s for s in scene.solids if s.kind == "die"]
        assert [d.cocked for d in label.dice] == [s.tilt_deg > 0 for s in dice]
        assert [d.value for d in label.dice] == [s.faces[0] for s in dice]


def test_the_share_of_leaning_dice_can_be_raised_for_training() -> None:
    """The renderer's own share (16%) draws every seed's scene as before; a trainer may ask
    for every die to lean, or none."""
    for seed in range(30):
        assert sample_scene(np.random.default_rng(seed), lean_share=LEAN_SHARE) == scene_for_seed(
            seed
        )
        for share, leaning in ((1.0, True), (0.0, False)):
            scene = sample_scene(np.random.default_rng(seed), lean_share=share)
            # without a board a die has nothing to lean on
            expected = leaning and scene.board
            assert all(s.cocked == expected for s in scene.solids if s.kind == "die")


def _leans_on(scene: Scene, die: Solid) -> str | None:
    """What a tipped die leans on: a checker (its centre a checker's radius and 0.35 of its
    side from a checker's) or the frame (0.35 of its side inside the playing surface's edge, or
    outside the board's), else None."""
    g = scene.geometry
    reach = die.size * 0.35
    for checker in scene.checkers:
        gap = math.hypot(checker.x - die.x, checker.y - die.y) - g.checker_diameter / 2
        if checker.level == 0 and not checker.standing and abs(gap - reach) < 1e-6:
            return "checker"
    x0, y0, x1, y1 = g.outer_rect
    inner = (die.x, g.surface_width - die.x, die.y, g.surface_height - die.y)
    outer = (x0 - die.x, die.x - x1, y0 - die.y, die.y - y1)
    if any(abs(d - reach) < 1e-6 for d in (*inner, *outer)):
        return "frame"
    return None


def test_a_cocked_die_leans_on_a_checker_or_the_frame() -> None:
    """Nothing holds a die tipped in mid-air: each leans on a checker or, where none is near,
    on the board's raised frame (as the issue's "leaning on a checker or the board's edge")."""
    supports = []
    for seed in range(120):
        scene = sample_scene(np.random.default_rng(seed), lean_share=1.0)
        supports += [_leans_on(scene, s) for s in scene.solids if s.kind == "die" and s.cocked]
    assert None not in supports
    assert supports.count("checker") > 50
    assert supports.count("frame") > 50


def _checker_gap(scene: Scene, die: Solid) -> float:
    """The least distance (mm) from a flat die's square to the edge of a checker lying on the
    board (negative where the die lies over one)."""
    radius = scene.geometry.checker_diameter / 2
    turn = math.radians(-die.yaw_deg)
    gaps = []
    for checker in scene.checkers:
        if checker.level or checker.standing:
            continue
        dx, dy = checker.x - die.x, checker.y - die.y
        u = abs(dx * math.cos(turn) - dy * math.sin(turn)) - die.size / 2
        v = abs(dx * math.sin(turn) + dy * math.cos(turn)) - die.size / 2
        inside = min(max(u, v), 0.0)
        gaps.append(math.hypot(max(u, 0.0), max(v, 0.0)) + inside - radius)
    return min(gaps, default=math.inf)


def test_a_trainer_may_lay_flat_dice_against_checkers() -> None:
    """A die lying against a checker need not lean: a trainer may ask for the dice that do not
    lean to lie flat against a checker, flush with its edge and never over it (a leaning die's
    centre lies 0.35 of a side from the checker's edge: laid flat there it would lie over it)."""
    flush = dice = 0
    for seed in range(40):
        scene = sample_scene(np.random.default_rng(seed), lean_share=0.0, against_share=1.0)
        for solid in (s for s in scene.solids if s.kind == "die"):
            assert not solid.cocked
            dice += 1
            gap = _checker_gap(scene, solid)
            assert gap >= -1e-6
            flush += gap <= FLUSH_GAP_MM + 0.1 * solid.size  # a corner a little off the line
    assert flush > 0.6 * dice


def test_a_seed_s_scene_may_lay_flat_dice_against_checkers() -> None:
    """``scene_for_seed`` passes ``against_share`` on (``evaluate-vision --against-share``);
    0 draws every seed's scene as before."""
    for seed in range(5):
        asked = sample_scene(np.random.default_rng(seed), against_share=0.5)
        assert scene_for_seed(seed, against_share=0.5) == asked
        assert scene_for_seed(seed, against_share=0.0) == scene_for_seed(seed)


def test_the_share_of_dice_of_other_makes_can_be_raised_for_training() -> None:
    """The renderer's own share (30% of pairs) draws every seed's scene as before; a trainer may
    ask for every pair to be of another make, or none, and the dice lie where they lay."""
    for seed in range(30):
        scene = scene_for_seed(seed)
        assert sample_scene(np.random.default_rng(seed), fancy_share=FANCY_DICE_SHARE) == scene
        for share, fancy in ((1.0, True), (0.0, False)):
            drawn = sample_scene(np.random.default_rng(seed), fancy_share=share)
            dice = [s for s in drawn.solids if s.kind == "die"]
            assert ("fancy-dice" in drawn.tags) == (fancy and bool(dice))
            assert [(s.x, s.y, s.faces) for s in dice] == [
                (s.x, s.y, s.faces) for s in scene.solids if s.kind == "die"
            ]


EXPECTED_TAGS = {
    *(f"theme-{theme.name}" for theme in THEMES),
    "dark-on-dark",
    "starting-position",
    "random-position",
    "stack-overflow",
    "stack-layered",
    "stack-stacked",
    "perspective",
    "lens-distortion",
    "glare",
    "shadow",
    "blur",
    "motion-blur",
    "noise",
    "jpeg",
    "hand",
    "die-left-half",
    "die-right-half",
    "die-on-bar",
    "die-off-board",
    "cocked",
    "light-dice",
    "dark-dice",
    "translucent-dice",
    "touching-dice",
    "fancy-dice",
    "marbled-dice",
    "cube-centred",
    "cube-owned",
    "no-board",
}


def test_every_variation_occurs() -> None:
    rng = np.random.default_rng(12345)
    seen: set[str] = set()
    for _ in range(600):
        seen.update(sample_scene(rng, 1280, 720).tags)
    assert seen >= EXPECTED_TAGS, sorted(EXPECTED_TAGS - seen)


def test_hand_frames_are_labelled_occluded() -> None:
    for seed in range(100):
        scene = scene_for_seed(seed)
        assert label_scene(scene).occluded == ("hand" in scene.tags)


def test_no_board_frames_have_only_off_board_dice() -> None:
    seeds = [s for s in range(400) if "no-board" in scene_for_seed(s).tags]
    assert seeds
    for seed in seeds[:3]:
        _, label = render_scene(scene_for_seed(seed))
        assert not label.board.found
        assert label.points == ()
        assert all(d.zone == "off-board" for d in label.dice)


def test_perspective_stays_within_twenty_degrees() -> None:
    tilts = [scene_for_seed(seed).camera.tilt_deg for seed in range(200)]
    assert max(tilts) <= 20.0
    assert max(tilts) > 15.0


def test_rendering_is_fast() -> None:
    """CPU time per 1280 x 720 frame (about 50 ms here): a guard against slow changes that
    other processes on a shared machine cannot trip."""
    scenes = [scene_for_seed(seed) for seed in range(100, 110)]
    render_scene(scenes[0])
    start = time.process_time()
    for scene in scenes:
        render_scene(scene)
    mean_ms = (time.process_time() - start) * 100.0
    assert mean_ms < 200.0


@pytest.mark.parametrize("seed", [0, 1])
def test_light_checkers_are_lighter(seed: int) -> None:
    style = scene_for_seed(seed).style
    assert luminance(style.light_checker) > luminance(style.dark_checker)


def test_a_given_position_and_roll_are_shown() -> None:
    from vision.render.positions import starting_position

    position = starting_position("top-left")
    scene = sample_scene(np.random.default_rng(9), 640, 360, position=position, dice=(6, 5))
    label = label_scene(scene)
    assert scene.position == position
    assert sorted(d.value or 0 for d in label.dice) == [5, 6]
    with pytest.raises(ValueError, match=r"dice: expected values 1\.\.6"):
        sample_scene(np.random.default_rng(9), dice=(7,))


def test_seeds_are_stable() -> None:
    """Seed 1_000_000 (the first evaluation frame) keeps its scene: the evaluation set is fixed."""
    label = label_scene(scene_for_seed(1_000_000))
    summary = (label.board.found, [(p.color, p.count) for p in label.points if p.count])
    assert summary == EVALUATION_FRAME_0


def test_blur_is_drawn_in_the_scene_not_in_pixels() -> None:
    """A frame twice as wide under the same draw is blurred and smeared twice as many pixels
    (the optics and the motion blur the scene); sensor noise and JPEG stay per pixel. A frame
    ``REFERENCE_WIDTH`` wide keeps the draws it always had (the evaluation set is fixed)."""
    assert REFERENCE_WIDTH == 1280
    blurred = moved = 0
    for seed in range(300):
        small = sample_lighting(np.random.default_rng(seed), 1280, 720, set())
        large = sample_lighting(np.random.default_rng(seed), 2560, 1440, set())
        assert large.blur_sigma == pytest.approx(2 * small.blur_sigma)
        assert small.blur_sigma == 0.0 or BLUR_PX[0] <= small.blur_sigma <= BLUR_PX[1]
        blurred += small.blur_sigma > 0
        if small.motion_blur is None:
            assert large.motion_blur is None
        else:
            assert large.motion_blur is not None
            assert MOTION_BLUR_PX[0] <= small.motion_blur[0] <= MOTION_BLUR_PX[1]
            assert large.motion_blur == pytest.approx(
                (2 * small.motion_blur[0], small.motion_blur[1])
            )
            moved += 1
        assert (large.noise_sigma, large.jpeg_quality) == (small.noise_sigma, small.jpeg_quality)
    assert blurred > 80
    assert moved > 10


def test_a_hand_is_smeared_in_the_scene_not_in_pixels() -> None:
    """A hand over a frame twice as wide moves twice as many pixels."""
    moved = 0
    for seed in range(40):
        scene = scene_for_seed(seed)
        wide = dataclasses.replace(scene.camera, width=2 * scene.camera.width)
        small = sample_hand(np.random.default_rng(seed), scene.camera, scene.geometry)
        large = sample_hand(np.random.default_rng(seed), wide, scene.geometry)
        assert large.motion_px == pytest.approx(2 * small.motion_px)
        moved += small.motion_px > 0
    assert moved > 10


def test_a_scaled_scene_is_the_same_view_with_more_pixels() -> None:
    """Rendered twice as wide and shrunk back, a scene is its own frame to a few grey levels
    (edges are drawn sharper); its labels are the scene's, twice as far from the origin."""
    for seed in (0, 1, 3):
        scene = scene_for_seed(seed)
        clean = dataclasses.replace(
            scene, lighting=dataclasses.replace(scene.lighting, noise_sigma=0.0, jpeg_quality=None)
        )
        image, label = render_scene(clean)
        fine, fine_label = render_scene(scaled_scene(clean, 2))
        assert fine.shape == (1440, 2560, 3)
        shrunk = cv2.resize(fine, (1280, 720), interpolation=cv2.INTER_AREA)
        assert float(np.abs(shrunk.astype(np.int64) - image.astype(np.int64)).mean()) < 3.0
        assert label.board.corners is not None
        assert fine_label.board.corners == pytest.approx(2 * np.array(label.board.corners))
        assert len(fine_label.dice) == len(label.dice) > 0
        for die, fine_die in zip(label.dice, fine_label.dice, strict=True):
            assert fine_die.center == pytest.approx((2 * die.center[0], 2 * die.center[1]))
            assert (fine_die.value, fine_die.zone, fine_die.cocked) == (
                die.value,
                die.zone,
                die.cocked,
            )
        assert fine_label.points == label.points
    hand = next(s for s in map(scene_for_seed, range(200)) if s.hands)
    twice = scaled_scene(hand, 2)
    assert twice.hands[0].palm == pytest.approx(tuple(2 * v for v in hand.hands[0].palm))
    assert twice.hands[0].size == pytest.approx(2 * hand.hands[0].size)
    assert twice.lighting.blur_sigma == pytest.approx(2 * hand.lighting.blur_sigma)


def test_restage_keeps_the_table_and_shows_the_new_position() -> None:
    from vision.render.positions import starting_position
    from vision.render.scene import restage

    scene = next(s for s in (scene_for_seed(seed) for seed in range(20)) if s.board)
    position = starting_position("bottom-left")
    moved = restage(scene, np.random.default_rng(1), position, dice=(3, 1))
    assert (moved.camera, moved.style, moved.lighting) == (
        scene.camera,
        scene.style,
        scene.lighting,
    )
    label = label_scene(moved)
    assert [(p.color, p.count) for p in label.points] == list(position.points)
    assert sorted(d.value or 0 for d in label.dice) == [1, 3]
    assert not label.occluded
    assert [s for s in moved.solids if s.kind == "cube"] == [
        s for s in scene.solids if s.kind == "cube"
    ]


EVALUATION_FRAME_0 = (
    True,
    [
        ("dark", 7),
        ("light", 4),
        ("dark", 1),
        ("dark", 3),
        ("dark", 3),
        ("dark", 1),
        ("light", 4),
        ("light", 3),
        ("light", 4),
    ],
)


def _footprint(x: float, y: float, size: float, yaw_deg: float) -> np.ndarray:
    """The corners of a flat die's square footprint on the board plane (mm)."""
    box = cv2.boxPoints(((x, y), (size, size), yaw_deg))
    return np.asarray(box, np.float32)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area)


@pytest.mark.parametrize(
    ("yaw_a", "yaw_b", "direction_deg", "expected"),
    [
        (0.0, 0.0, 0.0, 1.0),
        (0.0, 90.0, 90.0, 1.0),
        (0.0, 0.0, 45.0, 2**0.5),
        (45.0, 45.0, 45.0, 1.0),
    ],
)
def test_touching_distance_of_squares(
    yaw_a: float, yaw_b: float, direction_deg: float, expected: float
) -> None:
    distance = touching_distance(10.0, yaw_a, yaw_b, np.radians(direction_deg))
    assert distance == pytest.approx(10.0 * expected)


@given(
    st.floats(0.0, 360.0), st.floats(0.0, 360.0), st.floats(0.0, 2 * np.pi), st.floats(12.0, 20.0)
)
def test_dice_at_the_touching_distance_just_touch(
    yaw_a: float, yaw_b: float, direction: float, size: float
) -> None:
    distance = touching_distance(size, yaw_a, yaw_b, direction)
    first = _footprint(0.0, 0.0, size, yaw_a)

    def second(reach: float) -> np.ndarray:
        return _footprint(reach * np.cos(direction), reach * np.sin(direction), size, yaw_b)

    assert _overlap(first, second(distance * 1.001)) < 1e-3 * size
    assert _overlap(first, second(distance * 0.97)) > 0.0


def test_touching_dice_lie_against_each_other() -> None:
    scenes = [scene_for_seed(seed) for seed in range(200)]
    touching = [s for s in scenes if "touching-dice" in s.tags]
    assert 10 <= len(touching) <= 40
    for scene in touching:
        a, b = [s for s in scene.solids if s.kind == "die"][:2]
        assert not a.cocked
        assert not b.cocked
        gap = np.hypot(b.x - a.x, b.y - a.y) - touching_distance(
            a.size, a.yaw_deg, b.yaw_deg, np.arctan2(b.y - a.y, b.x - a.x)
        )
        assert 0.0 <= gap <= TOUCHING_GAP_MM + 1e-9


def test_dice_of_other_makes_have_pips_that_stand_out_from_body_and_veins() -> None:
    scenes = [scene_for_seed(seed) for seed in range(300)]
    dice = [s for scene in scenes for s in scene.solids if s.kind == "die"]
    fancy = [d for d in dice if d.ink != contrast(d.body) or d.veins is not None]
    assert FANCY_DICE_SHARE * 0.6 < len(fancy) / len(dice) < FANCY_DICE_SHARE * 1.4
    assert any(d.veins is not None for d in fancy)
    for die in fancy:
        assert distance(die.ink, die.body) > 120
        assert die.veins is None or distance(die.ink, die.veins) > 120
    for scene in scenes:
        dice = [s for s in scene.solids if s.kind == "die"]
        plain = all(d.ink == contrast(d.body) and d.veins is None for d in dice)
        assert ("fancy-dice" in scene.tags) == (not plain)
        assert ("marbled-dice" in scene.tags) == any(d.veins is not None for d in dice)


def test_a_marbled_die_shows_its_body_and_its_veins() -> None:
    scene = next(
        scene
        for scene in map(scene_for_seed, range(100))
        if any(s.veins is not None for s in scene.solids)
    )
    marbled = next(s for s in scene.solids if s.veins is not None)
    assert marbled.veins is not None
    big = dataclasses.replace(marbled, size=60.0, tilt_deg=0.0, translucent=False, ink=marbled.body)
    scene = _neutral(dataclasses.replace(scene, solids=(big,)))
    image, _ = render_scene(scene)
    x, y = (round(v) for v in top_center(big, scene.camera))
    reach = 6
    face = image[y - reach : y + reach, x - reach : x + reach].reshape(-1, 3)
    near_body = np.linalg.norm(face - np.array(big.body), axis=1) < 50
    near_veins = np.linalg.norm(face - np.array(marbled.veins), axis=1) < 50
    assert near_body.mean() > 0.05
    assert near_veins.mean() > 0.05
