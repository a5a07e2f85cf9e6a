"""The screens' models: Kivy EventDispatchers with no widgets, filled from plain-dict snapshots.

:class:`TableModel` holds what the players' screen shows, :class:`DirectorModel` what the
director's view shows. Widgets and ``.kv`` rules bind to their properties; the models are
filled by :func:`apply_snapshot` / :func:`apply_director_snapshot` from the dict formats
documented in :mod:`kiosk.app.snapshot` and :mod:`kiosk.app.director`, so they can be tested
headless and the referee's view only has to produce a dict.
"""

from __future__ import annotations

from collections.abc import Mapping

from kivy.event import EventDispatcher
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)

from kiosk.app.boardview import BoardView
from kiosk.app.director import (
    DirectorSnapshot,
    IncidentView,
    MatchSettings,
    parse_director_snapshot,
)
from kiosk.app.i18n import LANGUAGES
from kiosk.app.prompts import NO_PROMPT
from kiosk.app.snapshot import PlayerView, TableSnapshot, parse_snapshot


class TableModel(EventDispatcher):  # type: ignore[misc]
    """What the players' screen shows. Times in ms; sides 0 (left) and 1 (right)."""

    players = ListProperty(list(TableSnapshot().players))
    clock_enabled = BooleanProperty(True)
    allowance_ms = NumericProperty(12_000)
    allowance_left_ms = NumericProperty(12_000)
    reserves_ms = ListProperty([0, 0])
    running = ObjectProperty(None, allownone=True)
    flag = ObjectProperty(None, allownone=True)
    match = ObjectProperty(TableSnapshot().match)
    cube = ObjectProperty(TableSnapshot().cube)
    turn = ObjectProperty(None, allownone=True)
    dice = ListProperty([])
    board = ObjectProperty(BoardView())
    prompt = ObjectProperty(NO_PROMPT)
    language = OptionProperty("en", options=list(LANGUAGES))

    def player(self, side: int) -> PlayerView:
        """Player ``side``'s name and colour."""
        view: PlayerView = self.players[side]
        return view

    def toggle_language(self) -> None:
        """Switch to the next language (English <-> Japanese)."""
        index = LANGUAGES.index(self.language)
        self.language = LANGUAGES[(index + 1) % len(LANGUAGES)]


def fill_table(model: TableModel, snapshot: TableSnapshot) -> None:
    """Copy ``snapshot`` into ``model`` (a property is only dispatched when its value changes)."""
    model.players = list(snapshot.players)
    model.clock_enabled = snapshot.clock.enabled
    model.allowance_ms = snapshot.clock.allowance_ms
    model.allowance_left_ms = snapshot.clock.allowance_left_ms
    model.reserves_ms = list(snapshot.clock.reserves_ms)
    model.running = snapshot.clock.running
    model.flag = snapshot.clock.flag
    model.match = snapshot.match
    model.cube = snapshot.cube
    model.turn = snapshot.turn
    model.dice = list(snapshot.dice)
    model.board = snapshot.board
    model.prompt = snapshot.prompt
    if snapshot.language is not None:
        model.language = snapshot.language


def apply_snapshot(model: TableModel, data: Mapping[str, object]) -> None:
    """Fill ``model`` from a table snapshot dict; on SnapshotError the model is left as is."""
    fill_table(model, parse_snapshot(data))


class DirectorModel(EventDispatcher):  # type: ignore[misc]
    """What the director's view shows: incidents (one selected), the match settings and the
    last ``.mat`` export (the file written, or why it could not be)."""

    incidents = ListProperty([])
    selected = ObjectProperty(None, allownone=True)
    settings = ObjectProperty(MatchSettings())
    export_path = StringProperty("")
    export_error = StringProperty("")

    def select(self, incident_id: int | None) -> None:
        """Select the incident with ``incident_id`` (None clears the selection)."""
        self.selected = next((i for i in self.incidents if i.id == incident_id), None)


def fill_director(model: DirectorModel, snapshot: DirectorSnapshot) -> None:
    """Copy ``snapshot`` into ``model``, keeping the selected incident (by id) when it remains."""
    current: IncidentView | None = model.selected
    model.incidents = list(snapshot.incidents)
    model.settings = snapshot.settings
    model.export_path = snapshot.export_path
    model.export_error = snapshot.export_error
    model.select(None if current is None else current.id)


def apply_director_snapshot(model: DirectorModel, data: Mapping[str, object]) -> None:
    """Fill ``model`` from a director snapshot dict (SnapshotError names a bad field)."""
    fill_director(model, parse_director_snapshot(data))
