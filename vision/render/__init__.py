"""Synthetic backgammon frames with exact labels, for tests, demos and the vision evaluation.

``render_scene(scene_for_seed(seed))`` gives a 1280 x 720 BGR frame and its label (a
``vision.labels.Reading``); ``restage(scene, rng, position, dice)`` shows another position and
roll on the same table, for demo sequences. Seed ranges: ``vision.render.dataset``.
"""

from vision.render.render import label_scene, render_scene
from vision.render.scene import Scene, restage, sample_scene, scene_for_seed

__all__ = ["Scene", "label_scene", "render_scene", "restage", "sample_scene", "scene_for_seed"]
