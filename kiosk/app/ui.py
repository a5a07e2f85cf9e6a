"""Loads the screens' ``.kv`` layouts once, after registering the font they use."""

from __future__ import annotations

from functools import cache
from pathlib import Path

KV_FILES: tuple[str, ...] = ("table.kv", "director.kv")


@cache
def load_kv() -> str | None:
    """Register the font and load every ``.kv`` file (once); the Japanese font's path or None."""
    from kivy.lang import Builder

    # The widget classes must be registered with Kivy's Factory before their rules load.
    import kiosk.app.board
    import kiosk.app.director_view
    import kiosk.app.table  # noqa: F401
    from kiosk.app.fonts import register_font

    path = register_font()
    for name in KV_FILES:
        Builder.load_file(str(Path(__file__).with_name(name)))
    return path
