"""Scoring frame readings against labels: the figures of ``gammon-kiosk evaluate-vision``.

Pure functions compare a predicted :class:`~vision.labels.Reading` with its label
(:func:`score_frame`) and sum frame scores into chesscog-style figures (:func:`summarise`).
Definitions (issue 4 targets in brackets):

- A frame is *readable* when its label has a board and no hand over it. On a readable frame the
  reader *abstains* when it reports no board or ``occluded``; abstaining is never an error, but
  an abstained board is not "exactly right".
- A point is *right* when the colour matches and the count equals the truth; where the label
  marks checkers hidden (``min < max``), a ``count`` of null whose ``min..max`` holds the truth is
  right too. A null count whose range holds the truth is *uncertain* (not an error; a range
  from 0 holds an empty point whatever colour it gives the checkers it may hold); anything
  else is an *error*. Per-point error rate = errors / points of non-abstained readable frames
  [<= 0.1%]. *Confident* errors give a count (or a bar count) that is wrong: the readings the
  issue says must never happen; a board with one is *confidently wrong*.
- A board is *exactly right* when its 24 points and both bar counts are right, out of all
  readable frames [>= 99%]; *at most one error* counts points and bar counts not right.
  The bar's checkers are also scored alone: of the colours with checkers on the bar (frames
  not abstained), the share whose bar count is given and right, and given wrong.
  Borne-off counts are scored separately: right of those the reader gives, and how many of the
  two colours' counts of non-abstained readable frames it gives.
- Corner error: distance in pixels from each predicted corner to the labelled one.
- Dice (frames without a hand): predicted dice are matched to labelled ones greedily by the
  nearest centre within ``match_px``. Value accuracy = matched with the right value / labelled
  [>= 99.5%]; zone accuracy likewise [>= 99.5%]; a wrong value given (not null) is a confident
  dice error. Cocked precision = true cocked / predicted
  cocked, recall = true cocked / labelled cocked [recall >= 98% at precision >= 95%].
- Cube (frames without a hand): the predicted cube matches the labelled one when its centre
  lies within ``match_px``; value accuracy = matched with the right value / labelled cubes; a
  wrong value given is a confident cube error.
- Dice photos: a predicted die matches the labelled box holding its centre (nearest box centre
  if several); each box matches once. A labelled die is read right when its match has its value
  [>= 97%], wrong when its match has another (not None: a confident dice error).
- Variations: each figure again over the frames of each of the renderer's tags, and over the
  frames none of whose dice is hard to see (``PLAIN_DICE``, ``variations``).
"""

from __future__ import annotations

import importlib
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.labels import XY, Die, PointCount, Reading

if TYPE_CHECKING:
    from vision.config import CameraCalibration

DEFAULT_MATCH_PX = 24.0


class DieLike(Protocol):
    """What the scoring needs of a predicted die."""

    @property
    def value(self) -> int | None: ...

    @property
    def center(self) -> XY: ...


@dataclass(frozen=True)
class FrameScore:
    """Counts from one synthetic frame (see the module docstring for the definitions)."""

    readable: int = 0
    abstained: int = 0
    points: int = 0
    point_errors: int = 0
    point_confident_errors: int = 0
    point_uncertain: int = 0
    boards_exact: int = 0
    boards_one_error: int = 0
    boards_confidently_wrong: int = 0
    bar_checkers: int = 0
    bar_checkers_right: int = 0
    bar_checkers_wrong: int = 0
    no_board_frames: int = 0
    false_boards: int = 0
    off_given: int = 0
    off_right: int = 0
    occluded_frames: int = 0
    occluded_found: int = 0
    occluded_false: int = 0
    dice: int = 0
    dice_value_right: int = 0
    dice_value_given: int = 0
    dice_value_wrong: int = 0
    dice_zone_right: int = 0
    dice_missed: int = 0
    dice_extra: int = 0
    cocked_true: int = 0
    cocked_predicted: int = 0
    cocked_right: int = 0
    cubes: int = 0
    cubes_right: int = 0
    cubes_wrong: int = 0
    corner_errors: tuple[float, ...] = ()


