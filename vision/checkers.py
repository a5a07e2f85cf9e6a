"""Checkers on the canonical (rectified) board: per point and on the bar, with honest ranges.

The canonical board (``vision.board.BoardView``) has the bar vertical; points hang from the top
and bottom edges, six columns either side of the bar. Column ``c`` (0 = leftmost) holds point
``13 + c`` at the top and ``12 - c`` at the bottom; a row of more than five checkers overflows
towards the middle and may pass it, so each column is cut over the surface's full height
(``column_crops``), resampled to ``crop_height`` x ``crop_width`` pixels; the bar is a thirteenth
crop, its upper half holding one colour's checkers and its lower half the other's.

A small CNN (``vision/models/checkers.onnx``, trained by ``vision.training.train_checkers``)
reads the 13 crops in one batch. For each half of a crop (the top point and the bottom point;
the bar's upper and lower half) it gives the probabilities of 0..15 visible checkers, of the
checkers being the lighter colour, and of checkers hidden squarely under others (``stacked``).
A crop it is unsure of is read again mirrored and turned end over end, and the readings
averaged (``run_net``); the bar's crop is read again with its contrast stretched and its counts
averaged too (a dark checker on a dark bar is the one the net missed most), and each half of
the bar is looked at again, closer, by the judge of the bar (``vision.bar``: ``bar_judged``),
whose counts and colour replace the net's where it is the surer. A point the
net is unsure holds any checker is looked at again, closer, by the judge of edges
(``vision.edges``: ``edge_judged``), whose P(the point's first place is taken) replaces the
net's P(some): a lone dark checker on a dark point, faint at the net's pixels, is the checker it
most often misses. A long row the net is unsure of (six or more) is counted again, closer, by
the judge of long rows (``vision.long_rows``: ``long_row_judged``), whose counts replace the
net's.

Decoding (``_decode_half``): a count is given only where the net is sure
(``min_count_probability``) and no checker may be hidden (every full row is looked at again,
closer, by the judge of stacks, ``vision.stacks``: ``judged``); otherwise ``count``
is None and ``min``/``max`` bound it: the
visible counts the net finds plausible, and, over a possibly hidden stack, up to 15 minus the
checkers of that colour seen elsewhere (on points, on the bar and, where ``vision.trays`` read
them, borne off). Where the trays bound a colour's checkers borne off, its counts and theirs
must sum to 15 (``vision.tally``): a span the others leave one count is counted (the tray's
too), and so is one the sum makes likely at ``min_count_probability`` (weighing the net's
probabilities of every way the colour's places make 15: ``joint_counts``); where a colour's
counts cannot sum to 15, the place the sum most plausibly blames is unsure: a point then has
only a range (unless the sum proves the count it needs there: ``_proven``), and the bar no
count, as it has none either where the sum blames no place (the bar's dark checkers are the
ones the net misses most).
Colours: the net's colour is checked against the board itself, the mean colours of the
checkers nearest each point's edge split into two clusters (``two_colours``): "light" is the
lighter of the two checker colours of this board. The clusters turn an unsure net's light
checker dark only where it is clearly nearer the dark cluster (``dark_nearness``): a light
checker in shadow falls in the dark cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.bar import BarVerdict
from vision.board import BoardView
from vision.columns import COLUMNS, column_points, crop_spans
from vision.config import CheckerConfig
from vision.edges import EdgeVerdict
from vision.labels import CHECKERS_PER_SIDE, COLORS, POINTS, Color, PointCount, SideCounts
from vision.tally import Blame, Place, joint_counts, settle, suspects

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

NET = "checkers"  # vision/models/checkers.onnx
BAR_CROP = COLUMNS  # index of the bar's crop after the 12 columns
CROPS = COLUMNS + 1
COUNT_CLASSES = CHECKERS_PER_SIDE + 1  # 0..15 visible checkers per half
# Net outputs per crop: count logits (2 halves x 16), light logits (2), hidden logits (2).
OUTPUTS = ("count", "light", "hidden")
# The ways ``run_net`` reads an unsure crop again: (turned end over end, mirrored across).
FLIPS = ((False, True), (True, False), (True, True))
# Given points whose rows are full, P(each hides checkers) (``vision.stacks.judge_rows``).
StackJudge = Callable[[Sequence[int]], Mapping[int, float]]
# Given points, the verdict on each one's first place (``vision.edges.judge_edges``).
EdgeJudge = Callable[[Sequence[int]], Mapping[int, EdgeVerdict]]
# The verdicts on the bar's upper and lower half (``vision.bar.judge_bar``).
BarJudge = Callable[[], Sequence[BarVerdict]]
# Given points, P(0..15 checkers seen) on each (``vision.long_rows.judge_long_rows``).
LongRowJudge = Callable[[Sequence[int]], Mapping[int, Floats]]


def column_crops(rectified_bgr: Image, view: BoardView, config: CheckerConfig) -> Image:
    """The 13 crops of a canonical board image (``vision.board.rectify``), side by side: a
    ``crop_height`` x ``13 * crop_width`` BGR image. The board is first halved (Gaussian
    pyramid: smoothed, little aliasing), then every crop resampled from it in one remap."""
    height, width = config.crop_height, config.crop_width
    small = cv2.pyrDown(rectified_bgr)
    sx = small.shape[1] / rectified_bgr.shape[1]
    sy = small.shape[0] / rectified_bgr.shape[0]
    map_x = np.empty((height, CROPS * width), np.float32)
    for index, (left, right) in enumerate(crop_spans(view, config)):
        xs = left + (np.arange(width, dtype=np.float32) + 0.5) * (right - left) / width
        map_x[:, index * width : (index + 1) * width] = xs[None, :] * sx - 0.5
    ys = (np.arange(height, dtype=np.float32) + 0.5) * view.height / height * sy - 0.5
    map_y = np.repeat(ys[:, None], CROPS * width, axis=1)
    return np.asarray(
        cv2.remap(small, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
        np.uint8,
    )


def split_crops(crops: Image, config: CheckerConfig) -> Image:
    """``column_crops`` images (one, or several stacked along a first axis) as one crop per
    row: (images x 13) x 3 x height x width, BGR."""
    many = crops if crops.ndim == 4 else crops[None]
    n, height = many.shape[0], many.shape[1]
    split = many.reshape(n, height, CROPS, config.crop_width, 3).transpose(0, 2, 4, 1, 3)
    return np.ascontiguousarray(split.reshape(n * CROPS, 3, height, config.crop_width))


def scale_batch(split: Image) -> Floats:
    """The net's input from ``split_crops``: float32, scaled to -0.5..0.5."""
    return np.asarray(split.astype(np.float32) / 255.0 - 0.5, np.float32)


