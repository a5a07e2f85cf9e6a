"""Optional LEDs showing the side on turn, and a buzzer for a fallen flag (gpiozero)."""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Any

from gpiozero import LED, Buzzer

from hardware.button_events import ButtonId


@dataclass(frozen=True, slots=True)
class IndicatorPins:
    """BCM GPIO numbers of the optional LEDs and buzzer (None = not fitted)."""

    left_led: int | None = None
    right_led: int | None = None
    buzzer: int | None = None


class Indicators:
    """Turn LEDs and flag buzzer; every method is a no-op for parts that are not fitted."""

    def __init__(self, pins: IndicatorPins, *, pin_factory: Any = None) -> None:
        self._leds: dict[ButtonId, Any] = {}
        self._buzzer: Any = None
        try:
            for side, pin in ((ButtonId.LEFT, pins.left_led), (ButtonId.RIGHT, pins.right_led)):
                if pin is not None:
                    self._leds[side] = LED(pin, pin_factory=pin_factory)
            if pins.buzzer is not None:
                self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def show_turn(self, side: ButtonId | None) -> None:
        """Light the LED of ``side`` (LEFT or RIGHT) only; None turns both off."""
        if side is ButtonId.CENTRE:
            raise ValueError("show_turn: side must be LEFT, RIGHT or None, not CENTRE")
        for led_side, led in self._leds.items():
            led.value = led_side is side

    def sound_flag(self, beeps: int = 3, on_s: float = 0.25, off_s: float = 0.25) -> None:
        """Beep ``beeps`` times (``on_s``/``off_s`` seconds) in the background: a flag fell."""
        if beeps < 1 or on_s <= 0 or off_s <= 0:
            raise ValueError("sound_flag: beeps must be >= 1 and on_s, off_s > 0 seconds")
        if self._buzzer is not None:
            self._buzzer.beep(on_time=on_s, off_time=off_s, n=beeps, background=True)

    def silence(self) -> None:
        """Stop the buzzer now."""
        if self._buzzer is not None:
            self._buzzer.off()

    def close(self) -> None:
        """Turn everything off and release the pins (idempotent)."""
        for device in (*self._leds.values(), self._buzzer):
            if device is not None:
                device.close()

    def __enter__(self) -> Indicators:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
