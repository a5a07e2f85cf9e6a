"""Checkers on the canonical (rectified) board: per point, on the bar; colours learnt per frame.

The canonical board (``vision.board.BoardView``) has the bar vertical; points hang from the top
and bottom edges, six on each side of the bar. Each point is resampled into a *strip* running
from its edge across the whole board, ``patch`` pixels per slot spacing (a checker's place along
a point); the bar gives two strips from its middle outwards. A checker lies centred at a *place*
of a strip: a whole slot from the edge (in the row along the point), or half a slot further (a
checker on top, across two below, or a checker on the bar).

A small classifier (``SlotModel``, one hidden layer, trained on rendered frames by
``vision.train_checkers``) tells from the patch around a place, and from its difference to the
same place on the points of the same row and parity (the empty look of that place), whether a
checker is centred there. The two rows of a column (top and bottom point) are then decoded
together: the row lengths that best explain the classifier's answers along each point's strip,
the two rows fitting along the column (more than five checkers overflow towards, or past, the
middle).

Colours: the middles of all checkers found are split into two clusters (2-means in Lab); the one
with the higher lightness is ``light`` (no calibration position needed). Checkers stacked squarely
on others are hidden: where a full row of five shows, none on top, and that colour has fewer than
15 checkers in sight, ``count`` is None and ``min``/``max`` bound it (DESIGN.md section 4).
Likewise over a full layer on top: a higher layer's checkers lie where the row's do.

Boards differ in how many slot spacings their points' height holds: the strips are read at each
of ``slot_candidates`` and the one whose rows explain the slot model's answers best is kept
(``BoardView.slots`` fixes it for a located board).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from vision.board import BoardView
from vision.config import CheckerConfig
from vision.labels import CHECKERS_PER_SIDE, Color, PointCount, SideCounts

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

ROW = 5  # checkers along a point before they overflow or go on top
BAR_STRIPS = (25, 26)  # strip numbers of the bar: from its middle upwards, downwards
MODEL_PATH = Path(__file__).with_name("checker_model.npz")


def point_axis_x(view: BoardView, point: int) -> float:
    """Canonical x of the axis of ``point`` (1..24, image-relative numbering)."""
    column = 12 - point if point <= 12 else point - 13  # 0 = leftmost column
    bar_left, bar_right = view.bar
    if column < 6:
        return (column + 0.5) * bar_left / 6
    return bar_right + (column - 6 + 0.5) * (view.width - bar_right) / 6


def slot_spacing(view: BoardView, config: CheckerConfig) -> float:
    """Distance between the centres of neighbouring checkers along a point, canonical pixels."""
    return view.height / config.height_in_slots


def strip_places(view: BoardView, config: CheckerConfig) -> int:
    """Number of places (half-slot steps) in a strip, from the edge across the whole board (a
    long row may overflow past the middle; the bar's strips use their first half)."""
    return int(view.height / (slot_spacing(view, config) / 2)) - 1


def column_points(column: int) -> tuple[int, int]:
    """The top and bottom points of a column (0 = leftmost): 13 and 12, ..., 24 and 1."""
    return 13 + column, 12 - column


def _strip_start(view: BoardView, strip: int) -> tuple[float, float, float]:
    """Where a strip starts (x, y) on the canonical board and which way it runs along y (+1
    down, -1 up): points from their edge, the bar's strips from its middle."""
    if strip in BAR_STRIPS:
        x = (view.bar[0] + view.bar[1]) / 2
        return x, view.height / 2, (-1.0 if strip == BAR_STRIPS[0] else 1.0)
    x = point_axis_x(view, strip)
    return (x, 0.0, 1.0) if strip >= 13 else (x, float(view.height), -1.0)


def _strip_maps(view: BoardView, config: CheckerConfig) -> tuple[Floats, Floats]:
    """Remap grids that resample every strip side by side: ``patch`` pixels per slot spacing
    along it (starting ``context`` pixels before its edge), and ``across_share`` of a point's
    width across it (``patch`` pixels)."""
    patch, context = config.patch, config.context
    spacing = slot_spacing(view, config)
    rows = (strip_places(view, config) + 1) * (patch // 2) + patch // 2 + 2 * context
    width = min(view.bar[0], view.width - view.bar[1]) / 6 * config.across_share
    across = ((np.arange(patch, dtype=np.float32) + 0.5) / patch - 0.5) * width
    along = (np.arange(rows, dtype=np.float32) + 0.5 - context) / patch * spacing
    map_x = np.empty((rows, 26 * patch), np.float32)
    map_y = np.empty((rows, 26 * patch), np.float32)
    for strip in range(1, 27):
        x, y, sign = _strip_start(view, strip)
        columns = slice((strip - 1) * patch, strip * patch)
        map_x[:, columns] = x + across[None, :]
        map_y[:, columns] = (y + sign * along)[:, None]
    return map_x, map_y


def strips(rectified_bgr: Image, view: BoardView, config: CheckerConfig) -> Floats:
    """All strips of a canonical board image, side by side, in Lab scaled to 0..1."""
    map_x, map_y = _strip_maps(view, config)
    resampled = cv2.remap(
        rectified_bgr, map_x, map_y, cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    return cv2.cvtColor(resampled, cv2.COLOR_BGR2LAB).astype(np.float32) / 255.0


def _empty_look(strip_image: Floats, config: CheckerConfig) -> Floats:
    """Per point strip, the median of the strips of the same row and parity (the same look when
    empty: six points each); the bar strips are compared with each other."""
    patch = config.patch
    looks = np.empty_like(strip_image)
    groups = [
        [p for p in range(1, 25) if (p >= 13) == top and p % 2 == parity]
        for top in (False, True)
        for parity in (0, 1)
    ] + [list(BAR_STRIPS)]
    for group in groups:
        stack = np.stack([strip_image[:, (p - 1) * patch : p * patch] for p in group])
        median = np.median(stack, axis=0)
        for p in group:
            looks[:, (p - 1) * patch : p * patch] = median
    return looks


def place_features(strip_image: Floats, config: CheckerConfig) -> Floats:
    """One feature row per (strip, place): the patch centred at the place (one slot spacing and
    ``context`` pixels either side) and its difference to the empty look there; rows ordered
    strip by strip (1..26), place by place."""
    patch, half = config.patch, config.patch // 2
    window = patch + 2 * config.context
    rows = strip_image.shape[0]
    looks = _empty_look(strip_image, config)
    by_strip = strip_image.reshape(rows, 26, patch, 3)
    look_by_strip = looks.reshape(rows, 26, patch, 3)
    # windows: (place, strip, across, channel, along) -> (strip, place, along, across, channel)
    blocks = sliding_window_view(by_strip, window, axis=0)[::half].transpose(1, 0, 4, 2, 3)
    empty = sliding_window_view(look_by_strip, window, axis=0)[::half].transpose(1, 0, 4, 2, 3)
    count = blocks.shape[0] * blocks.shape[1]
    return np.concatenate(
        [blocks.reshape(count, -1), (blocks - empty).reshape(count, -1)], axis=1
    ).astype(np.float32)


@dataclass(frozen=True)
class SlotModel:
    """A one-hidden-layer network: standardised features -> ReLU -> P(checker centred here)."""

    mean: Floats
    scale: Floats
    w1: Floats
    b1: Floats
    w2: Floats
    b2: float

    def probability(self, features: Floats) -> Floats:
        """P(a checker is centred at the place) for each feature row."""
        hidden = np.maximum(((features - self.mean) / self.scale) @ self.w1 + self.b1, 0.0)
        logits = hidden @ self.w2 + self.b2
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30))), np.float32)

    def save(self, path: Path) -> None:
        """Write the weights (numpy .npz)."""
        np.savez_compressed(
            path,
            mean=self.mean,
            scale=self.scale,
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=np.array([self.b2], np.float32),
        )


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> SlotModel:
    """The trained slot model shipped with the package."""
    with np.load(path) as data:
        return SlotModel(
            mean=data["mean"],
            scale=data["scale"],
            w1=data["w1"],
            b1=data["b1"],
            w2=data["w2"],
            b2=float(data["b2"][0]),
        )


