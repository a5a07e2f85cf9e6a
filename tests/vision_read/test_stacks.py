"""The judge of stacks (``vision.stacks``): full rows cut from the frame with the point's edge
at the top, each looked at again whether or not the checker net says it may hide checkers; its
training samples (``vision.training.train_stacks``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision_read.rendered import rendered
from vision import checkers
from vision.board import BoardView, board_from_corners, rectify
from vision.checkers import CheckerReading, HalfReading
from vision.columns import row_crops
from vision.config import ReadConfig, RowCropConfig
from vision.labels import CHECKERS_PER_SIDE, PointCount
from vision.read import read_frame, view_from_corners
from vision.stacks import judge_rows
from vision.tally import Place
from vision.training import train_stacks

WIDTH, HEIGHT, BAR = 540, 420, (250.0, 290.0)


def _ramp_view() -> tuple[np.ndarray, BoardView]:
    """A frame that is its own canonical board (identity homography) whose blue channel rises
    with y and green with x, and its view."""
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[..., 0] = np.round(ys * 255 / (HEIGHT - 1))
    image[..., 1] = np.round(xs * 255 / (WIDTH - 1))
    corners = ((0.0, 0.0), (WIDTH - 1.0, 0.0), (WIDTH - 1.0, HEIGHT - 1.0), (0.0, HEIGHT - 1.0))
    return image, BoardView(corners, np.eye(3), WIDTH, HEIGHT, BAR)


def test_a_top_point_row_runs_from_the_edge_and_a_bottom_one_is_turned() -> None:
    image, view = _ramp_view()
    config = RowCropConfig()
    top, bottom = row_crops(image, view, [13, 12], config)  # column 0, top and bottom
    assert top.shape == (config.crop_height, config.crop_width, 3)
    reach = config.along_share * 255
    # top point: from the surface's top edge down to along_share of its height, left to right
    assert top[0, :, 0].max() <= 2
    assert abs(float(top[-1, 0, 0]) - reach) <= 3
    assert (np.diff(top[:, 0, 0].astype(int)) >= 0).all()
    assert (np.diff(top[0, :, 1].astype(int)) >= 0).all()
    assert top[0, -1, 1] > top[0, 0, 1]
    # bottom point: turned half a turn, its edge (the surface's bottom) at the crop's top
    assert bottom[0, :, 0].min() >= 253
    assert abs(float(bottom[-1, 0, 0]) - (255 - reach)) <= 3
    assert (np.diff(bottom[0, :, 1].astype(int)) <= 0).all()
    # both across column 0's axis: the first of six points left of the bar
    pitch = BAR[0] / 6
    middle = float(top[0, config.crop_width // 2, 1]) * (WIDTH - 1) / 255
    assert abs(middle - pitch / 2) <= 3


def test_a_point_off_the_board_is_a_clear_error() -> None:
    image, view = _ramp_view()
    with pytest.raises(ValueError, match=r"points run 1\.\.24"):
        row_crops(image, view, [0, 25], RowCropConfig())


# The starting position but the back checkers (points 1 and 24), which the net does not see:
# each side shows 13 checkers, so a full row may hide two more.
_SHOWN = {12: ("dark", 5), 17: ("dark", 3), 19: ("dark", 5)}
_SHOWN |= {13: ("light", 5), 8: ("light", 3), 6: ("light", 5)}


def _read(
    monkeypatch: pytest.MonkeyPatch,
    hidden: dict[int, float],
    judge: checkers.StackJudge | None,
    light_off: Place | None = None,
) -> CheckerReading:
    """``read_checkers`` on ``_SHOWN`` as the net reads it surely, each point of ``hidden``
    given that P(hiding checkers), light's checkers borne off ``light_off``, dark's unknown."""

    def half(point: int) -> HalfReading:
        colour, count = _SHOWN.get(point, ("dark", 0))
        probabilities = np.zeros(16, np.float32)
        probabilities[count] = 1.0
        return HalfReading(probabilities, 0.99 if colour == "light" else 0.01, hidden.get(point, 0))

    readings = [(half(13 + c), half(12 - c)) for c in range(12)]
    readings.append((half(0), half(0)))
    monkeypatch.setattr(checkers, "run_net", lambda crops, config: readings)
    image, label = rendered(0)
    config = ReadConfig()
    assert label.board.corners is not None
    view = board_from_corners(image, label.board.corners, config.board)
    rectified = rectify(image, view.to_canonical, config.board)
    off = {"light": light_off, "dark": None}
    return checkers.read_checkers(rectified, view, config.checkers, off, judge)


def _counts(reading: CheckerReading) -> dict[int, PointCount]:
    return {p.point: p for p in reading.points}


def test_a_full_row_the_judge_clears_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[int]] = []

    def judge(points: object) -> dict[int, float]:
        asked.append(list(points))  # type: ignore[call-overload]
        return {p: 0.9 if p == 19 else 0.001 for p in asked[-1]}

    # the net suspects light's 6 and 8 and dark's 19 of hiding checkers
    suspects = {6: 0.4, 8: 0.4, 19: 0.3}
    alone = _counts(_read(monkeypatch, suspects, None))
    assert (alone[6].count, alone[6].min, alone[6].max) == (None, 5, 7)
    assert (alone[19].count, alone[19].min, alone[19].max) == (None, 5, 7)
    judged = _counts(_read(monkeypatch, suspects, judge))
    assert asked == [[13, 12, 19, 6]]  # every full row, not the 3 on point 8
    assert (judged[6].color, judged[6].count) == ("light", 5)
    assert (judged[19].count, judged[19].min, judged[19].max) == (None, 5, 7)
    assert (judged[8].count, judged[8].min) == (None, 3)


def test_the_sum_weighs_the_judges_probability_of_a_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Light shows 13 checkers; the tray holds none or two, as likely, so the two more lie
    there or under light's full row on point 6. The net gives the row 0.4 of hiding them, too
    likely for the sum to settle; the judge, looking closer, 0.01: the row is five, the tray
    two."""
    tray = np.zeros(16, np.float32)
    tray[[0, 2]] = 0.5
    off = Place(0, 2, tray, hidden=False)
    alone = _read(monkeypatch, {6: 0.4}, None, off)
    assert (alone.points[5].count, alone.points[5].min, alone.off.light) == (None, 5, None)
    judged = _read(
        monkeypatch, {6: 0.4}, lambda points: {p: 0.01 if p == 6 else 0.001 for p in points}, off
    )
    assert ReadConfig().checkers.min_stack_probability < 0.01
    assert (judged.points[5].count, judged.off.light) == (5, 2)