@dataclass(frozen=True)
class HalfReading:
    """What the net says of one half of a crop: P(visible = 0..15), P(light), P(hidden)."""

    count: Floats
    light: float
    hidden: float


def run_net(crops: Image, config: CheckerConfig) -> list[tuple[HalfReading, HalfReading]]:
    """The net's readings of the 13 crops: (top point or upper bar half, bottom point or lower
    bar half) per crop. Where ``config.flipped_views``, a crop the net is unsure of (a half's
    likeliest count below ``flipped_sure_probability``, or hidden checkers
    ``min_hidden_probability`` likely) is read again each way of ``FLIPS``, as the net learnt
    crops (``vision.training.train_checkers``), and each half's logits averaged over the four
    readings. Where ``config.bar_contrast`` is not 1, the bar's crop is read again
    ``stretched`` by it, and its halves' count logits averaged with that reading's: a dark
    checker on a dark bar differs from the bar by a few levels, and the net reads it as none
    on the crop as cut."""
    split = split_crops(crops, config)
    batch = scale_batch(split)
    count, light, hidden = _logits(batch)
    if config.flipped_views:
        sure = (nets.softmax(count).max(axis=2) >= config.flipped_sure_probability) & (
            nets.sigmoid(hidden[:, :, 0]) < config.min_hidden_probability
        )
        unsure = np.flatnonzero(~sure.all(axis=1))
        if len(unsure):
            flipped = _flipped_logits(batch[unsure])
            for logits, again in zip((count, light, hidden), flipped, strict=True):
                logits[unsure] = (logits[unsure] + again.sum(axis=0)) / (len(FLIPS) + 1)
    if config.bar_contrast != 1.0:
        bar = split[BAR_CROP::CROPS]
        bar_count, _, _ = _logits(scale_batch(stretched(bar, config.bar_contrast)))
        count[BAR_CROP::CROPS] = (count[BAR_CROP::CROPS] + bar_count) / 2
    counts = nets.softmax(count)
    lights, hiddens = nets.sigmoid(light[:, :, 0]), nets.sigmoid(hidden[:, :, 0])
    return [
        (
            HalfReading(counts[i, 0], float(lights[i, 0]), float(hiddens[i, 0])),
            HalfReading(counts[i, 1], float(lights[i, 1]), float(hiddens[i, 1])),
        )
        for i in range(len(counts))
    ]


