"""The screen font: one with Japanese glyphs (and Latin ones) from a Debian package when present.

Debian's ``fonts-ipaexfont-gothic`` (IPAex Gothic) is the one CI installs; the other
candidates are tried in order, then Kivy's own Roboto (Latin only: Japanese would show as
boxes, so a warning is logged). Every label uses :data:`FONT_NAME`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

FONT_NAME = "KioskSans"
JAPANESE_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf",
    "/usr/share/fonts/truetype/vlgothic/VL-PGothic-Regular.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)


def find_font(candidates: Sequence[str] = JAPANESE_FONTS) -> str | None:
    """The first candidate font file that exists, or None."""
    return next((path for path in candidates if Path(path).is_file()), None)


def register_font(candidates: Sequence[str] = JAPANESE_FONTS) -> str | None:
    """Register :data:`FONT_NAME` with Kivy; the Japanese font's path, or None (Roboto used)."""
    from kivy import kivy_data_dir
    from kivy.core.text import LabelBase
    from kivy.logger import Logger

    path = find_font(candidates)
    if path is None:
        Logger.warning("kiosk: no Japanese font found (apt install fonts-ipaexfont-gothic)")
        roboto = Path(kivy_data_dir) / "fonts"
        LabelBase.register(
            name=FONT_NAME,
            fn_regular=str(roboto / "Roboto-Regular.ttf"),
            fn_bold=str(roboto / "Roboto-Bold.ttf"),
        )
    else:
        LabelBase.register(name=FONT_NAME, fn_regular=path)
    return path