def _point_verdict(label: PointCount, predicted: PointCount | None) -> str:
    """``right``, ``uncertain``, ``error`` or ``wrong`` (an error with a count given)."""
    if predicted is None:
        return "error"
    truth = label.count
    if predicted.count is not None:
        right = predicted.count == truth and predicted.color == label.color
        return "right" if right else "wrong"
    if predicted.color != label.color and truth != 0:  # an empty point has no colour
        return "error"
    if truth is None or not predicted.min <= truth <= predicted.max:
        return "error"
    return "right" if label.min < label.max else "uncertain"


def match_dice(
    labelled: Sequence[XY], predicted: Sequence[XY], match_px: float
) -> list[tuple[int, int]]:
    """Pairs (labelled index, predicted index), nearest centres first, each used once."""
    candidates = sorted(
        (math.dist(a, b), i, j)
        for i, a in enumerate(labelled)
        for j, b in enumerate(predicted)
        if math.dist(a, b) <= match_px
    )
    used_l: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for _, i, j in candidates:
        if i not in used_l and j not in used_p:
            used_l.add(i)
            used_p.add(j)
            pairs.append((i, j))
    return pairs


def _dice_counts(label: Sequence[Die], predicted: Sequence[Die], match_px: float) -> dict[str, int]:
    pairs = match_dice([d.center for d in label], [d.center for d in predicted], match_px)
    matched_p = {j for _, j in pairs}
    cocked_right = sum(1 for i, j in pairs if label[i].cocked and predicted[j].cocked)
    return {
        "dice": len(label),
        "dice_value_right": sum(1 for i, j in pairs if predicted[j].value == label[i].value),
        "dice_value_given": sum(1 for _, j in pairs if predicted[j].value is not None),
        "dice_value_wrong": sum(
            1
            for i, j in pairs
            if predicted[j].value is not None and predicted[j].value != label[i].value
        ),
        "dice_zone_right": sum(1 for i, j in pairs if predicted[j].zone == label[i].zone),
        "dice_missed": len(label) - len(pairs),
        "dice_extra": len(predicted) - len(matched_p),
        "cocked_true": sum(1 for d in label if d.cocked),
        "cocked_predicted": sum(1 for d in predicted if d.cocked),
        "cocked_right": cocked_right,
    }