def test_a_row_beside_a_sure_stack_is_likelier_to_hide_checkers() -> None:
    """The judge's probability moved as the board shows: down alone (the judge learnt on a
    third of rows hiding checkers), up beside another row it is sure of (the players stack
    squarely), down where a point shows more than a row (they overflow). A sure row is not
    raised by itself."""
    config = ReadConfig().checkers
    alone = checkers.on_this_board({6: 0.3}, False, config)[6]
    beside = checkers.on_this_board({6: 0.3, 13: 0.95}, False, config)
    overflowing = checkers.on_this_board({6: 0.3}, True, config)[6]
    assert overflowing < alone < 0.3 < beside[6]
    assert beside[13] == pytest.approx(checkers.on_this_board({13: 0.95}, False, config)[13])
    # exactly: the logits moved by the config's shifts
    logit = np.log(0.3 / 0.7) + config.stack_logit_shift + config.stack_beside_sure_logit
    assert beside[6] == pytest.approx(1.0 / (1.0 + np.exp(-logit)))
    # a float32 sigmoid's 1.0 and 0.0 stay finite and in order
    edges = checkers.on_this_board({1: 1.0, 2: 0.0}, False, config)
    assert 0.0 < edges[2] < edges[1] < 1.0


@settings(max_examples=50, deadline=None)
@given(
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.booleans(),
)
def test_the_board_keeps_the_judges_order(
    low: float, high: float, other: float, more: bool
) -> None:
    """Rows on one board keep the judge's order: what the board shows moves them alike."""
    low, high = sorted((low, high))
    weighed = checkers.on_this_board({6: low, 8: high, 13: other}, more, ReadConfig().checkers)
    if not (low < 0.9 <= high):  # the sure row raises the other, not itself
        assert weighed[6] <= weighed[8]
    assert all(0.0 < p < 1.0 for p in weighed.values())


