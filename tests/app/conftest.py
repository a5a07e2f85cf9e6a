"""Kivy set up for headless tests, before anything imports it: no argv parsing, no console log,
a throw-away KIVY_HOME. With no DISPLAY, SDL falls back to its offscreen driver (needs Debian's
libegl1 and libgl1-mesa-dri); SDL_VIDEODRIVER is never forced to "dummy"."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
if "KIVY_HOME" not in os.environ:
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kiosk-kivy-home-")
    atexit.register(shutil.rmtree, os.environ["KIVY_HOME"], True)

# The offscreen GL surface keeps the size the window was first created with: create it at the
# larger kiosk screen, 1024x600, before GraphicUnitTest.setUp shrinks the window to 320x240 (the
# UI tests then set it to 800x480 or 1024x600, inside that surface).
from kivy.config import Config

Config.set("graphics", "width", "1024")
Config.set("graphics", "height", "600")
from kivy.core.window import Window  # noqa: E402, F401
