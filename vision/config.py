"""Thresholds of the frame reader, in one typed, frozen configuration.

Lengths are in pixels of the input frame unless the name says otherwise; colour distances are
Euclidean distances in OpenCV's 8-bit CIE Lab space (L, a and b each scaled to 0..255).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class DiceConfig:
    """Finding dice and the cube and reading them (vision.dice, its three trained networks)."""

    # The expected side of a die's top face in the frame (pixels; ``vision.read`` sets it from
    # the board's size), None where it is not known (no board found).
    die_side_px: float | None = None
    # The frame is shrunk for the detector so an expected die is this many pixels wide (it was
    # trained on dice 3.5..10 px wide); without an expected size, by this factor (rendered
    # 1280x720 frames show 15-25 px dice, the real photos 30-45 px: 4-11 px at 0.25). (7, so
    # that two dice lying against each other fall in two cells, with the networks before
    # 2026-12-05's: tuning seeds 650,000.. to 671,999, 7,420 dice, missed 66 -> 61 but false
    # dice 59 -> 187; it would need the networks retrained at that scale.)
    detect_die_px: float = 5.0
    # Two dice lying against each other often make one peak at ``detect_die_px``: around each
    # peak at least ``min_peak`` likely, the detector looks again in a window ``fine_window``
    # of its pixels square, the frame shrunk so a die is about ``fine_detect_die_px`` wide
    # (``vision.dice.finer_peaks``; None: no second look). A finer peak ``fine_apart_share``
    # of the expected side or more from every coarse one is a candidate, screened and kept as
    # a weak peak is, after every other die but a large one read without a value (two dice
    # seen as one: ``vision.dice._rank``) and only ``fine_duplicate_share`` of a side or
    # more from each; one that lies near another die and is ``finer_side_face_probability``
    # likely to lean is that die's side face seen off its centre (``vision.dice.
    # side_faces_dropped``). (Tuning seeds 650,000.. to 671,999, labelled corners, calibrated
    # cameras, 7,420 dice: without it 94.07% right, 54 wrong, 66 missed, 48 false dice,
    # cocked found 97.0% at 98.3%; with it 94.25%, 53, 54, 48, 97.2% at 98.3%, 0.6 ms a
    # frame; and kept before a large die read without a value, 94.35%, 54, 52, 48 (8 dice
    # read right more, among them both of a pair seen as one, and a leaning 3 read as a 5).
    # Its dice ranked with the others by probability instead of after them: 94.35%,
    # 57 wrong, 52 missed, and without the side-face test 58 false dice; before every die
    # read without a value, large or not: 94.38%, 56 wrong, 52 missed, and with a cocked
    # one's value withheld 94.31%, 54 wrong: a leaning die found finer is often read by a
    # side face. 7 px, half an octave finer rather than a whole one: 56 missed;
    # ``fine_duplicate_share`` 0.8: 58 missed; ``fine_apart_share`` 0.2: one more wrong. The
    # whole frame looked at finer instead of windows: the same dice, 4 ms a frame. A large
    # die read with a value gives way to two finer dice lying ``side_face_share`` of a side
    # apart within its side (``vision.dice._split_finer``): tuning 94.88% -> 94.91% right,
    # missed 52 -> 50, wrong 37 as before; seeds 680,000..683,999 94.45% -> 94.47%, missed
    # 39 -> 37, wrong 48 as before. Every candidate 1.35 sides or larger read as a die ranked
    # after the finer dice instead: tuning 94.85%, 38 wrong (a leaning die's faces found
    # apart); 1.5: 94.89%, 37.)
    fine_detect_die_px: float | None = 8.0
    fine_window: int = 40
    fine_apart_share: float = 0.3
    fine_duplicate_share: float = 0.6
    no_board_scale: float = 0.25
    # Detector peaks at least this probable are read, at most this many (strongest first).
    # (Tuning seeds 500,000..500,039, true corners: 0.2 finds 116 of 116 dice and cubes with 7.8
    # false peaks a frame, 0.25 finds 115 with 4.4; the photos hold up to 25 dice, and 12
    # candidates missed 14% of the even photos' dice against 5% with 32. Tuning seeds
    # 650,000..650,999, labelled corners, 1,873 dice, with ``cube_gap_share``: 0.22 missed 43
    # dice and found 28 false ones (19 with a value), 0.15 missed 23 and found 34 (23), 0.1
    # missed 20; dice read wrong 0.43% throughout. Many false dice are checkers standing in a
    # tray, their stripes read as a 6. The detector shipped now, deeper, is surer of its
    # peaks: on 650,000..650,999, 1,864 dice, 0.15 read 93.24% right, missed 14 dice and found
    # 34 false ones (8 with a value), 0.2 93.19%, 14, 29 (8), 0.25 93.03%, 17, 14 (6), 0.35
    # 92.17%, 34, 10 (5); on 660,000..660,999 0.25 94.50%, 20, 13 (7); the real photos at 0.25
    # 97.24% right, 6 missed, 5 false.)
    min_peak: float = 0.25
    # A peak below ``min_peak`` but at least ``weak_peak`` probable is a candidate too, kept
    # only where the reader reads a die there whose value has ``weak_value_probability`` of its
    # probability (``vision.dice._kept``): a die lying against another, which the detector is
    # unsure of, is found where the reader is sure of it. (Tuning seeds 650,000..650,999 and
    # 660,000..660,999, labelled corners, 3,756 dice: without 93.77% right, 29 wrong, 37
    # missed, 26 false dice (12 with a value); 0.1 with values at 0.8 94.09%, 28, 28, 34 (20);
    # at 0.95 94.01%, 28, 30, 29 (15); at 0.98 94.01%, 28, 30, 27 (13); 0.05 at 0.98 as 0.1.
    # Asking 0.98 of a peak outshone too lost as many dice as the weak peaks found.) The
    # reader reads a weak peak only where the screen gives it ``weak_screen_probability`` of
    # being a die or the cube: 14 weak peaks a frame there, 0.8 of them screened at
    # ``screen_probability``, 0.1 at 0.9, which every die the weak peaks found passes. (Weak
    # peaks below 0.15 lying over two expected sides from every peak above ``min_peak``, 9 of
    # 16 weak peaks a frame, left unscreened, 2026-12-07: 1 to 1.5 ms a frame sooner and the
    # same on seeds 650,000..650,999 to 680,000..680,999, but seeds 651,000..651,999 to
    # 681,000..681,999 missed 3 dice more: lone faint dice, 8 to 11 sides from any peak.)
    weak_peak: float = 0.1
    weak_screen_probability: float = 0.9
    # (With the dice networks of 2026-12-05, tuning seeds 650,000.. to 671,999, 7,420 dice:
    # 0.9 missed 66 -> 65 and false dice 48 -> 53.)
    weak_value_probability: float = 0.98
    # A die read without a value from a peak below ``unread_peak`` is kept only where the
    # reader gives it at least ``unread_die_probability`` of being a die (``vision.dice.
    # _faint_unread``): the gap between four checkers is read so, and a third die voids a roll
    # (found in play, ``scripts/evaluate_play``). (Tuning seeds 650,000..650,999 and
    # 660,000..660,999, labelled corners, calibrated, frames without a hand, 3,743 dice found:
    # of 13 false dice 9 had no value, all of them peaks 0.25 to 0.34 probable read 0.50 to
    # 0.81 a die; of 116 dice without a value only 10 were read less than 0.85 a die, and one
    # of those (0.81) came from a peak below 0.36. Looked at after, seeds 670,000..671,999: 9
    # of 14 false dice without a value dropped, one die lost.)
    unread_peak: float = 0.36
    unread_die_probability: float = 0.85
    # A candidate not kept for want of a value (a weak peak, one outshone, a faint one) that
    # the reader gives at least ``paired_die_probability`` of being a die, and that lies
    # ``paired_die_shares`` of the expected side from the nearest die kept, is a die lying
    # against it, kept without a value unless read with one (``vision.dice.beside_dice``):
    # two dice lying flat lie a side apart or more (1.41 corner to corner), and the pips of
    # the one beside it, in its crop, leave the reader unsure of its value. Where a leaning
    # die's side face or a die's own edge is found, it lies nearer. (Tuning seeds
    # 650,000..651,999 and 660,000..661,999, labelled corners, calibrated, frames without a
    # hand: of such candidates read at least 0.9 a die, every one on no die lay 0.70 to 1.03
    # of the expected side from the nearest die kept; the dice missed so, 1.02 to 1.58. There
    # dice missed 23 and 25 -> 20 and 23, none more read wrong or false (one read again on
    # the expected side took a wrong value: ``values_checked`` leaves such dice unread).
    # Looked at after, seeds 670,000..671,999 and 680,000..681,999: missed 24 and 21 -> 21
    # and 19, none more wrong; a leaning die's side face 1.1 sides off its top, taken so, is
    # dropped as one (``side_faces_dropped``).)
    paired_die_probability: float = 0.9
    paired_die_shares: tuple[float, float] = (1.05, 1.6)
    max_candidates: int = 32
    # Of two peaks whose decoded centres lie within this share of their sides, only the
    # stronger is a candidate; a peak outshone by a neighbouring cell is kept only where the
    # reader reads a die with a value there (see ``vision.dice.peaks``). (Tuning seeds 600,000+,
    # true corners: 129 frames whose second die lies against the first, 274 dice: read right
    # 63.1% with a 3x3 window of cells, 79.2% so; 300 frames, 532 dice: 92.1% and 92.3%, 8
    # and 9 false dice; a peak outshone kept whatever the reader says: 79.2% and 92.3%, but
    # 20 false dice, most of them a leaning die's side face.)
    peak_spacing_share: float = 0.6
    # The screen's crop is this many times the candidate's size wide (side faces of a cocked
    # die show within it), the reader's ``reader_share`` times: tighter, so a die's pips keep
    # more of the crop's pixels where dice are large (a die turned 45 degrees is 1.41 sides
    # wide). (The reader trained at 1.5 against 1.8, the same frames, from scratch: tuning
    # seeds 650,000..650,999, labelled corners, 2,004 dice, read right 89.7% -> 90.7%, wrong
    # 0.75% -> 1.07% (0.75% at a value threshold of 0.85); the real photos, 1,487 dice, whose
    # dice are 30-45 pixels wide, 94.0% -> 96.0%.)
    crop_share: float = 1.8
    reader_share: float = 1.5
    # Candidates the screen gives at least ``screen_probability`` of being a die or the cube are
    # read by the reader where the screen placed them; then a candidate is a die (or the cube)
    # when the reader gives it at least ``min_object_probability``; of two found within this
    # share of a side the likelier is kept. (Tuning seeds 650,000..650,999 and
    # 660,000..660,999, labelled corners, frames without a hand, 3,756 dice: 0.2 missed 77 and
    # read 3,451 right; 0.1 missed 70 and read 3,455 right, none more wrong or false, the real
    # photos alike, 0.6 ms more a frame; on 650,000.. 0.05 missed no fewer than 0.1 and found 2
    # more false dice.)
    screen_probability: float = 0.1
    min_object_probability: float = 0.5
    duplicate_share: float = 0.6
    # A peak at least ``unscreened_peak`` likely that the screen does not pass is read too and
    # kept only as a die the reader gives ``unscreened_die_probability`` (and more than the
    # cube) and whose value it gives ``unscreened_value_probability`` (``vision.dice.
    # locate_solids``). (Tuning seeds 650,000..651,999, 660,000..660,999 and
    # 670,000..670,999, labelled corners, calibrated: 384 such peaks at 0.5, 0.1 a frame; of
    # the dice missed, 3 read so and no place without a die; face at 0.8: 5 and 1; peaks at
    # 0.4: 3 and 2 (0.85), 5 and 5 (0.8); peaks at 0.3: 3 and 6. Read through, seeds
    # 650,000..651,999, 660,000..661,999 and 670,000..671,999, 11,100 dice: missed 83 -> 80,
    # false dice 26 as before, 3 more read right, none more wrong.)
    unscreened_peak: float = 0.5
    unscreened_die_probability: float = 0.3
    unscreened_value_probability: float = 0.85
    # A die found nearer the cube than this share of their two half sides is the cube's side
    # face or edge, and dropped: two squares lying flat cannot come closer. (Tuning seeds
    # 650,000..650,999, labelled corners, min_peak 0.22: false dice 34 without, 28 at 1.0, 26 at
    # 1.2 and 1.4; no die lost.)
    cube_gap_share: float = 1.0
    # Where no cube is found on a board, the die the reader gives the most cube probability is
    # the cube if that is at least this (``vision.dice.cube_or_die``). (Tuning seeds 650,000..
    # 650,999 and 660,000..660,999, labelled corners: false dice 25 -> 21 and 16 -> 12, no die
    # lost or read otherwise, cube values right 93.16% and 94.01% -> 93.16% and 94.13%; on the
    # reader's candidates there, 0.1 would have taken a die read right for the cube.)
    cube_fallback_probability: float = 0.2
    # ... and, away from the cube's home, found at least this share of the expected side: the
    # cube is larger than a die (rendered dice 15-19 mm, cubes 20-27 mm, on surfaces whose
    # expected side, ``ReadConfig.die_share``, is 14.7-16.8 mm: dice 0.9-1.29 of it, cubes
    # 1.19-1.84; tournament dice 16-19 mm, cubes 20-25 mm). (Tuning seeds 650,000..651,999,
    # 660,000..661,999, 670,000..671,999 and 680,000..681,999, labelled corners, calibrated:
    # of the dice taken for the cube away from its home, the 12 cubes were found 1.22 to 2.1
    # of the expected side, the 3 dice, each a 1 in a frame without a cube, 0.73, 0.75 and
    # 1.09.)
    cube_fallback_side_share: float = 1.1
    # There is one cube a game: a place read as the cube away from the likeliest (not one of
    # its faces: ``cube_face_share``) that the reader gives at least this probability of being
    # a die is a die (``vision.dice.locate_solids``), not dropped. (Tuning seeds
    # 650,000..651,999 and 660,000..661,999, labelled corners, calibrated, 7,436 dice: dice
    # missed 25 and 27 -> 24 and 26, both read right (a dark 2 the reader gave 0.40 a die and
    # 0.53 the cube, a 1); no die more wrong or false; 0.1 found the same.)
    other_cube_die_probability: float = 0.3
    # A centred cube lies on the middle of the bar (``cube_home``, frame pixels; ``vision.read``
    # sets it from the board). Where no cube is found, a die within ``cube_home_sides``
    # expected sides of it is the cube if the reader gives it at least
    # ``cube_home_probability`` (``vision.dice.cube_or_die``): a die seldom comes to rest
    # there, and one that does is void (MSO 4.2, JBL 4.1.4). (Tuning seeds 650,000..650,999,
    # 660,000..660,999, 670,000..671,999 and 680,000..680,999, labelled corners, calibrated:
    # 913 dice offered to ``cube_or_die``, 13 of them within 1.5 sides of the board's middle:
    # one cube, at 0.13, and 12 dice, none above 0.003. Rendered play table 2,000,009's cube
    # under glare: 0.18, read as a third die at every opening roll.)
    cube_home: tuple[float, float] | None = None
    cube_home_sides: float = 1.5
    cube_home_probability: float = 0.05
    # Places read as the cube within this share of a side of the likeliest are the one cube's
    # top and side faces; the top is the one farthest from the nadir (``vision.dice.
    # top_face_of``). (Tuning seeds 650,000..650,999, 660,000..660,999, 670,000..671,999,
    # labelled corners, 3,267 cubes, the dice networks of 2026-12-05: without it 95.35% read
    # right and 7 wrong, 4 of them a side face's value; with it 95.47% and 3, as the networks
    # before read 3.)
    cube_face_share: float = 1.5
    # The reader reads each screened candidate this many times, turned by a quarter turn more
    # each time, and averages (tuning seeds 600,000..600,299, true corners, 532 dice, values at
    # 0.8: once 92.1% right, 0.56% wrong, cocked precision 85% at 0.8; four turns 92.1% right,
    # 0.19% wrong, precision 95%; 5 ms more a frame).
    reader_turns: int = 4
    # ... but a candidate whose likeliest class the reader gives at least ``reader_sure`` read
    # once is read only once (the plain dice, and plain board). (Tuning seeds 650,000..650,999,
    # labelled corners, 1,873 dice: every candidate turned 91.56% right, 0.53% wrong, 31 false
    # dice; 0.99 and 0.98 the same; 0.95 91.62%, 0.53%, 29; 0.9 91.83%, 0.64%. The real photos,
    # 1,487 dice: 97.18% right, 0.54% wrong turned, 97.38% and 0.54% at 0.99, 97.65% and 0.54%
    # at 0.95. The reader read 18.6 crops a frame, 10.9 at 0.95: 2.3 ms less a frame.)
    reader_sure: float = 0.95
    # A value is read when its class has at least this share of the object's probability,
    # otherwise the value is None (abstain). (The same frames, four turns: 0.7 read 93.4% right
    # and 0.38% wrong, 0.8 92.1% / 0.19%, 0.9 89.3% / 0.19%; the even photos, 728 dice: 0.7
    # 91.2% / 0%, 0.8 89.7% / 0%, 0.9 87.1% / 0%. The reader shipped before, tuning seeds
    # 650,000..650,999, labelled corners, 2,004 dice: 0.7 91.6% / 0.85%, 0.75 90.9% / 0.64%,
    # 0.8 90.2% / 0.48%; the real photos, 1,487 dice: 0.7 97.4% / 0.61%, 0.75 96.8% / 0.54%,
    # 0.8 96.1% / 0.54%; shipped at 0.75. The reader shipped now (trained longer, and on noise),
    # the same frames: 0.75 91.4% / 0.59%, 0.8 90.8% / 0.48%; the photos: 0.7 97.9% / 0.61%,
    # 0.75 97.5% / 0.61%, 0.8 97.1% / 0.54%: at 0.8 the photos read right as the issue asks,
    # as few wrong as with the reader before at 0.75 (8 dice; on the held-out half 8 against
    # 7), and fewer wrong on the frames.)
    min_value_probability: float = 0.8
    # A die whose value the reader is unsure of is read again on crops of its side times each
    # of these scales, and the readings averaged. (Tuning seeds 650,000..650,999, labelled
    # corners, 1,873 dice: none 92.10% right, 0.43% wrong; 0.85 and 1.15 92.53% and 0.43%;
    # 0.8, 0.9, 1.1 and 1.2 92.58% and 0.43% at twice the cost; 0.75 and 1.25 92.47% and 0.48%.
    # The real photos, 1,487 dice: 4 more read right, none more wrong.)
    reread_scales: tuple[float, ...] = (0.85, 1.15)
    # A die the reader is unsure of is also read by the reader trained on motion-blurred crops
    # too (``vision.dice.MOTION_READER``): its value is the likeliest of the faces as the two
    # share them out, the motion reader weighing this many times the reader (0: not read).
    # (Tuning seeds 650,000..650,999, labelled corners, 1,873 dice: without it 90.76% right,
    # 0.48% wrong; 1: 91.19%, 0.48%; 1.5: 91.56%, 0.53%; 2: 91.78%, 0.59%; 3: 91.78%, 0.64%;
    # the motion reader alone 91.67%, 0.43%. The real photos, 1,487 dice: without it 97.11%
    # right, 0.54% wrong; 1.5: 97.18%, 0.54%; the motion reader alone 96.50%, 0.54%.) Its
    # crops and ``reread_scales``' are each read ``reader_turns`` times. (Two turns instead,
    # 2026-12-07, 4.5 crops a frame fewer, about 1 ms: tuning seeds 650,000..650,999,
    # 660,000.., 670,000.. and 680,000..680,999, labelled corners, calibrated, 7,451 dice,
    # read 7,112 right against 7,110, 42 wrong against 43, missed 41 against 42, found 13
    # false against 12; 651,000..651,999, 661,000.., 671,000.. and 681,000..681,999, 7,332
    # dice, 6,991 right against 6,995, 39 wrong against 40, missed 40 against 41, 23 false
    # against 22: no better or worse; but the evaluation frames missed 2 dice more, so four.)
    motion_reader_weight: float = 1.5
    # Every die found is read again at its found centre on a crop of the expected side (where
    # the board gives it), not the detector's size, which strays for a blurred or marbled die
    # and moves the crop with it. A die read without a value takes the value read there at
    # ``min_value_probability``; a die read with a value that reading finds another face
    # likelier for is withheld (``vision.dice.values_checked``, after ``side_faces_dropped``,
    # which asks which dice were read). (Tuning seeds 650,000.., 660,000.., 670,000.. and
    # 671,000.., 1,000 each, labelled corners, calibrated, 7,420 dice: 94.92% right, 37 wrong,
    # 49 missed -> values taken only: 95.58%, 45 (flat dice 39 more right, 4 more wrong;
    # leaning 10 and 4); taken at 0.9: 95.27%, 40; taken at 0.8 and withheld: 95.51%, 39, 49
    # (before ``side_faces_dropped``: 95.50%, 39, 50); withheld only where the other face has
    # 0.6: 95.54%, 41; read on the detector's size at the found centre: 95.19%, 42; every die
    # read on the expected side from the first: 94.77%, 40, the cube 95.53% -> 94.31%. Looked
    # at after: seeds 680,000..683,999, 7,366 dice: 94.49% right, 48 wrong -> 95.23%, 42.)
    check_values: bool = True
    # A die is cocked when the judge of leaning dice (``vision.lean``) gives it at least this
    # probability; a die within ``pair_share`` of a side of another only at
    # ``pair_cocked_probability`` (a neighbour's side faces in the crop look like a lean).
    # Precision first: a flat die called cocked voids a valid roll, while a cocked die missed
    # and rolled again is the mover's roll (``kiosk.referee.turns``). (The judge shipped
    # 2026-12-05, its crops turned to the nadir the camera's principal point gives; the
    # renderer's cameras calibrated (``ReadConfig.principal_point``), labelled corners, pair
    # 0.99. Tuning seeds 650,000..650,999 and 660,000..660,999, 610 leaning dice: 0.5 finds
    # 98.0% of them at 98.0% precision, 0.6 97.5% at 98.3%, 0.7 97.0% at 98.8%, 0.8 96.1% at
    # 99.3%, 0.9 93.8% at 99.3%. Those frames chose every network before and flatter them:
    # at 0.5 the evaluation frames gave 96.7% at 94.6%. With seeds 670,000..671,999 too (1,161
    # leaning dice): 0.5 97.2% at 97.2%, 0.6 96.7% at 97.7%, 0.7 96.2% at 98.2%, 0.75 96.1% at
    # 98.3%, 0.8 95.0% at 98.7%; 0.7 keeps three points of precision over 95%, as the
    # evaluation frames ran up to 3.4 below. The judge before it (crops turned to a nadir the
    # frame's centre gave) read calibrated 95.1% at 98.8% at 0.7 on the first tuning frames.
    # Uncalibrated on the renderer's cameras, whose principal points lie up to 100 pixels off
    # the centre, the shipped judge calls more flat dice cocked: 93.7% at 89.4% on the
    # evaluation frames. tests/e2e's flat die against a checker by the frame is read flat.
    # With the dice networks trained on frames of leaning dice too (``vision.training.
    # train_dice``), on all 4,000 tuning frames: 0.5 97.8% at 97.0%, 0.55 97.5% at 97.6%, 0.6
    # 97.4% at 97.8%, 0.65 97.0% at 98.3%, 0.7 96.6% at 98.3%, 0.8 95.9% at 98.7%; 0.65 is the
    # lowest that keeps three points of precision over 95%, as 0.7 was before. With the finer
    # look (``fine_detect_die_px``) and the judge reading unsure dice at ``lean_extra_shares``
    # too: 0.5 98.3% at 97.5%, 0.55 98.0% at 97.9%, 0.6 97.7% at 98.4%, 0.65 97.6% at 98.5%,
    # 0.7 97.0% at 98.6%; so 0.6. With the cameras' focal lengths given too (``ReadConfig.
    # focal_length``), the nadir no longer strays with the focal length a found outline gives:
    # 0.4 98.4% at 98.2%, 0.45 98.2% at 98.4%, 0.5 98.1% at 98.6%, 0.55 97.8% at 98.8%, 0.6
    # 97.7% at 99.2%; so 0.5, the highest that finds 98%, over three points of precision above
    # 95% as 0.6 kept before. The 40 rendered play tables (``scripts.evaluate_play``) called one
    # flat die cocked more than at 0.6, against a wall, at 0.59.)
    min_cocked_probability: float = 0.5
    pair_cocked_probability: float = 0.99
    # A die in a half of the playing surface with nothing to lean on within this many expected
    # sides of the point it rests on (``vision.support.unpropped``: a checker where the
    # reading's counts put them, a wall or the bar's side, the cube, the other die) lies flat,
    # whatever the judge says (``vision.read``; None: not asked). (Tuning seeds 650,000..
    # 650,999, 660,000..660,999, 670,000..671,999, labelled corners, calibrated, 1,161 leaning
    # dice: not asked, 97.59% found at 98.52% precision (17 flat dice called cocked); 1.5
    # sides, on the bar too: 97.42% at 98.78% (two leaning dice lost: one against a blot the
    # reading missed, one on the bar against a bar checker); 2.0 in the halves: 97.59% at
    # 98.78%. With ``min_cocked_probability`` 0.5 and 2.0: 98.11% at 98.27% (20 false).)
    cocked_reach_sides: float | None = 2.0
    pair_share: float = 1.6
    # Two dice found within this share of the expected side are one leaning die's top and side
    # faces where either is ``min_cocked_probability`` likely to lean (``vision.dice.
    # side_faces_dropped``). (Tuning seeds 650,000..650,999 and 660,000..660,999, labelled
    # corners, frames without a hand, 3,756 dice, 610 leaning: 50 dice found where there is
    # none without it, 41 at 0.95 (on 660,000..: 24 -> 16), one leaning die's value lost (the
    # side face kept was unreadable), cocked found 67.2% -> 68.0% at the same precision. With
    # no lean asked of either, 0.85 lost 5 dice found before, 0.95 lost 13.)
    side_face_share: float = 0.95
    # ... where the likelier of the two to lean is at least this likely to (``vision.dice.
    # side_faces_dropped``). (With the judge whose crops are turned to the nadir, 2026-12-05:
    # tuning seeds 650,000.. and 660,000.., 3,756 dice, 0.9 and 0.97 read alike, 0.99 found 2
    # more false dice; the real photos, 1,487 dice, where dice lie against each other and the
    # nadir is only guessed (the frame's centre): 0.9 96.97% right, 10 missed; 0.97 97.31%, 5.)
    side_face_probability: float = 0.97
    # (On the tuning frames, the finer look's false dice next to a die were 0.23 to 0.94
    # likely to lean, the dice it found next to another 0.0 to 0.18.) A finer die read with a
    # value is not taken for the side face of a die read without one: 4,000 tuning frames,
    # labelled corners, calibrated, right 94.91% -> 94.92%, missed 50 -> 49, wrong and false
    # dice as before; seeds 680,000..683,999: 94.47% -> 94.49%, missed 37 -> 36.
    finer_side_face_probability: float = 0.2
    # A die the judge gives ``top_face_lean_probability`` of leaning is read again this share
    # of the expected side beyond its centre, away from the camera's nadir, and takes the
    # value read there where the reader places that face ``top_face_beyond_share`` of a side
    # or more farther from the nadir (``vision.dice.top_faces_read``; None: not read again;
    # at first only the dice judged cocked were). (Tuning seeds 650,000..650,999
    # and 660,000..660,999, labelled corners, calibrated: of the 18 leaning dice read with a
    # wrong value, 17 had their top face 0.3 to 0.8 of a side farther from the nadir than the
    # die found, the dice read right 0.0 (5% and 95%: -0.05, 0.09). All 4,000 tuning frames,
    # 7,420 dice, before: 94.35% right, 54 wrong; reach 0.35: 94.54%, 46; 0.45: 94.61%, 43;
    # 0.5: 94.58%, 43; 0.55: 94.58%, 43; 0.65: 94.57%, 47; at 0.55, beyond 0.1: 94.64%, 49;
    # 0.25: 94.58%, 43; 0.4: 94.50%, 45; at 0.45, beyond 0.2: 94.65%, 43. Looked at after:
    # seeds 680,000..683,999, 7,366 dice: 94.03% right, 64 wrong -> 94.26%, 59, zone 99.31%
    # -> 99.29% (99.31% with the found centre kept, which reads a flat die seen with its
    # neighbour as one leaning die as the neighbour where the die lies: test seed 500,159).
    # Where the face beyond reads another value unsurely, the die's value is withheld: tuning
    # 94.65% right as before, wrong 43 -> 37 (withheld with no beyond asked: 94.60%, 36);
    # seeds 680,000..: 94.26% -> 94.24% right, wrong 59 -> 48. Every die the judge gives at
    # least ``top_face_lean_probability`` of leaning is read so, not only those judged
    # cocked (``min_cocked_probability``): tuning 94.65% right, 37 wrong; 0.3: 94.69%, 37;
    # 0.1: 94.70%, 37; every die: 94.70%, 43; seeds 680,000.. at 0.1: 94.28%, 46.)
    top_face_reach_share: float | None = 0.45
    top_face_beyond_share: float = 0.2
    top_face_lean_probability: float = 0.1
    # ... and a die read without a value takes a value read there this sure, however near
    # the reader places it. (Tuning: 94.70% right, 37 wrong -> 0.8: 94.97%, 39; 0.9: 94.88%,
    # 37, the most read right with no more wrong; seeds 680,000..: 94.28%, 46 -> 0.8: 94.68%,
    # 50; 0.9: 94.45%, 48.)
    top_face_unread_probability: float = 0.9
    # The judge reads a crop this many times a die's side wide, turned so the camera's nadir
    # lies up in it (``vision.lean``): ``nadir``, where vertical lines meet in the frame
    # (pixels; ``vision.read`` sets it from the board's outline, ``vision.camera_pose.nadir_of``),
    # None: the frame's centre. (A judge shipped before, trained on crops 2.0 sides wide,
    # tuning frames, 307 leaning dice found, four turns: 57.7% found at 95% precision read at
    # 2.0, 63.8% at 2.2, 66.8% at 2.3, 64.2% at 2.4, 58.6% at 2.6; so judges since are
    # trained at 2.3.)
    lean_share: float = 2.3
    nadir: tuple[float, float] | None = None
    # A die that crop leaves less than ``lean_sure_probability`` sure either way is read again
    # at each of these widths (sides; the judge learnt on crops within 8% of ``lean_share``),
    # the logits averaged over all (``vision.lean.lean_probabilities``). (Tuning seeds
    # 650,000.. to 671,999, labelled corners, calibrated cameras, 1,161 leaning dice, every
    # die read at every width, a die near another at 0.99: at the lowest threshold in steps of
    # 0.05 whose precision is 98% or more, 2.3 alone found 97.2% (0.65), 2.5 alone 97.9%
    # (0.55), 2.3 and 2.5 97.9% (0.55), 2.1 to 2.7 98.0% (0.55), 1.9, 2.3 and 2.7 97.4%
    # (0.6). Seeds 680,000.. to 683,999, looked at after: 2.3 at 0.65 found 1,097 and called
    # 17 wrongly, 2.3 and 2.5 at 0.6 1,103 and 19, 2.1 to 2.7 at 0.6 1,107 and 15. Reading
    # again only the dice less than 0.98 sure gives the same figures for 0.3 ms a frame, not
    # 1.6 ms.)
    lean_extra_shares: tuple[float, ...] = (2.1, 2.5, 2.7)
    lean_sure_probability: float = 0.98
    # ... and mirrored too (a die leans as much in its mirror image). (With the judge that
    # read crops at any turn, four turns and rechecking those 0.5 likely to lean; tuning seeds
    # 650,000..650,999 and 660,000..660,999, labelled corners, 610 leaning dice: cocked found
    # 68.4% at 97.4% precision turned only, 69.2% at 97.2% mirrored too; tests/e2e's flat die
    # against a checker 0.898 -> 0.868, where 0.9 calls it cocked. Frames drawn with half the
    # flat dice against a checker (``sample_scene(against_share=0.5)``, seeds 670,000..671,399,
    # 372 leaning dice found): 74.2% at 85.4% -> 74.5% at 86.6% at 0.9, 70.4% at 87.3% -> 72.0%
    # at 89.9% at 0.92: a flat die against a checker is the judge's weak spot.)
    lean_mirrored: bool = True
    # Two dice lying against each other: a die candidate at least ``split_share`` times the
    # expected side whose value cannot be read is tried as two dice, centred
    # ``split_offset_share`` of the expected side either way along each of ``split_angles``
    # (degrees; see ``vision.dice.split_pair``). (The 129 touching frames: 79.2% right
    # without, 81.8% with; the 300 frames: unchanged; the demo's touching 6-2: read only so.
    # Tuning seeds 650,000.. and 660,000.., labelled corners, 3,756 dice, with ``weak_peak``:
    # 1.3 94.01% right, 28 wrong, 30 missed, 27 false dice; 1.1 94.20%, 28, 29, 28; 1.0 and
    # 0.9 as 1.1: the detector sizes a pair of dice lying corner to corner 1.1 to 1.25 sides.)
    split_share: float = 1.1
    # A readable die whose candidate was at least ``partner_size_share`` of the expected side
    # and lay ``partner_offset_share`` of a side off it: a die lying against it is looked for
    # ``partner_reach`` sides beyond (see ``vision.dice.partner``). (Tuning seeds 650,000+,
    # labelled corners, 1,873 dice: without it 91.8% right, 51 missed, 35 extra; 0.15 of a
    # side 92.2%, 44, 36; 0.2 92.2%, 44, 35, looking in 386 places instead of 535; 0.2 and
    # 1.2 times the side 92.1%, 45, 35. Wrong values 0.37% throughout. Looking in eight
    # directions too where the reader's centre lies on the candidate's, with the dice networks
    # of 2026-12-05 on tuning seeds 650,000.. to 671,999, 7,420 dice: missed 67 -> 64, false
    # dice 48 -> 50, zone +0.04 points, 1.4 ms a frame more: not worth it.)
    partner_size_share: float = 1.1
    partner_offset_share: float = 0.2
    partner_reach: tuple[float, ...] = (1.0, 1.2)
    split_offset_share: float = 0.6
    split_angles: tuple[float, ...] = (0.0, 45.0, 90.0, 135.0)
    # The cube's reader (``vision.cube``) reads a crop this many times the cube's side wide and
    # gives the value that has at least ``min_cube_probability``. (Tuning seeds 650,000..650,999,
    # labelled corners, 822 cubes: at 0.8 776 right and 3 wrong, at 0.9 770 and 2, at 0.95 758
    # and 2; the two wrong at 0.9 are cubes located on a side face, 20 pixels off the top one.
    # The dice reader's own cube classes, which read the cube before, at 0.8: 423 and 9.)
    cube_share: float = 1.4
    min_cube_probability: float = 0.9
    # The cube's reader reads the crop unturned, and at each other quarter turn only where no
    # value is this sure so (``vision.cube.cube_probabilities``). (Tuning seeds
    # 650,000..650,999 and 660,000..660,999, labelled corners, calibrated, 1,640 cubes: every
    # cube turned read 96.09% and 96.58% right, none wrong; 0.99 96.22% and 96.70%, none
    # wrong; 0.95 96.58% and 96.94%, one wrong on each. At 0.99 the reader reads 1.2 crops a
    # frame, not 3.6: 0.5 ms.)
    cube_sure: float = 0.99

    def scaled(self, factor: float) -> DiceConfig:
        """This configuration for the same frame ``factor`` times as many pixels wide: the
        expected die side, the nadir and the cube's home scaled with it."""

        def point(xy: tuple[float, float] | None) -> tuple[float, float] | None:
            return None if xy is None else (xy[0] * factor, xy[1] * factor)

        side = self.die_side_px
        return replace(
            self,
            die_side_px=None if side is None else side * factor,
            nadir=point(self.nadir),
            cube_home=point(self.cube_home),
        )


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
    # The locator reads the frame mirrored left to right, upside down and both too, its
    # outputs averaged (``vision.board.locate_corners``; it learnt frames so). (Board found,
    # calibrated; tuning seeds 650,000..650,999 and 660,000..660,999, 1,788 boards: read once
    # 1,714 exact, 17 confidently wrong, 26 points wrong; mirrored left to right too 1,717,
    # 14, 15; all four ways 1,719, 13, 11. Seeds 680,000..683,999, 3,505 boards, looked at
    # after: 96.29% -> 96.72% exact, 25 confidently wrong as before, points wrong 33 -> 37,
    # frames abstained 51 -> 34, dice zone 98.18% -> 98.66%. The locator's time on one core
    # 0.28 -> 1.07 ms, in the search for the board only.)
    locator_mirrored: bool = True
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
    # Where the outline the networks locate fails those checks (a corner not seen, the bar
    # off the middle), ``vision.board.search_outline`` looks for another: it starts the
    # refiners from a grid of ``2 * search_steps + 1`` points a side ``search_step_px`` apart
    # (at ``patch_reference_width``; the wide refiner catches corners up to ~28 px off)
    # around the corner not seen, or around each corner in turn, keeps at most
    # ``search_places`` places per corner ``search_apart_px`` apart where the refiner sees one,
    # and takes the outline (the located one among them) whose bar the bar net fits in the
    # middle at most ``max_bar_deficit`` (summed logits) below its own peaks and scores
    # highest, by ``search_margin`` or more over any outline with a corner ``search_rival_px``
    # or more away. (Board found, calibrated. Tuning seeds 650,000..650,999 and
    # 660,000..660,999, 1,788 boards: of the 27 not found, 8 had every corner within 2 px
    # and the bar net peaking on another edge too (a deficit of 0.0 to 3.6 at the true bar;
    # an outline with a side 0.04 of the width or more off has one of 8 or more at the median,
    # 2 or less in 0 to 1% of 585 such outlines a shift), 9 had one corner 38 to 60 px off on
    # the corner of a tray or the frame and 11 two corners not seen. Tuning seeds
    # 650,000..671,999, 3,531 boards: exact 95.78% -> 96.46%, frames abstained 54 -> 27,
    # confidently wrong 28 -> 29, points wrong 27 -> 33; seeds 680,000..683,999, 3,505 boards,
    # looked at after: 96.72% -> 97.29%, 25 -> 27, 37 -> 41. Of the 51 frames without a hand
    # whose outline the search gave (7 x 7 points), 5 were 5 px or more off, 2 of them read
    # confidently wrong.
    # A grid of 7 x 7 points 40 px apart read alike (96.54% and 97.26% exact) at twice the
    # time (about 10 ms a corner searched, one core); 5 x 5 points 50 px apart left gaps the
    # wide refiner does not reach (96.57%, 97.26%, but points wrong 36 and 45). Without the
    # located outline among the ones weighed, 6 good outlines lost a corner the refiner did
    # not see to a wrong place.)
    # A located outline whose four corners the refiner sees is taken with the bar the bar net
    # fits in its middle where that fit falls ``located_bar_deficit`` or less short of the
    # net's own peaks, before any corner is moved (the net peaked on another edge as surely;
    # tuning seeds 650,000..671,999: 96.46% -> 96.57% exact; seeds 680,000..683,999: 97.29% ->
    # 97.32%; confidently wrong and points wrong as before). (With it, ``search_margin`` 1.5:
    # 96.71% and 97.35% exact, 30 and 27 confidently wrong, 39 and 41 points wrong; 0: 96.94%
    # and 97.46%, 32 and 29, 48 and 48; 3: 96.57% and 97.32%, 29 and 27, 33 and 41.)
    outline_search: bool = True
    search_steps: int = 2
    search_step_px: float = 40.0
    search_places: int = 3
    search_apart_px: float = 4.0
    max_bar_deficit: float = 2.0
    located_bar_deficit: float = 0.5
    search_margin: float = 3.0
    search_rival_px: float = 10.0
    # Through a camera whose focal length is known (``ReadConfig.focal_length``), an outline
    # is a playing surface's only where its corner lies within so many degrees of a right
    # angle (``vision.board._square``): one corner on a tray's or the frame's corner skews it.
    # The outline located is taken within ``max_located_skew_degrees``; the search takes, and
    # weighs as rivals, only outlines within ``max_skew_degrees``, and none where one beyond it
    # scores ``search_margin`` more. (Tuning seeds 650,000..650,599 and 660,000..660,599,
    # located outlines: of 1,142 within 5 px of the labelled corners, 99% lay within 0.31
    # degrees, all but one within 0.5 (the lens's bending; the labelled outlines within 0.19);
    # of 27 with a corner 10 px or more off, 21 lay 0.77 degrees or more off, 15 1.0 or more.
    # On 650,000..651,999 and 660,000..661,999 located outlines 2 to 6 px off lay up to 0.95
    # off, three 35 to 73 px off 1.05 to 2.97. The search's outlines on the 112 of those
    # frames it ran on, within 3 px / 3 to 10 / 10 or more off / none: blind to the camera
    # 32 / 17 / 27 / 36; taking and weighing only outlines within 0.5 degrees 41 / 16 / 13 /
    # 42; and none where an outline beyond scores 3 more, as shipped, 41 / 15 / 9 / 47.
    # Moving both corners of a side together as well, within 0.5, 1.0 and 1.5 degrees: 40 /
    # 18 / 16 / 38, 38 / 20 / 19 / 35, 35 / 19 / 27 / 31 (a side moved along itself leaves a
    # rectangle's outline). Searching where two corners of one side are not seen found one
    # board more either way, 660,768.)
    max_located_skew_degrees: float = 1.0
    max_skew_degrees: float = 0.5
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
    # Where the corners are given (tapped, ``--corners``, a calibrated camera) a bar further than
    # ``max_given_bar_offset_px`` off the middle (corners tapped a few pixels off move it a
    # little), or narrower or wider than these shares of the surface's width, was misread (the
    # bar lies in the surface's middle): it is centred on the surface, as wide as twice
    # the distance from the middle to whichever found edge gives a half as wide as a bar can
    # be, else ``usual_bar_share`` wide (``vision.board.centred_bar``). (The renderer's bars are
    # 0.071..0.113 of the width; tuning frames 650,000..650,999 and 660,000..660,999, labelled
    # corners, 1,788 boards: every bar found within 1.5 px of the middle and 0.072..0.112 wide
    # but 7, each 20 px or more off the middle, 5 of them with one edge within 2 px. Of those
    # 7 boards 1 was read right before, with 44 point errors, 33 of them confident; now 5, and
    # no point wrong.)
    max_given_bar_offset_px: float = 12.0
    min_bar_share: float = 0.05
    max_bar_share: float = 0.2
    usual_bar_share: float = 0.09
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
    # The bar's crop is read again with its contrast about its own colour multiplied by this,
    # and its count logits averaged with the reading as cut (``vision.checkers.run_net``; 1:
    # read once). A dark checker on a dark bar, beside a centred cube, is the checker the net
    # missed most: at 80 rendered play tables (seeds 2,000,000.. and 2,100,000.., own light,
    # 400 shots of one or two checkers of a colour or one of each on the bar), 7 bar counts
    # were wrong, 5 of them a dark checker read as none, at 2: none. Tuning frames (labelled
    # corners, calibrated) 650,000..650,999 and 660,000..660,999: bar counts of the colours
    # on the bar right 98.5% -> 98.8% (of 403), boards exact 97.93% -> 97.99%. At 3, the same
    # bar counts but two boards fewer exact. The crop read only stretched (at 2, not averaged)
    # gets 97.0% of those bar counts right, and 9 of the 400 play shots' wrong.
    bar_contrast: float = 2.0
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
    # A crop the net is unsure of (a half's likeliest count below ``flipped_sure_probability``,
    # or hidden checkers ``min_hidden_probability`` likely) is read again mirrored across,
    # turned end over end and both, the logits of the four readings averaged
    # (``vision.checkers.run_net``; the net learnt every crop so). (Labelled corners,
    # calibrated; tuning seeds 650,000..650,999 and 660,000..660,999, 1,788 boards: read once,
    # 1,727 exact, 6 confidently wrong, 4 points wrong; every crop read as cut and mirrored
    # 1,730, 7, 5; and turned 1,740, 7, 5; all four ways 1,744, 7, 5 (at a count threshold of
    # 0.85: 1,741, 9, 7; 0.95: 1,733, 7, 5); the unsure crops only, below 0.99: 1,743, 7, 5,
    # below 0.9: 1,737. The net's time per frame, one core: once 0.77 ms, unsure crops at 0.99
    # 1.08 ms, every crop 2.85 ms. Seeds 670,000.. and 671,000.. too, 3,531 boards: 96.29% ->
    # 97.03% exact (every crop 97.08%), confidently wrong 18 -> 18; seeds 680,000..683,999,
    # 3,505 boards, looked at after: 96.15% -> 96.98% (97.03%), confidently wrong 31 -> 25
    # (22), points wrong 31 -> 27 (24). The judge of stacks read mirrored too: 1,745, 8, 5; the
    # tray net, which learnt no mirrored crops: 1,739.)
    flipped_views: bool = True
    flipped_sure_probability: float = 0.99
    # A point the net reads as a full row of ``stack_row`` checkers is looked at again by the
    # judge of stacks (vision.stacks), closer, whether or not the net suspects it hides more
    # (since 2026-12-06; before, only where the net gave it ``min_hidden_probability``: it gave
    # two rows hiding a checker 0.015 and 0.020, and read them as five, confidently wrong.
    # Labelled corners, calibrated, tuning seeds 650,000..651,999 and 660,000..661,999, 3,563
    # boards: exact 3,495 -> 3,497, confidently wrong 16 -> 13; seeds 670,000..671,999 and
    # 680,000..681,999, looked at after, 3,500 boards: 3,430 -> 3,429, 27 as before, point
    # errors 27 -> 26). It may hide checkers only
    # where the judge gives it at least ``min_stack_probability``, and the sum (vision.tally)
    # weighs the judge's probability that it does, not the net's. (Tuning frames 650,000..
    # 650,999 and 660,000..660,999, labelled corners, 1,788 boards: without the judge 96.36%
    # exact, 7 confidently wrong, 3 points confidently wrong; at 0.005 96.59%, 6, 3. With the
    # judge's probability in the sum: 0.001 97.09%, 8, 4; 0.005 97.09%, 7, 4; 0.01 97.09%, 7,
    # 4; 0.02 97.04%, 8, 5; on the evaluation frames it proved two stacks of eight and seven
    # to be rows of five, so the net's was weighed until 2026-12-06. With unsure crops read
    # four ways (``flipped_views``), at 0.005: the net's 1,743 exact, 7, 4, the judge's 1,751,
    # 8, 5, the lesser of the two 1,750, 8, 5; seeds 670,000.. and 671,000.. too, 3,531
    # boards: 97.03% -> 97.56% exact, confidently wrong 18 -> 22; seeds 680,000..683,999,
    # 3,505 boards, looked at after: 96.98% -> 97.66%, confidently wrong 25 -> 24, points
    # wrong 27 -> 26. The judge clears 14 of the 591 rows that hide checkers at 0.005: the sum
    # of fifteen catches them.)
    stack_row: int = 5
    min_stack_probability: float = 0.005
    # The judge's probability moved by what the rest of the board shows
    # (vision.checkers.on_this_board), as logits. A logistic fit of whether the full rows the
    # judge was asked about hide checkers, on tuning frames 650,000..650,999 and
    # 660,000..660,999 (labelled corners, calibrated; 2,970 rows, 534 hiding): the judge's
    # logit (its weight 0.98, so taken as 1), -1.78, +2.32 where another full row is at least
    # 0.9 likely, -1.73 where a point shows more than five. Log loss on 670,000..671,999 (2,785
    # rows, 508 hiding, held out): the judge's own 0.131, shifted only 0.110, with both 0.086.
    # Of the full rows the judge gives 0.1..0.3 there, 3% hide checkers where no other row is
    # sure, 26% beside a sure row of the other colour, 14% of the same colour. Tuning frames
    # 650,000..674,999 (6,158 boards; boards exact, confidently wrong): the judge's own 6,082,
    # 18; shifted only 6,084, 22; as fitted 6,087, 19; beside a sure row +3.0: 6,086, 18;
    # +3.5: 6,086, 16; +4.5: 6,085, 16. A sixth checker squarely on a row of five beside a sure
    # stack, which the judge gives 0.03 to 0.06, was read as five and is now a range or exact
    # (650,217, 670,546, 670,579). Evaluation frames (labelled corners, calibrated), looked at
    # after: 1,777 boards exact and 3 confidently wrong, as before.
    stack_sure: float = 0.9
    stack_logit_shift: float = -1.78
    stack_beside_sure_logit: float = 3.5
    stack_shows_more_logit: float = -1.73
    # A point the net reads as a long row of at least ``long_row_from`` checkers, its likeliest
    # count given less than ``min_count_probability``, is counted again by the judge of long
    # rows (vision.long_rows), whose P(0..15 seen) replaces the net's
    # (vision.checkers.long_row_judged). (Tuning frames 650,000..674,999, labelled corners,
    # calibrated, 6,158 boards; boards exact, confidently wrong: without the judge 6,086, 16;
    # the judge's counts replacing the net's 6,101, 15; the judge's where it is the surer
    # 6,100, 15; the two multiplied 6,099, 15. Replacing, 16 boards are now exact (most a long
    # row read as a range before), 673,811's ten read as nine is now right, and 674,675's
    # fourteen is now 14 to 15
    # (a lone checker elsewhere unsure, the sum cannot settle it). Evaluation frames, looked
    # at after: 1,777 -> 1,779 boards exact, 3 confidently wrong as before.)
    long_row_from: int = 6
    # A point is looked at again by the judge of edges (vision.edges), closer, where the net gives
    # both no checker and some at least ``edge_doubt``; the judge's P(its first place is taken) then
    # replaces the net's P(some) where the two disagree or the judge is the surer
    # (vision.checkers.edge_judged). Not a point across the column from a row the net reads as
    # ``edge_row_reach`` or more: a row overflowing towards the middle fills a surface 10 to 12
    # checkers long (vision.render.layout), and its last checker may lie on this point's first
    # place. (Tuning frames 670,000..670,999 and 673,000..673,999, labelled corners, calibrated,
    # 2026-12-07: the net misreads whether 15 and 21 points hold any checker, giving them P(none)
    # from 0.12 to 0.9996 (at least 0.1 on a point holding some, under 0.9 on an empty one); at
    # 0.0001 the judge looks at 1.5 points a frame, all 36 among them; at 0.001 at 0.35, all but
    # one; at 0.00001 at 4.1. Tuning frames 650,000.., 660,000.., 672,000.. and 673,000.. (1,000
    # each, 3,543 boards), without the judge 3,482 exact and 21 confidently wrong; with it, no
    # reach: at 0.001 3,484 and 21, at 0.0001 3,485 and 20, at 0.00001 3,483 and 20 (rows
    # overflowing across an empty point, taken for its checker, among the new errors); with a reach
    # of 10 at 0.0001, 3,491 and 14. All seven ranges 650,000.. to 674,000.. (6,158 boards): without
    # the judge 6,048 exact, 30 confidently wrong; with it 6,066 and 22. With the net's P(some) kept
    # where the two agree and the net is the surer (four empty points that the judge found less
    # surely empty than the net did, left ranges before): 6,070 and 22. The judge's P(taken) weighed
    # with the net's (their odds multiplied) rather than in its place: 6,067 and 23. Points with a
    # found die or the cube in the judge's crop left unjudged (the judge in the net's place): on the
    # four ranges 3,486 and 15 against 3,491 and 14: a die lying by a lone checker is judged right
    # more often than a die on an empty point is taken for a checker.)
    edge_doubt: float = 0.0001
    edge_row_reach: int = 10
    # The bar's halves are looked at again by the judge of the bar (vision.bar) where the net
    # gives either half's likeliest count less than 1 - ``bar_doubt``, or is unsure of the colour
    # of checkers it sees there (vision.checkers.bar_judged). (Tuning frames 650,000.. to
    # 674,000.., 6,158 boards, 2026-12-07: judged every frame or so, 6,080 exact and 20
    # confidently wrong alike; the judge then runs on three frames in four of
    # benchmarks/vision_read.py's, 0.36 ms a frame against 0.48.)
    bar_doubt: float = 0.0001
    # A count the sum of a colour's checkers proves (vision.tally) is given where the net gives
    # it at least this probability (or it lies over a stack that may hide checkers). (Tuning
    # seeds 650,000..650,999, labelled corners, 896 boards: without the sum 66.5% exact, 0.102%
    # of points confidently wrong; 0.01 80.5% and 0.112%; 0.05 79.7% and 0.112%; 0.2 77.6% and
    # 0.107%; 0.5 74.3% and 0.107%: a stricter test withholds more bar counts and gives fewer
    # counts; boards confidently wrong stay 2.23% throughout.)
    min_tally_probability: float = 0.01
    # Where a colour's checkers do not sum to 15, a tray whose count its net was sure of is
    # blamed (its count withheld, the points left as read) only where the net gives the count
    # the sum needs there this many times the probability it gives the next place's (else that
    # place is blamed, a point given as a range): a point wrongly left standing is a count
    # confidently wrong. (Tuning frames 650,053 and 660,713, the tray one short: 10.8 and 77
    # times the next, an empty point; rendered play table 2,100,007, a row of nine dark
    # checkers read as eight: the tray 1.4 times the point, which was then read 8.)
    tray_blame_odds: float = 5.0
    # A point the sum blames is given the count it needs there (not a range) where the net
    # gives that count at least ``min_blame_probability`` and ``point_blame_odds`` times what
    # it gives the count any other suspect would need (vision.checkers._proven). (Labelled
    # corners, calibrated, tuning seeds 650,000..651,999 and 660,000..661,999, 3,563 boards:
    # of the 13 points the sum blamed needing one count, the 2 wrong ones needed a count the
    # net gave under 0.001. At 0.01 (``min_tally_probability``, what ``settle`` asks) and odds
    # of 5, 4 were proven, all right (tall stacks the net read one off): boards exact 3,487 ->
    # 3,491, as many confidently wrong; seeds 670,000..671,999 and 680,000..681,999, looked at
    # after, 3,500 boards: 3,423 -> 3,427. At 0.003, 4 more (faint single checkers the net
    # missed): 3,491 -> 3,495 and 3,427 -> 3,430, as many confidently wrong.)
    min_blame_probability: float = 0.003
    point_blame_odds: float = 5.0
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
    # An unsure net's light is turned dark by the clusters only where the checker's colour is
    # at most this share as far from the dark cluster's centre as from the light one's
    # (vision.checkers.dark_nearness): a light checker in shadow falls in the dark cluster,
    # and nothing makes a dark checker look light so. (Labelled corners, calibrated, tuning
    # seeds 650,000..651,999 and 660,000..661,999, 3,563 boards: the clusters overrode the net
    # 9 times, all 6 right ones dark to light, the 3 wrong ones light to dark at 0.57, 0.61
    # and 0.92, light checkers in shadow at point 1; seeds 670,000..671,999 and
    # 680,000..681,999, looked at after: 5 overrides, all right, all dark to light. Read
    # through, the 3,563 boards: exact 3,484 -> 3,487, confidently wrong 19 -> 16.)
    shadow_nearness: float = 0.5


