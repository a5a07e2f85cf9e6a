"""Turn LEDs and the flag buzzer over gpiozero's MockFactory."""

from __future__ import annotations

import itertools
import time

import pytest

from hardware.button_events import ButtonId
from hardware.indicators import IndicatorPins, Indicators

PINS = IndicatorPins(left_led=23, right_led=24, buzzer=25)


def test_turn_leds_follow_the_side_on_turn(mock_factory) -> None:
    with Indicators(PINS, pin_factory=mock_factory) as ind:
        left, right = mock_factory.pin(23), mock_factory.pin(24)
        ind.show_turn(ButtonId.LEFT)
        assert (left.state, right.state) == (1, 0)
        ind.show_turn(ButtonId.RIGHT)
        assert (left.state, right.state) == (0, 1)
        ind.show_turn(None)
        assert (left.state, right.state) == (0, 0)
        with pytest.raises(ValueError, match="CENTRE"):
            ind.show_turn(ButtonId.CENTRE)


def test_flag_buzzer_beeps_the_requested_number_of_times(mock_factory) -> None:
    with Indicators(PINS, pin_factory=mock_factory) as ind:
        buzzer = mock_factory.pin(25)
        ind.sound_flag(beeps=2, on_s=0.01, off_s=0.01)
        deadline = time.monotonic() + 2.0
        while sum(s.state for s in buzzer.states) < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.05)
        rises = [b for a, b in itertools.pairwise(buzzer.states) if b.state > a.state]
        assert len(rises) == 2
        assert buzzer.state == 0


def test_silence_stops_a_long_alarm(mock_factory) -> None:
    with Indicators(PINS, pin_factory=mock_factory) as ind:
        ind.sound_flag(beeps=100, on_s=0.5, off_s=0.5)
        ind.silence()
        assert mock_factory.pin(25).state == 0


def test_parts_not_fitted_are_no_ops(mock_factory) -> None:
    with Indicators(IndicatorPins(), pin_factory=mock_factory) as ind:
        ind.show_turn(ButtonId.LEFT)
        ind.sound_flag()
        ind.silence()


def test_bad_beep_arguments_are_a_clear_error(mock_factory) -> None:
    with (
        Indicators(PINS, pin_factory=mock_factory) as ind,
        pytest.raises(ValueError, match="beeps"),
    ):
        ind.sound_flag(beeps=0)
