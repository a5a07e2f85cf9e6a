"""The judge of long rows (``vision.long_rows``): a point's whole column cut from the frame and
counted where the checker net reads a long row it is unsure of
(``vision.checkers.long_row_judged``); its training samples
(``vision.training.train_long_rows``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision_read.rendered import rendered
from vision.checkers import HalfReading, long_row_judged
from vision.config import CheckerConfig, ReadConfig
from vision.labels import CHECKERS_PER_SIDE, COLORS
from vision.long_rows import COUNTS, judge_long_rows
from vision.read import read_frame, view_from_corners
from vision.training import train_long_rows
from vision.training.parts import count_summary


def _reading(counts: dict[int, float]) -> HalfReading:
    probabilities = np.zeros(COUNTS, np.float32)
    for count, p in counts.items():
        probabilities[count] = p
    return HalfReading(probabilities, 0.2, 0.0)


def test_only_long_rows_the_net_is_unsure_of_are_judged() -> None:
    config = CheckerConfig()
    assert config.long_row_from == 6
    readings = {
        1: _reading({12: 0.5, 13: 0.5}),  # an unsure long row
        2: _reading({13: 0.95, 12: 0.05}),  # a sure one
        3: _reading({5: 0.6, 6: 0.4}),  # likeliest five: a full row, the judge of stacks'
        4: _reading({6: 0.7, 7: 0.3}),  # unsure six
        5: _reading({0: 1.0}),
    }
    asked: list[list[int]] = []
    seen = np.zeros(COUNTS, np.float32)
    seen[13] = 0.97
    seen[12] = 0.03

    def judge(points: object) -> dict[int, np.ndarray]:
        asked.append(list(points))  # type: ignore[call-overload]
        return dict.fromkeys(asked[-1], seen)

    judged = long_row_judged(readings, judge, config)
    assert asked == [[1, 4]]
    assert {p: judged[p] for p in (2, 3, 5)} == {p: readings[p] for p in (2, 3, 5)}
    assert int(np.argmax(judged[1].count)) == 13
    assert judged[1].light == readings[1].light
    assert long_row_judged(readings, None, config) == readings


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_long_positions_hold_fifteen_checkers_a_side_and_a_long_row(seed: int) -> None:
    position = train_long_rows.long_position(np.random.default_rng(seed))
    for colour in COLORS:
        counts = [n for c, n in position.points if c == colour]
        assert sum(counts) == CHECKERS_PER_SIDE
        assert max(counts) >= 6
    assert all((c is None) == (n == 0) for c, n in position.points)
    assert position.bar == position.off == (0, 0)


def test_shown_labels_count_the_checkers_seen_on_long_rows() -> None:
    """Training scenes but the renderer's own overflow or layer their rows (every checker
    seen); of the renderer's own, a squarely stacked row counts only the checkers seen."""
    for seed in range(600_001, 600_004):
        scene = train_long_rows.training_scene(seed)
        assert scene.arrangement.stacking != "stacked"
        shown = train_long_rows.shown_labels(scene)
        expected = {
            p: (n, c == "light")
            for p, (c, n) in enumerate(scene.position.points, start=1)
            if n >= train_long_rows.SHOWN_FROM
        }
        assert shown == expected
        assert any(n >= 6 for n, _ in shown.values())
    stacked = next(
        scene
        for scene in map(train_long_rows.training_scene, range(600_000, 600_400, 4))
        if scene.arrangement.stacking == "stacked" and any(n > 5 for _, n in scene.position.points)
    )
    shown = train_long_rows.shown_labels(stacked)
    for point, (colour, count) in enumerate(stacked.position.points, start=1):
        if count > 5:
            assert shown[point] == (5, colour == "light")


def test_the_judge_counts_a_long_row_on_a_rendered_frame() -> None:
    """Tuning frame 650,862: thirteen dark checkers on point 5, overflowing and layered, which
    the checker net reads as eleven to fourteen (its own range) while the dark tray is unsure
    too; the judge counts thirteen, and the sum then settles the tray (two borne off)."""
    image, label = rendered(650_862)
    config = ReadConfig()
    assert (label.points[4].color, label.points[4].count) == ("dark", 13)
    assert label.board.corners is not None
    view = view_from_corners(image, label.board.corners, config)
    counts = judge_long_rows(image, view, [5], config.long_rows)[5]
    assert counts.shape == (COUNTS,)
    assert int(np.argmax(counts)) == 13
    assert float(counts.sum()) == pytest.approx(1.0, abs=1e-5)
    reading = read_frame(image, config, label.board.corners)
    assert (reading.points[4].count, reading.off.dark) == (13, 2)


def test_count_summary_reports_right_near_given_and_colour() -> None:
    """Three crops: 13 read surely and right, 12 read unsurely as 13 (within one), 7 read
    surely as 9 (given and wrong); the light logit right on the first only."""
    logits = np.full((3, COUNTS + 1), -10.0)
    logits[0, 13] = logits[1, 13] = logits[2, 9] = 10.0
    logits[1, 12] = 9.5  # unsure between 13 and 12
    logits[:, COUNTS] = [3.0, -3.0, 3.0]
    labels = np.array([[13, 1], [12, 1], [7, 0]], np.int64)
    report = count_summary(logits, labels, COUNTS, 0.9)
    assert report.startswith("count right 33.3333% (within one 66.67%), given at 0.9 66.67%")
    assert "wrong so 33.3333% (3 crops, 3 holding checkers); light right 33.3333%" in report