def stretched(crops: Image, gain: float) -> Image:
    """Crops (n x 3 x height x width, ``split_crops``), each with its contrast about its
    median colour (per channel: for the bar's crop, the bar's own colour, whatever lies on it)
    multiplied by ``gain``, clipped to 0..255."""
    median = np.median(crops, axis=(2, 3), keepdims=True)
    spread = (crops.astype(np.float32) - median) * gain + median
    return np.asarray(np.clip(spread, 0, 255), np.uint8)


def _logits(batch: Floats) -> tuple[Floats, Floats, Floats]:
    """The net's count, light and hidden logits of a batch (``scale_batch``): n x 2 (the
    crop's halves) x 16, 1 and 1."""
    count, light, hidden = (out.reshape(len(batch), 2, -1) for out in nets.run(NET, batch))
    return count, light, hidden


def _flipped_logits(batch: Floats) -> tuple[Floats, Floats, Floats]:
    """``_logits`` of the batch's crops read each way of ``FLIPS``: len(FLIPS) x n x 2 x k,
    the halves of a crop turned end over end given back in the crop's own order."""
    views = [batch[:, :, :: -1 if along else 1, :: -1 if across else 1] for along, across in FLIPS]
    turned = np.array([along for along, _ in FLIPS])
    read = []
    for logits in _logits(np.concatenate(views)):
        per_view = logits.reshape(len(FLIPS), len(batch), 2, -1)
        per_view[turned] = per_view[turned][:, :, ::-1]
        read.append(per_view)
    return read[0], read[1], read[2]


@dataclass(frozen=True)
class CheckerReading:
    """Per point (24 entries, point 1 first), on the bar, and the checkers borne off as the sum
    of a colour's 15 settles them (None: unsure, or the colour's counts do not add up)."""

    points: tuple[PointCount, ...]
    bar: SideCounts
    off: SideCounts


def _scaled(colours: npt.NDArray[np.float64], lightness_weight: float) -> npt.NDArray[np.float64]:
    """Lab colours (n x 3) with the lightness scaled by ``lightness_weight``: the space the
    two checker colours are clustered in."""
    return np.asarray(colours * np.array([lightness_weight, 1.0, 1.0]), np.float64)


def two_colours(colours: npt.NDArray[np.float64], lightness_weight: float) -> npt.NDArray[np.bool_]:
    """Which of the colours (n x 3 Lab) belong to the lighter of two clusters (2-means, the
    lightness scaled by ``lightness_weight``: glare and shadows move it most)."""
    scaled = _scaled(colours, lightness_weight)
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


def dark_nearness(
    colours: npt.NDArray[np.float64], light: npt.NDArray[np.bool_], lightness_weight: float
) -> npt.NDArray[np.float64]:
    """Each colour's distance (Lab, the lightness scaled by ``lightness_weight``, as
    ``two_colours``) to the centre of the dark cluster over its distance to the light one's
    (``light``: ``two_colours``' split); infinite where either cluster is empty."""
    if light.all() or not light.any():
        return np.full(len(colours), np.inf)
    scaled = _scaled(colours, lightness_weight)
    to_light = np.linalg.norm(scaled - scaled[light].mean(axis=0), axis=1)
    to_dark = np.linalg.norm(scaled - scaled[~light].mean(axis=0), axis=1)
    return np.asarray(to_dark / np.maximum(to_light, 1e-9), np.float64)


