"""The keyboard stand-in: key mapping, auto-repeat, shared keys, stuck key, Kivy binding."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hardware.button_events import ButtonEvent, ButtonId, EventKind
from hardware.debounce import DebounceConfig
from hardware.keyboard import KeyboardButtons, KeyMap

MS = 1_000_000


def test_default_keymap_covers_three_buttons_and_ignores_case() -> None:
    keymap = KeyMap()
    assert keymap.button_for("Z") is ButtonId.LEFT
    assert keymap.button_for("rshift") is ButtonId.RIGHT
    assert keymap.button_for("spacebar") is ButtonId.CENTRE
    assert keymap.button_for("q") is None
    assert keymap.buttons == (ButtonId.LEFT, ButtonId.RIGHT, ButtonId.CENTRE)


def test_key_press_is_stamped_when_the_key_event_arrives(clock) -> None:
    events: list[ButtonEvent] = []
    keys = KeyboardButtons(events.append, clock_ns=clock)
    assert keys.key_down("m")
    assert events == [ButtonEvent(EventKind.PRESS, ButtonId.RIGHT, clock.t_ns)]
    assert not keys.key_down("q")


def test_auto_repeat_and_a_second_key_of_the_same_button_add_nothing(clock) -> None:
    events: list[ButtonEvent] = []
    keys = KeyboardButtons(events.append, clock_ns=clock)
    keys.key_down("z")
    for _ in range(5):
        clock.advance_ms(50)
        keys.key_down("z")  # auto-repeat
    keys.key_down("shift")
    keys.key_up("z")
    assert [e.kind for e in events] == [EventKind.PRESS]
    clock.advance_ms(10)
    keys.key_up("shift")
    assert [e.kind for e in events] == [EventKind.PRESS, EventKind.RELEASE]


def test_key_held_down_is_reported_stuck(clock) -> None:
    events: list[ButtonEvent] = []
    keys = KeyboardButtons(
        events.append, clock_ns=clock, config=DebounceConfig(stuck_ns=2_000 * MS)
    )
    keys.key_down("p")
    clock.advance_ms(2_500)
    keys.poll()
    assert events[-1].kind is EventKind.FAULT
    assert events[-1].button is ButtonId.CENTRE


def test_custom_keymap_only_has_its_buttons(clock) -> None:
    keymap = KeyMap({"a": ButtonId.LEFT, "l": ButtonId.RIGHT})
    events: list[ButtonEvent] = []
    keys = KeyboardButtons(events.append, keymap=keymap, clock_ns=clock)
    assert not keys.key_down("spacebar")
    assert keys.key_down("l")
    assert events[0].button is ButtonId.RIGHT


class FakeWindow:
    """Records bind() like a Kivy window and dispatches key events to the bound handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}

    def bind(self, **handlers: Any) -> None:
        self.handlers.update(handlers)

    def dispatch(self, name: str, key: int) -> bool:
        return bool(self.handlers[name](self, key, 0, None, []))


def test_attach_kivy_with_explicit_keycodes(clock) -> None:
    events: list[ButtonEvent] = []
    keys = KeyboardButtons(events.append, clock_ns=clock)
    window = FakeWindow()
    keys.attach_kivy(window, {304: "shift", 303: "rshift", 113: "q"})
    assert window.dispatch("on_key_down", 303)
    assert not window.dispatch("on_key_down", 113)
    assert not window.dispatch("on_key_down", 999)
    clock.advance_ms(100)
    assert window.dispatch("on_key_up", 303)
    assert [(e.kind, e.button) for e in events] == [
        (EventKind.PRESS, ButtonId.RIGHT),
        (EventKind.RELEASE, ButtonId.RIGHT),
    ]


def test_attach_kivy_builds_keycodes_from_kivy_lazily(clock, monkeypatch) -> None:
    fake_kivy_window = SimpleNamespace(Keyboard=SimpleNamespace(keycodes={"z": 122, "m": 109}))
    monkeypatch.setitem(sys.modules, "kivy.core.window", fake_kivy_window)
    events: list[ButtonEvent] = []
    keys = KeyboardButtons(events.append, clock_ns=clock)
    window = FakeWindow()
    keys.attach_kivy(window)
    assert window.dispatch("on_key_down", 122)
    assert events[0].button is ButtonId.LEFT


def test_keyboard_module_does_not_import_kivy() -> None:
    import subprocess

    code = "import hardware.keyboard, sys; print('kivy' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"


def test_real_kivy_window_key_events_drive_the_buttons(tmp_path: Path) -> None:
    """In a subprocess (a Kivy window is process-wide): real Kivy keycodes and dispatch."""
    import subprocess

    code = """
import time
from kivy.core.window import Window
from hardware.keyboard import KeyboardButtons
events = []
keys = KeyboardButtons(events.append)
keys.attach_kivy(Window)
Window.dispatch('on_key_down', 303, 0, None, [])  # right shift
Window.dispatch('on_key_down', 303, 0, None, [])  # auto-repeat
time.sleep(0.05)
Window.dispatch('on_key_up', 303, 0)
print(' '.join(f'{e.kind.value}:{e.button.value}' for e in events))
"""
    root = Path(__file__).resolve().parents[2]
    env = {
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=root,
        env=env,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["press:right", "release:right"]