def score_frame(
    label: Reading, predicted: Reading, match_px: float = DEFAULT_MATCH_PX
) -> FrameScore:
    """The counts of one frame: ``predicted`` read against its ``label``."""
    counts: dict[str, Any] = {}
    if label.occluded:
        counts["occluded_frames"] = 1
        counts["occluded_found"] = int(predicted.occluded)
        return FrameScore(**counts)
    counts["occluded_false"] = int(predicted.occluded)
    counts.update(_dice_counts(label.dice, predicted.dice, match_px))
    if label.cube is not None:
        counts["cubes"] = 1
        cube = predicted.cube
        if cube is not None and math.dist(cube.center, label.cube.center) <= match_px:
            counts["cubes_right"] = int(cube.value == label.cube.value)
            counts["cubes_wrong"] = int(cube.value not in (None, label.cube.value))
    if not label.board.found:
        counts["no_board_frames"] = 1
        counts["false_boards"] = int(predicted.board.found)
        return FrameScore(**counts)
    counts["readable"] = 1
    if not predicted.board.found or predicted.occluded:
        counts["abstained"] = 1
        return FrameScore(**counts)
    by_number = {p.point: p for p in predicted.points}
    verdicts = [_point_verdict(p, by_number.get(p.point)) for p in label.points]
    bar = ((predicted.bar.light, label.bar.light), (predicted.bar.dark, label.bar.dark))
    bar_wrong = sum(1 for given, truth in bar if given != truth)
    not_right = sum(1 for v in verdicts if v != "right") + bar_wrong
    wrong = verdicts.count("wrong")
    bar_confidently_wrong = any(given is not None and given != truth for given, truth in bar)
    on_bar = [(given, truth) for given, truth in bar if truth]
    counts.update(
        points=len(verdicts),
        point_errors=verdicts.count("error") + wrong,
        point_confident_errors=wrong,
        point_uncertain=verdicts.count("uncertain"),
        boards_confidently_wrong=int(wrong > 0 or bar_confidently_wrong),
        boards_exact=int(not_right == 0),
        boards_one_error=int(not_right <= 1),
        bar_checkers=len(on_bar),
        bar_checkers_right=sum(1 for given, truth in on_bar if given == truth),
        bar_checkers_wrong=sum(1 for given, truth in on_bar if given not in (None, truth)),
    )
    for given, truth in (
        (predicted.off.light, label.off.light),
        (predicted.off.dark, label.off.dark),
    ):
        if given is not None:
            counts["off_given"] = counts.get("off_given", 0) + 1
            counts["off_right"] = counts.get("off_right", 0) + int(given == truth)
    if predicted.board.corners is not None and label.board.corners is not None:
        counts["corner_errors"] = tuple(
            math.dist(a, b)
            for a, b in zip(predicted.board.corners, label.board.corners, strict=True)
        )
    return FrameScore(**counts)


def add_scores(scores: Iterable[FrameScore]) -> FrameScore:
    """The sum of frame scores (corner errors concatenated)."""
    totals: dict[str, Any] = {f.name: 0 for f in fields(FrameScore)}
    totals["corner_errors"] = ()
    for score in scores:
        for f in fields(FrameScore):
            totals[f.name] = totals[f.name] + getattr(score, f.name)
    return FrameScore(**totals)


def _percent(part: int, whole: int) -> float | None:
    return None if whole == 0 else 100.0 * part / whole


def _quantile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Summary:
    """Figures of an evaluation; percentages are ``None`` where nothing was there to score."""

    frames: int
    total: FrameScore
    ms: tuple[float, ...] = field(default=())

    def figures(self) -> dict[str, float | int | None]:
        """The figures by name, as printed by ``evaluate-vision --json``."""
        t = self.total
        corners = t.corner_errors
        return {
            "frames": self.frames,
            "readable_frames": t.readable,
            "abstained_pct": _percent(t.abstained, t.readable),
            "point_error_pct": _percent(t.point_errors, t.points),
            "point_confident_error_pct": _percent(t.point_confident_errors, t.points),
            "point_uncertain_pct": _percent(t.point_uncertain, t.points),
            "boards_exact_pct": _percent(t.boards_exact, t.readable),
            "boards_at_most_one_error_pct": _percent(t.boards_one_error, t.readable),
            "boards_confidently_wrong_pct": _percent(t.boards_confidently_wrong, t.readable),
            "bar_checkers": t.bar_checkers,
            "bar_checkers_right_pct": _percent(t.bar_checkers_right, t.bar_checkers),
            "bar_checkers_wrong_pct": _percent(t.bar_checkers_wrong, t.bar_checkers),
            "corner_error_mean_px": sum(corners) / len(corners) if corners else None,
            "corner_error_max_px": max(corners) if corners else None,
            "off_right_pct": _percent(t.off_right, t.off_given),
            "off_given_pct": _percent(t.off_given, 2 * (t.readable - t.abstained)),
            "no_board_frames": t.no_board_frames,
            "false_board_pct": _percent(t.false_boards, t.no_board_frames),
            "occluded_frames": t.occluded_frames,
            "occlusion_recall_pct": _percent(t.occluded_found, t.occluded_frames),
            "occluded_false_alarms": t.occluded_false,
            "dice": t.dice,
            "dice_value_pct": _percent(t.dice_value_right, t.dice),
            "dice_value_wrong_pct": _percent(t.dice_value_wrong, t.dice),
            # of the dice matched and given a value, how many are right: the reader reports a
            # die it cannot read without one (a blurred, smeared or translucent die) rather
            # than guess
            "dice_value_right_of_given_pct": _percent(
                t.dice_value_given - t.dice_value_wrong, t.dice_value_given
            ),
            "dice_zone_pct": _percent(t.dice_zone_right, t.dice),
            "dice_missed": t.dice_missed,
            "dice_extra": t.dice_extra,
            "cocked_dice": t.cocked_true,
            "cocked_precision_pct": _percent(t.cocked_right, t.cocked_predicted),
            "cocked_recall_pct": _percent(t.cocked_right, t.cocked_true),
            "cube_value_pct": _percent(t.cubes_right, t.cubes),
            "cube_value_wrong_pct": _percent(t.cubes_wrong, t.cubes),
            "ms_mean": sum(self.ms) / len(self.ms) if self.ms else None,
            "ms_median": _quantile(self.ms, 0.5),
            "ms_p95": _quantile(self.ms, 0.95),
            "ms_max": max(self.ms) if self.ms else None,
        }


