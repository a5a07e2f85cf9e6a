"""Keyboard keys as the clock buttons, for a PC without GPIO.

:class:`KeyMap` is the pure key-name -> button mapping; :class:`KeyboardButtons` feeds key
presses through the same debouncer as the GPIO buttons (so a key held down is reported stuck,
and auto-repeat is ignored). Kivy is imported only by :meth:`KeyboardButtons.attach_kivy`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.button_bank import ButtonBank, ClockNs, EventSink
from hardware.button_events import ButtonId
from hardware.debounce import DebounceConfig

# Kivy key names (kivy.core.window.Keyboard.keycodes): left shift is "shift".
DEFAULT_KEYS: Mapping[str, ButtonId] = {
    "shift": ButtonId.LEFT,
    "z": ButtonId.LEFT,
    "rshift": ButtonId.RIGHT,
    "m": ButtonId.RIGHT,
    "spacebar": ButtonId.CENTRE,
    "p": ButtonId.CENTRE,
}


@dataclass(frozen=True, slots=True)
class KeyMap:
    """Which key names act as which button (several keys may share a button)."""

    keys: Mapping[str, ButtonId] = field(default_factory=lambda: dict(DEFAULT_KEYS))

    def button_for(self, key_name: str) -> ButtonId | None:
        """The button ``key_name`` stands for, or None for an unmapped key."""
        return self.keys.get(key_name.lower())

    @property
    def buttons(self) -> tuple[ButtonId, ...]:
        """The buttons that have at least one key, in ButtonId order."""
        mapped = set(self.keys.values())
        return tuple(b for b in ButtonId if b in mapped)


class KeyboardButtons:
    """Clock buttons driven by key-down / key-up events; debounced events go to ``sink``."""

    def __init__(
        self,
        sink: EventSink,
        *,
        keymap: KeyMap | None = None,
        config: DebounceConfig | None = None,
        clock_ns: ClockNs = time.monotonic_ns,
    ) -> None:
        self._keymap = keymap or KeyMap()
        self._bank = ButtonBank(self._keymap.buttons, sink, config=config, clock_ns=clock_ns)
        self._held: dict[ButtonId, set[str]] = {b: set() for b in self._keymap.buttons}
        self._keycode_names: Mapping[int, str] = {}

    def key_down(self, key_name: str) -> bool:
        """A key went down (auto-repeat included); True if it is one of the buttons' keys."""
        return self._key(key_name, down=True)

    def key_up(self, key_name: str) -> bool:
        """A key went up; True if it is one of the buttons' keys."""
        return self._key(key_name, down=False)

    def _key(self, key_name: str, *, down: bool) -> bool:
        button = self._keymap.button_for(key_name)
        if button is None:
            return False
        held = self._held[button]
        was_down = bool(held)
        if down:
            held.add(key_name.lower())
        else:
            held.discard(key_name.lower())
        if bool(held) != was_down:
            self._bank.edge(button, bool(held))
        return True

    def poll(self) -> None:
        """Report timed events (a key held down too long is reported stuck)."""
        self._bank.poll()

    def attach_kivy(self, window: Any, keycode_names: Mapping[int, str] | None = None) -> None:
        """Bind to a Kivy window's ``on_key_down``/``on_key_up``.

        ``keycode_names`` maps Kivy key codes to names; by default it is built from
        ``kivy.core.window.Keyboard.keycodes`` (imported here, when the app already has a window).
        """
        if keycode_names is None:
            from kivy.core.window import Keyboard

            keycode_names = {code: name for name, code in Keyboard.keycodes.items()}
        self._keycode_names = keycode_names
        window.bind(on_key_down=self._on_kivy_key_down, on_key_up=self._on_kivy_key_up)

    def _on_kivy_key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        name = self._keycode_names.get(key)
        return name is not None and self.key_down(name)

    def _on_kivy_key_up(self, _window: Any, key: int, *_args: Any) -> bool:
        name = self._keycode_names.get(key)
        return name is not None and self.key_up(name)
