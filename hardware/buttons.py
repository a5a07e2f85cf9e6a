"""The players' clock buttons on GPIO, through gpiozero, debounced by our own code.

Buttons are wired between a GPIO pin and ground (internal pull-up; pressed = low). gpiozero's
``bounce_time`` is not used: it adds latency with lgpio and is not emulated by ``MockFactory``;
debouncing and fault detection are in :mod:`hardware.debounce`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from types import TracebackType
from typing import Any

from gpiozero import Button

from hardware.button_bank import ButtonBank, ClockNs, EventSink
from hardware.button_events import ButtonId
from hardware.debounce import DebounceConfig


@dataclass(frozen=True, slots=True)
class ButtonPins:
    """BCM GPIO numbers of the buttons; ``centre`` (pause) is optional."""

    left: int = 17
    right: int = 27
    centre: int | None = None

    def by_button(self) -> dict[ButtonId, int]:
        """The wired buttons and their pins; raises ValueError if two share a pin."""
        pins = {ButtonId.LEFT: self.left, ButtonId.RIGHT: self.right}
        if self.centre is not None:
            pins[ButtonId.CENTRE] = self.centre
        if len(set(pins.values())) != len(pins):
            raise ValueError(f"ButtonPins: each button needs its own GPIO pin, got {pins}")
        return pins


class GpioButtons:
    """Clock buttons on GPIO pins; debounced events go to ``sink``.

    ``pin_factory`` is a gpiozero pin factory (``MockFactory()`` in tests; ``None`` lets gpiozero
    choose, lgpio on a Pi 5). Callbacks run on gpiozero's thread; call :meth:`poll` regularly
    from the UI loop so timed faults (stuck button, end of chatter) are reported.
    """

    def __init__(
        self,
        pins: ButtonPins,
        sink: EventSink,
        *,
        pin_factory: Any = None,
        config: DebounceConfig | None = None,
        clock_ns: ClockNs = time.monotonic_ns,
    ) -> None:
        self._buttons: dict[ButtonId, Any] = {}
        try:
            for button_id, pin in pins.by_button().items():
                self._buttons[button_id] = Button(
                    pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
        except Exception:
            self.close()
            raise
        self._bank = ButtonBank(
            self._buttons,
            sink,
            config=config,
            clock_ns=clock_ns,
            initially_pressed={b: bool(dev.is_pressed) for b, dev in self._buttons.items()},
        )
        for button_id, device in self._buttons.items():
            device.when_pressed = partial(self._bank.edge, button_id, True)
            device.when_released = partial(self._bank.edge, button_id, False)

    @property
    def buttons(self) -> tuple[ButtonId, ...]:
        """The wired buttons."""
        return tuple(self._buttons)

    def poll(self) -> None:
        """Report timed events (see :meth:`hardware.button_bank.ButtonBank.poll`)."""
        self._bank.poll()

    def is_pressed(self, button: ButtonId) -> bool:
        """The debounced level of ``button``."""
        return self._bank.is_pressed(button)

    def close(self) -> None:
        """Release the GPIO pins (idempotent)."""
        for device in self._buttons.values():
            device.close()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
