"""The kiosk's Kivy app: models + screens, fed by injected sources once per frame.

The caller (``gammon-kiosk run``) owns the referee, the store and the hardware; it hands the app:

- ``table_source()`` / ``director_source()``: the latest snapshot dicts (formats in
  :mod:`kiosk.app.snapshot` and :mod:`kiosk.app.director`), or None when nothing changed;
- ``poll()``: called first in every frame (e.g. ``buttons.poll()`` and feeding the referee);
- ``sink`` / ``director_sink``: where touches go, as action objects;
- ``attach_keyboard(window)``: e.g. ``KeyboardButtons(...).attach_kivy`` on a PC.

A snapshot that does not follow its format is logged (once per distinct message) and the screen
keeps showing the previous one: bad input never takes the kiosk down.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.logger import Logger

from kiosk.app.actions import ActionSink, DirectorSink
from kiosk.app.compose import build_screens
from kiosk.app.errors import SnapshotError
from kiosk.app.model import DirectorModel, TableModel, apply_director_snapshot, apply_snapshot

SnapshotSource = Callable[[], Mapping[str, object] | None]
FRAME_S = 1 / 30  # the UI loop's period: one screen frame at 30 fps


class KioskApp(App):  # type: ignore[misc]
    """Table view, PIN pad and director view over :class:`TableModel` / :class:`DirectorModel`."""

    title = "gammon-kiosk"

    def __init__(
        self,
        *,
        table_source: SnapshotSource,
        sink: ActionSink,
        pin: str,
        director_source: SnapshotSource | None = None,
        director_sink: DirectorSink | None = None,
        poll: Callable[[], None] | None = None,
        attach_keyboard: Callable[[Any], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.table = TableModel()
        self.director = DirectorModel()
        self._table_source = table_source
        self._director_source = director_source
        self._sink = sink
        self._director_sink = director_sink or (lambda _action: None)
        self._pin = pin
        self._poll = poll
        self._attach_keyboard = attach_keyboard
        self.last_error = ""
        self._frames: Any = None

    def build(self) -> Any:
        """The screens, with the first snapshots applied and the frame loop scheduled."""
        root = build_screens(
            self.table,
            self.director,
            sink=self._sink,
            director_sink=self._director_sink,
            pin=self._pin,
        )
        if self._attach_keyboard is not None:
            from kivy.core.window import Window

            self._attach_keyboard(Window)
        self.pump()
        self._frames = Clock.schedule_interval(lambda _dt: self.pump(), FRAME_S)
        return root

    def on_stop(self) -> None:
        """Stop the frame loop."""
        if self._frames is not None:
            self._frames.cancel()
            self._frames = None

    def pump(self) -> None:
        """One frame: poll the inputs, then show the latest snapshots."""
        if self._poll is not None:
            self._poll()
        self._apply(self._table_source, lambda data: apply_snapshot(self.table, data))
        if self._director_source is not None:
            self._apply(
                self._director_source, lambda data: apply_director_snapshot(self.director, data)
            )

    def _apply(self, source: SnapshotSource, fill: Callable[[Mapping[str, object]], None]) -> None:
        data = source()
        if data is None:
            return
        try:
            fill(data)
        except SnapshotError as error:
            message = f"kiosk: snapshot ignored: {error}"
            if message != self.last_error:
                Logger.error(message)
            self.last_error = message