def test_a_full_row_beside_a_sure_stack_is_a_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Light shows 13 checkers and has borne none off, so its rows on 13 and 6 hide two. The
    judge gives 6 only 0.04 of hiding any. Beside a row it is unsure of (0.6), the sum counts
    6 as five (13, where it puts the two, stays a range: ``_under_stack``). Beside a row it is
    sure of (0.995), 6 is a range. (Tuning frames 650,217, 670,546 and 670,579: a sixth
    checker squarely on a row of five, read as five before the board weighed the judge.)"""
    none_off = Place(0, 0, np.eye(16, dtype=np.float32)[0], hidden=False)

    def judge(sure: float) -> checkers.StackJudge:
        return lambda points: {p: {13: sure, 6: 0.04}.get(p, 0.001) for p in points}

    unsure = _counts(_read(monkeypatch, {}, judge(0.6), none_off))
    assert (unsure[6].count, unsure[13].count, unsure[13].max) == (5, None, 7)
    sure = _counts(_read(monkeypatch, {}, judge(0.995), none_off))
    assert (sure[6].count, sure[6].min, sure[6].max) == (None, 5, 7)
    assert (sure[13].count, sure[13].min, sure[13].max) == (None, 5, 7)


def test_the_judge_looks_at_a_full_row_the_net_clears(monkeypatch: pytest.MonkeyPatch) -> None:
    """The net suspects none of the full rows, only point 8's three; the judge, asked about
    every full row, finds light's row on point 6 likely to hide checkers: it is a range."""
    asked: list[list[int]] = []

    def judge(points: object) -> dict[int, float]:
        asked.append(list(points))  # type: ignore[call-overload]
        return {p: 0.6 if p == 6 else 0.001 for p in asked[-1]}

    counts = _counts(_read(monkeypatch, {8: 0.5}, judge))
    assert asked == [[13, 12, 19, 6]]
    assert (counts[6].count, counts[6].min, counts[6].max) == (None, 5, 7)
    assert (counts[13].count, counts[19].count) == (5, 5)
    assert counts[8].count is None


def test_the_judge_tells_a_plain_row_from_a_stack_on_a_rendered_frame() -> None:
    """Tuning frame 650,619: point 19's plain row of five, which the checker net suspects of
    hiding checkers, and point 11's twelve checkers, five seen, squarely stacked."""
    image, label = rendered(650_619)
    config = ReadConfig()
    counts = {p.point: (p.min, p.max) for p in label.points}
    assert (counts[19], counts[11]) == ((5, 5), (5, 12))
    assert label.board.corners is not None
    view = view_from_corners(image, label.board.corners, config)
    judged = judge_rows(image, view, [19, 11], config.stacks)
    assert judged[19] < config.checkers.min_stack_probability < 0.5 < judged[11]
    reading = {p.point: p for p in read_frame(image, config, label.board.corners).points}
    assert (reading[19].count, reading[11].count, reading[11].min) == (5, None, 5)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_row_positions_hold_fifteen_checkers_a_side(seed: int) -> None:
    position = train_stacks.row_position(np.random.default_rng(seed))
    for colour in ("light", "dark"):
        assert sum(n for c, n in position.points if c == colour) == CHECKERS_PER_SIDE
    assert all((c is None) == (n == 0) for c, n in position.points)


def test_row_labels_mark_the_full_rows_that_hide_checkers() -> None:
    """An odd training seed stacks squarely: its points of five are plain rows, its taller
    ones rows of five hiding the rest; other points are no samples."""
    scene = train_stacks.training_scene(540_001)
    assert scene.arrangement.stacking == "stacked"
    labels = train_stacks.row_labels(scene, 5)
    counts = {p: n for p, (_, n) in enumerate(scene.position.points, start=1)}
    assert labels == {p: n > 5 for p, n in counts.items() if n >= 5}
    assert any(labels.values())
    assert not all(labels.values())