def edge_colours(crops: Image, config: CheckerConfig) -> npt.NDArray[np.float64]:
    """Lab colour (24 x 3, point 1 first) of the middle of the checker nearest each point's
    edge (where a point's first checker lies), from ``column_crops``: the mean BGR over a disc's
    square, in Lab."""
    height, width = config.crop_height, config.crop_width
    radius = max(1, round(width / config.across_share * config.colour_disc_share / 2))
    centre = round(height * config.first_checker_share)
    across = np.arange(-radius, radius + 1)
    columns = (np.arange(COLUMNS) * width + width // 2)[:, None] + across  # COLUMNS x disc
    means = np.zeros((1, 24, 3), np.float32)
    for half, row in enumerate((centre, height - 1 - centre)):  # top points, bottom points
        discs = crops[row + across][:, columns]  # disc rows x COLUMNS x disc columns x BGR
        points = np.array([column_points(column)[half] for column in range(COLUMNS)])
        means[0, points - 1] = discs.mean(axis=(0, 2)) / 255.0
    lab = cv2.cvtColor(means, cv2.COLOR_BGR2LAB)[0]
    # float Lab (L 0..100, a and b about -128..127) on the 8-bit scale of vision.config
    return np.asarray(lab * np.array([2.55, 1.0, 1.0]) + np.array([0.0, 128.0, 128.0]), np.float64)


@dataclass(frozen=True)
class _Half:
    """One point (or bar half) decoded: the likeliest visible count, the visible counts still
    plausible, whether that count is sure, whether a stack may hide checkers, P(light)."""

    best: int
    low: int
    high: int
    sure: bool
    hidden: bool
    hidden_probability: float
    light: float
    probabilities: Floats


def _decode_half(reading: HalfReading, config: CheckerConfig) -> _Half:
    best = int(np.argmax(reading.count))
    sure = float(reading.count[best]) >= config.min_count_probability
    plausible = np.nonzero(reading.count >= config.min_range_probability)[0]
    low, high = (
        (best, best) if sure else (min(best, int(plausible.min())), max(best, int(plausible.max())))
    )
    return _Half(
        best=best,
        low=low,
        high=high,
        sure=sure,
        hidden=reading.hidden >= config.min_hidden_probability and high > 0,
        hidden_probability=float(reading.hidden),
        light=reading.light,
        probabilities=reading.count,
    )


def _point_colours(
    halves: dict[int, _Half], crops: Image, config: CheckerConfig
) -> dict[int, Color]:
    """The colour of each point that may hold checkers: the net's, unless the board's own two
    checker colours (``two_colours`` over the checkers nearest the points' edges) say otherwise
    where the net is unsure."""
    occupied = [p for p, half in halves.items() if half.high > 0]
    net_light = {p: halves[p].light >= 0.5 for p in occupied}
    sure = [p for p in occupied if halves[p].best > 0]
    colours = edge_colours(crops, config)[np.array(sure, np.intp) - 1] if sure else None
    if colours is not None and len(sure) >= 2:
        split = two_colours(colours, config.lightness_weight)
        nearness = dark_nearness(colours, split, config.lightness_weight)
        for index, point in enumerate(sure):
            unsure = abs(halves[point].light - 0.5) < config.colour_trust
            if not unsure or split[index] == net_light[point]:
                continue
            # a light checker in shadow falls in the dark cluster: turned dark only where
            # clearly nearer the dark cluster's centre
            if net_light[point] and nearness[index] > config.shadow_nearness:
                continue
            net_light[point] = bool(split[index])
    return {p: ("light" if net_light[p] else "dark") for p in occupied}


def _bar_halves(upper: _Half, lower: _Half) -> dict[Color, _Half]:
    """The bar's halves by colour: each half holds one colour; where both hold checkers they
    are told apart by the likelier assignment."""
    if upper.best > 0 and lower.best > 0:
        upper_light = upper.light * (1 - lower.light) >= lower.light * (1 - upper.light)
    else:
        upper_light = (upper.light >= 0.5) if upper.best > 0 else (lower.light < 0.5)
    light, dark = (upper, lower) if upper_light else (lower, upper)
    return {"light": light, "dark": dark}


def _tallied(
    points: list[PointCount],
    halves: dict[int, _Half],
    bar: dict[Color, _Half],
    off: Mapping[Color, Place | None],
    config: CheckerConfig,
) -> tuple[list[PointCount], SideCounts, SideCounts]:
    """The points, the bar's counts and the checkers borne off (None: unsure), each colour's
    settled by its sum where its checkers borne off are bounded (``vision.tally``): spans
    narrowed, counts the sum proves given; where the colour's readings cannot sum to 15, the
    point the sum blames is given as a range (or the count the sum needs there, where it
    proves it: ``_proven``), and its bar count is withheld unless the sum blames a point or
    the tray."""
    settled = list(points)
    bar_counts: dict[Color, int | None] = {c: h.best if h.sure else None for c, h in bar.items()}
    off_counts: dict[Color, int | None] = dict.fromkeys(COLORS)
    for colour in COLORS:
        borne_off = off.get(colour)
        if borne_off is None:
            continue
        mine = [p for p in points if p.color == colour]
        places = [_place(p, halves[p.point], config) for p in mine]
        bar_half = bar[colour]  # a sure half's span is its count
        places.append(Place(bar_half.low, bar_half.high, bar_half.probabilities, False))
        spans = settle([*places, borne_off], CHECKERS_PER_SIDE, config.min_tally_probability)
        if spans is None:
            # the point the sum most plausibly blames (one of the colour's, or an empty one
            # that may hold a checker the net missed) keeps its count only as a range,
            # unless the sum proves the count it needs there
            empty = [p for p in points if p.color is None]
            candidates = [*places, borne_off, *(_empty_place(halves[p.point]) for p in empty)]
            blames = suspects(candidates, CHECKERS_PER_SIDE)
            blamed = _blamed(blames, len(places), borne_off, config)
            if blamed is None or blamed.place == len(mine):
                # the sum blames the bar's half, or no place: its count is withheld (a count
                # the sum blames elsewhere stands: on tuning frames 650,000..650,999 and
                # 660,000..660,999, 3,576 bar halves, 21 more counts given, 5 wrong as
                # before; boards with at most one error 97.4% -> 98.3%)
                bar_counts[colour] = None
            # a point, not the bar's half (index len(mine)) nor the tray (len(places))
            if blamed is not None and blamed.place not in (len(mine), len(places)):
                index = blamed.place
                p = mine[index] if index < len(mine) else empty[index - len(places) - 1]
                need = blamed.low
                settled[p.point - 1] = (
                    PointCount(p.point, colour if need else None, need, need, need)
                    if _proven(blamed, blames, halves[p.point], config)
                    else PointCount(
                        p.point, colour, None, min(p.min, blamed.low), max(p.max, blamed.high)
                    )
                )
            continue
        counts = joint_counts(
            [*places, borne_off], spans, CHECKERS_PER_SIDE, config.min_count_probability
        )
        for p, (low, high), count in zip(mine, spans[:-2], counts[:-2], strict=True):
            half = halves[p.point]
            if _under_stack(half, low):
                # checkers the sum puts under a stack stay a range: such proofs were wrong
                # 6 times in 180 on tuning frames (a count elsewhere wrong), against 2 in 141
                continue
            if count is not None and _under_stack(half, count):
                count = None  # likewise
            if count is not None:
                low = high = count
            settled[p.point - 1] = PointCount(p.point, colour if high else None, count, low, high)
        bar_counts[colour], off_counts[colour] = counts[-2:]
    return (
        settled,
        SideCounts(bar_counts["light"], bar_counts["dark"]),
        SideCounts(off_counts["light"], off_counts["dark"]),
    )


def _blamed(
    blames: list[Blame], tray: int, borne_off: Place, config: CheckerConfig
) -> Blame | None:
    """The place the sum blames of ``blames`` (``vision.tally.suspects``): the likeliest, but
    a tray whose count its net was sure of (index ``tray``) only where it is
    ``tray_blame_odds`` times as likely as the next, else the next (the tray's count is then
    withheld, and the points stand as read: a point wrongly left standing is a count
    confidently wrong, where a point blamed is a range, or a count the sum proves)."""
    if not blames:
        return None
    first = blames[0]
    sure_tray = first.place == tray and borne_off.low == borne_off.high
    if (
        sure_tray
        and len(blames) > 1
        and first.probability < config.tray_blame_odds * blames[1].probability
    ):
        first = blames[1]
    return first


def _proven(blamed: Blame, blames: list[Blame], half: _Half, config: CheckerConfig) -> bool:
    """Whether the sum proves the point it blames (``_blamed`` of ``blames``; ``half``, the
    point as the net read it): it needs one count there, not more than the net sees over a
    stack that may hide checkers (as ``_tallied`` gives no such count), which the net gives at
    least ``min_blame_probability`` and at least ``point_blame_odds`` times what it gives the
    count any other suspect would need."""
    return (
        blamed.low == blamed.high
        and not _under_stack(half, blamed.low)
        and blamed.probability >= config.min_blame_probability
        and all(
            blamed.probability >= config.point_blame_odds * other.probability
            for other in blames
            if other.place != blamed.place
        )
    )


def _under_stack(half: _Half, count: int) -> bool:
    """Whether ``count`` checkers at a point (``half``, as the net read it) put some under a
    stack that may hide them: more than the net sees there."""
    return half.hidden and count > half.best


def _place(point: PointCount, half: _Half, config: CheckerConfig) -> Place:
    """A point of a colour as a place of its sum: its span, the net's probabilities, and the
    probability that checkers lie hidden there where a stack may hide them or the point is a
    full row (``stack_row``, weighed by the judge of stacks: ``judged``); none at any other
    point (the net's own P(hidden) there, below ``min_hidden_probability``, let the sum blame
    tuning frame 650,058's three checkers for one it missed elsewhere)."""
    full_row = half.best == config.stack_row
    hides = half.hidden_probability if half.hidden or full_row else 0.0
    return Place(point.min, point.max, half.probabilities, half.hidden, hides)


def _empty_place(half: _Half) -> Place:
    """An empty point as a place of a colour's sum: read 0, the net's probabilities kept."""
    return Place(0, 0, half.probabilities, False)


def judged(
    halves: dict[int, _Half], judge: StackJudge | None, config: CheckerConfig
) -> dict[int, _Half]:
    """``halves`` with each full row (the net's likeliest count ``stack_row``), whether or not
    the net suspects it hides checkers, looked at again by ``judge``
    (``vision.stacks.judge_rows``): the row may hide some only where the judge gives it at
    least ``min_stack_probability``, and the sum (``vision.tally``) weighs the judge's
    probability that it does as the rest of the board shows it (``on_this_board``), not the
    net's. (The net, reading the column at a third of the frame's pixels, clears some rows
    that do hide checkers, which the judge sees.)"""
    rows = [p for p, half in halves.items() if half.best == config.stack_row]
    if judge is None or not rows:
        return halves
    probabilities = judge(rows)
    shows_more = any(half.best > config.stack_row for half in halves.values())
    weighed = on_this_board(probabilities, shows_more, config)
    return halves | {
        point: replace(
            halves[point],
            hidden=probabilities[point] >= config.min_stack_probability,
            hidden_probability=weighed[point],
        )
        for point in rows
    }


# The judge's probabilities are taken within this of 0 and 1 (a float32 sigmoid gives 1.0).
_EDGE = 1e-6


def on_this_board(
    probabilities: Mapping[int, float], shows_more: bool, config: CheckerConfig
) -> dict[int, float]:
    """Per full row, the judge of stacks' P(it hides checkers) (``probabilities``, per point)
    weighed by what the rest of the board shows: the probability the sum of fifteen
    (``vision.tally``) weighs.

    The judge learnt on rows about a third of which hide checkers (``train_stacks``); of the full
    rows it is asked about on tuning frames, under a fifth do. And whether a row hides
    checkers goes with the board: where one full row surely hides some (the judge gives it at
    least ``stack_sure``), the players stack squarely, and another full row is likelier to
    hide some too; where a point shows more than ``stack_row`` checkers (``shows_more``: the
    net's likeliest visible count of some point), they overflow or layer them, and a full row
    is likelier to be just that. (The renderer stacks a scene one way throughout,
    ``vision.render.layout``; at a table, each player keeps a habit.) So the judge's logit
    moves by ``stack_logit_shift``, by ``stack_beside_sure_logit`` where another row is sure,
    and by ``stack_shows_more_logit`` where a point shows more."""
    sure = [point for point, p in probabilities.items() if p >= config.stack_sure]
    weighed = {}
    for point, probability in probabilities.items():
        beside_sure = any(other != point for other in sure)
        logit = nets.logit(min(max(probability, _EDGE), 1.0 - _EDGE)) + config.stack_logit_shift
        logit += config.stack_beside_sure_logit if beside_sure else 0.0
        logit += config.stack_shows_more_logit if shows_more else 0.0
        weighed[point] = 1.0 / (1.0 + math.exp(-logit))
    return weighed


def edge_judged(
    readings: dict[int, HalfReading], judge: EdgeJudge | None, config: CheckerConfig
) -> dict[int, HalfReading]:
    """``readings`` (per point, 1..24) with each point the net is unsure holds any checker (it
    gives both none and some at least ``edge_doubt``) looked at again by ``judge``
    (``vision.edges.judge_edges``): the judge's P(its first place is taken) replaces the net's
    P(some) where they disagree or the judge is the surer, shared out over the counts as the
    net shares it (``_taken_as``). (The net, reading
    the column at a third of the frame's pixels, leaves a faint dark checker on a dark point
    unsure, or misses it, where the judge sees it.) A point across the column from a row the
    net reads as ``edge_row_reach`` or more is not: that row may reach this point's first place
    (a row overflowing towards the middle, ``vision.render.layout``), where the judge finds a
    checker this point does not hold."""
    doubtful = [
        point
        for point, reading in readings.items()
        if min(float(reading.count[0]), 1.0 - float(reading.count[0])) >= config.edge_doubt
        and not _row_across_reaches(readings, point, config)
    ]
    if judge is None or not doubtful:
        return readings
    verdicts = judge(doubtful)
    return readings | {point: _taken_as(readings[point], verdicts[point]) for point in doubtful}


def long_row_judged(
    readings: dict[int, HalfReading], judge: LongRowJudge | None, config: CheckerConfig
) -> dict[int, HalfReading]:
    """``readings`` (per point, 1..24) with each point the net reads as a long row it is unsure
    of (its likeliest count at least ``long_row_from``, given less than
    ``min_count_probability``) counted again by ``judge`` (``vision.long_rows``): the judge's
    P(0..15 seen) replaces the net's. (The net reads the column at a third of the frame's
    pixels, where ten to fifteen checkers overflowing and layered blur into one another; the
    judge sees the frame's own.)"""
    long = [
        point
        for point, reading in readings.items()
        if int(np.argmax(reading.count)) >= config.long_row_from
        and float(reading.count.max()) < config.min_count_probability
    ]
    if judge is None or not long:
        return readings
    counts = judge(long)
    return readings | {
        point: replace(readings[point], count=np.asarray(counts[point], np.float32))
        for point in long
    }


def _row_across_reaches(
    readings: dict[int, HalfReading], point: int, config: CheckerConfig
) -> bool:
    """Whether the net reads the point across the column from ``point`` as a row of at least
    ``edge_row_reach`` checkers."""
    across = readings.get(POINTS + 1 - point)
    return across is not None and int(np.argmax(across.count)) >= config.edge_row_reach


def _taken_as(reading: HalfReading, verdict: EdgeVerdict) -> HalfReading:
    """``reading`` with P(some checker) the judge's ``verdict.taken``, the counts from 1 up
    sharing it as the net shares P(some) (one, where it gives them none); but where the net and
    the judge agree (both find the point likelier taken, or both likelier empty) and the net is
    the surer, the net's stands. Where the net found the point likelier empty, the colour is the
    judge's (the net's is then of no checker)."""
    some = reading.count[1:].astype(np.float64)
    total = float(some.sum())
    taken = verdict.taken
    if (taken >= 0.5) == (total >= 0.5) and abs(total - 0.5) > abs(taken - 0.5):
        taken = total
    count = np.concatenate([[1.0 - taken], _spread(taken, some)]).astype(np.float32)
    light = verdict.light if reading.count[0] >= 0.5 else reading.light
    return replace(reading, count=count, light=light)


def _spread(mass: float, like: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``mass`` shared over counts as ``like`` (the net's probabilities of them) shares its own;
    all on the first where ``like`` gives them none."""
    total = float(like.sum())
    return mass * (like / total if total > 0.0 else np.eye(len(like))[0])


def bar_judged(
    halves: tuple[HalfReading, HalfReading], judge: BarJudge | None, config: CheckerConfig
) -> tuple[HalfReading, HalfReading]:
    """The net's readings of the bar's upper and lower half, looked at again by ``judge``
    (``vision.bar.judge_bar``) where the net is unsure of either (``_bar_doubtful``), the surer
    of the two standing (``_counted_as``). (The net, reading the bar at a third of the frame's
    pixels, misses a dark checker on a dark bar, and is unsure of the colour of checkers on a
    bar of neither colour, where the judge sees them.)"""
    if judge is None or not any(_bar_doubtful(half, config) for half in halves):
        return halves
    upper, lower = (_counted_as(h, v) for h, v in zip(halves, judge(), strict=True))
    return upper, lower


def _bar_doubtful(reading: HalfReading, config: CheckerConfig) -> bool:
    """Whether the net gives a bar half's likeliest count less than 1 - ``bar_doubt``, or, where
    it sees checkers there, P(light) within ``colour_trust`` of 0.5."""
    best = int(np.argmax(reading.count))
    unsure_colour = best > 0 and abs(reading.light - 0.5) < config.colour_trust
    return float(reading.count[best]) < 1.0 - config.bar_doubt or unsure_colour


def _counted_as(reading: HalfReading, verdict: BarVerdict) -> HalfReading:
    """``reading`` with the judge's counts where it gives its likeliest count (4 standing for
    four or more) a higher probability than the net gives its own: its P(0..3 checkers), and its
    P(4 or more) shared out as the net shares P(4..15) (four, where it gives them none); and
    with the judge's colour where its P(light) is the farther from 0.5."""
    net = reading.count.astype(np.float64)
    most = len(verdict.counts) - 1  # the judge's last class: this many or more
    classes = np.concatenate([net[:most], [net[most:].sum()]])
    surer = abs(verdict.light - 0.5) > abs(reading.light - 0.5)
    light = verdict.light if surer else reading.light
    if float(classes.max()) >= float(verdict.counts.max()):
        return replace(reading, light=light)
    count = np.concatenate(
        [verdict.counts[:most], _spread(float(verdict.counts[most]), net[most:])]
    )
    return replace(reading, count=count.astype(np.float32), light=light)


def read_checkers(
    rectified_bgr: Image,
    view: BoardView,
    config: CheckerConfig,
    off: Mapping[Color, Place | None] | None = None,
    judge: StackJudge | None = None,
    edge_judge: EdgeJudge | None = None,
    bar_judge: BarJudge | None = None,
    long_judge: LongRowJudge | None = None,
) -> CheckerReading:
    """Checkers per point and on the bar of a canonical board image (``vision.board.rectify``);
    ``off``, each colour's checkers borne off where the trays bound them
    (``vision.trays.off_places``), bound the points too, and the sum may prove them;
    ``judge`` (``judged``), given the points whose rows are full, says how likely each hides
    checkers; ``edge_judge`` (``edge_judged``), given the points the net is unsure hold any,
    whether each one's first place is taken; ``bar_judge`` (``bar_judged``), how many checkers
    each half of the bar holds, and of which colour; ``long_judge`` (``long_row_judged``),
    given the long rows the net is unsure of, how many checkers each shows. ValueError if the
    image is not the view's canonical size."""
    if rectified_bgr.shape[:2] != (view.height, view.width):
        raise ValueError(
            f"checkers: expected a {view.width} x {view.height} canonical board image, "
            f"got shape {rectified_bgr.shape}"
        )
    crops = column_crops(rectified_bgr, view, config)
    readings = run_net(crops, config)
    by_point = long_row_judged(
        edge_judged(
            {
                point: readings[column][half]
                for column in range(COLUMNS)
                for half, point in enumerate(column_points(column))
            },
            edge_judge,
            config,
        ),
        long_judge,
        config,
    )
    halves = judged({p: _decode_half(r, config) for p, r in by_point.items()}, judge, config)
    upper, lower = bar_judged(readings[BAR_CROP], bar_judge, config)
    bar = _bar_halves(_decode_half(upper, config), _decode_half(lower, config))
    colours = _point_colours(halves, crops, config)
    bounds = off or {}
    seen = {
        colour: sum(halves[p].low for p, c in colours.items() if c == colour)
        + (bar[colour].best if bar[colour].sure else 0)
        + (borne_off.low if (borne_off := bounds.get(colour)) is not None else 0)
        for colour in COLORS
    }
    points = []
    for point in range(1, 25):
        half = halves[point]
        colour = colours.get(point)
        if colour is None:
            points.append(PointCount(point, None, 0, 0, 0))
            continue
        # a side has 15 checkers: no more can lie here than it has not shown elsewhere (other
        # points, the bar, borne off)
        room = max(half.low, CHECKERS_PER_SIDE - (seen[colour] - half.low))
        high = min(half.high, room)
        if half.hidden and room > half.high:
            points.append(PointCount(point, colour, None, half.low, room))
        elif half.sure or half.low == high:
            count = half.low
            points.append(PointCount(point, colour if count else None, count, count, count))
        else:
            points.append(PointCount(point, colour, None, half.low, high))
    settled, bar_counts, proven_off = _tallied(points, halves, bar, bounds, config)
    return CheckerReading(tuple(settled), bar_counts, proven_off)


def unseen(reading: CheckerReading) -> SideCounts:
    """Per colour, the checkers its points and the bar do not show (15 minus them): where every
    point of that colour is counted and the bar's count of it known; otherwise None."""
    left: list[int | None] = []
    for colour in ("light", "dark"):
        points = [p for p in reading.points if p.color == colour]
        bar: int | None = getattr(reading.bar, colour)
        rest = None
        if bar is not None and all(p.count is not None for p in points):
            rest = CHECKERS_PER_SIDE - bar - sum(p.count or 0 for p in points)
        left.append(rest if rest is not None and rest >= 0 else None)
    return SideCounts(left[0], left[1])
