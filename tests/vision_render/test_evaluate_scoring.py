"""Scoring functions of vision.evaluate on hand-made predictions."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from vision import evaluate
from vision.evaluate import (
    DicePhotoScore,
    FrameScore,
    score_dice_photo,
    score_frame,
    summarise,
)
from vision.labels import Board, Cube, Die, PointCount, Reading, SideCounts


def _label() -> Reading:
    points = []
    for n in range(1, 25):
        if n in (1, 12):
            points.append(PointCount(n, "dark", 3, 3, 3))
        elif n in (13, 24):
            points.append(PointCount(n, "light", 4, 4, 4))
        else:
            points.append(PointCount(n, None, 0, 0, 0))
    return Reading(
        board=Board(True, ((100.0, 100.0), (900.0, 100.0), (900.0, 600.0), (100.0, 600.0))),
        points=tuple(points),
        bar=SideCounts(1, 0),
        off=SideCounts(6, 12),
        dice=(
            Die(3, (300.0, 300.0), "left-half", False),
            Die(5, (700.0, 350.0), "right-half", True),
        ),
        cube=Cube(64, (500.0, 350.0)),
        occluded=False,
    )


def _with_point(reading: Reading, number: int, **changes: object) -> Reading:
    points = tuple(
        dataclasses.replace(p, **changes) if p.point == number else p  # type: ignore[arg-type]
        for p in reading.points
    )
    return dataclasses.replace(reading, points=points)


def test_perfect_prediction_scores_one_hundred_percent() -> None:
    figures = summarise([score_frame(_label(), _label())], [10.0]).figures()
    assert figures["point_error_pct"] == 0.0
    assert figures["boards_exact_pct"] == 100.0
    assert figures["boards_at_most_one_error_pct"] == 100.0
    assert figures["abstained_pct"] == 0.0
    assert figures["corner_error_mean_px"] == 0.0
    assert figures["dice_value_pct"] == 100.0
    assert figures["dice_value_right_of_given_pct"] == 100.0
    assert figures["dice_zone_pct"] == 100.0
    assert figures["cocked_precision_pct"] == 100.0
    assert figures["cocked_recall_pct"] == 100.0
    assert figures["cube_value_pct"] == 100.0
    assert figures["cube_value_wrong_pct"] == 0.0
    assert figures["ms_mean"] == 10.0


def test_cube_values_right_wrong_unread_and_missed() -> None:
    label = _label()
    predictions = [
        dataclasses.replace(label, cube=Cube(64, (505.0, 352.0))),
        dataclasses.replace(label, cube=Cube(16, (500.0, 350.0))),
        dataclasses.replace(label, cube=Cube(None, (500.0, 350.0))),
        dataclasses.replace(label, cube=Cube(64, (900.0, 50.0))),
        dataclasses.replace(label, cube=None),
    ]
    figures = summarise([score_frame(label, p) for p in predictions]).figures()
    assert figures["cube_value_pct"] == pytest.approx(20.0)
    assert figures["cube_value_wrong_pct"] == pytest.approx(20.0)


def test_one_wrong_point_gives_the_expected_rates() -> None:
    wrong = _with_point(_label(), 12, count=4, min=4, max=4)
    scores = [score_frame(_label(), wrong), score_frame(_label(), _label())]
    figures = summarise(scores).figures()
    assert figures["point_error_pct"] == pytest.approx(100.0 / 48)
    assert figures["boards_exact_pct"] == 50.0
    assert figures["boards_at_most_one_error_pct"] == 100.0
    assert figures["point_confident_error_pct"] == pytest.approx(100.0 / 48)
    assert figures["boards_confidently_wrong_pct"] == 50.0


def test_wrong_colour_and_wrong_bar_are_errors() -> None:
    wrong = _with_point(_label(), 1, color="light")
    wrong = dataclasses.replace(wrong, bar=SideCounts(0, 0))
    score = score_frame(_label(), wrong)
    assert score.point_errors == score.point_confident_errors == 1
    assert score.boards_confidently_wrong == 1
    assert score.boards_exact == 0
    assert score.boards_one_error == 0  # one point and one bar count wrong


def test_the_bars_checkers_are_scored_by_colour_holding_them() -> None:
    label = dataclasses.replace(_label(), bar=SideCounts(1, 2))
    predictions = [
        label,  # both right
        dataclasses.replace(label, bar=SideCounts(1, 0)),  # dark missed: wrong
        dataclasses.replace(label, bar=SideCounts(None, 2)),  # light not given
        dataclasses.replace(label, bar=SideCounts(1, 2), occluded=True),  # abstained: not scored
    ]
    figures = summarise([score_frame(label, p) for p in predictions]).figures()
    assert figures["bar_checkers"] == 6
    assert figures["bar_checkers_right_pct"] == pytest.approx(400 / 6)
    assert figures["bar_checkers_wrong_pct"] == pytest.approx(100 / 6)
    empty = dataclasses.replace(label, bar=SideCounts(0, 0))
    assert score_frame(empty, dataclasses.replace(empty, bar=SideCounts(1, 0))).bar_checkers == 0


def test_null_count_whose_range_holds_the_truth_is_uncertain_not_an_error() -> None:
    unsure = _with_point(_label(), 13, count=None, min=3, max=6)
    score = score_frame(_label(), unsure)
    assert (score.point_errors, score.point_uncertain, score.boards_exact) == (0, 1, 0)
    missed = _with_point(_label(), 13, count=None, min=5, max=6)
    score = score_frame(_label(), missed)
    assert (score.point_errors, score.point_confident_errors) == (1, 0)
    assert score.boards_confidently_wrong == 0


def test_null_count_is_right_where_the_label_marks_checkers_hidden() -> None:
    hidden = _with_point(_label(), 13, min=3, max=7)  # label: 4 true, 3 visible
    unsure = _with_point(_label(), 13, count=None, min=3, max=7)
    score = score_frame(hidden, unsure)
    assert (score.point_errors, score.point_uncertain, score.boards_exact) == (0, 0, 1)


def test_abstaining_is_not_an_error_but_not_exact() -> None:
    nothing = dataclasses.replace(_label(), board=Board(False), points=())
    figures = summarise([score_frame(_label(), nothing)]).figures()
    assert figures["abstained_pct"] == 100.0
    assert figures["point_error_pct"] is None
    assert figures["boards_exact_pct"] == 0.0
    occluded = dataclasses.replace(_label(), occluded=True)
    assert score_frame(_label(), occluded).abstained == 1


def test_occluded_label_scores_only_the_occlusion_flag() -> None:
    label = dataclasses.replace(_label(), occluded=True)
    seen = score_frame(label, dataclasses.replace(_label(), occluded=True))
    missed = score_frame(label, _label())
    assert (seen.occluded_frames, seen.occluded_found, seen.points, seen.dice) == (1, 1, 0, 0)
    assert (missed.occluded_found, missed.boards_exact) == (0, 0)


def test_corner_error_mean_and_max() -> None:
    corners = ((103.0, 104.0), (900.0, 100.0), (900.0, 600.0), (100.0, 600.0))
    moved = dataclasses.replace(_label(), board=Board(True, corners))
    figures = summarise([score_frame(_label(), moved)]).figures()
    assert figures["corner_error_max_px"] == 5.0
    assert figures["corner_error_mean_px"] == 1.25


def test_dice_value_zone_cocked_scoring() -> None:
    predicted = dataclasses.replace(
        _label(),
        dice=(
            Die(4, (302.0, 301.0), "left-half", True),  # wrong value, falsely cocked
            Die(5, (705.0, 350.0), "on-bar", False),  # right value, wrong zone, cocked missed
            Die(2, (50.0, 50.0), "off-board", False),  # nothing there
        ),
    )
    figures = summarise([score_frame(_label(), predicted)]).figures()
    assert figures["dice_value_pct"] == 50.0
    assert figures["dice_value_wrong_pct"] == 50.0
    assert figures["dice_value_right_of_given_pct"] == 50.0
    assert figures["dice_zone_pct"] == 50.0
    assert figures["dice_extra"] == 1
    assert figures["dice_missed"] == 0
    assert figures["cocked_precision_pct"] == 0.0
    assert figures["cocked_recall_pct"] == 0.0


def test_dice_read_without_a_value_count_against_values_not_against_values_given() -> None:
    """One die read right, the other found but read without a value (unreadable): half the
    dice are read right, and every value given is right."""
    unread = dataclasses.replace(
        _label(),
        dice=(
            Die(3, (301.0, 300.0), "left-half", False),
            Die(None, (700.0, 351.0), "right-half", True),
        ),
    )
    figures = summarise([score_frame(_label(), unread)]).figures()
    assert figures["dice_value_pct"] == 50.0
    assert figures["dice_value_wrong_pct"] == 0.0
    assert figures["dice_value_right_of_given_pct"] == 100.0
    nothing_given = dataclasses.replace(
        _label(), dice=(Die(None, (300.0, 300.0), "left-half", False),)
    )
    assert (
        summarise([score_frame(_label(), nothing_given)]).figures()["dice_value_right_of_given_pct"]
        is None
    )


def test_dice_too_far_away_are_missed() -> None:
    far = dataclasses.replace(_label(), dice=(Die(3, (340.0, 300.0), "left-half", False),))
    score = score_frame(_label(), far, match_px=24.0)
    assert (score.dice, score.dice_value_right, score.dice_missed, score.dice_extra) == (2, 0, 2, 1)


def test_matching_prefers_the_nearest_pair() -> None:
    pairs = evaluate.match_dice([(0.0, 0.0), (10.0, 0.0)], [(9.0, 0.0), (2.0, 0.0)], 24.0)
    assert sorted(pairs) == [(0, 1), (1, 0)]


def test_no_board_frame_counts_a_false_board() -> None:
    label = dataclasses.replace(_label(), board=Board(False), points=(), dice=(), cube=None)
    score = score_frame(label, _label())
    assert (score.no_board_frames, score.false_boards, score.readable) == (1, 1, 0)


def test_add_scores_sums_fields() -> None:
    total = evaluate.add_scores([FrameScore(points=24, corner_errors=(1.0,))] * 3)
    assert total.points == 72
    assert total.corner_errors == (1.0, 1.0, 1.0)


@dataclasses.dataclass(frozen=True)
class _Found:
    value: int | None
    center: tuple[float, float]


def test_dice_photo_matching_by_centre_in_box() -> None:
    boxes = [
        (3, (0.0, 0.0, 40.0, 40.0)),
        (6, (50.0, 0.0, 90.0, 40.0)),
        (1, (0.0, 50.0, 40.0, 90.0)),
    ]
    found = [
        _Found(3, (20.0, 20.0)),  # right
        _Found(5, (70.0, 20.0)),  # wrong value
        _Found(3, (21.0, 21.0)),  # second detection in the first box: extra
        _Found(2, (200.0, 200.0)),  # in no box: extra
    ]
    score = score_dice_photo(boxes, found)
    assert score == DicePhotoScore(dice=3, right=1, missed=1, extra=2, wrong=1)
    figures = evaluate.dice_photo_figures(score + DicePhotoScore(1, 1, 0, 0), [5.0, 7.0])
    assert figures["dice_read_right_pct"] == 50.0
    assert figures["dice_read_wrong_pct"] == 25.0
    unread = score_dice_photo(boxes[:1], [_Found(None, (20.0, 20.0))])
    assert unread == DicePhotoScore(dice=1, right=0, missed=0, extra=0, wrong=0)
    assert figures["ms_mean"] == 6.0


def test_dice_photo_labels_errors_name_the_entry(tmp_path: Path) -> None:
    (tmp_path / "labels.json").write_text('[{"image": "a.jpg", "dice": [{"value": 3}]}]')
    with pytest.raises(ValueError, match=r"labels.json\[0\]"):
        evaluate.load_dice_photo_labels(tmp_path)


def test_missing_reader_is_a_clear_error() -> None:
    with pytest.raises(
        evaluate.ReaderUnavailableError,
        match=r"vision\.no_such_module\.read_frame is not available",
    ):
        evaluate._reader_part("vision.no_such_module", "read_frame")


def test_evaluate_synthetic_times_reads_and_groups_by_tag() -> None:
    ticks = iter([0.0, 0.004, 1.0, 1.010])
    frames = [(None, _label(), ("a",), None), (None, _label(), ("a", "b"), None)]
    summary, by_tag = evaluate.evaluate_synthetic(
        frames,  # type: ignore[arg-type]
        lambda image, corners, principal: _label(),
        clock=lambda: next(ticks),
    )
    assert summary.ms == pytest.approx((4.0, 10.0))
    assert by_tag["a"].frames == 2
    assert by_tag["b"].frames == 1
    assert by_tag[evaluate.PLAIN_DICE].frames == 2
    assert "boards_exact" in evaluate.format_tag_table(by_tag)


def test_plain_dice_are_the_frames_with_no_die_hard_to_see() -> None:
    assert evaluate.variations(("glare", "jpeg")) == ("glare", "jpeg", evaluate.PLAIN_DICE)
    for hard in ("blur", "motion-blur", "fancy-dice", "translucent-dice", "cocked"):
        assert evaluate.variations(("glare", hard)) == ("glare", hard)


def test_frame_has_errors() -> None:
    assert not evaluate.frame_has_errors(score_frame(_label(), _label()))
    wrong = _with_point(_label(), 12, count=4, min=4, max=4)
    assert evaluate.frame_has_errors(score_frame(_label(), wrong))
    no_cube = dataclasses.replace(_label(), cube=None)
    assert evaluate.frame_has_errors(score_frame(_label(), no_cube))
    occluded = dataclasses.replace(_label(), occluded=True)
    assert evaluate.frame_has_errors(score_frame(occluded, _label()))
    assert not evaluate.frame_has_errors(score_frame(occluded, occluded))


def test_a_range_from_nought_holds_an_empty_point_whatever_its_colour() -> None:
    empty = next(p.point for p in _label().points if p.count == 0)
    maybe = _with_point(_label(), empty, color="light", count=None, min=0, max=1)
    score = score_frame(_label(), maybe)
    assert (score.point_errors, score.point_uncertain) == (0, 1)
    above = _with_point(_label(), empty, color="light", count=None, min=1, max=2)
    assert score_frame(_label(), above).point_errors == 1
