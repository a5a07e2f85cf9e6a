"""vision.shrink: halving first gives the one-step area resize, to a grey level or so, fast."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision_read.rendered import rendered
from vision import shrink
from vision.shrink import halvings_kept, shrink_to


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    image, _ = rendered(500_001)
    return image


@pytest.mark.parametrize(
    ("size", "largest"),
    [
        ((640, 360), 0),
        ((320, 180), 2),
        ((160, 90), 2),
        ((1280, 720), 0),
        ((1000, 600), 0),
        ((452, 256), 255),
        ((227, 128), 255),
    ],
)
def test_matches_one_area_resize(frame: np.ndarray, size: tuple[int, int], largest: int) -> None:
    """By halvings alone (or one step) the result is the one-step resize to rounding; a last
    step of another factor averages other footprints, so sharp edges may differ more."""
    shrunk = shrink_to(frame, size)
    direct = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    assert shrunk.shape == direct.shape
    assert shrunk.dtype == np.uint8
    difference = np.abs(shrunk.astype(np.int16) - direct.astype(np.int16))
    assert difference.mean() < 1.0
    assert difference.max() <= largest


def test_grey_and_odd_sizes() -> None:
    grey = np.random.default_rng(0).integers(0, 256, (719, 1281), np.uint8)
    assert shrink_to(grey, (320, 179)).shape == (179, 320)
    assert shrink_to(grey, (1, 1)).shape == (1, 1)
    assert shrink_to(grey, (1, 1))[0, 0] == pytest.approx(grey.mean(), abs=2)


@pytest.mark.parametrize("size", [(1282, 720), (1280, 721), (0, 10), (10, 0)])
def test_enlarging_or_empty_is_refused(frame: np.ndarray, size: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="cannot shrink 1280x720"):
        shrink_to(frame, size)


def test_halvings_kept_are_made_once_and_change_nothing(
    frame: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within ``halvings_kept`` a frame's halvings are made once for every size shrunk to, and
    each result is the one made outside it; other frames and later calls are not kept."""
    sizes = [(226, 127), (160, 90), (320, 180), (640, 360)]
    alone = [shrink_to(frame, size) for size in sizes]
    made: list[tuple[int, int]] = []
    resize = cv2.resize

    def counted(image: np.ndarray, size: tuple[int, int], **kwargs: object) -> np.ndarray:
        made.append(size)
        return resize(image, size, **kwargs)

    monkeypatch.setattr(shrink.cv2, "resize", counted)
    other = frame.copy()
    with halvings_kept(frame):
        kept = [shrink_to(frame, size) for size in sizes]
        assert made == [(640, 360), (320, 180), (226, 127), (160, 90)]
        shrink_to(other, (320, 180))
        assert made[4:] == [(640, 360), (320, 180)]
    for a, b in zip(alone, kept, strict=True):
        np.testing.assert_array_equal(a, b)
    made.clear()
    shrink_to(frame, (320, 180))
    assert made == [(640, 360), (320, 180)]
