"""The embedded demo: a short recorded match shipped with the package (issue 5 item 3).

``frames/`` holds rendered frames of one table (``vision.render``, fixed seed, theme and camera)
following a real game from the starting setup (``kiosk.demo.plan``), with the replay manifest
``frames/frames.json``; ``script.json`` scripts the players' presses and touches so that the demo
plays itself. ``gammon-kiosk run`` plays it on a machine without Pi hardware. Regenerate with
``scripts/make_demo.py``.
"""

from kiosk.demo.plan import DEMO_CONFIG, DemoAction, DemoPlan, Expected, build_plan
from kiosk.demo.script import Demo, DemoError, demo_dir, load_demo

__all__ = [
    "DEMO_CONFIG",
    "Demo",
    "DemoAction",
    "DemoError",
    "DemoPlan",
    "Expected",
    "build_plan",
    "demo_dir",
    "load_demo",
]
