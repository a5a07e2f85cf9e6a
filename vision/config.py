"""Thresholds of the frame reader, in one typed, frozen configuration.

Lengths are in pixels of the input frame unless the name says otherwise; colour distances are
Euclidean distances in OpenCV's 8-bit CIE Lab space (L, a and b each scaled to 0..255).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DiceConfig:
    """Finding dice and the cube and reading them (vision.dice, its two trained networks)."""

    # The expected side of a die's top face in the frame (pixels; ``vision.read`` sets it from
    # the board's size), None where it is not known (no board found).
    die_side_px: float | None = None
    # The frame is shrunk for the detector so an expected die is this many pixels wide (it was
    # trained on dice 3.5..10 px wide); without an expected size, by this factor (rendered
    # 1280x720 frames show 15-25 px dice, the real photos 30-45 px: 4-11 px at 0.25).
    detect_die_px: float = 5.0
    no_board_scale: float = 0.25
    # Detector peaks at least this probable are read, at most this many (strongest first).
    # (Tuning seeds 500,000..500,039, true corners: 0.2 finds 116 of 116 dice and cubes with 7.8
    # false peaks a frame, 0.25 finds 115 with 4.4; the photos hold up to 25 dice, and 12
    # candidates missed 14% of the even photos' dice against 5% with 32.)
    min_peak: float = 0.22
    max_candidates: int = 32
    # The reader's crop is this many times the candidate's size wide (side faces of a cocked
    # die show within it).
    crop_share: float = 1.8
    # Candidates the reader gives at least ``screen_probability`` of being a die or the cube are
    # read again where it placed them; then a candidate is a die (or the cube) when the reader
    # gives it at least ``min_object_probability``; of two found within this share of a side
    # the likelier is kept. (Reading again only those the first reading placed over 0.1 of a
    # side off centre read 80.4% of tuning seeds 500,000..500,029's dice right against 82.1%,
    # the even photos 68.5% against 69.4%, and saved no measurable time on the frames.)
    screen_probability: float = 0.2
    min_object_probability: float = 0.5
    duplicate_share: float = 0.6
    # A value is read when its class has at least this share of the object's probability,
    # otherwise the value is None (abstain). (The shipped reader on tuning seeds
    # 500,000..500,029, true corners, 56 dice: 0.75 and 0.8 read 82.1% right and 3.6% wrong,
    # 0.85 80.4% / 1.8%, 0.9 71.4% / 1.8%; the even photos, 728 dice: 0.7 73.4% / 1.7%,
    # 0.8 69.4% / 1.0%, 0.9 62.9% / 0%.)
    min_value_probability: float = 0.8
    # A die is cocked when the reader gives it at least this probability of leaning (the same
    # frames, 22 cocked dice: 0.5 found 27% of them at 40% precision, 0.6 18% at 50%).
    min_cocked_probability: float = 0.6


@dataclass(frozen=True)
class BoardConfig:
    """Finding the playing surface and the bar (vision.board)."""

    # The board covers at least this share of the frame.
    min_board_share: float = 0.12
    # The board's four sides: Hough lines on Canny edges (these thresholds) at half the frame's
    # resolution, as long as this share of the frame's smaller side, within this angle of
    # horizontal or vertical.
    canny_low: int = 30
    canny_high: int = 90
    side_vote_share: float = 0.3
    max_side_tilt_deg: float = 30.0
    # The outer board is rectified to this height in pixels (width by its aspect).
    outer_height_px: int = 400
    # A straight board edge: the median colours of the columns (rows) this many pixels either
    # side of it differ by at least this Lab distance.
    step_reach_px: int = 2
    min_step: float = 12.0
    # Vertical edges are looked for in this band of rows (shares of the height), between the
    # two rows of points; the inner frame edges lie between these shares of the height inside.
    middle_band: tuple[float, float] = (0.3, 0.7)
    min_frame_share: float = 0.015
    max_frame_share: float = 0.1
    # The playing surface: width over height within these bounds; the bar is this share of the
    # surface's width; the two halves are equally wide within this share.
    min_aspect: float = 0.95
    max_aspect: float = 1.55
    min_bar_share: float = 0.04
    max_bar_share: float = 0.18
    max_half_mismatch: float = 0.06
    # The rectified playing surface (canonical top-down board), pixels.
    canonical_width: int = 540
    canonical_height: int = 420
    # Snapping a found outline to the frame's edges: each end of a side moves up to this far,
    # the colour compared this far either side of it, at this many places along it.
    snap_reach_px: int = 8
    snap_gap_px: float = 2.0
    snap_samples: int = 48
    # A located board has moved (``board_moved``) when a corner snaps more than this far from
    # where it snapped when located.
    max_shift_px: float = 3.0
    # Outlines tried: the strongest boxes of straight edges, with their strongest bars.
    max_boxes: int = 3
    max_bars: int = 4
    # Where the bar shows no straight edge it is centred, one of these shares of the width.
    bar_shares: tuple[float, ...] = (0.07, 0.09, 0.11, 0.13)
    # Checking an outline: the surface rectified to this small size; points reach this share of
    # its height and fill this share of their column at the base; the outline is a board when
    # the points explain at least this share of the colour variance (``pattern_score``).
    score_width: int = 156
    score_height: int = 120
    point_length_share: float = 0.39
    min_pattern_score: float = 0.3
    # ArUco fallback: dictionary name and the ids of markers at the TL, TR, BR, BL corners.
    aruco_dictionary: str = "DICT_4X4_50"
    aruco_ids: tuple[int, int, int, int] = (0, 1, 2, 3)


@dataclass(frozen=True)
class CheckerConfig:
    """Finding checkers on the canonical board (vision.checkers)."""

    # The playing surface's height in slot spacings (checker centre to centre along a point):
    # boards differ (11 to 12.3 measured on the rendered ones), so the reader tries each of
    # ``slot_candidates`` and keeps the one its slot model explains best (``height_in_slots`` is
    # the one in use).
    height_in_slots: float = 11.8
    slot_candidates: tuple[float, ...] = (11.0, 11.4, 11.8, 12.2)
    # The measure is kept for a located board once this many checkers were seen beyond the
    # second of their row (where a wrong spacing shows).
    min_slot_rows: int = 6
    # Each slot spacing is resampled to this many pixels (even); a patch is one spacing square.
    patch: int = 12
    # Context: this many pixels before and after a slot along the strip, and this share of a
    # point's width across it.
    context: int = 3
    across_share: float = 1.25
    # Row lengths within this log-odds of the most likely one are left open (a count range).
    # (Tuning frames 500,000..500,199, true corners: 2.0 leaves 7.1% of points a range and
    # 1.83% confidently wrong; 3.0 leaves 10.8% a range, 1.30% confidently wrong, and far
    # fewer boards exactly right.)
    row_margin: float = 2.0
    # A checker is centred at a place when the slot model says so with at least this probability.
    min_probability: float = 0.5
    # A checker's colour is the mean over the middle of its patch, this share of its side; the
    # two colours are told apart with the lightness weighted by this (glare and shadows move it
    # most; tuning frames 500,000..500,199 with true corners: 0.3 made 156 point errors, 1.0
    # made 158, 79 and 82 of them confident).
    inner_share: float = 0.5
    lightness_weight: float = 0.3


@dataclass(frozen=True)
class MotionConfig:
    """Telling a settled scene from hands or motion over the board (vision.motion)."""

    # Frames are compared at this width (pixels), in grey, after a light blur.
    compare_width: int = 320
    # A pixel changed when its grey level moved by more than this; the scene moves when more
    # than this share of the board's pixels changed between two frames.
    changed_level: float = 18.0
    max_changed_share: float = 0.004
    # A hand or arm: a skin-coloured region (YCrCb bounds) touching the frame's edge, covering at
    # least this share of the board, and at most this share of the frame (not the table).
    skin_cr: tuple[int, int] = (135, 180)
    skin_cb: tuple[int, int] = (85, 135)
    min_hand_share: float = 0.01
    max_hand_share: float = 0.3


@dataclass(frozen=True)
class ReadConfig:
    """Everything the frame reader needs."""

    dice: DiceConfig = field(default_factory=DiceConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    checkers: CheckerConfig = field(default_factory=CheckerConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    # A die's side is about this share of the playing surface's width (rendered boards: dice
    # 15-19 mm on 490-560 mm surfaces; the dice finder shrinks the frame by it).
    die_share: float = 0.03