def train_model(
    features: Floats, labels: npt.NDArray[np.bool_], seed: int, hidden: int = 64, epochs: int = 30
) -> SlotModel:
    """Fit a ``SlotModel`` by mini-batch gradient descent on the logistic loss (seeded)."""
    rng = np.random.default_rng(seed)
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = (features - mean) / scale
    y = labels.astype(np.float32)
    w1 = rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, np.sqrt(2 / hidden), hidden).astype(np.float32)
    b2 = 0.0
    rate, decay = 0.05, 1e-4
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), 256):
            batch = order[start : start + 256]
            a = x[batch]
            h = np.maximum(a @ w1 + b1, 0.0)
            p = 1.0 / (1.0 + np.exp(-np.clip(h @ w2 + b2, -30, 30)))
            g = (p - y[batch]) / len(batch)
            grad_w2 = h.T @ g + decay * w2
            grad_h = np.outer(g, w2) * (h > 0)
            w1 -= rate * (a.T @ grad_h + decay * w1)
            b1 -= rate * grad_h.sum(axis=0)
            w2 -= rate * grad_w2
            b2 -= rate * float(g.sum())
    return SlotModel(mean, scale, w1, b1, w2, b2)


@dataclass(frozen=True)
class CheckerReading:
    """Per point (24 entries, point 1 first) and on the bar; the surface's height in slot
    spacings read with, and whether enough long rows were seen to fix it (``min_slot_rows``)."""

    points: tuple[PointCount, ...]
    bar: SideCounts
    slots: float
    slots_measured: bool


