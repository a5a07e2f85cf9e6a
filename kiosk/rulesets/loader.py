"""Load rule-set data files into typed, frozen ``RuleSet`` values and apply director overrides.

The files are package data (``kiosk/rulesets/<name>.toml``) read with ``importlib.resources``
and ``tomllib``. Every mistake (unknown key, missing rule citation, wrong type) raises
``RuleSetError`` naming the file and the dotted key.
"""

from __future__ import annotations

import dataclasses
import difflib
import tomllib
import types
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from kiosk.rulesets.schema import SECTIONS, Override, RuleSet, RuleSetError

RULESET_NAMES: tuple[str, ...] = ("mso", "biba", "ga", "jbl", "money")
"""The rule sets shipped with the kiosk, by file name."""


class UnknownRuleSetError(RuleSetError):
    """No rule set of that name is shipped."""


def load_ruleset(name: str) -> RuleSet:
    """The rule set shipped as ``kiosk/rulesets/<name>.toml`` (``name`` case-insensitive)."""
    key = name.strip().lower()
    if key not in RULESET_NAMES:
        raise UnknownRuleSetError(
            f"unknown rule set {name!r}: expected one of {', '.join(RULESET_NAMES)}"
        )
    return _load_shipped(key)


@cache
def _load_shipped(name: str) -> RuleSet:
    text = resources.files("kiosk.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    return parse_ruleset(text, source=f"{name}.toml")


def parse_ruleset(text: str, source: str = "<text>") -> RuleSet:
    """Parse one rule-set TOML document; ``source`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleSetError(f"{source}: not valid TOML: {error}") from None
    meta = _table(data, "meta", source)
    citations: dict[str, str] = {}
    sections = {
        name: _build(_section_type(name), _table(data, name, source), name, source, citations)
        for name in SECTIONS
    }
    extra = sorted(set(data) - {"meta", *SECTIONS})
    if extra:
        raise RuleSetError(f"{source}: unknown table {extra[0]!r}")
    unknown_meta = sorted(set(meta) - {"name", "title", "money"})
    if unknown_meta:
        raise RuleSetError(f"{source}: unknown key 'meta.{unknown_meta[0]}'")
    return RuleSet(
        name=_plain(meta, "name", str, source),
        title=_plain(meta, "title", str, source),
        money=_plain(meta, "money", bool, source),
        citations=types.MappingProxyType(citations),
        **sections,
    )


def with_overrides(ruleset: RuleSet, overrides: Mapping[str, object]) -> RuleSet:
    """A new RuleSet with the director's values for this event, recorded in ``overrides``.

    Keys are dotted (``"clock.delay_s"``); each value must have the key's type (lists are
    accepted for tuples). An unknown key or a wrong type raises ``RuleSetError`` naming the key.
    """
    result = ruleset
    recorded = {override.key: override for override in ruleset.overrides}
    citations = dict(ruleset.citations)
    for key, value in overrides.items():
        if key not in ruleset.citations:
            close = difflib.get_close_matches(key, list(ruleset.citations), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RuleSetError(f"override: unknown rule key {key!r}{hint}")
        path = key.split(".")
        new = _coerce(value, _field_type(path), f"override {key!r}")
        if key not in recorded:
            citations[key] = f"director override for this event (was: {ruleset.citations[key]})"
            recorded[key] = Override(key=key, old=_get(ruleset, path), new=new)
        else:
            recorded[key] = dataclasses.replace(recorded[key], new=new)
        try:
            result = _set(result, path, new)
        except RuleSetError as error:
            raise RuleSetError(f"override {key!r}: {error}") from None
    return dataclasses.replace(
        result,
        citations=types.MappingProxyType(citations),
        overrides=tuple(recorded.values()),
    )


def _section_type(name: str) -> type:
    return get_type_hints(RuleSet)[name]  # type: ignore[no-any-return]


def _table(data: Mapping[str, Any], key: str, source: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise RuleSetError(f"{source}: missing table [{key}]")
    return value


def _plain(table: Mapping[str, Any], key: str, kind: type, source: str) -> Any:
    value = table.get(key)
    if not isinstance(value, kind):
        raise RuleSetError(f"{source}: 'meta.{key}' must be a {kind.__name__}")
    return value


def _build(
    cls: type, table: Mapping[str, Any], path: str, source: str, citations: dict[str, str]
) -> Any:
    hints = get_type_hints(cls)
    names = [field.name for field in dataclasses.fields(cls)]
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise RuleSetError(f"{source}: unknown key '{path}.{unknown[0]}'")
    values: dict[str, Any] = {}
    for name in names:
        key = f"{path}.{name}"
        if name not in table:
            raise RuleSetError(f"{source}: missing key {key!r}")
        entry = table[name]
        if dataclasses.is_dataclass(hints[name]):
            values[name] = _build(hints[name], entry, key, source, citations)
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("rule"), str):
            raise RuleSetError(f'{source}: {key!r} must be {{ value = ..., rule = "..." }}')
        stray = sorted(set(entry) - {"value", "rule"})
        if stray:
            raise RuleSetError(f"{source}: {key!r} has an unknown field {stray[0]!r}")
        citations[key] = entry["rule"]
        values[name] = _coerce(entry.get("value"), hints[name], f"{source}: {key!r}")
    try:
        return cls(**values)
    except RuleSetError as error:
        raise RuleSetError(f"{source}: {path}.{error}") from None


def _coerce(value: object, annotation: Any, where: str) -> Any:
    """``value`` checked against ``annotation`` (lists become tuples); else RuleSetError."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        options = get_args(annotation)
        if value is None and type(None) in options:
            return None
        (inner,) = [option for option in options if option is not type(None)]
        return _coerce(value, inner, where)
    if value is None:
        raise RuleSetError(f"{where}: a value is required (not stated is not allowed here)")
    if origin is Literal:
        allowed = get_args(annotation)
        if value not in allowed:
            raise RuleSetError(f"{where}: {value!r} is not one of {', '.join(map(repr, allowed))}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise RuleSetError(f"{where}: expected a list, got {type(value).__name__}")
        args = get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(item, args[0], where) for item in value)
        if len(value) != len(args):
            raise RuleSetError(f"{where}: expected a list of {len(args)} items")
        return tuple(_coerce(item, arg, where) for item, arg in zip(value, args, strict=True))
    if annotation is bool:
        if not isinstance(value, bool):
            raise RuleSetError(f"{where}: expected true or false, got {value!r}")
        return value
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleSetError(f"{where}: expected a whole number >= 0, got {value!r}")
        return value
    if annotation is str:
        if not isinstance(value, str):
            raise RuleSetError(f"{where}: expected a string, got {value!r}")
        return value
    raise TypeError(f"{where}: unsupported annotation {annotation!r}")  # schema bug, not input


def _field_type(path: list[str]) -> Any:
    cls: type = RuleSet
    for name in path[:-1]:
        cls = get_type_hints(cls)[name]
    return get_type_hints(cls)[path[-1]]


def _get(obj: object, path: list[str]) -> object:
    for name in path:
        obj = getattr(obj, name)
    return obj


def _set(obj: Any, path: list[str], value: object) -> Any:
    if len(path) == 1:
        return dataclasses.replace(obj, **{path[0]: value})
    child = _set(getattr(obj, path[0]), path[1:], value)
    return dataclasses.replace(obj, **{path[0]: child})
