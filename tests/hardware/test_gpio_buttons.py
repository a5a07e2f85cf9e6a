"""GPIO clock buttons through gpiozero's MockFactory: press, release, hold, chatter."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.button_events import ButtonEvent, ButtonId, EventKind
from hardware.buttons import ButtonPins, GpioButtons
from hardware.debounce import DebounceConfig

MS = 1_000_000
PINS = ButtonPins(left=17, right=27, centre=22)


def make(
    factory: MockFactory, clock: object, events: list[ButtonEvent], **kw: object
) -> GpioButtons:
    return GpioButtons(PINS, events.append, pin_factory=factory, clock_ns=clock, **kw)  # type: ignore[arg-type]


def test_press_and_release_are_stamped_with_the_edge_time(mock_factory, clock) -> None:
    events: list[ButtonEvent] = []
    with make(mock_factory, clock, events) as buttons:
        pin = mock_factory.pin(17)
        pin.drive_low()  # pull-up wiring: pressed = low
        t_press = clock.t_ns
        assert events == [ButtonEvent(EventKind.PRESS, ButtonId.LEFT, t_press)]
        assert buttons.is_pressed(ButtonId.LEFT)
        clock.advance_ms(150)
        pin.drive_high()
        assert events[-1] == ButtonEvent(EventKind.RELEASE, ButtonId.LEFT, t_press + 150 * MS)


def test_bounce_on_both_edges_gives_one_press_and_one_release(mock_factory, clock) -> None:
    events: list[ButtonEvent] = []
    with make(mock_factory, clock, events):
        pin = mock_factory.pin(27)
        for _ in range(4):
            pin.drive_low()
            clock.advance_ms(0.3)
            pin.drive_high()
            clock.advance_ms(0.3)
        pin.drive_low()
        clock.advance_ms(200)
        for _ in range(3):
            pin.drive_high()
            clock.advance_ms(0.4)
            pin.drive_low()
            clock.advance_ms(0.4)
        pin.drive_high()
        clock.advance_ms(100)
    assert [(e.kind, e.button) for e in events] == [
        (EventKind.PRESS, ButtonId.RIGHT),
        (EventKind.RELEASE, ButtonId.RIGHT),
    ]


def test_button_held_down_is_reported_stuck_by_poll(mock_factory, clock) -> None:
    events: list[ButtonEvent] = []
    config = DebounceConfig(stuck_ns=3_000 * MS)
    with make(mock_factory, clock, events, config=config) as buttons:
        mock_factory.pin(22).drive_low()
        clock.advance_ms(2_999)
        buttons.poll()
        assert [e.kind for e in events] == [EventKind.PRESS]
        clock.advance_ms(1)
        buttons.poll()
        assert events[-1].kind is EventKind.FAULT
        assert events[-1].button is ButtonId.CENTRE
        assert "stuck" in events[-1].detail
        mock_factory.pin(22).drive_high()
        assert [e.kind for e in events[-2:]] == [EventKind.RELEASE, EventKind.RECOVERED]


def test_chattering_wire_is_a_fault_not_a_stream_of_presses(mock_factory, clock) -> None:
    events: list[ButtonEvent] = []
    with make(mock_factory, clock, events) as buttons:
        pin = mock_factory.pin(17)
        for i in range(200):  # 2 s of a loose contact toggling every 10 ms
            pin.drive_low() if i % 2 == 0 else pin.drive_high()
            clock.advance_ms(10)
        presses = [e for e in events if e.kind is EventKind.PRESS]
        faults = [e for e in events if e.kind is EventKind.FAULT]
        assert len(faults) == 1
        assert "chatter" in faults[0].detail
        assert len(presses) <= 20  # only before the chatter was recognised, never after
        assert all(p.t_ns < faults[0].t_ns for p in presses)
        clock.advance_ms(3_000)
        buttons.poll()
        assert events[-1].kind is EventKind.RECOVERED


class ShortedPin(MockPin):
    """A mock pin held low by a button pressed at boot: the pull-up cannot raise it."""

    def _set_pull(self, value: str) -> None:
        self._pull = value


def test_button_held_at_startup_is_not_a_press(clock) -> None:
    factory = MockFactory(pin_class=ShortedPin)
    factory.pin(17).drive_low()
    factory.pin(27).drive_high()
    factory.pin(22).drive_high()
    events: list[ButtonEvent] = []
    try:
        with make(factory, clock, events) as buttons:
            assert buttons.is_pressed(ButtonId.LEFT)
            assert not buttons.is_pressed(ButtonId.RIGHT)
            clock.advance_ms(50)
            factory.pin(17).drive_high()
            assert events == []
            assert not buttons.is_pressed(ButtonId.LEFT)
    finally:
        factory.reset()


def test_centre_button_is_optional(mock_factory, clock) -> None:
    events: list[ButtonEvent] = []
    pins = ButtonPins(left=5, right=6)
    with GpioButtons(pins, events.append, pin_factory=mock_factory, clock_ns=clock) as buttons:
        assert buttons.buttons == (ButtonId.LEFT, ButtonId.RIGHT)


def test_two_buttons_on_one_pin_is_a_clear_error(mock_factory) -> None:
    with pytest.raises(ValueError, match="own GPIO pin"):
        GpioButtons(ButtonPins(left=5, right=5), print, pin_factory=mock_factory)
