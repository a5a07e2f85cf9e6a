"""The director's snapshot: incidents and match settings, parsed from a plain dict (no Kivy).

Only the PIN-protected director view shows this; it is where the legal plays belong
(MSO 1.5, JBL 1.9 forbid them at the table)::

    {
      "incidents": [
        {"id": 3, "kind": "illegal_move", "rule": "MSO 4.8", "t_ms": 754000, "side": 0,
         "dice": [5, 2], "play_seen": "13/7 6/4", "legal_plays": ["13/8 6/4", "13/11 13/8"],
         "position_id": "4HPwATDgc/ABMA", "snapshot": "/var/lib/kiosk/snap/3.jpg",
         "board": {...board as in kiosk.app.boardview...}, "ruling": null}
      ],
      "settings": {"ruleset": "mso", "match_length": 7, "clock": true, "delay_s": 12,
                   "announce": true},
      "export": {"path": "/var/lib/kiosk/exports/match-3-20261129.mat", "error": null}
    }

``side``, ``dice``, ``play_seen``, ``legal_plays``, ``position_id``, ``snapshot`` (an image
path), ``board`` and ``ruling`` may be null or absent. ``export`` (absent or null before any
export): the last ``.mat`` export, the file written or why it could not be. Bad input raises
SnapshotError naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, cast

from kiosk.app.boardview import BoardView, parse_board
from kiosk.app.errors import SnapshotError
from kiosk.app.values import (
    get_bool,
    get_int,
    get_int_list,
    get_map,
    get_optional_str,
    get_seq,
    get_side,
    get_str,
)


@dataclass(frozen=True)
class IncidentView:
    """One incident as the director reviews it."""

    id: int
    kind: str
    rule: str
    t_ms: int
    side: Literal[0, 1] | None = None
    dice: tuple[int, ...] = ()
    play_seen: str = ""
    legal_plays: tuple[str, ...] = ()
    position_id: str = ""
    snapshot: str = ""
    board: BoardView | None = None
    ruling: str = ""


@dataclass(frozen=True)
class MatchSettings:
    """The rule set and match settings in force."""

    ruleset: str = ""
    match_length: int = 0
    clock: bool = True
    delay_s: int = 12
    announce: bool = True


@dataclass(frozen=True)
class DirectorSnapshot:
    """Everything the director's view shows."""

    incidents: tuple[IncidentView, ...] = ()
    settings: MatchSettings = MatchSettings()
    export_path: str = ""
    export_error: str = ""


def parse_director_snapshot(data: Mapping[str, object]) -> DirectorSnapshot:
    """The director snapshot in ``data`` (format in the module docstring)."""
    if not isinstance(data, Mapping):
        raise SnapshotError("director: expected an object")
    items = get_seq(data, "incidents", "incidents", maps=True)
    incidents = tuple(
        _incident(cast(Mapping[str, object], item), f"incidents[{i}]")
        for i, item in enumerate(items)
    )
    ids = [incident.id for incident in incidents]
    if len(set(ids)) != len(ids):
        raise SnapshotError("incidents: two incidents share an id")
    settings = get_map(data, "settings", "settings")
    export = data.get("export")
    if export is not None and not isinstance(export, Mapping):
        raise SnapshotError("export: expected an object or null")
    export = export or {}
    return DirectorSnapshot(
        incidents=incidents,
        settings=MatchSettings(
            ruleset=get_str(settings, "ruleset", "settings.ruleset"),
            match_length=get_int(settings, "match_length", "settings.match_length", low=0),
            clock=get_bool(settings, "clock", "settings.clock"),
            delay_s=get_int(settings, "delay_s", "settings.delay_s", low=0),
            announce=get_bool(settings, "announce", "settings.announce"),
        ),
        export_path=get_optional_str(export, "path", "export.path") or "",
        export_error=get_optional_str(export, "error", "export.error") or "",
    )


def _incident(item: Mapping[str, object], where: str) -> IncidentView:
    board = item.get("board")
    if board is not None and not isinstance(board, Mapping):
        raise SnapshotError(f"{where}.board: expected an object or null")
    plays = item.get("legal_plays") or []
    if not isinstance(plays, list) or not all(isinstance(p, str) for p in plays):
        raise SnapshotError(f"{where}.legal_plays: expected a list of strings")
    return IncidentView(
        id=get_int(item, "id", f"{where}.id", low=0),
        kind=get_str(item, "kind", f"{where}.kind"),
        rule=get_str(item, "rule", f"{where}.rule"),
        t_ms=get_int(item, "t_ms", f"{where}.t_ms", low=0),
        side=get_side(item, "side", f"{where}.side"),
        dice=()
        if item.get("dice") is None
        else get_int_list(item, "dice", f"{where}.dice", low=1, high=6, length=2),
        play_seen=get_optional_str(item, "play_seen", f"{where}.play_seen") or "",
        legal_plays=tuple(plays),
        position_id=get_optional_str(item, "position_id", f"{where}.position_id") or "",
        snapshot=get_optional_str(item, "snapshot", f"{where}.snapshot") or "",
        board=None if board is None else parse_board(board, f"{where}.board"),
        ruling=get_optional_str(item, "ruling", f"{where}.ruling") or "",
    )
