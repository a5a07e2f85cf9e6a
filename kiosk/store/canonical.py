"""Journal entries as canonical JSON.

An entry (event or incident) is a plain dict with ``kind`` (a non-empty string) and ``t_ms`` (the
kiosk's monotonic match time in integer milliseconds) beside its payload keys. Values are JSON
types only: dicts with string keys, lists or tuples (read back as lists), strings, integers,
finite floats, booleans and None.

Canonical JSON is sorted keys, no spaces, UTF-8, no NaN or infinity: the same entry always gives
the same bytes, which is what the incident hash chain is computed over. Events are stored the
same way but keep their key order.
"""

from __future__ import annotations

import json
import math
from typing import Any

from kiosk.store.errors import EntryError

JsonDict = dict[str, Any]
"""A decoded entry or match header."""


def canonical_json(value: object, name: str = "value") -> str:
    """``value`` as canonical JSON text; raises :class:`EntryError` naming a non-JSON part
    (``name`` is how the message calls ``value``)."""
    return _dumps(value, name, sort_keys=True)


def check_entry(entry: object, what: str, *, canonical: bool) -> tuple[str, int, str]:
    """``(kind, t_ms, JSON text)`` of an event or incident; ``what`` names it in errors.

    The text is canonical JSON when ``canonical`` (incidents, which are hashed); otherwise the
    same compact JSON with the keys in the order given (events, which then decode to dicts
    iterating in their original order: a codec turning a dict into a tuple of pairs gets the
    same tuple back).
    """
    if not isinstance(entry, dict):
        raise EntryError(f"{what}: expected a dict with 'kind' and 't_ms', got {_type(entry)}")
    kind = entry.get("kind")
    if not isinstance(kind, str) or not kind:
        raise EntryError(f"{what}: 'kind' must be a non-empty string, got {kind!r}")
    t_ms = entry.get("t_ms")
    if not isinstance(t_ms, int) or isinstance(t_ms, bool):
        raise EntryError(f"{what} {kind!r}: 't_ms' must be an integer (ms), got {t_ms!r}")
    return kind, t_ms, _dumps(entry, f"{what} {kind!r}", sort_keys=canonical)


def _dumps(value: object, name: str, *, sort_keys: bool) -> str:
    _check(value, name)
    return json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=False)


def _check(value: object, path: str) -> None:
    if value is None or isinstance(value, str | bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise EntryError(f"{path} is {value!r}, which JSON cannot hold")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise EntryError(f"{path} has a non-string key {key!r}")
            _check(item, f"{path}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]")
        return
    raise EntryError(f"{path} is a {_type(value)}, which is not a JSON value")


def _type(value: object) -> str:
    return type(value).__name__
