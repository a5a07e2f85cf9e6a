"""Thresholds of the frame reader, in one typed, frozen configuration.

Lengths are in pixels of the input frame unless the name says otherwise; colour distances are
Euclidean distances in OpenCV's 8-bit CIE Lab space (L, a and b each scaled to 0..255).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DiceConfig:
    """Finding dice and reading their pips (vision.dice)."""

    # Background model: a median of the frame shrunk by this factor, over a window this wide
    # (frame pixels; several dice wide).
    background_shrink: int = 8
    background_window_px: float = 120.0
    # Dice are found in the frame shrunk by this factor (then read at full resolution).
    detect_shrink: int = 1
    # A pixel is foreground (die) when its Lab distance from the background exceeds this.
    foreground_distance: float = 28.0
    # Accepted die sizes: the side of the square of equal area, in pixels.
    min_side_px: float = 18.0
    max_side_px: float = 80.0
    # A single die fills at least this share of its minimum-area rectangle.
    min_fill: float = 0.72
    max_aspect: float = 1.6
    # Touching dice are split at seeds this share of a die's side away from the cluster's edge.
    split_seed_share: float = 0.42
    # Each die is read at this side length (pixels), whatever its size in the frame.
    read_side_px: float = 64.0
    # Pip strength: Lab distance of a pixel from the median colour in a window of one of these
    # shares of the die's side (0: the whole die; readings that disagree abstain; adding 0.0
    # measured 49.4% right / 2.1% wrong on the held-out photos against 44.8% / 1.2%), ignored
    # within ``pip_margin_share`` of the side from the die's outline; pips are about
    # ``pip_radius_share`` of the side in radius.
    pip_context_shares: tuple[float, ...] = (0.45,)
    pip_margin_share: float = 0.06
    pip_radius_share: float = 0.08
    # Pips: blobs of the pip strength at least this share of the side inside the die and at
    # least this share of the strongest pip's strength.
    pip_min_edge_share: float = 0.15
    pip_min_relative_strength: float = 0.55
    # A face layout fits when the pips' centroid is within a share of the side from the die's
    # centre, its root-mean-square residual is at most this share of the pip
    # spacing, and the spacing is within these shares of the die's side.
    layout_max_residual: float = 0.3
    layout_max_offset_share: float = 0.22
    # An empty place of the fitted face is at most this share of the faintest pip's strength.
    empty_max_share: float = 0.5
    pip_min_spacing_share: float = 0.15
    pip_max_spacing_share: float = 0.45
    # Cocked: the top face's rectangle is this much longer than wide.
    cocked_max_aspect: float = 1.25
    # Texture (``texture_mask``): the grey level's 3x3 morphological gradient averaged over this
    # share of the smallest die's side is above this level.
    texture_window_share: float = 0.39
    texture_level: float = 12.0
    # Candidates (``mask_peaks``): local maxima of a mask's distance transform within this share
    # of the smallest die's side, at least this share of it deep, at most this share of the
    # largest die's side; peaks of the two masks within ``merge_share`` of it are one.
    peak_window_share: float = 0.28
    min_radius_share: float = 0.39
    max_radius_share: float = 0.6
    merge_share: float = 0.22
    # A die's side (its axis-aligned box) is twice its candidate's depth over this share.
    radius_side_share: float = 0.78
    # The net (``vision.dice_net``): candidates read at least ``screen_die_probability`` a die
    # at first are read again in four turns; a candidate is a die at this probability; of two dice
    # within this share of a side the likelier is kept; a value is read when its face has this
    # share of the die's probability, otherwise the die abstains. Chosen on the even photos and
    # rendered tuning frames (0.5 gave 2.5x the false dice on boards for 0.5 points more read).
    min_die_probability: float = 0.8
    screen_die_probability: float = 0.2
    duplicate_share: float = 0.5
    min_value_probability: float = 0.9
    # Where the net is unsure, the pip reader's value counts when the net gives that face at
    # least this share; a die's outline is the one centred within this share of its side.
    pip_min_net_share: float = 0.1
    region_match_share: float = 0.3


@dataclass(frozen=True)
class BoardConfig:
    """Finding the playing surface and the bar (vision.board)."""

    # The playing surface covers at least this share of the frame (the renderer's smallest
    # board surface covers ~0.25).
    min_board_share: float = 0.08
    # The corner locator sees the frame shrunk to this size (width, height) and gives a heatmap
    # cell per this many of its pixels; a board is there when its presence logit is at least
    # this (on tuning frames true boards score above +5, frames without a board below -5).
    locator_size: tuple[int, int] = (256, 128)
    locator_stride: int = 8
    min_presence_logit: float = 0.0
    # The corner refiner reads a patch this many pixels square around each corner, one patch
    # pixel per frame pixel of a frame this wide (frame width / this, frame pixels per patch
    # pixel), this many times over.
    patch_px: int = 48
    patch_reference_width: int = 1280
    refine_steps: int = 2
    # Before it, the wide refiner reads patches this many times coarser (it catches corners the
    # locator put up to ~28 px off, twice the refiner's reach), this many times.
    wide_zoom: float = 2.0
    wide_steps: int = 1
    # ... and the refiner's logit that its patch shows such a corner is at least this for all
    # four corners after the last step.
    min_corner_logit: float = 0.0
    # Frames smaller than this (either side, pixels) show no board the networks can find.
    min_frame_px: int = 64
    # The bar net sees the surface rectified to this size (width, height); an edge's sub-column
    # place is its logits' softmax mean within this many columns of the peak.
    bar_input_size: tuple[int, int] = (256, 32)
    peak_reach: int = 3
    # A found outline is a board only if its bar's middle lies within this many canonical
    # pixels of the surface's (true outlines, the lens's bending included: within 0.8 on tuning
    # frames; a side on a tray's edge moves it 10 or more).
    max_bar_offset_px: float = 5.0
    # The rectified playing surface (canonical top-down board), pixels.
    canonical_width: int = 540
    canonical_height: int = 420
    # Snapping a located outline to the frame's edges (``board_moved``): each end of a side moves
    # up to this far, the colour compared this far either side of it, at this many places along.
    snap_reach_px: int = 8
    snap_gap_px: float = 2.0
    snap_samples: int = 48
    # A located board has moved (``board_moved``) when a corner snaps more than this far from
    # where it snapped when located.
    max_shift_px: float = 3.0
    # ArUco fallback: dictionary name and the ids of markers at the TL, TR, BR, BL corners.
    aruco_dictionary: str = "DICT_4X4_50"
    aruco_ids: tuple[int, int, int, int] = (0, 1, 2, 3)


@dataclass(frozen=True)
class CheckerConfig:
    """Reading checkers on the canonical board (vision.checkers)."""

    # Each column of points (and the bar) is resampled to this many pixels along the board's
    # full height and across: about 13 pixels per checker along a point on a 540 x 420
    # canonical board. The net is trained at this size (vision.training.train_checkers).
    crop_height: int = 160
    crop_width: int = 20
    # A column's crop is this share of the points' pitch wide (a little of the neighbours shows);
    # the bar's crop this share of the bar's width.
    across_share: float = 1.2
    bar_share: float = 1.0
    # A count is given when the net gives it at least this probability (and no hidden stack is
    # possible); otherwise ``min``/``max`` span the counts the net gives at least
    # ``min_range_probability``. A stack may hide checkers when the net gives it at least
    # ``min_hidden_probability``. (Tuning frames 300,000..300,199, labelled corners, bar found:
    # 0.98 read 55% of boards exactly with 0.023% of points confidently wrong, 0.9 68% with
    # 0.047%, 0.8 75% with 0.117%; a hidden threshold of 0.05 or 0.1 made more confident errors
    # for no more boards exact.)
    min_count_probability: float = 0.9
    min_range_probability: float = 0.005
    min_hidden_probability: float = 0.02
    # A checker's colour is the mean over a disc of this share of a point's pitch at the
    # checker nearest the point's edge; the board's two checker colours are told apart with
    # the lightness weighted by this (glare and shadows move it most).
    colour_disc_share: float = 0.4
    lightness_weight: float = 0.3
    # The first checker's centre lies this share of the surface's height from its edge (half a
    # checker: surfaces are 11.2 to 12.4 checkers high).
    first_checker_share: float = 0.042
    # The net's colour is kept, whatever the board's colour clusters say, when P(light) is at
    # least this far from 0.5.
    colour_trust: float = 0.4


@dataclass(frozen=True)
class MotionConfig:
    """Telling a settled scene from hands or motion over the board (vision.motion)."""

    # Frames are compared at this width (pixels), in grey, after a light blur.
    compare_width: int = 320
    # A pixel changed when its grey level moved by more than this; the scene moves when more
    # than this share of the board's pixels changed between two frames.
    changed_level: float = 18.0
    max_changed_share: float = 0.004
    # A hand or arm: cells the hand segmenter gives at least this probability, covering at least
    # this share of the board (chosen on held-back tuning frames, see train_hands).
    hand_probability: float = 0.5
    min_hand_share: float = 0.01


@dataclass(frozen=True)
class ReadConfig:
    """Everything the frame reader needs."""

    dice: DiceConfig = field(default_factory=DiceConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    checkers: CheckerConfig = field(default_factory=CheckerConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    # Scaling the dice finder to the board: a die's side is this share of the playing surface's
    # width; dice from ``die_min_share`` to ``die_max_share`` of that are accepted; the
    # background window is ``die_window_share`` dice wide, shrunk one step per this many pixels
    # of a die.
    die_share: float = 0.03
    die_min_share: float = 0.6
    die_max_share: float = 1.6
    die_window_share: float = 4.0
    die_px_per_shrink: float = 3.0
    # ... and found in the frame shrunk one step per this many pixels of a die.
    die_px_per_detect_shrink: float = 9.0
