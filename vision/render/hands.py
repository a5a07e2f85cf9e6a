"""A hand and forearm reaching over the board, drawn in image pixels, with its soft shadow."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.scene import Hand

Image = npt.NDArray[np.uint8]


def hand_mask(hand: Hand, height: int, width: int) -> npt.NDArray[np.uint8]:
    """Where ``hand`` covers a ``width`` x ``height`` frame: 255 on it (motion-blurred)."""
    mask = np.zeros((height, width), np.uint8)
    angle = math.radians(hand.direction_deg)
    ahead = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-ahead[1], ahead[0]])
    palm = np.array(hand.palm)
    s = hand.size

    def pt(v: npt.NDArray[np.float64]) -> tuple[int, int]:
        return round(float(v[0])), round(float(v[1]))

    cv2.ellipse(
        mask,
        pt(palm),
        (round(0.55 * s), round(0.48 * s)),
        hand.direction_deg,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    wrist = palm - ahead * 3.0 * max(height, width)
    cv2.line(mask, pt(palm), pt(wrist), 255, round(0.75 * s), cv2.LINE_AA)
    for k, offset in enumerate((-0.33, -0.11, 0.11, 0.33)):
        turn = math.radians((k - 1.5) * 8.0 * hand.spread)
        direction = ahead * math.cos(turn) + across * math.sin(turn)
        base = palm + ahead * 0.4 * s + across * offset * s
        length = s * (0.75 if k in (1, 2) else 0.62)
        cv2.line(mask, pt(base), pt(base + direction * length), 255, round(0.19 * s), cv2.LINE_AA)
    side = 1.0 if hand.spread > 0.5 else -1.0
    thumb = math.radians(hand.direction_deg + side * (40.0 + 30.0 * hand.spread))
    base = palm + across * side * 0.4 * s
    tip = base + np.array([math.cos(thumb), math.sin(thumb)]) * 0.55 * s
    cv2.line(mask, pt(base), pt(tip), 255, round(0.22 * s), cv2.LINE_AA)
    if hand.motion_px > 0:
        length = max(3, round(hand.motion_px))
        kernel = np.zeros((length, length), np.float32)
        centre = (length - 1) / 2
        dx, dy = across * centre
        cv2.line(
            kernel,
            pt(np.array([centre - dx, centre - dy])),
            pt(np.array([centre + dx, centre + dy])),
            1.0,
            1,
        )
        kernel /= kernel.sum()
        mask = np.asarray(cv2.filter2D(mask, -1, kernel), dtype=np.uint8)
    return mask


def draw_hands(image: Image, hands: tuple[Hand, ...], shadow_px: tuple[float, float]) -> None:
    """Draw each hand over ``image``; its shadow falls ``shadow_px`` away (pixels per size)."""
    height, width = image.shape[:2]
    for hand in hands:
        mask = hand_mask(hand, height, width)
        shift = np.array(
            [[1, 0, shadow_px[0] * hand.size], [0, 1, shadow_px[1] * hand.size]], np.float32
        )
        shadow = cv2.warpAffine(mask, shift, (width, height))
        soft = cv2.GaussianBlur(shadow, (0, 0), hand.size * 0.08).astype(np.float32) / 255.0
        image[:] = (image * (1.0 - 0.5 * soft[:, :, None])).astype(np.uint8)
        alpha = cv2.GaussianBlur(mask, (0, 0), 1.2).astype(np.float32)[:, :, None] / 255.0
        ys = np.linspace(0.85, 1.1, height, dtype=np.float32)[:, None, None]
        skin = np.array(hand.skin, np.float32) * ys
        image[:] = np.clip(image * (1.0 - alpha) + skin * alpha, 0, 255).astype(np.uint8)
