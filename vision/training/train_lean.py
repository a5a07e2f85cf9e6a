"""Train the network that judges whether a die is cocked (``vision.lean``) and export it to
``vision/models/dice_lean.onnx``.

Data (never the evaluation seeds): rendered frames drawn with six dice, half of them leaning
(``LEAN_SHARE``; the renderer's own share is 16%), seeds from ``--first``; each frame's dice are
found as the reader finds them (``vision.dice.locate_solids`` on the labelled board outline and
the renderer camera's principal point, as a calibrated kiosk reads, at thresholds below the
reader's: ``MINE_PEAK``, ``MINE_OBJECT``), and each found die matched to a
labelled one within ``MATCH_SIDES`` of a side is a sample: the frame around it (``PATCH_SIDES``
sides either way), its found centre and side, and whether it leans; so is each false die, found
where no labelled die lies within ``FALSE_SIDES`` (mostly a gap between four checkers), as not
leaning: the judge before them had never seen one, and called 7 of the 30 false dice of the
tuning frames cocked (12 with crops 2.3 sides wide), most of its false calls. Frames
whose seed lies in ``VALIDATION`` (tuning seeds) are drawn as the renderer draws them, so the
validation figures hold at the evaluation's share of cocked dice.

``render`` mines ``CHUNK`` frames at a time into ``--data/chunk-<first>.pkl``; ``train`` learns
from every chunk outside ``VALIDATION`` (crops taken afresh each epoch: side within 8%, centre
within 8% of a side, turned so the camera's nadir lies up as ``vision.lean`` turns them, the
nadir found from the labelled outline as the reader finds it from the found one, up to
``TURN_JITTER`` degrees either way and mirrored half the time, colour, blur, noise and JPEG as
``train_dice`` degrades its patches), prints each epoch's validation AUC and recall at 90% and
95% precision (the logits of the crop and its mirror image averaged, as ``vision.lean`` reads
a die), and exports. Each sample keeps the angle that turns its crop (``FoundSample.angle``).

The network before the shipped one (seed 1; two threads of a 2-core machine, about 27
minutes): ``render --first 20000 --frames 16000`` (91,849 dice, 45,380 leaning; about 16
minutes in two processes) and ``render --first 650000 --frames 1000`` (1,988 dice, 326
leaning, held out), ``train --epochs 16 --threads 2``: held out, AUC 0.938, 64.1% of the
leaning dice found at 90% precision, 57.4% at 95% (half the frames and ten epochs: AUC 0.865,
30.7% and 23.6%; the reader's own lean output, which judged before: AUC 0.770, none at 90%).
A run on 28,000 frames (``--first 20000 --frames 28000``, 160,766 dice, 14 epochs) gave AUC
0.948, 66.9% and 61.0%. The network shipped next was this architecture trained on more frames
by a session cut off before it recorded its exact run (its seeds lie outside ``VALIDATION``, which
``train`` never learns from): on the same held-out dice, AUC 0.945, 69.0% found at 90%
precision, 64.1% at 95%; on the evaluation frames (``evaluate-vision --label-corners``, the
thresholds of ``DiceConfig``) it finds 55.8% of the leaning dice at 93.3% precision (the
network before it: 51.8% at 93.1%). Undoing the board's
perspective in the crop first (the local map of its homography) did no better on half the
frames (AUC 0.865 both ways): the canonical board's aspect is not the real board's, so a flat
die's top face is no squarer there.

The network shipped before it: the same architecture, its crops ``DiceConfig.lean_share`` 2.3 sides
wide, learning the false dice too: ``render --first 20000 --frames 16000`` (93,541 samples,
45,734 leaning; about 11 minutes in two processes), ``render --first 650000 --frames 1000``
(2,076 held out, 332 leaning), ``train --epochs 12 --threads 2`` (about 24 minutes): held out,
AUC 0.941, 62.3% found at 90% precision, 53.0% at 95% (the network before it, read at 2.3, on
these samples with their false dice: AUC 0.936, 51.8% and 46.7%). On the evaluation frames
(``--label-corners``, the thresholds of ``DiceConfig``) it finds 56.3% of the leaning dice at
92.6% precision, as the network before it did at its own (56.7% at 92.6%), but its false
calls there are flat dice (24, and 3 false dice) where that one's were 18 flat dice and 9
false ones. Trained at 2.4 without the false dice (16 epochs) it matched the network before
it read at 2.3 (held out without false dice: AUC 0.950 and 0.948, 64.0% and 65.9% at 95%).

The network shipped before it: the same recipe on the frames as the renderer draws them since a
die with no checker near leans on the board's frame instead of hanging tipped in mid-air (a
third of the leaning dice before; the judge before found 13% of those): ``render --first 20000
--frames 16000`` (two processes, about 20 minutes), then ``render --first 36000 --frames 6000``
(``AGAINST_FROM``: half the flat dice lying against a checker), ``render --first 650000 --frames
1000`` (held out), ``train --epochs 10 --threads 2`` (128,018 samples, 60,698 leaning; about 29
minutes): held out (2,069, 314 leaning), AUC 0.988, 84.1% found at 90% precision, 75.2% at 95%
(the judge before it: AUC 0.937, 61.8% and 54.8%). Trained without the frames from 36,000 (12
epochs) it reached AUC 0.988, 82.2% and 72.9%, but called a flat die lying against a checker by
the frame cocked (P 0.982) in tests/e2e's clean game: the renderer lays no flat die against a
checker, so a die against one had always leaned. On the evaluation frames (``--label-corners``,
the thresholds of ``DiceConfig``) it finds 67.3% of the leaning dice at 96.3% precision (the
judge before, on the frames as drawn before: 56.5% at 92.6%).

The network shipped next: that recipe with twice the frames of flat dice against checkers and
more epochs (the held-out AUC before was still rising at its last epoch): ``render --first 42000
--frames 6000`` too, and ``train --epochs 14 --threads 2`` (162,735 samples, 77,049 leaning;
about 4.5 minutes an epoch alone): held out, AUC 0.992, 89.8% found at 90% precision, 86.9% at
95%. It gives tests/e2e's flat die against a checker by the frame 0.871. On the evaluation
frames (``--label-corners``, the thresholds of ``DiceConfig``) it finds 69.7% of the leaning
dice at 96.7% precision (the judge before: 67.3% at 96.3%).

The network shipped before it: that one fine-tuned (``train --resume``: its weights, a tenth of the
learning rate, its batch norms kept) on the dice as the deeper detector of 2026-12-05
(``vision.training.train_dice``) finds them, whose found sides differ (median over the
expected side 1.055 flat, 1.115 leaning; the detector before 1.16 and 1.21): ``render --first
20000 --frames 2000``, ``render --first 48000 --frames 4000``, ``render --first 650000
--frames 1000`` (about 5 minutes in two processes), ``train --epochs 4 --threads 2 --resume``
(35,793 samples, 16,841 leaning; under a minute an epoch): held out (2,151, 327 leaning) AUC
0.990, 89.3% found at 90% precision, 82.9% at 95% (the network before, on the same samples:
0.990, 90.2%, 83.8%). Its figures match the network before's, but it gives tests/e2e's flat
die against a checker by the frame 0.814 where that one gave 0.902 on the new detector's crop
of it (the threshold 0.9); its probabilities run lower, so at that threshold it finds fewer
leaning dice, more surely (``DiceConfig.min_cocked_probability``).

The network shipped before it (2026-12-05) reads crops turned so that the camera's nadir (where
vertical lines meet in the frame) lies up: a flat die shows side faces only on its side away
from the nadir, a leaning one wherever it leans, and crops at any turn hide which way that is.
``render --first 20000 --frames 12000`` (mined by an experiment's script doing what ``render``
does, in chunks of 1,000 frames: each sample's angle from the nadir ``vision.camera_pose.nadir_of``
estimates from the labelled outline), ``render --first 36000 --frames 2000`` (flat dice against
checkers) and ``render --first 600000 --frames 2000`` (held out), ``train --epochs 10 --threads
2`` (83,598 samples, 39,425 leaning; about 1.3 minutes an epoch): held out (4,215, 580 leaning)
AUC 0.992, 92.1% found at 90% precision, 86.6% at 95% (the judge before, read at four turns and
mirrored, on the same samples: 0.986, 81.7%, 71.0%). On the evaluation frames
(``--label-corners``, the thresholds of ``DiceConfig``) it finds 84.6% of the leaning dice at
97.2% precision (the judge before: 68.0% at 95.4%), and tests/e2e's clean game still reads its
flat die against a checker by the frame flat. Judges from scratch compared on equal terms (one
thread, 10 epochs, the same held-out samples): on seeds 20,000..25,999 (35,794 samples) crops
at any turn 0.957, 57.6%, 45.0%; turned to the estimated nadir 0.980, 76.2%, 64.7%; to the
renderer camera's true nadir 0.990, 89.7%, 81.9%; on seeds 20,000..31,999 (71,680 samples) any
turn 0.978, 75.2%, 64.5%, the estimated nadir 0.991, 90.5%, 85.0%. The estimate's direction to
a die errs by about 11 degrees at the median and 50 at p90 (``sample_camera`` moves the
principal point off the frame's centre, which ``nadir_of`` assumes); the judge learns around it
(``TURN_JITTER``), and a calibrated camera's intrinsics would sharpen it.

The network shipped before it: that recipe on more than twice the frames. Its data are the
chunks above and ``render --first 32000 --frames 4000``, ``render --first 38000 --frames
8000``, ``render --first 46000 --frames 12000`` (two processes, about 16 minutes), then
``train --epochs 12 --threads 2`` (226,777 samples, 107,272 leaning; about 3.3 minutes an
epoch). Held out (the same 4,215 samples), it gives AUC 0.996, with 95.7% found at 90%
precision and 93.8% at 95%; the judge before gave 0.992, 92.1% and 86.6%. The AUC was still
rising at epoch 9 (0.9962) and levelled off by epoch 11 (0.9964). On the tuning frames it
finds 89.7% of the leaning dice at 98.9% precision at 0.9, where the judge before found 85.4%
at 98.7%, and 93.9% at 97.4% at 0.7. On the evaluation frames (``--label-corners``) at 0.7 it
finds 92.0% at 95.2% precision.

The network shipped before it: the same with ``render --first 58000 --frames 12000`` too (about 8
minutes in two processes; 298,377 samples, 141,222 leaning; ``train --epochs 12 --threads 2``,
about 4.5 minutes an epoch). Held out: AUC 0.997, 95.5% found at 90% precision, 92.8% at 95%:
no better ranked at the top than the judge before, within the noise of 580 leaning dice. On
the tuning frames it matches that judge at 0.7 (93.9% at 97.4%) and is more precise above it
(0.8: 92.6% at 98.9% against 92.3% at 98.3%), so ``DiceConfig.min_cocked_probability`` is
0.75 (93.6% at 97.9%). On the evaluation frames (``--label-corners``) it finds 92.8% at 95.8%.

The network shipped now: the same recipe on the same seeds mined again with each camera's
principal point known (``render`` gives ``mine_frame`` the renderer camera's, as a calibrated
kiosk is given its own: ``ReadConfig.principal_point``), so each crop is turned to the true
nadir, not to one the frame's centre gives (off by 14 degrees at the median and 53 at p90).
``render --first 20000 --frames 25000`` and ``--first 45000 --frames 25000`` (two processes,
about 20 minutes), the held-out ``600000`` and ``601000`` (1,000 each), ``train --epochs 12
--threads 2`` (298,377 samples, 141,222 leaning; about 3.5 minutes an epoch). Held out (the
same 4,215 dice, their crops turned to the true nadir): AUC 0.998, 99.0% found at 90%
precision, 97.4% at 95%; the judge before on these crops 0.999, 99.0% and 97.2%, on its own
crops 0.997, 95.5% and 92.8%. On the tuning frames, calibrated, it finds 97.0% at 98.8%
precision at 0.7, where the judge before found 95.1% at 98.8%; on the evaluation frames
(``--label-corners --calibrated-camera``) 95.9% at 97.6%. It learnt only crops turned to the
true nadir: a camera whose principal point is not the one given misleads it (the evaluation
frames uncalibrated, their principal points up to 100 pixels off the centre: 93.7% at 89.4%).
Tried and not shipped: that judge fine-tuned (``train --resume --epochs 4``) on half its
frames and half the same seeds' samples turned to the centre-estimated nadir, one block of
1,000 seeds each way in turn. Held out (true nadir) AUC 0.999, 99.1% at 90%, 98.3% at 95%; on
the tuning frames (650,000.., 660,000.., 670,000.., 671,000.., 1,161 leaning dice) calibrated
it reads as the shipped one a step lower (0.6: 96.1% at 98.5%; shipped at 0.7: 96.2% at 98.2%)
and uncalibrated better but still under 95% precision (0.6: 94.4% at 92.8%; 0.75: 92.2% at
95.0%): no judge reads well a nadir 50 degrees off, and the kiosk is better told its camera.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision import lean
from vision.board import board_from_corners
from vision.config import DiceConfig, ReadConfig
from vision.dice import locate_solids
from vision.read import dice_config_for
from vision.render.render import render_scene
from vision.render.scene import Scene, sample_scene, scene_for_seed
from vision.training.parts import (
    FoundSample,
    fit_found,
    found_batch,
    found_main,
    found_net,
    load_found,
)
from vision.training.train_dice import MINE_PEAK

Image = npt.NDArray[np.uint8]
DEFAULT_DATA = Path("/tmp/gammon-lean")
CHUNK = 500
LEAN_SHARE = 0.5
# Of the dice that do not lean, this share lies flat against a checker (``sample_scene``'s
# ``against_share``): a die against a checker need not lean (seeds from 36,000 on). The
# shipped judge learnt such dice where a leaning die would lean, their centre 0.35 of a side
# from the checker's edge and so over it; since 2026-12-06 the renderer lays them flush with
# the checker's edge (``vision.render.scene._flush_spot``).
AGAINST_SHARE = 0.5
AGAINST_FROM = 36_000
DICE_DRAWN = 6
PATCH_SIDES = 2.0
# A found die is the labelled die within this many of its sides; one with no labelled die
# within ``FALSE_SIDES`` is a false die.
MATCH_SIDES = 0.5
FALSE_SIDES = 1.5
# Dice are mined at ``train_dice.MINE_PEAK`` (``DiceConfig.min_peak``, as the dice trainer
# mines) and at this object threshold (``DiceConfig.min_object_probability``), below the
# reader's.
MINE_OBJECT = 0.3
VALIDATION = range(600_000, 1_000_000)
# Crops are turned so the camera's nadir lies up (``vision.lean``), in training up to this many
# degrees either way (a found outline, or a principal point known only roughly, moves the nadir).
TURN_JITTER = 10.0


def training_scene(seed: int) -> Scene:
    """Frame ``seed``: as the renderer draws it for validation seeds, else six dice half of
    which lean (values drawn from their own stream, as ``train_dice`` draws them)."""
    assert seed < 1_000_000, "evaluation seeds are never used for training"
    if seed in VALIDATION:
        return scene_for_seed(seed)
    values = [int(v) for v in np.random.default_rng(seed + 7_000_000).integers(1, 7, DICE_DRAWN)]
    against = AGAINST_SHARE if seed >= AGAINST_FROM else 0.0
    return sample_scene(
        np.random.default_rng(seed),
        1280,
        720,
        dice=values,
        lean_share=LEAN_SHARE,
        against_share=against,
    )


def mine_frame(seed: int, config: ReadConfig) -> list[FoundSample]:
    """The samples of frame ``seed``: its dice as the reader finds them, matched to the labels
    (within ``MATCH_SIDES`` of a side: leaning or flat as drawn), and each die it finds where
    none lies within ``FALSE_SIDES`` (as flat: a gap between four checkers is often taken for a
    die without a value, and was judged cocked). Dice are found below the reader's thresholds
    (``MINE_PEAK``, ``MINE_OBJECT``), for more such false dice."""
    scene = training_scene(seed)
    image, label = render_scene(scene)
    corners = label.board.corners
    view = board_from_corners(image, corners, config.board) if corners is not None else None
    drawn = [s for s in scene.solids if s.kind == "die"]
    height, width = image.shape[:2]
    samples = []
    calibrated = replace(config, principal_point=scene.camera.principal_share())
    finding = replace(
        dice_config_for(view, calibrated, (width, height)),
        min_peak=MINE_PEAK,
        min_object_probability=MINE_OBJECT,
    )
    seen_from = lean.nadir_in(finding, width, height)
    for found in locate_solids(image, finding).dice:
        distance, cocked = min(
            (
                (math.dist(die.center, found.center), solid.cocked)
                for die, solid in zip(label.dice, drawn, strict=True)
            ),
            default=(math.inf, False),
        )
        if distance <= MATCH_SIDES * found.side_px:
            leans = int(cocked)
        elif distance > FALSE_SIDES * found.side_px:
            leans = 0
        else:
            continue
        angle = lean.nadir_angle(found.center, seen_from)
        samples.append(
            FoundSample.cut(image, found.center, found.side_px, PATCH_SIDES, leans, angle)
        )
    return samples


def lean_batch(
    samples: list[FoundSample], config: DiceConfig, rng: np.random.Generator | None
) -> npt.NDArray[np.float32]:
    """The network's inputs for ``samples``: as ``vision.lean`` crops them (the nadir up), or
    with ``rng`` jittered, turned up to ``TURN_JITTER`` degrees, mirrored and degraded."""
    return found_batch(samples, config.lean_share, lean.LEAN_PX, rng, turned=TURN_JITTER)


def recall_at(
    probabilities: npt.NDArray[np.float64], truth: npt.NDArray[np.int64], precision: float
) -> float:
    """The largest share of the leaning dice found by a threshold at ``precision`` or more."""
    order = np.argsort(-probabilities, kind="stable")
    hits = np.cumsum(truth[order])
    precise = hits / np.arange(1, len(order) + 1) >= precision
    return float(hits[precise].max() / max(1, truth.sum())) if precise.any() else 0.0


def auc(probabilities: npt.NDArray[np.float64], truth: npt.NDArray[np.int64]) -> float:
    """Area under the ROC curve: the chance a leaning die outscores a flat one."""
    pos, neg = probabilities[truth == 1], probabilities[truth == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def train(data: Path, config: DiceConfig, epochs: int, threads: int, resume: bool) -> None:
    """Train from the chunks in ``data`` and export ``dice_lean.onnx``."""
    import torch
    from torch import nn

    from vision.training.export import export_onnx

    torch.manual_seed(1)
    torch.set_num_threads(threads)
    samples, held = load_found(data, VALIDATION, False), load_found(data, VALIDATION, True)
    truth = np.array([s.label for s in held], np.int64)
    print(
        f"{len(samples)} samples ({sum(s.label for s in samples)} leaning), "
        f"{len(held)} held out ({truth.sum()} leaning)",
        flush=True,
    )
    inputs = torch.from_numpy(lean_batch(held, config, None))
    net = found_net(lean.LEAN_PX, 1, lean.LEAN, resume)

    def held_out(epoch: int, loss: float) -> None:
        with torch.no_grad():
            logits = (net(inputs)[:, 0] + net(torch.flip(inputs, (3,)))[:, 0]) / 2
        seen = torch.sigmoid(logits).numpy().astype(np.float64)
        print(
            f"epoch {epoch}: loss {loss:.4f}, held out: AUC {auc(seen, truth):.4f}, recall "
            f"{recall_at(seen, truth, 0.9):.3f} at 90% precision, "
            f"{recall_at(seen, truth, 0.95):.3f} at 95%",
            flush=True,
        )

    fit_found(
        net,
        samples,
        lambda chosen, rng: lean_batch(chosen, config, rng),
        lambda logits, labels: nn.functional.binary_cross_entropy_with_logits(
            logits[:, 0], labels.float()
        ),
        epochs,
        held_out,
        resume,
    )
    print(export_onnx(net, inputs[:1], lean.LEAN, ("cocked",)))


def main() -> None:
    """Mine or train, as the command says."""
    found_main(__doc__ or "", (DEFAULT_DATA, 20_000, 16_000, 16), CHUNK, mine_frame, train)


if __name__ == "__main__":
    main()