def summarise(scores: Sequence[FrameScore], ms: Sequence[float] = ()) -> Summary:
    """Figures of a set of frame scores and reading times (milliseconds per frame)."""
    return Summary(frames=len(scores), total=add_scores(scores), ms=tuple(ms))


@dataclass(frozen=True)
class DicePhotoScore:
    """Counts from the real dice photos: labelled dice, read right, missed, extra detections,
    and read with a wrong value (not None: a confident dice error)."""

    dice: int = 0
    right: int = 0
    missed: int = 0
    extra: int = 0
    wrong: int = 0

    def __add__(self, other: DicePhotoScore) -> DicePhotoScore:
        return DicePhotoScore(
            self.dice + other.dice,
            self.right + other.right,
            self.missed + other.missed,
            self.extra + other.extra,
            self.wrong + other.wrong,
        )


def score_dice_photo(
    boxes: Sequence[tuple[int, tuple[float, float, float, float]]],
    predicted: Sequence[DieLike],
) -> DicePhotoScore:
    """Score one photo: ``boxes`` are (value, (x0, y0, x1, y1)) of the labelled dice."""
    used: set[int] = set()
    right = extra = wrong = 0
    for die in predicted:
        x, y = die.center
        inside = [
            (math.dist((x, y), ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)), i)
            for i, (_, b) in enumerate(boxes)
            if b[0] <= x <= b[2] and b[1] <= y <= b[3] and i not in used
        ]
        if not inside:
            extra += 1
            continue
        _, index = min(inside)
        used.add(index)
        right += int(die.value == boxes[index][0])
        wrong += int(die.value not in (None, boxes[index][0]))
    return DicePhotoScore(len(boxes), right, len(boxes) - len(used), extra, wrong)


def dice_photo_figures(total: DicePhotoScore, ms: Sequence[float]) -> dict[str, float | int | None]:
    """Figures of the dice-photo evaluation, as printed by ``evaluate-vision --json``."""
    return {
        "photos": len(ms),
        "dice": total.dice,
        "dice_read_right_pct": _percent(total.right, total.dice),
        "dice_read_wrong_pct": _percent(total.wrong, total.dice),
        "dice_missed": total.missed,
        "dice_extra": total.extra,
        "ms_mean": sum(ms) / len(ms) if ms else None,
        "ms_max": max(ms) if ms else None,
    }


def format_figures(title: str, figures: dict[str, float | int | None]) -> str:
    """The figures as aligned text lines, one per figure, under ``title``."""
    lines = [title]
    for name, value in figures.items():
        if value is None:
            text = "n/a"
        elif isinstance(value, int):
            text = str(value)
        else:
            text = f"{value:.3f}" if name.endswith("_pct") else f"{value:.2f}"
        lines.append(f"  {name:<30} {text}")
    return "\n".join(lines)