@dataclass(frozen=True)
class RowCropConfig:
    """Cropping a strip of the board from the frame itself (vision.columns): a point's row from
    its edge (``row_crops``) for the judges of stacks, of edges and of long rows (vision.stacks,
    vision.edges, vision.long_rows), or a half of the bar from its middle (``bar_crops``) for
    the judge of the bar (vision.bar)."""

    # A row's crop spans ``across_share`` of the point's pitch (a bar half's: of the bar's
    # width) across and ``along_share`` of the surface's height from the point's edge (the
    # bar's middle), resampled from the frame itself to ``crop_width`` x ``crop_height`` pixels.
    # The defaults are the judge of stacks': five checkers fill about 0.44 of the height, and
    # the crop has about 0.7 to 0.9 frame pixels a crop pixel at 1280x720, where the checker net
    # sees about a third of that. Each judge is trained at its own size
    # (vision.training.train_stacks, train_edges, train_bar, train_long_rows).
    across_share: float = 1.2
    along_share: float = 0.47
    crop_width: int = 64
    crop_height: int = 256


@dataclass(frozen=True)
class TrayConfig:
    """Reading the checkers borne off into the trays (vision.trays)."""

    # Each side's strip runs from ``inset_share`` of the surface's width inside its edge to
    # ``reach_share`` beyond it (renderer: frame strip and tray end within 0.165 of the width);
    # each half from ``beyond_share`` of the surface's height beyond its end to ``half_share``
    # of it inwards (15 standing checkers fill at most 0.33). Crops are resampled to this many
    # pixels along and across (about one per canonical pixel along: a checker's edge is 4 to 8
    # of them; 1 to 1.6 frame pixels per crop pixel along, 6 to 10 across). The net is trained
    # at this size (vision.training.train_trays).
    inset_share: float = 0.02
    reach_share: float = 0.18
    beyond_share: float = 0.04
    half_share: float = 0.42
    crop_height: int = 192
    crop_width: int = 16
    # A crop's count is sure when the net gives it at least this probability, its colour when
    # P(light) is at least this far from 0.5 (from each other for two halves of one tray).
    # (Tuning frames 650,000..650,999, labelled corners, 896 boards, with the net of 18,000
    # frames: 0.8 gave 96.5% of the colour counts, 99.54% of them right, 0.9 95.5% (99.94%),
    # 0.95 95.0% (99.94%); boards exact 87.8%, 87.5%, 87.2% (0.8: eight times the wrong
    # counts, each a confident error). The net before it, at 0.9: 92.1% (99.70%), boards exact
    # 85.2%. A margin of 0.3 to 0.49 changed nothing (frames 600,000..600,299).)
    min_count_probability: float = 0.9
    colour_margin: float = 0.4
    # A count the net is unsure of is still given where it equals the checkers the board does
    # not show (every point of that colour and the bar counted) and the net gives it at least
    # this probability. (The same frames: 0.05 gave 93.7% of the colour counts, 67 of the 93
    # above 0, 0.1 93.5%, 0.2 92.0% (59), 0.3 89.4% (45), 0.5 86.7% (31), none wrong; kept
    # above the lowest for the board's own errors, a misread bar shifting what it leaves.)
    min_agree_probability: float = 0.2
    # Where a colour's count is unsure, the counts its crop gives at least this probability
    # bound it in the sum of that colour's 15 checkers (vision.trays.off_places,
    # vision.tally).
    min_range_probability: float = 0.005
    # Checkers standing in a tray, seen edge on, show rows of stripes that the dice reader takes
    # for a 6. A die read as one of ``stripe_values`` whose centre lies among a tray's standing
    # checkers (``vision.trays.among_standing``: beside the surface within
    # ``standing_reach_share`` of its width, no farther from the tray's end than the checkers
    # the net counts likeliest in that half fill, ``standing_share`` of the surface's height
    # each: 15 fill at most 0.33, nor farther beyond the end than ``beyond_share``) is dropped:
    # their stripes, not a die. A third die makes the referee set the reading aside, as a
    # missing one does. (Tuning seeds 650,000.., 660,000.., 670,000.. and 671,000.., 1,000
    # each, labelled corners, calibrated, 7,420 dice: 48 false dice, 22 of them with a value
    # off the board, 14 of those stripes read as a 6; 6s dropped: 34 false dice, missed 49 ->
    # 50, right 95.51% -> 95.50%; 6s and dice read without a value: 32 and 50; a die of any
    # value: 65 missed; reaching a die's side farther from the tray's end: 66. Seeds
    # 680,000..683,999: false 50 -> 33, missed 36 -> 39, right 95.23% -> 95.21%; with the
    # unread too 27 and 40. Stripes lie 0.020 or more inside the end; 6s leaning on the
    # frame's corner beyond it lay 0.057 and 0.088 beyond: bounded there, tuning seeds
    # 660,000..661,999, 3,794 dice: missed 30 -> 27, false dice 9 as before.)
    standing_share: float = 0.022
    # The stripes lie over the tray's middle: the renderer's trays' centres lie 0.06 to 0.12 of
    # the surface's width beyond it, a standing checker reaching 0.04 either side. (Tuning seeds
    # 650,000..651,999, 660,000..660,999 and 670,000..671,999, labelled corners, calibrated:
    # the 20 stripes read as a 6 lay 0.078 to 0.125 of the width beyond the surface; the 3 real
    # 6s dropped within ``reach_share``, 0.171 to 0.176, lay on the table beyond the tray.)
    standing_reach_share: float = 0.15
    stripe_values: tuple[int | None, ...] = (6,)