def two_colours(colours: npt.NDArray[np.float64], lightness_weight: float) -> npt.NDArray[np.bool_]:
    """Which of the colours (n x 3 Lab) belong to the lighter of two clusters (2-means, the
    lightness scaled by ``lightness_weight``: glare and shadows move it most)."""
    scaled = colours * np.array([lightness_weight, 1.0, 1.0])
    light = colours[:, 0] >= np.median(colours[:, 0])
    for _ in range(10):
        if light.all() or not light.any():
            break
        centre_light = scaled[light].mean(axis=0)
        centre_dark = scaled[~light].mean(axis=0)
        updated = np.linalg.norm(scaled - centre_light, axis=1) < np.linalg.norm(
            scaled - centre_dark, axis=1
        )
        if (updated == light).all():
            break
        light = updated
    if light.any() and (~light).any() and colours[light, 0].mean() < colours[~light, 0].mean():
        light = ~light
    return light


def _bar_places(grid: Floats, view: BoardView, config: CheckerConfig) -> dict[int, list[int]]:
    """Per bar strip, the places on its half of the bar holding a checker: above
    ``min_probability`` and more likely than the places half a slot either side."""
    half_places = int(view.height / 2 / (slot_spacing(view, config) / 2)) - 1
    found = {}
    for strip in BAR_STRIPS:
        row = grid[strip - 1, :half_places]
        padded = np.pad(row, 1)
        peaks = (row >= config.min_probability) & (row >= padded[:-2]) & (row > padded[2:])
        found[strip] = np.nonzero(peaks)[0].tolist()
    return found


def _gains_at(gain: Floats, along: npt.NDArray[np.float64], spacing: float) -> Floats:
    """Cumulative gain (log-odds for against a checker) of checkers centred ``along`` a strip, in
    order (0 checkers first); centres off the strip gain nothing."""
    places = np.rint(2 * (along / spacing - 0.5)).astype(np.intp)
    valid = (places >= 0) & (places < len(gain))
    gains = np.where(valid, gain[np.clip(places, 0, len(gain) - 1)], 0.0)
    return np.concatenate([[0.0], np.cumsum(gains)]).astype(np.float32)


@dataclass(frozen=True)
class _Row:
    """A point's row: its most likely length, and the range of lengths nearly as likely."""

    length: int
    low: int
    high: int


def _column_fit(
    gain_top: Floats, gain_bottom: Floats, spacing: float, capacity: int, margin: float
) -> tuple[_Row, _Row, float]:
    """The row lengths (top, bottom) of a column that best explain the strips of its two points,
    each row running from its own edge; together the rows fit along the column (``capacity``
    checkers). Lengths whose best fit is within ``margin`` (log-odds) of the best stay open.
    Also the best fit's log-odds."""
    near = np.asarray((np.arange(capacity) + 0.5) * spacing, np.float64)
    rows_top = _gains_at(gain_top, near, spacing)
    rows_bottom = _gains_at(gain_bottom, near, spacing)
    total = rows_top[:, None] + rows_bottom[None, :]
    counts = np.arange(capacity + 1)
    total = np.where(counts[:, None] + counts[None, :] <= capacity, total, -np.inf)
    top, bottom = np.unravel_index(int(np.argmax(total)), total.shape)
    best = float(total[top, bottom])
    near_best = total >= best - margin
    tops = np.nonzero(near_best.any(axis=1))[0]
    bottoms = np.nonzero(near_best.any(axis=0))[0]
    return (
        _Row(int(top), int(tops.min()), int(tops.max())),
        _Row(int(bottom), int(bottoms.min()), int(bottoms.max())),
        best,
    )