Image = npt.NDArray[np.uint8]
Corners = tuple[XY, XY, XY, XY]
# A reader of a frame given the board's corners (frame pixels) and the camera's calibration
# (``vision.config.CameraCalibration``), each None where the kiosk is not given it.
FrameReader = Callable[[Image, Corners | None, "CameraCalibration | None"], Reading]
FrameHook = Callable[[int, Image, Reading, Reading, "FrameScore"], None]
DiceFinder = Callable[[Image], Sequence[DieLike]]
Clock = Callable[[], float]


class ReaderUnavailableError(RuntimeError):
    """The frame reader (``vision.read``, ``vision.dice``, ``vision.config``) cannot be loaded."""


def _reader_part(module_name: str, attribute: str) -> Any:
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attribute)
    except (ImportError, AttributeError) as error:
        raise ReaderUnavailableError(
            f"{module_name}.{attribute} is not available ({error}); the reader is needed"
        ) from error


def load_frame_reader() -> FrameReader:
    """``vision.read.read_frame`` with the default ``vision.config.ReadConfig``; the reader
    searches for the board unless it is given corners, and reads through an uncalibrated
    camera (principal point at the frame's centre, focal length from the board's outline)
    unless it is given the camera's calibration."""
    read_frame = _reader_part("vision.read", "read_frame")
    config = _reader_part("vision.config", "ReadConfig")()

    def read(image: Image, corners: Corners | None, camera: CameraCalibration | None) -> Reading:
        calibrated = config if camera is None else camera.applied_to(config)
        return cast(Reading, read_frame(image, calibrated, corners))

    return read


def load_dice_finder() -> DiceFinder:
    """``vision.dice.find_dice`` with the dice part of the default ``ReadConfig``."""
    find_dice = _reader_part("vision.dice", "find_dice")
    config = _reader_part("vision.config", "ReadConfig")().dice

    def find(image: Image) -> Sequence[DieLike]:
        return cast(Sequence[DieLike], find_dice(image, config))

    return find


def frame_has_errors(score: FrameScore) -> bool:
    """Whether a frame's reading differs from its label in anything scored."""
    return bool(
        score.abstained
        or score.readable > score.boards_exact
        or score.point_uncertain
        or score.false_boards
        or score.occluded_frames > score.occluded_found
        or score.occluded_false
        or score.dice_missed
        or score.dice_extra
        or score.dice > score.dice_value_right
        or score.dice > score.dice_zone_right
        or score.cocked_true > score.cocked_right
        or score.cocked_predicted > score.cocked_right
        or score.cubes > score.cubes_right
    )


# A frame none of whose dice is hard to see: none blurred (the lens or motion), of another make
# (coloured pips, marbled), translucent or cocked. Its row of the variation table shows the
# reader on dice a camera shows plainly, apart from those whose pips the frame may not hold
# (a die is 16 to 22 pixels a side at 1280x720).
PLAIN_DICE = "plain-dice"
HARD_DICE_TAGS = frozenset({"blur", "motion-blur", "fancy-dice", "translucent-dice", "cocked"})


def variations(tags: Sequence[str]) -> tuple[str, ...]:
    """A frame's variation tags, and ``PLAIN_DICE`` where it has none of ``HARD_DICE_TAGS``."""
    return (*tags, PLAIN_DICE) if HARD_DICE_TAGS.isdisjoint(tags) else tuple(tags)


