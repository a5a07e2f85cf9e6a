"""The director's screens: a PIN pad, then incidents, rulings, corrections and settings.

Layout in ``director.kv``. The director's view is where legal plays are shown (MSO 1.5 and
JBL 1.9 keep them off the players' screen). Every touch emits a
:class:`~kiosk.app.actions.DirectorAction` to ``sink``; the screen itself changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from kiosk.app.actions import RULESETS, RULINGS, DirectorAction, DirectorActionKind
from kiosk.app.i18n import tr
from kiosk.app.model import DirectorModel, TableModel
from kiosk.app.pin import PinPad
from kiosk.app.texts import format_reserve, incident_detail, incident_title, settings_text

CLOCK_STEP_MS = 60_000  # one touch adds or removes a minute (MSO-clock: director's adjustment)


def _drop(_action: DirectorAction) -> None:
    """The default sink: a screen built without one drops its actions."""


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class PinScreen(Screen):  # type: ignore[misc]
    """A PIN pad; ``unlock`` is called on the right PIN, ``cancel`` on Cancel."""

    model = ObjectProperty(None)
    pin = StringProperty("")
    dots = StringProperty("")
    message = StringProperty("")
    unlock = ObjectProperty(None, allownone=True)
    cancel = ObjectProperty(None, allownone=True)

    def __init__(self, clock_ms: Callable[[], int] = _monotonic_ms, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._clock_ms = clock_ms
        self._pad = PinPad()

    def press(self, key: str) -> None:
        """A key of the pad: a digit, ``back`` or ``ok``."""
        language = self.model.language
        if key == "back":
            self._pad = self._pad.erase()
        elif key == "ok":
            self._pad, result = self._pad.submit(self.pin, self._clock_ms())
            self.message = {
                "accepted": "",
                "rejected": tr(language, "Wrong PIN"),
                "locked": tr(language, "Too many tries: wait 30 s"),
            }[result]
            if result == "accepted" and self.unlock is not None:
                self.unlock()
        else:
            self._pad = self._pad.type(key)
        self.dots = "●" * len(self._pad.digits)

    def leave(self) -> None:
        """Cancel: clear the pad and go back."""
        self._pad = PinPad(failures=self._pad.failures, unlock_at_ms=self._pad.unlock_at_ms)
        self.dots = self.message = ""
        if self.cancel is not None:
            self.cancel()


class DirectorScreen(Screen):  # type: ignore[misc]
    """Incidents (with snapshot image and diagram), rulings, corrections, settings, export."""

    model = ObjectProperty(None)
    table = ObjectProperty(None)
    sink = ObjectProperty(_drop)
    leave = ObjectProperty(None, allownone=True)
    detail_text = StringProperty("")
    settings_label = StringProperty("")
    snapshot_path = StringProperty("")
    clock_text = StringProperty("")
    score_text = StringProperty("")
    export_text = StringProperty("")
    page = StringProperty("incidents")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("model", DirectorModel())
        kwargs.setdefault("table", TableModel())
        super().__init__(**kwargs)
        self.model.bind(
            incidents=self.refresh,
            selected=self.refresh,
            settings=self.refresh,
            export_path=self.refresh,
            export_error=self.refresh,
        )
        self.table.bind(
            language=self.refresh,
            reserves_ms=self.refresh,
            match=self.refresh,
            players=self.refresh,
        )
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Rebuild the incident list and recompute the texts."""
        model: DirectorModel = self.model
        table: TableModel = self.table
        language = table.language
        players = table.players
        listing = self.ids.incidents
        listing.clear_widgets()
        for incident in reversed(model.incidents):
            button = Button(
                text=incident_title(language, incident),
                size_hint_y=None,
                height="56dp",
                font_size="17sp",
                halign="left",
                valign="middle",
                background_normal="",
                background_color=(0.3, 0.4, 0.6, 1)
                if model.selected is not None and model.selected.id == incident.id
                else (0.2, 0.2, 0.24, 1),
            )
            button.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - 16, None)))
            button.bind(on_release=lambda _b, i=incident.id: model.select(i))
            listing.add_widget(button)
        selected = model.selected
        if selected is None:
            self.detail_text = tr(language, "Choose an incident on the left")
            self.snapshot_path = ""
        else:
            self.detail_text = incident_detail(language, selected, players)
            path = selected.snapshot
            self.snapshot_path = path if path and Path(path).is_file() else ""
        diagram = self.ids.diagram
        if selected is not None and selected.board is not None:
            diagram.board = selected.board
        diagram.opacity = 1 if selected is not None and selected.board is not None else 0
        self.settings_label = settings_text(language, model.settings)
        self.clock_text = "   ".join(
            f"{p.name} {format_reserve(int(ms))}"
            for p, ms in zip(players, table.reserves_ms, strict=True)
        )
        self.score_text = "   ".join(
            f"{p.name} {s}" for p, s in zip(players, table.match.score, strict=True)
        )
        if model.export_error:
            self.export_text = tr(language, "Not exported: {error}").format(
                error=model.export_error
            )
        elif model.export_path:
            self.export_text = tr(language, "Exported: {path}").format(path=model.export_path)
        else:
            self.export_text = ""

    def on_page(self, _screen: DirectorScreen, page: str) -> None:
        """Show the ``incidents`` or the ``match`` page."""
        self.ids.pages.current = page

    def rule(self, ruling: str) -> None:
        """Rule on the selected incident (nothing happens with none selected)."""
        if ruling not in RULINGS:
            raise ValueError(f"ruling: expected one of {', '.join(RULINGS)}, got {ruling!r}")
        selected = self.model.selected
        if selected is not None:
            self.sink(DirectorAction(DirectorActionKind.RULE, selected.id, ruling=ruling))

    def adjust_clock(self, side: int, minutes: int) -> None:
        """Add ``minutes`` (negative: remove) to ``side``'s reserve."""
        self.sink(
            DirectorAction(
                DirectorActionKind.ADJUST_CLOCK,
                side=0 if side == 0 else 1,
                delta=minutes * CLOCK_STEP_MS,
            )
        )

    def adjust_score(self, side: int, points: int) -> None:
        """Add ``points`` (negative: remove) to ``side``'s score."""
        self.sink(
            DirectorAction(
                DirectorActionKind.ADJUST_SCORE, side=0 if side == 0 else 1, delta=points
            )
        )

    def set_ruleset(self, name: str) -> None:
        """Play on under rule set ``name`` (one of :data:`~kiosk.app.actions.RULESETS`)."""
        if name not in RULESETS:
            raise ValueError(f"rule set: expected one of {', '.join(RULESETS)}, got {name!r}")
        self.sink(DirectorAction(DirectorActionKind.SET_RULESET, name=name))

    def export_mat(self) -> None:
        """Ask for the match record as a ``.mat`` file."""
        self.sink(DirectorAction(DirectorActionKind.EXPORT_MAT))

    def resume(self) -> None:
        """Restart the clocks after a call, a break or a dispute."""
        self.sink(DirectorAction(DirectorActionKind.RESUME))

    def back(self) -> None:
        """Return to the table view."""
        if self.leave is not None:
            self.leave()
