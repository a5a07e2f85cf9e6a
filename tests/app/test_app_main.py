"""KioskApp composes models and screens and is fed by injected sources, frame by frame."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.app.actions import ActionKind, PlayerAction
from kiosk.app.main import KioskApp
from tests.app import samples


class Feed:
    """A snapshot source returning queued snapshots, then None (nothing new)."""

    def __init__(self, *snapshots: Mapping[str, Any]) -> None:
        self.queue = list(snapshots)

    def __call__(self) -> Mapping[str, Any] | None:
        return self.queue.pop(0) if self.queue else None


def test_app_shows_snapshots_polls_and_passes_touches() -> None:
    actions: list[PlayerAction] = []
    polls: list[int] = []
    windows: list[object] = []
    feed = Feed(samples.table())
    director_feed = Feed(samples.director())
    app = KioskApp(
        table_source=feed,
        director_source=director_feed,
        sink=actions.append,
        pin="1357",
        poll=lambda: polls.append(1),
        attach_keyboard=windows.append,
    )
    root = app.build()
    assert root.current == "table"
    assert app.table.player(0).name == "Aiko"
    assert len(app.director.incidents) == 2
    assert polls == [1]
    assert len(windows) == 1
    feed.queue.append(samples.table(turn=1))
    app.pump()
    assert app.table.turn == 1
    root.get_screen("table").emit(PlayerAction(ActionKind.DICE_MIX, 1))
    assert actions == [PlayerAction(ActionKind.DICE_MIX, 1)]
    app.on_stop()


def test_a_bad_snapshot_is_reported_and_the_screen_keeps_the_last_good_one() -> None:
    feed = Feed(samples.table())
    app = KioskApp(table_source=feed, sink=lambda _a: None, pin="1357")
    app.build()
    feed.queue.append(samples.table(cube={"value": 3, "owner": None}))
    app.pump()
    assert "cube.value: expected a power of two" in app.last_error
    assert app.table.cube.value == 2
    app.on_stop()