def _rows(
    grid: Floats, view: BoardView, config: CheckerConfig
) -> tuple[dict[int, list[int]], dict[int, _Row], float]:
    """Per point, the places of its checkers (the row of each column's two points from
    ``_column_fit``, then checkers on top at half-slot places over it), and the row; and the
    log-odds of the columns' best fits summed (how well the rows explain the strips)."""
    spacing = slot_spacing(view, config)
    capacity = int(view.height / spacing)
    clipped = np.clip(grid, 1e-4, 1 - 1e-4)
    gain = (np.log(clipped) - np.log(1 - clipped)).astype(np.float32)
    found: dict[int, list[int]] = {}
    rows: dict[int, _Row] = {}
    fit = 0.0
    for column in range(12):
        top, bottom = column_points(column)
        rows[top], rows[bottom], best = _column_fit(
            gain[top - 1], gain[bottom - 1], spacing, capacity, config.row_margin
        )
        fit += best
        for point in (top, bottom):
            count = rows[point].length
            places = [2 * k for k in range(count)]
            on_top = [
                place
                for place in range(1, 2 * count - 2, 2)
                if grid[point - 1, place] >= config.min_probability
            ]
            found[point] = places + on_top
    return found, rows, fit


def _disc_colour(
    strip_image: Floats, strip: int, place: int, config: CheckerConfig
) -> npt.NDArray[np.float64]:
    """Mean Lab colour of the middle of the checker centred at a place of a strip."""
    half = config.patch // 2
    inner = max(1, round(config.patch * config.inner_share / 2))
    row = place * half + half + config.context
    column = (strip - 1) * config.patch + half
    disc = strip_image[row - inner : row + inner, column - inner : column + inner]
    return np.asarray(disc.reshape(-1, 3).mean(axis=0), np.float64)


def _fit(
    rectified_bgr: Image,
    view: BoardView,
    config: CheckerConfig,
    model: SlotModel,
) -> tuple[Floats, Floats, dict[int, list[int]], dict[int, _Row], float]:
    """Strips, slot model grid, checker places, rows and fit of the board at the configured
    ``height_in_slots``."""
    strip_image = strips(rectified_bgr, view, config)
    grid = model.probability(place_features(strip_image, config)).reshape(26, -1)
    found, rows, fit = _rows(grid, view, config)
    return strip_image, grid, found, rows, fit


def read_checkers(
    rectified_bgr: Image,
    view: BoardView,
    config: CheckerConfig,
    model: SlotModel | None = None,
) -> CheckerReading:
    """Checkers per point and on the bar of a canonical board image (``vision.board.rectify``),
    at the view's ``slots`` if measured, else at the best fitting of ``slot_candidates``."""
    slot_model = load_model() if model is None else model
    tried = (view.slots,) if view.slots is not None else config.slot_candidates
    fits = [
        (
            _fit(rectified_bgr, view, replace(config, height_in_slots=slots), slot_model),
            slots,
        )
        for slots in tried
    ]
    (strip_image, grid, found, rows, _), slots = max(fits, key=lambda item: item[0][4])
    config = replace(config, height_in_slots=slots)
    found |= _bar_places(grid, view, config)
    spots = [(strip, place) for strip in range(1, 27) for place in found[strip]]
    colours = np.array([_disc_colour(strip_image, s, p, config) for s, p in spots], np.float64)
    lights = two_colours(colours, config.lightness_weight) if spots else np.zeros(0, bool)
    colour_at: dict[tuple[int, int], Color] = {
        spot: ("light" if is_light else "dark")
        for spot, is_light in zip(spots, lights, strict=True)
    }
    seen = {"light": int(lights.sum()), "dark": int((~lights).sum())}
    points = []
    for point in range(1, 25):
        here, row = found[point], rows[point]
        names = [colour_at[(point, place)] for place in here]
        colour: Color | None = None
        if names:
            colour = "light" if names.count("light") >= names.count("dark") else "dark"
        count = len(here)
        hidden = 0
        if colour is not None and row.length >= ROW and count == row.length == ROW:
            hidden = max(0, CHECKERS_PER_SIDE - seen[colour])  # stacked squarely, unseen
        elif colour is not None and row.length >= 3 and count == 2 * row.length - 1:
            # a full layer on top: higher layers sit where the row's checkers do
            higher = (row.length - 2) * (row.length - 1) // 2
            hidden = min(higher, max(0, CHECKERS_PER_SIDE - seen[colour]))
        low = count - (row.length - row.low)
        high = count + (row.high - row.length) + hidden
        points.append(PointCount(point, colour, count if low == high else None, low, high))
    bar_names = [colour_at[(strip, place)] for strip in BAR_STRIPS for place in found[strip]]
    long_rows = sum(max(0, row.length - 2) for row in rows.values())
    return CheckerReading(
        tuple(points),
        SideCounts(bar_names.count("light"), bar_names.count("dark")),
        slots,
        long_rows >= config.min_slot_rows,
    )