@dataclass(frozen=True)
class MotionConfig:
    """Telling a settled scene from hands or motion over the board (vision.motion)."""

    # Frames are compared at this width (pixels), in grey, after a light blur.
    compare_width: int = 320
    # A pixel changed when its grey level moved by more than this; the scene moves when more
    # than this share of the board's pixels changed between two frames.
    changed_level: float = 18.0
    max_changed_share: float = 0.004
    # A hand or arm: a connected region of cells the hand segmenter gives at least this
    # probability, reaching the frame's edge and covering at least this share of the board
    # (the share chosen on held-back tuning frames, see train_hands; the edge rule keeps a
    # skin-coloured bar, as on the embedded demo's board, from counting as a hand).
    hand_probability: float = 0.5
    min_hand_share: float = 0.01


@dataclass(frozen=True)
class ReadConfig:
    """Everything the frame reader needs."""

    dice: DiceConfig = field(default_factory=DiceConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    checkers: CheckerConfig = field(default_factory=CheckerConfig)
    trays: TrayConfig = field(default_factory=TrayConfig)
    stacks: RowCropConfig = field(default_factory=RowCropConfig)
    # The judge of edges' crop (vision.edges): the place of a point's first checker, about
    # 1.4 checkers along from its edge, at about 1.2 to 1.6 frame pixels a crop pixel at
    # 1280x720 (the checker net's crops about 3).
    edges: RowCropConfig = field(
        default_factory=lambda: RowCropConfig(along_share=0.12, crop_width=40, crop_height=40)
    )
    # The judge of the bar's crops (vision.bar): each half of the bar from its middle, 0.45 of
    # the surface's height (four checkers and a cube's gap), 1.1 of its width across, at about
    # 1.4 to 1.8 frame pixels a crop pixel at 1280x720 (the checker net's bar crop about 3).
    bar: RowCropConfig = field(
        default_factory=lambda: RowCropConfig(
            across_share=1.1, along_share=0.45, crop_width=32, crop_height=128
        )
    )
    # The judge of long rows' crop (vision.long_rows): a point's whole column, from its edge to
    # the opposite edge (a row overflowing towards the middle may reach past it where the
    # opposite point is empty), 1.2 of its pitch across, at about 1.0 to 1.3 frame pixels a
    # crop pixel at 1280x720 (the checker net's crops about 3).
    long_rows: RowCropConfig = field(
        default_factory=lambda: RowCropConfig(
            across_share=1.2, along_share=1.0, crop_width=48, crop_height=384
        )
    )
    motion: MotionConfig = field(default_factory=MotionConfig)
    # A die's side is about this share of the playing surface's width (rendered boards: dice
    # 15-19 mm on 490-560 mm surfaces; the dice finder shrinks the frame by it).
    die_share: float = 0.03
    # A frame whose longer side is longer than this (pixels) is read from a copy shrunk to it
    # (``vision.read.working_copy``), as the board, tray and checker networks were trained on
    # 1280x720 frames; its dice and the cube are found in the frame itself, and the reading is
    # given in the frame's pixels. (Evaluation seeds at 2560x1440, labelled corners: read
    # whole, boards exactly right 94.3%, dice right 92.7%, 26.7 ms a frame; so, 94.2%, 92.7%,
    # 16.7 ms. The same 539 tuning views rendered at 1280x720 and at 2560x1440: boards exact
    # 95.7% and 92.8%, dice right 91.4% and 94.0%: the networks read a shrunk frame's board
    # worse than a frame rendered at their size, its dice better.)
    max_side_px: int = 1280
    # The camera's principal point (where its lens's axis meets the sensor), in shares of the
    # frame's width and height: the centre for a camera whose sensor is centred on its lens,
    # else as its calibration gives it (OpenCV's ``calibrateCamera``: cx / width, cy / height).
    # The judge of cocked dice turns its crops to the camera's nadir, which the board's outline
    # gives only with it (``vision.camera_pose.nadir_of``), and a die is in the zone of the board
    # point beneath its top face (``vision.camera_pose.BoardCamera.beneath``), which the
    # camera's pose gives only with it. None: not calibrated; the nadir is found as if the
    # principal point lay at the frame's centre, and a die is in the zone of its top face as
    # seen. (Rendered cameras, principal points up to 100 pixels off the centre, tuning seeds
    # 650,000..650,299, 401 flat dice on the surface: the top face shows 4.6 pixels from where
    # the die rests at the median, 9.0 at p95; the point beneath it, the principal point known,
    # 0.3 and 1.1; off by 10 pixels, 0.4 and 2.3; by 25, 0.8 and 3.7 (16.4 at most); by 50, 1.3
    # and 8.0 (51.3 at most). Evaluation frames, labelled corners, taken at the centre: zone
    # 99.33% as seen, 99.22% beneath.)
    principal_point: tuple[float, float] | None = None
    # The camera's focal length in shares of the frame's width, as its calibration gives it
    # (OpenCV's ``calibrateCamera``: fx / width; a lens's focal length over its sensor's
    # width). None: not known; the board's outline gives it, only loosely for a camera nearly
    # above the board (``vision.camera_pose.board_camera``), and the nadir with it. (Evaluation
    # frames, principal points known, board found, 12 looked at: where the found corners lay
    # within 2 pixels of the labelled ones, the nadir lay up to 760 pixels from the one the
    # labelled outline gives; with the rendered camera's focal length, within 8. All 2,000,
    # the judge at 0.6: cocked dice found 95.9% at 97.1% precision -> 97.1% at 98.1%;
    # labelled corners 97.4% at 97.8% -> 97.1% at 98.4%.)
    focal_length: float | None = None


def principal_point_from(value: object) -> tuple[float, float]:
    """A principal point as a file records it (``ReadConfig.principal_point``): ``[x, y]``,
    shares of the frame's width and height, each 0..1; ValueError naming what is wrong."""
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        and all(0.0 <= v <= 1.0 for v in value)
    ):
        raise ValueError(f"expected [x, y], shares of the frame from 0 to 1, got {value!r}")
    return (float(value[0]), float(value[1]))


@dataclass(frozen=True)
class CameraCalibration:
    """What the camera's calibration gives the reader: its principal point, in shares of the
    frame's width and height (``ReadConfig.principal_point``), and its focal length, in shares
    of the width (``ReadConfig.focal_length``; None: not known)."""

    principal_point: tuple[float, float]
    focal_length: float | None = None

    def applied_to(self, config: ReadConfig) -> ReadConfig:
        """``config`` reading through this camera."""
        return replace(config, principal_point=self.principal_point, focal_length=self.focal_length)


# The focal lengths a file may record (``ReadConfig.focal_length``), in shares of the frame's
# width: from a fisheye's to a long lens's.
FOCAL_LENGTH_RANGE = (0.1, 20.0)


def focal_length_from(value: object) -> float:
    """A focal length as a file or an option records it (``ReadConfig.focal_length``): a
    number, in shares of the frame's width, within ``FOCAL_LENGTH_RANGE``; ValueError naming
    what is wrong."""
    low, high = FOCAL_LENGTH_RANGE
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not low <= float(value) <= high
    ):
        raise ValueError(
            f"expected a focal length in shares of the frame's width from {low:g} to {high:g}, "
            f"got {value!r}"
        )
    return float(value)
