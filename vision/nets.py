"""The reader's trained networks: ONNX files shipped in ``vision/models/``, run by ONNX Runtime.

Networks are trained with PyTorch by the scripts in ``vision/training/`` (the ``train`` extra;
never needed to read a frame) and exported to ONNX; the kiosk runs them with ONNX Runtime's CPU
provider on one thread (``INFERENCE_THREADS``). A network is loaded once per process and kept
(``load_net``); a missing or damaged file raises :class:`ModelError` naming the file.

ONNX Runtime replaced OpenCV's DNN module here for speed: on the reader's small networks it
runs them about twice as fast on one x86_64 core (the dice reader 4.4 ms for 16 crops against
7.8 ms, the hand segmenter 1.2 ms against 3.2 ms), with the same outputs to float rounding.
It ships wheels for x86_64 and aarch64 (Raspberry Pi OS), and runs beside numpy 1.24 there.
Its default graph optimisations (all levels) are the fastest: at the basic or extended level
the dice reader ran 1.6 and 1.8 times as long, the judge of checkers 2.6 and 3 times,
2026-12-07; without the memory arena or memory pattern no faster.

The networks stay in float32. Quantized to int8 after training (ONNX Runtime's static QDQ
quantization, weights per channel, activations calibrated on the inputs of 300 tuning frames),
they ran 1.3 to 2.3 times as fast on one core (the dice reader 0.28 -> 0.12 ms a crop, the
judge of stacks 0.61 -> 0.28 ms a row; the screen no faster), but read worse, 2026-12-06:
all of them, tuning seeds 650,000..651,999 (labelled corners, calibrated), boards exact
98.08% -> 97.79%, cube values 95.38% -> 94.21%, cocked precision 98.42% -> 97.74%; the dice
networks, the judge of stacks and the hand segmenter alone, seeds 660,000..661,999, dice read
right 95.57% -> 95.39%, wrong 0.66% -> 0.74%, false dice 9 -> 13.

Tried again on the two dice readers, 2026-12-07 (calibrated on the crops of 200 tuning frames,
seeds 685,000..; tuning seeds 650,000..650,999, 660,000..660,999 and 670,000..670,999,
labelled corners, calibrated, 5,611 dice; every figure, the float readers' too, read on one
AMD EPYC machine, where the float readers read 650,000.. 95.44% right, not the 95.55% of
``vision.training.train_dice``'s record, read on another), not shipped:

- This machine's cores (AVX2, no VNNI) multiply in 16-bit sums that saturate with full 8-bit
  weights: the reader's likeliest class then matched the float reader's on 94.8% of those
  crops, with 7-bit weights (``reduce_range``) 97.9% (and every crop whose class the float
  reader gives 0.9 or more). With 7-bit weights only the readers run faster: 6.0 -> 3.9 ms
  for 17 crops (median of 300 runs); the detector, the screen, the checker net, the hand
  segmenter, the judges of leaning dice and of stacks, the tray and cube nets not at all.
- The outputs must stay float (the last linear layers' outputs unquantized): one uint8 scale
  for the lean logit and both centre offsets put the offsets off by a third of their mean size.
- Quantized so after training, both readers read 3 dice fewer right on seeds 650,000.. (8
  wrong, as the float ones). Trained further with every weight and activation rounded as the
  int8 network rounds them (torch's fake quantization, the same scales), on labels and the
  float reader's reading, 3,000 steps at 5e-4: 650,000.. 95.01% right and 4 false dice against
  95.44% and 1; 660,000.. 96.09% against 96.46%. Taught by the float reader alone (same crop,
  1,500 steps at 1e-4): 5,354 dice right against 5,362, 31 wrong against 33, 32 missed against
  31; the readers' time per frame about 2 ms less. The dice values are the figure furthest
  from their target, so the readers stay float.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
from onnxruntime.capi import onnxruntime_pybind11_state as ort_errors

MODELS_DIR = Path(__file__).with_name("models")
# One thread a network: the frame reader's target is one core (issue 4), and the kiosk's
# camera and touchscreen threads keep the others.
INFERENCE_THREADS = 1

Floats = npt.NDArray[np.float32]

_LOAD_ERRORS = (
    ort_errors.Fail,
    ort_errors.InvalidArgument,
    ort_errors.InvalidGraph,
    ort_errors.InvalidProtobuf,
    ort_errors.NotImplemented,
    ort_errors.RuntimeException,
)


class ModelError(RuntimeError):
    """A shipped network could not be loaded: the message names the file and the reason."""


def model_path(name: str) -> Path:
    """The ONNX file of network ``name`` (``vision/models/<name>.onnx``)."""
    return MODELS_DIR / f"{name}.onnx"


@cache
def load_net(name: str) -> ort.InferenceSession:
    """Network ``name`` on ONNX Runtime's CPU provider, ``INFERENCE_THREADS`` threads, loaded
    once per process."""
    path = model_path(name)
    if not path.is_file():
        raise ModelError(f"{path}: no such network file (train it with vision/training/)")
    options = ort.SessionOptions()
    options.intra_op_num_threads = INFERENCE_THREADS
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only: the reason reaches the ModelError
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except _LOAD_ERRORS as error:
        reason = str(error).strip().splitlines()[0]
        raise ModelError(f"{path}: not a readable ONNX network ({reason})") from error


def run(name: str, batch: Floats) -> tuple[Floats, ...]:
    """Outputs of network ``name`` for ``batch`` (N x C x H x W float32), in the order the
    network declares them."""
    session = load_net(name)
    (given,) = session.get_inputs()
    outputs = session.run(None, {given.name: np.ascontiguousarray(batch, np.float32)})
    return tuple(np.asarray(out, np.float32) for out in outputs)


def image_batch(images: npt.NDArray[np.uint8]) -> Floats:
    """A network's input from images (N x height x width x 3, BGR): N x 3 x height x width
    float32, scaled to -0.5..0.5."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), np.float32) / 255.0 - 0.5


def sigmoid(logits: npt.ArrayLike) -> Floats:
    """Probabilities from logits, one by one (clipped to +-30, no overflow)."""
    clipped = np.clip(np.asarray(logits, np.float32), -30.0, 30.0)
    return np.asarray(1.0 / (1.0 + np.exp(-clipped)), np.float32)


def logit(probability: float) -> float:
    """The logit of a probability strictly between 0 and 1 (``sigmoid``'s inverse)."""
    return math.log(probability / (1.0 - probability))


def softmax(logits: Floats) -> Floats:
    """Probabilities from logits along the last axis."""
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=-1, keepdims=True), np.float32)
