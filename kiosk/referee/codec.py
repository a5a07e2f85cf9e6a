"""Events, incidents and configurations as plain JSON dicts, and back.

Every dict has ``kind`` (``board_read``, ``dice_read``, ``clock_press``, ``touch``,
``director``, ``tick``, ``incident``, ``config``) and ``v`` (the format version, now 1).
A board reading uses the field names of ``gammon-kiosk read --json`` (DESIGN.md section 4:
``points`` with ``point``/``color``/``count``/``min``/``max``, ``bar``/``off`` per colour,
``occluded``), so a vision reading's JSON decodes directly (``reading_from_json``); the cube adds
``place``. Decoding bad input raises ``CodecError`` naming the field, never anything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any, get_args

from kiosk.referee.config import Home, Mode, RefereeConfig
from kiosk.referee.events import (
    Args,
    BoardRead,
    BoardReading,
    ButtonSide,
    ClockPress,
    Colour,
    CubePlace,
    CubeSeen,
    DiceRead,
    DieSeen,
    DirectorAction,
    DirectorVerb,
    Event,
    PointSeen,
    Row,
    Seat,
    Tick,
    Touch,
    TouchAction,
    Zone,
)
from kiosk.referee.incidents import INCIDENT_KINDS, Incident

VERSION = 1
Json = dict[str, Any]


class CodecError(ValueError):
    """A dict that is not a valid event, incident or configuration; the message names the field."""


def _field(data: Mapping[str, Any], key: str, path: str) -> Any:
    if not isinstance(data, Mapping):
        raise CodecError(f"{path}: expected an object")
    if key not in data:
        raise CodecError(f"{path}.{key}: missing")
    return data[key]


def _int(value: Any, path: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise CodecError(f"{path}: expected an integer, got {value!r}")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise CodecError(f"{path}: expected true or false, got {value!r}")
    return value


def _choice(value: Any, choices: tuple[Any, ...], path: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if value not in choices:
        raise CodecError(f"{path}: expected one of {', '.join(map(str, choices))}, got {value!r}")
    return value


def _str(value: Any, path: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise CodecError(f"{path}: expected a string, got {value!r}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise CodecError(f"{path}: expected a list")
    return list(value)


def _args(value: Any, path: str) -> Args:
    if not isinstance(value, Mapping):
        raise CodecError(f"{path}: expected an object")
    out = []
    for key, item in value.items():
        if not isinstance(item, str | int | bool) and item is not None:
            raise CodecError(f"{path}.{key}: expected a string, number, true/false or null")
        out.append((str(key), item))
    return tuple(out)


# -- readings -----------------------------------------------------------------------------------


def reading_to_json(reading: BoardReading) -> Json:
    """A reading in the ``gammon-kiosk read --json`` shape (plus the cube's place)."""
    return {
        "points": [
            {
                "point": p.point,
                "color": p.colour,
                "count": p.low if p.low == p.high else None,
                "min": p.low,
                "max": p.high,
            }
            for p in reading.points
        ],
        "bar": {"light": reading.bar[0], "dark": reading.bar[1]},
        "off": {"light": reading.off[0], "dark": reading.off[1]},
        "cube": None
        if reading.cube is None
        else {"value": reading.cube.face, "place": reading.cube.place},
        "occluded": reading.occluded,
    }


def reading_from_json(data: Mapping[str, Any], path: str = "reading") -> BoardReading:
    """Decode :func:`reading_to_json` output or a vision reading's JSON (extra keys ignored)."""
    points = []
    for index, item in enumerate(_list(_field(data, "points", path), f"{path}.points")):
        where = f"{path}.points[{index}]"
        count = _int(item.get("count") if isinstance(item, Mapping) else None, where, True)
        low = count if count is not None else _int(_field(item, "min", where), f"{where}.min")
        high = count if count is not None else _int(_field(item, "max", where), f"{where}.max")
        colour: Colour | None = _choice(
            _field(item, "color", where), ("light", "dark"), f"{where}.color", True
        )
        try:
            points.append(PointSeen(_int(_field(item, "point", where), where), colour, low, high))
        except ValueError as error:
            raise CodecError(f"{where}: {error}") from None
    pairs = []
    for name in ("bar", "off"):
        counts = _field(data, name, path)
        pairs.append(
            tuple(
                _int(_field(counts, c, f"{path}.{name}"), f"{path}.{name}.{c}", True)
                for c in ("light", "dark")
            )
        )
    cube_data = data.get("cube")
    cube = None
    if cube_data is not None:
        places: tuple[CubePlace, ...] = get_args(CubePlace)
        cube = CubeSeen(
            _int(_field(cube_data, "value", f"{path}.cube"), f"{path}.cube.value", True),
            _choice(cube_data.get("place"), places, f"{path}.cube.place", True),
        )
    try:
        return BoardReading(
            points=tuple(points),
            bar=(pairs[0][0], pairs[0][1]),
            off=(pairs[1][0], pairs[1][1]),
            cube=cube,
            occluded=_bool(data.get("occluded", False), f"{path}.occluded"),
        )
    except ValueError as error:
        raise CodecError(f"{path}: {error}") from None


# -- events -------------------------------------------------------------------------------------


def event_to_json(event: Event) -> Json:
    """An event as a JSON dict."""
    head: Json = {"v": VERSION, "t_ms": event.t_ms}
    if isinstance(event, BoardRead):
        return {"kind": "board_read", **head, "reading": reading_to_json(event.reading)}
    if isinstance(event, DiceRead):
        dice = [
            {"value": d.value, "cocked": d.cocked, "zone": d.zone, "row": d.row} for d in event.dice
        ]
        return {"kind": "dice_read", **head, "dice": dice}
    if isinstance(event, ClockPress):
        return {"kind": "clock_press", **head, "side": event.side}
    if isinstance(event, Touch):
        args = dict(event.args)
        return {"kind": "touch", **head, "action": event.action, "side": event.side, "args": args}
    if isinstance(event, DirectorAction):
        return {"kind": "director", **head, "verb": event.verb, "args": dict(event.args)}
    return {"kind": "tick", **head}


def _version(data: Mapping[str, Any], path: str) -> None:
    version = _int(_field(data, "v", path), f"{path}.v")
    if version != VERSION:
        raise CodecError(f"{path}.v: version {version} is not {VERSION}")


def event_from_json(data: Mapping[str, Any], path: str = "event") -> Event:
    """Decode :func:`event_to_json` output."""
    kind = _field(data, "kind", path)
    _version(data, path)
    t_ms = _int(_field(data, "t_ms", path), f"{path}.t_ms")
    if kind == "board_read":
        return BoardRead(reading_from_json(_field(data, "reading", path), f"{path}.reading"), t_ms)
    if kind == "dice_read":
        dice = []
        for index, item in enumerate(_list(_field(data, "dice", path), f"{path}.dice")):
            where = f"{path}.dice[{index}]"
            value = _int(_field(item, "value", where), f"{where}.value", True)
            if value is not None and not 1 <= value <= 6:
                raise CodecError(f"{where}.value: must be 1-6, got {value}")
            zones: tuple[Zone, ...] = get_args(Zone)
            rows: tuple[Row, ...] = get_args(Row)
            dice.append(
                DieSeen(
                    value,
                    _bool(_field(item, "cocked", where), f"{where}.cocked"),
                    _choice(_field(item, "zone", where), zones, f"{where}.zone"),
                    _choice(item.get("row"), rows, f"{where}.row", True),
                )
            )
        return DiceRead(tuple(dice), t_ms)
    if kind == "clock_press":
        sides: tuple[ButtonSide, ...] = get_args(ButtonSide)
        return ClockPress(_choice(_field(data, "side", path), sides, f"{path}.side"), t_ms)
    if kind == "touch":
        actions: tuple[TouchAction, ...] = get_args(TouchAction)
        seats: tuple[Seat, ...] = get_args(Seat)
        return Touch(
            _choice(_field(data, "action", path), actions, f"{path}.action"),
            _choice(_field(data, "side", path), seats, f"{path}.side"),
            t_ms,
            _args(data.get("args", {}), f"{path}.args"),
        )
    if kind == "director":
        verbs: tuple[DirectorVerb, ...] = get_args(DirectorVerb)
        return DirectorAction(
            _choice(_field(data, "verb", path), verbs, f"{path}.verb"),
            t_ms,
            _args(data.get("args", {}), f"{path}.args"),
        )
    if kind == "tick":
        return Tick(t_ms)
    raise CodecError(f"{path}.kind: not an event kind: {kind!r}")


# -- incidents ----------------------------------------------------------------------------------

_INCIDENT_FIELDS: dict[str, tuple[str, bool]] = {
    "rule": ("str", False),
    "detail": ("str", False),
    "player": ("player", True),
    "on_roll": ("player", True),
    "position_id": ("str", True),
    "play_seen": ("str", True),
    "seen_position_id": ("str", True),
    "snapshot": ("str", True),
}


def incident_to_json(incident: Incident) -> Json:
    """An incident as a JSON dict; its own kind is ``incident``."""
    body = asdict(incident)
    body["incident"] = body.pop("kind")
    body["dice"] = list(incident.dice) if incident.dice is not None else None
    body["legal_plays"] = list(incident.legal_plays)
    return {"kind": "incident", "v": VERSION, **body}


def incident_from_json(data: Mapping[str, Any], path: str = "incident") -> Incident:
    """Decode :func:`incident_to_json` output."""
    if _field(data, "kind", path) != "incident":
        raise CodecError(f"{path}.kind: expected 'incident'")
    _version(data, path)
    kind = _choice(
        _field(data, "incident", path), tuple(sorted(INCIDENT_KINDS)), f"{path}.incident"
    )
    fields: dict[str, Any] = {}
    for name, (kind_of, optional) in _INCIDENT_FIELDS.items():
        value = data.get(name)
        where = f"{path}.{name}"
        if kind_of == "player":
            fields[name] = _choice(value, (0, 1), where, optional)
        else:
            fields[name] = _str(value, where, optional)
    dice = data.get("dice")
    if dice is not None:
        values = [_int(d, f"{path}.dice") for d in _list(dice, f"{path}.dice")]
        if len(values) != 2:
            raise CodecError(f"{path}.dice: expected two values")
        dice = (values[0], values[1])
    plays = tuple(
        _str(p, f"{path}.legal_plays")
        for p in _list(data.get("legal_plays", []), f"{path}.legal_plays")
    )
    return Incident(
        id=_int(_field(data, "id", path), f"{path}.id"),
        kind=kind,
        t_ms=_int(_field(data, "t_ms", path), f"{path}.t_ms"),
        game=_int(_field(data, "game", path), f"{path}.game"),
        dice=dice,
        legal_plays=plays,
        announced=_bool(data.get("announced", True), f"{path}.announced"),
        **fields,
    )


# -- configuration ------------------------------------------------------------------------------


def config_to_json(config: RefereeConfig) -> Json:
    """A configuration as a JSON dict."""
    body = asdict(config)
    body["overrides"] = dict(config.overrides)
    body["score"] = list(config.score)
    body["policy_overrides"] = dict(config.policy_overrides)
    return {"kind": "config", "v": VERSION, **body}


def config_from_json(data: Mapping[str, Any], path: str = "config") -> RefereeConfig:
    """Decode :func:`config_to_json` output (missing fields take their defaults)."""
    if _field(data, "kind", path) != "config":
        raise CodecError(f"{path}.kind: expected 'config'")
    _version(data, path)
    defaults = RefereeConfig()
    score = _list(data.get("score", list(defaults.score)), f"{path}.score")
    if len(score) != 2:
        raise CodecError(f"{path}.score: expected two scores")
    homes: tuple[Home, ...] = get_args(Home)
    modes: tuple[Mode, ...] = get_args(Mode)
    policy_overrides = tuple(
        (str(k), _choice(v, modes, f"{path}.policy_overrides.{k}"))
        for k, v in dict(data.get("policy_overrides", {})).items()
    )
    try:
        return RefereeConfig(
            ruleset=_str(data.get("ruleset", defaults.ruleset), f"{path}.ruleset"),
            overrides=_args(data.get("overrides", {}), f"{path}.overrides"),
            match_length=_int(
                data.get("match_length", defaults.match_length), f"{path}.match_length"
            ),
            score=(_int(score[0], f"{path}.score"), _int(score[1], f"{path}.score")),
            clocks=_bool(data.get("clocks", defaults.clocks), f"{path}.clocks"),
            reserve_ms=_int(data.get("reserve_ms"), f"{path}.reserve_ms", True),
            player0_home=_choice(
                data.get("player0_home", defaults.player0_home), homes, f"{path}.player0_home"
            ),
            player0_colour=_choice(
                data.get("player0_colour", defaults.player0_colour),
                ("light", "dark"),
                f"{path}.player0_colour",
            ),
            player0_seat=_choice(
                data.get("player0_seat", defaults.player0_seat),
                ("left", "right"),
                f"{path}.player0_seat",
            ),
            policy=_choice(data.get("policy", defaults.policy), modes, f"{path}.policy"),
            policy_overrides=policy_overrides,
        )
    except ValueError as error:
        raise CodecError(str(error)) from None