def evaluate_synthetic(
    frames: Iterable[tuple[Image, Reading, Sequence[str], CameraCalibration | None]],
    read: FrameReader,
    clock: Clock = time.perf_counter,
    match_px: float = DEFAULT_MATCH_PX,
    label_corners: bool = False,
    on_frame: FrameHook | None = None,
) -> tuple[Summary, dict[str, Summary]]:
    """Read every (image, label, tags, camera calibration) frame, timing each read.

    With ``label_corners`` the reader is given the labelled corners (scoring counting and dice
    apart from finding the board); it is given each frame's camera calibration where not None
    (a calibrated camera). ``on_frame(index, image, label, reading, score)`` is called after each
    frame. Returns the summary of all frames and one summary per variation (``variations``).
    """
    scores: list[FrameScore] = []
    times: list[float] = []
    tagged: dict[str, tuple[list[FrameScore], list[float]]] = {}
    for index, (image, label, tags, camera) in enumerate(frames):
        corners = label.board.corners if label_corners else None
        start = clock()
        predicted = read(image, corners, camera)
        elapsed = (clock() - start) * 1000.0
        score = score_frame(label, predicted, match_px)
        if on_frame is not None:
            on_frame(index, image, label, predicted, score)
        scores.append(score)
        times.append(elapsed)
        for tag in variations(tags):
            bucket = tagged.setdefault(tag, ([], []))
            bucket[0].append(score)
            bucket[1].append(elapsed)
    by_tag = {tag: summarise(s, t) for tag, (s, t) in sorted(tagged.items())}
    return summarise(scores, times), by_tag


TAG_COLUMNS = (
    "frames",
    "boards_exact_pct",
    "point_error_pct",
    "boards_confidently_wrong_pct",
    "abstained_pct",
    "dice_value_pct",
    "dice_zone_pct",
    "cocked_recall_pct",
)


def format_tag_table(by_tag: dict[str, Summary]) -> str:
    """One line per variation tag with its main figures (``-`` where nothing was scored)."""
    names = (c.removesuffix("_pct").replace("boards_confidently_", "boards_") for c in TAG_COLUMNS)
    header = f"  {'variation':<26}" + "".join(f"{name:>15}" for name in names)
    lines = [header]
    for tag, summary in by_tag.items():
        figures = summary.figures()
        cells = []
        for column in TAG_COLUMNS:
            value = figures[column]
            cells.append(
                f"{'-':>15}"
                if value is None
                else f"{value:>15}"
                if isinstance(value, int)
                else f"{value:>15.3f}"
            )
        lines.append(f"  {tag:<26}" + "".join(cells))
    return "\n".join(lines)


def load_dice_photo_labels(
    folder: Path,
) -> list[tuple[Path, list[tuple[int, tuple[float, float, float, float]]]]]:
    """The photos of ``folder/labels.json`` with their labelled dice (value, box).

    Raises ``ValueError`` naming the bad entry.
    """
    data = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError("labels.json: expected a list of photos")
    photos = []
    for index, entry in enumerate(data):
        try:
            boxes = [
                (
                    int(d["value"]),
                    (
                        float(d["box"][0]),
                        float(d["box"][1]),
                        float(d["box"][2]),
                        float(d["box"][3]),
                    ),
                )
                for d in entry["dice"]
            ]
            photos.append((folder / "images" / str(entry["image"]), boxes))
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ValueError(f"labels.json[{index}]: {error!r}") from error
    return photos


def evaluate_dice_photos(
    folder: Path, find: DiceFinder, clock: Clock = time.perf_counter, limit: int | None = None
) -> dict[str, float | int | None]:
    """Find the dice in each labelled photo of ``folder`` and score them."""
    total = DicePhotoScore()
    times: list[float] = []
    for path, boxes in load_dice_photo_labels(folder)[:limit]:
        loaded = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if loaded is None:
            raise ValueError(f"{path}: not a readable image")
        image = np.asarray(loaded, dtype=np.uint8)
        start = clock()
        found = find(image)
        times.append((clock() - start) * 1000.0)
        total = total + score_dice_photo(boxes, found)
    return dice_photo_figures(total, times)
