"""The screens put together: table view, PIN pad and director view in one ScreenManager."""

from __future__ import annotations

from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.app.actions import ActionSink, DirectorSink
from kiosk.app.director_view import DirectorScreen, PinScreen
from kiosk.app.model import DirectorModel, TableModel
from kiosk.app.table import TableScreen
from kiosk.app.ui import load_kv


def build_screens(
    table: TableModel,
    director: DirectorModel,
    *,
    sink: ActionSink,
    director_sink: DirectorSink,
    pin: str,
) -> ScreenManager:
    """Screens ``table``, ``pin`` and ``director``; the director's view needs ``pin``."""
    if not pin.isdigit():
        raise ValueError("director PIN: expected digits only")
    load_kv()
    manager = ScreenManager(transition=NoTransition())

    def show(name: str) -> None:
        manager.current = name

    manager.add_widget(
        TableScreen(name="table", model=table, sink=sink, director_opener=lambda: show("pin"))
    )
    manager.add_widget(
        PinScreen(
            name="pin",
            model=table,
            pin=pin,
            unlock=lambda: show("director"),
            cancel=lambda: show("table"),
        )
    )
    manager.add_widget(
        DirectorScreen(
            name="director",
            model=director,
            table=table,
            sink=director_sink,
            leave=lambda: show("table"),
        )
    )
    return manager
