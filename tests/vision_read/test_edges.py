"""The judge of edges (``vision.edges``): a point's first place cut from the frame and judged
where the checker net is unsure the point holds any checker (``vision.checkers.edge_judged``);
its training samples (``vision.training.train_edges``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision_read.rendered import rendered
from vision.checkers import HalfReading, edge_judged
from vision.config import CheckerConfig, ReadConfig
from vision.edges import EdgeVerdict, judge_edges
from vision.labels import CHECKERS_PER_SIDE, PointCount
from vision.read import read_frame, view_from_corners
from vision.training import train_edges


def _reading(counts: dict[int, float], light: float = 0.2) -> HalfReading:
    probabilities = np.zeros(16, np.float32)
    for count, p in counts.items():
        probabilities[count] = p
    return HalfReading(probabilities, light, 0.0)


def test_only_points_the_net_is_unsure_hold_checkers_are_judged() -> None:
    config = CheckerConfig()
    assert config.edge_row_reach == 10
    doubt = config.edge_doubt
    readings = {
        1: _reading({0: 1.0}),  # surely empty
        2: _reading({0: 1.0 - doubt / 2, 1: doubt / 2}),  # empty, within the doubt
        3: _reading({0: 0.6, 1: 0.4}),  # unsure
        4: _reading({0: 2 * doubt, 1: 1.0 - 2 * doubt}),  # one, past the doubt
        5: _reading({5: 1.0}),  # a surely full row
        13: _reading({10: 1.0}),  # a row of ten, which may reach point 12's first place
        12: _reading({0: 0.6, 1: 0.4}),  # unsure, across the column from it: not judged
    }
    asked: list[list[int]] = []

    def judge(points: object) -> dict[int, EdgeVerdict]:
        asked.append(list(points))  # type: ignore[call-overload]
        return {p: EdgeVerdict(0.99, 0.9) for p in asked[-1]}

    judged = edge_judged(readings, judge, config)
    assert asked == [[3, 4]]
    assert {p: judged[p] for p in (1, 2, 5, 12, 13)} == {p: readings[p] for p in (1, 2, 5, 12, 13)}
    assert judged[3].count[0] == pytest.approx(0.01)
    assert judged[3].count[1] == pytest.approx(0.99)


def test_the_judges_taken_is_shared_out_as_the_net_shares_some() -> None:
    """The net gives none 0.5, one 0.3 and two 0.2; the judge finds the place taken at 0.9:
    none 0.1, one 0.54, two 0.36. Where the net found the point likelier empty, the colour is
    the judge's; else the net's."""
    reading = _reading({0: 0.5, 1: 0.3, 2: 0.2}, light=0.2)
    judged = edge_judged({7: reading}, lambda points: {7: EdgeVerdict(0.9, 0.95)}, CheckerConfig())
    assert judged[7].count[:3] == pytest.approx([0.1, 0.54, 0.36], abs=1e-6)
    assert judged[7].count.sum() == pytest.approx(1.0, abs=1e-6)
    assert judged[7].light == pytest.approx(0.95)
    fuller = _reading({0: 0.3, 1: 0.7}, light=0.2)
    kept = edge_judged({7: fuller}, lambda points: {7: EdgeVerdict(0.9, 0.95)}, CheckerConfig())
    assert kept[7].light == pytest.approx(0.2)


def test_where_the_net_and_the_judge_agree_the_surer_stands() -> None:
    """Both find the point likelier empty, the net surer (some 0.05 against 0.2): the net's
    reading stands; both likelier taken, the judge surer (0.999 against 0.8): the judge's."""
    config = CheckerConfig()
    empty = _reading({0: 0.95, 1: 0.05})
    kept = edge_judged({6: empty}, lambda points: {6: EdgeVerdict(0.2, 0.5)}, config)
    assert kept[6].count == pytest.approx(empty.count)
    taken = _reading({0: 0.2, 1: 0.8})
    judged = edge_judged({6: taken}, lambda points: {6: EdgeVerdict(0.999, 0.1)}, config)
    assert judged[6].count[:2] == pytest.approx([0.001, 0.999], abs=1e-6)


def test_a_judge_finding_the_place_empty_empties_the_point() -> None:
    reading = _reading({0: 0.3, 1: 0.7})
    judged = edge_judged({9: reading}, lambda points: {9: EdgeVerdict(0.002, 0.5)}, CheckerConfig())
    assert judged[9].count[0] == pytest.approx(0.998)
    assert judged[9].count[1] == pytest.approx(0.002)


def test_without_a_judge_the_readings_stand() -> None:
    readings = {3: _reading({0: 0.6, 1: 0.4})}
    assert edge_judged(readings, None, CheckerConfig()) == readings


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_single_positions_hold_fifteen_checkers_a_side(seed: int) -> None:
    position = train_edges.single_position(np.random.default_rng(seed))
    for side, colour in enumerate(("light", "dark")):
        on_points = sum(n for c, n in position.points if c == colour)
        assert on_points + position.off[side] == CHECKERS_PER_SIDE
        assert on_points > 0
    assert all((c is None) == (n == 0) for c, n in position.points)
    assert position.bar == (0, 0)


def test_edge_labels_mark_the_points_holding_checkers_and_their_colour() -> None:
    """An odd training seed shows a single position, an even one the renderer's own scene."""
    for seed in (800_001, 800_002):
        scene = train_edges.training_scene(seed)
        labels = train_edges.edge_labels(scene)
        assert labels.shape == (24, 2)
        for (colour, count), (taken, light) in zip(scene.position.points, labels, strict=True):
            assert taken == (count > 0)
            assert light == (colour == "light")
    singles = train_edges.training_scene(800_001).position
    assert sum(1 for _, n in singles.points if n == 1) >= 3


# Tuning frames where the checker net alone misreads a point's emptiness: a lone dark checker it
# misses (P(none) 0.998), one it leaves a range 0..1, and an empty point it leaves a range too.
_FAINT = [
    (673_754, PointCount(5, "dark", 1, 1, 1), PointCount(5, None, 0, 0, 0)),
    (670_681, PointCount(4, "dark", 1, 1, 1), PointCount(4, "dark", None, 0, 1)),
    (673_350, PointCount(24, None, 0, 0, 0), PointCount(24, "dark", None, 0, 1)),
]


@pytest.mark.parametrize(("seed", "truth", "alone"), _FAINT)
def test_the_judge_settles_what_the_net_misreads_on_rendered_frames(
    seed: int, truth: PointCount, alone: PointCount
) -> None:
    image, label = rendered(seed)
    assert label.points[truth.point - 1] == truth
    assert label.board.corners is not None
    config = ReadConfig()
    view = view_from_corners(image, label.board.corners, config)
    verdict = judge_edges(image, view, [truth.point], config.edges)[truth.point]
    assert (verdict.taken >= 0.99) if truth.count else (verdict.taken <= 0.01)
    unjudged = replace(config, checkers=replace(config.checkers, edge_doubt=1.0))
    assert read_frame(image, unjudged, label.board.corners).points[truth.point - 1] == alone
    assert read_frame(image, config, label.board.corners).points[truth.point - 1] == truth
