"""The dice net's numpy forward pass and the training script's gradients agree."""

from __future__ import annotations

import numpy as np

from vision.dice_net import CLASSES, CROP_PX, convolve, face_inputs, face_probabilities, logits
from vision.train_dice import gradients, im2col, initial_net


def test_convolve_is_the_im2col_product() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 6, 8, 3)).astype(np.float32)
    weights = rng.normal(size=(27, 4)).astype(np.float32)
    biases = rng.normal(size=4).astype(np.float32)
    expected = np.maximum(im2col(x) @ weights + biases, 0).reshape(2, 6, 8, 4)
    assert np.allclose(convolve(x, weights, biases), expected, atol=1e-4)


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(5)
    net = initial_net(rng)
    crops = rng.integers(0, 256, size=(3, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    x = face_inputs(crops)
    classes = np.array([0, 3, 6], np.intp)

    def loss() -> float:
        z = logits(net, x).astype(np.float64)
        z -= z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float(-log_p[np.arange(3), classes].mean())

    analytic = gradients(net, x, classes)
    for layer in range(5):
        weights = net.layers[layer][0]
        for flat in rng.choice(weights.size, 4, replace=False):
            index = np.unravel_index(flat, weights.shape)
            saved = weights[index]
            weights[index] = saved + 1e-3
            up = loss()
            weights[index] = saved - 1e-3
            down = loss()
            weights[index] = saved
            numeric = (up - down) / 2e-3
            assert abs(numeric - analytic[layer][0][index]) <= 5e-3 + 0.1 * abs(numeric)


def test_probabilities_sum_to_one_and_are_turn_invariant() -> None:
    rng = np.random.default_rng(7)
    net = initial_net(rng)
    x = face_inputs(rng.integers(0, 256, size=(2, CROP_PX, CROP_PX, 3), dtype=np.uint8))
    p = face_probabilities(net, x)
    assert p.shape == (2, CLASSES)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    turned = face_probabilities(net, np.ascontiguousarray(np.rot90(x, 1, axes=(1, 2))))
    assert np.allclose(p, turned, atol=1e-5)
