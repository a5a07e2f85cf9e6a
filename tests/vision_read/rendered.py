"""Rendered 1280x720 frames of tuning seeds with their exact labels, each rendered once per
test session (shared by the vision tests, which read the same seeds)."""

from __future__ import annotations

from functools import cache

import numpy as np

from vision.labels import Reading
from vision.render import render_scene, scene_for_seed


@cache
def rendered(seed: int) -> tuple[np.ndarray, Reading]:
    """Frame ``seed`` (``vision.render.scene_for_seed``) and its label."""
    return render_scene(scene_for_seed(seed))
