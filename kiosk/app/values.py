"""Typed field readers for the snapshot dicts: each error names the field's path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, cast

from kiosk.app.errors import SnapshotError

Color = Literal["light", "dark"]
Zone = Literal["left-half", "right-half", "on-bar", "off-board"]
COLORS: tuple[Color, ...] = ("light", "dark")
ZONES: tuple[Zone, ...] = ("left-half", "right-half", "on-bar", "off-board")


def as_int(value: object, where: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int within [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{where}: expected an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        raise SnapshotError(f"{where}: {value} is outside {bounds}")
    return value


def _need(data: Mapping[str, object], key: str, where: str) -> object:
    if key not in data:
        raise SnapshotError(f"{where}: missing")
    return data[key]


def get_int(
    data: Mapping[str, object],
    key: str,
    where: str,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """The required integer ``data[key]`` within [low, high]."""
    return as_int(_need(data, key, where), where, low=low, high=high)


def get_optional_int(
    data: Mapping[str, object],
    key: str,
    where: str,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int | None:
    """``data[key]`` as an integer within [low, high], or None when absent or null."""
    value = data.get(key)
    return None if value is None else as_int(value, where, low=low, high=high)


def get_bool(data: Mapping[str, object], key: str, where: str) -> bool:
    """The required boolean ``data[key]``."""
    value = _need(data, key, where)
    if not isinstance(value, bool):
        raise SnapshotError(f"{where}: expected true or false, got {value!r}")
    return value


def get_str(
    data: Mapping[str, object], key: str, where: str, *, choices: Sequence[str] | None = None
) -> str:
    """The required string ``data[key]``, one of ``choices`` when given."""
    value = _need(data, key, where)
    if not isinstance(value, str):
        raise SnapshotError(f"{where}: expected a string, got {value!r}")
    if choices is not None and value not in choices:
        raise SnapshotError(f"{where}: expected one of {', '.join(choices)}, got {value!r}")
    return value


def get_optional_str(data: Mapping[str, object], key: str, where: str) -> str | None:
    """``data[key]`` as a string, or None when absent or null."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise SnapshotError(f"{where}: expected a string or null, got {value!r}")
    return value


def get_side(data: Mapping[str, object], key: str, where: str) -> Literal[0, 1] | None:
    """A player number 0 or 1, or None when absent or null."""
    value = get_optional_int(data, key, where, low=0, high=1)
    return None if value is None else cast(Literal[0, 1], value)


def get_map(data: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
    """The required object ``data[key]``."""
    value = _need(data, key, where)
    if not isinstance(value, Mapping):
        raise SnapshotError(f"{where}: expected an object, got {type(value).__name__}")
    return cast(Mapping[str, object], value)


def get_seq(
    data: Mapping[str, object],
    key: str,
    where: str,
    *,
    length: int | None = None,
    maps: bool = False,
) -> Sequence[object]:
    """The required list ``data[key]`` (of ``length`` items; of objects when ``maps``)."""
    value = _need(data, key, where)
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise SnapshotError(f"{where}: expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise SnapshotError(f"{where}: expected {length} entries, got {len(value)}")
    if maps:
        for i, item in enumerate(value):
            if not isinstance(item, Mapping):
                raise SnapshotError(f"{where}[{i}]: expected an object")
    return value


def get_int_list(
    data: Mapping[str, object],
    key: str,
    where: str,
    *,
    low: int,
    high: int,
    length: int | None = None,
) -> tuple[int, ...]:
    """The required list of integers ``data[key]``, each within [low, high]."""
    items = get_seq(data, key, where, length=length)
    return tuple(as_int(v, f"{where}[{i}]", low=low, high=high) for i, v in enumerate(items))
