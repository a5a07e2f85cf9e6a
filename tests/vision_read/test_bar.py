"""The judge of the bar (``vision.bar``): the bar's halves cut from the frame from its middle
(``vision.columns.bar_crops``), its counts and colour weighed with the checker net's
(``vision.checkers.bar_judged``); its training samples (``vision.training.train_bar``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision_read.rendered import rendered
from vision import checkers
from vision.bar import BarVerdict
from vision.board import BoardView
from vision.checkers import HalfReading, bar_judged
from vision.columns import bar_crops
from vision.config import CheckerConfig, ReadConfig
from vision.labels import CHECKERS_PER_SIDE, COLORS, SideCounts
from vision.read import read_frame
from vision.training import train_bar

WIDTH, HEIGHT, BAR = 540, 420, (250.0, 290.0)


def test_each_bar_half_runs_from_the_middle_and_the_upper_one_is_turned() -> None:
    """A frame that is its own canonical board, its blue channel rising with y and green with
    x: the upper half's crop runs from the middle up, turned half a turn; the lower half's from
    the middle down; both across the bar's middle."""
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[..., 0] = np.round(ys * 255 / (HEIGHT - 1))
    image[..., 1] = np.round(xs * 255 / (WIDTH - 1))
    corners = ((0.0, 0.0), (WIDTH - 1.0, 0.0), (WIDTH - 1.0, HEIGHT - 1.0), (0.0, HEIGHT - 1.0))
    view = BoardView(corners, np.eye(3), WIDTH, HEIGHT, BAR)
    config = ReadConfig().bar
    upper, lower = bar_crops(image, view, config)
    assert upper.shape == lower.shape == (config.crop_height, config.crop_width, 3)
    middle, reach = 255 * HEIGHT / 2 / (HEIGHT - 1), config.along_share * 255
    assert abs(float(upper[0, 0, 0]) - middle) <= 2
    assert abs(float(lower[0, 0, 0]) - middle) <= 2
    assert abs(float(upper[-1, 0, 0]) - (middle - reach)) <= 3
    assert abs(float(lower[-1, 0, 0]) - (middle + reach)) <= 3
    assert (np.diff(upper[:, 0, 0].astype(int)) <= 0).all()
    assert (np.diff(lower[:, 0, 0].astype(int)) >= 0).all()
    assert (np.diff(upper[0, :, 1].astype(int)) <= 0).all()  # turned: right to left
    for crop in (upper, lower):
        centre = float(crop[0, config.crop_width // 2, 1]) * (WIDTH - 1) / 255
        assert abs(centre - sum(BAR) / 2) <= 2
        span = abs(float(crop[0, -1, 1]) - float(crop[0, 0, 1])) * (WIDTH - 1) / 255
        assert abs(span - (BAR[1] - BAR[0]) * config.across_share) <= 3


def _half(counts: dict[int, float], light: float) -> HalfReading:
    probabilities = np.zeros(16, np.float32)
    for count, p in counts.items():
        probabilities[count] = p
    return HalfReading(probabilities, light, 0.0)


def _verdict(counts: dict[int, float], light: float) -> BarVerdict:
    probabilities = np.zeros(5, np.float32)
    for count, p in counts.items():
        probabilities[count] = p
    return BarVerdict(probabilities, light)


def test_the_judge_counts_a_half_the_net_misses_and_the_surer_reading_stands() -> None:
    """Upper half: the net sees none (0.95), the judge one dark checker (0.99): the judge's
    counts and colour. Lower half: both find two light checkers, the net surer: the net's."""
    net = (_half({0: 0.95, 1: 0.05}, 0.6), _half({2: 0.999, 3: 0.001}, 0.97))
    verdicts = (_verdict({0: 0.01, 1: 0.99}, 0.02), _verdict({2: 0.98, 1: 0.02}, 0.9))
    upper, lower = bar_judged(net, lambda: verdicts, CheckerConfig())
    assert upper.count[:2] == pytest.approx([0.01, 0.99], abs=1e-6)
    assert upper.light == pytest.approx(0.02)
    assert lower == net[1]


def test_the_judges_colour_replaces_a_less_sure_nets() -> None:
    """Both count two checkers, the net surer; but the net is unsure of their colour (0.42 of
    light checkers on a bar of neither colour), the judge surer (0.97): the judge's colour."""
    net = (_half({0: 1.0}, 0.5), _half({2: 1.0}, 0.42))
    verdicts = (_verdict({0: 1.0}, 0.5), _verdict({2: 0.99, 3: 0.01}, 0.97))
    _, lower = bar_judged(net, lambda: verdicts, CheckerConfig())
    assert lower.count == pytest.approx(net[1].count)
    assert lower.light == pytest.approx(0.97)


def test_the_judges_four_or_more_is_shared_as_the_net_shares_them() -> None:
    """The judge finds four or more (0.9) where the net finds three likelier: the net's 0.2 on
    four and 0.2 on five share the judge's 0.9 half and half."""
    net = (_half({3: 0.6, 4: 0.2, 5: 0.2}, 0.9), _half({0: 1.0}, 0.5))
    verdicts = (_verdict({3: 0.1, 4: 0.9}, 0.9), _verdict({0: 1.0}, 0.5))
    upper, _ = bar_judged(net, lambda: verdicts, CheckerConfig())
    assert upper.count[3:6] == pytest.approx([0.1, 0.45, 0.45], abs=1e-6)


def test_a_judge_less_sure_than_the_net_does_not_count_checkers_it_sees() -> None:
    """The net finds the half empty (0.999), the judge two checkers at 0.74 (a plain dark bar
    it is unsure of): the net's reading stands, its colour too (0.01 against 0.4)."""
    net = (_half({0: 0.999, 1: 0.001}, 0.01), _half({0: 1.0}, 0.5))
    verdicts = (_verdict({0: 0.2, 2: 0.74, 1: 0.06}, 0.4), _verdict({0: 1.0}, 0.5))
    assert bar_judged(net, lambda: verdicts, CheckerConfig()) == net


def test_without_a_judge_the_bar_stands() -> None:
    net = (_half({0: 0.6, 1: 0.4}, 0.5), _half({0: 1.0}, 0.5))
    assert bar_judged(net, None, CheckerConfig()) == net


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bar_positions_hold_fifteen_checkers_a_side(seed: int) -> None:
    position = train_bar.bar_position(np.random.default_rng(seed))
    for side, colour in enumerate(COLORS):
        on_points = sum(n for c, n in position.points if c == colour)
        assert on_points + position.bar[side] + position.off[side] == CHECKERS_PER_SIDE
    assert all((c is None) == (n == 0) for c, n in position.points)


def test_bar_labels_give_each_halfs_checkers_and_colour() -> None:
    for seed in range(900_001, 900_009):
        scene = train_bar.training_scene(seed)
        labels = train_bar.bar_labels(scene)
        top = "light" if scene.arrangement.light_bar_top else "dark"
        bottom = "dark" if top == "light" else "light"
        for (count, light), colour in zip(labels, (top, bottom), strict=True):
            assert count == min(scene.position.bar[COLORS.index(colour)], 4)
            assert light == (colour == "light")
    assert any(train_bar.training_scene(s).position.bar != (0, 0) for s in range(900_001, 900_004))


@pytest.mark.parametrize(
    ("seed", "alone"),
    [
        (650_290, SideCounts(None, None)),  # two light checkers on a bar of neither colour
        (660_256, SideCounts(2, 0)),  # a dark checker on a dark bar, beside two light ones
        (671_029, SideCounts(0, 0)),  # a dark checker on a bar in glare and shadow
    ],
)
def test_the_judge_reads_the_bar_the_net_misreads_on_rendered_frames(
    monkeypatch: pytest.MonkeyPatch, seed: int, alone: SideCounts
) -> None:
    """Tuning frames whose bar the net alone reads wrong, or withholds: the judge reads it."""
    image, label = rendered(seed)
    config = ReadConfig()
    assert read_frame(image, config, label.board.corners).bar == label.bar
    monkeypatch.setattr(checkers, "bar_judged", lambda halves, judge, config: halves)
    assert read_frame(image, config, label.board.corners).bar == alone
