"""The Japanese font: found from the candidates in order, Roboto when none is installed."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.fonts import JAPANESE_FONTS, find_font, register_font


def test_the_first_installed_candidate_is_used(tmp_path: Path) -> None:
    second = tmp_path / "second.ttf"
    second.write_bytes(b"")
    assert find_font([str(tmp_path / "missing.ttf"), str(second)]) == str(second)
    assert find_font([str(tmp_path / "missing.ttf")]) is None


def test_without_a_japanese_font_the_screen_still_gets_a_font(tmp_path: Path) -> None:
    from kivy.core.text import LabelBase

    assert register_font([str(tmp_path / "missing.ttf")]) is None
    assert "KioskSans" in LabelBase._fonts  # Roboto under the kiosk's name
    register_font()  # back to the installed font for the other tests


def test_debian_ipaex_gothic_is_the_first_candidate() -> None:
    # CI installs fonts-ipaexfont-gothic (apt); Japanese is drawn with it.
    assert JAPANESE_FONTS[0].endswith("ipaexg.ttf")
