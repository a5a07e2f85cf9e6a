"""Fixtures shared by the hardware tests: a settable clock and a gpiozero mock pin factory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


class FakeClock:
    """A monotonic ns clock the test moves by hand."""

    def __init__(self, t_ns: int = 1_000_000_000) -> None:
        self.t_ns = t_ns

    def __call__(self) -> int:
        return self.t_ns

    def advance_ms(self, ms: float) -> None:
        self.t_ns += int(ms * 1_000_000)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    factory.close()
