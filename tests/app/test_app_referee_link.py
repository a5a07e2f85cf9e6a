"""RefereeLink: the app's sources and sinks over a scripted referee."""

from __future__ import annotations

from kivy.tests.common import GraphicUnitTest, UnitTestTouch

from kiosk.app.actions import ActionKind, DirectorAction, DirectorActionKind, PlayerAction
from kiosk.app.director import parse_director_snapshot
from kiosk.app.main import KioskApp
from kiosk.app.referee_link import TICK_MS, RefereeLink
from kiosk.app.snapshot import parse_snapshot
from kiosk.referee import Event, RefereeStep
from tests.referee.table import Table, config


class Clock:
    def __init__(self, t_ms: int) -> None:
        self.t_ms = t_ms

    def __call__(self) -> int:
        return self.t_ms


def _illegal_link() -> tuple[RefereeLink, Clock, list[Event], list[str]]:
    table = Table(config("mso"))
    table.opening(winner=0, high=5, low=2)
    table.play_board(table.moved(0, {13: -1, 7: +1}))
    clock = Clock(table.t_ms + 100)
    events: list[Event] = []
    exports: list[str] = []

    def journal(event: Event, _result: RefereeStep) -> None:
        events.append(event)

    link = RefereeLink(
        table.state,
        ("Aiko", "Ben"),
        clock_ms=clock,
        on_step=journal,
        on_export=lambda: exports.append("mat"),
    )
    return link, clock, events, exports


def test_snapshots_come_only_when_the_screen_would_change() -> None:
    link, clock, _events, _exports = _illegal_link()
    first = link.table_snapshot()
    assert first is not None
    assert parse_snapshot(first).prompt.kind == "illegal_move"
    assert link.table_snapshot() is None
    clock.t_ms += 1_000  # the clocks move on: a new picture
    later = link.table_snapshot()
    assert later is not None
    assert later["clock"] != first["clock"]
    director = link.director_snapshot()
    assert director is not None
    assert parse_director_snapshot(director).incidents[-1].kind == "illegal_move"
    assert link.director_snapshot() is None


def test_touches_ticks_and_director_actions_reach_the_referee() -> None:
    link, clock, events, exports = _illegal_link()
    opponent_side = link.seating.side(1)
    link.touch(PlayerAction(ActionKind.DEMAND_LEGAL, opponent_side))
    assert link.state.incidents[-1].kind == "illegal_move_replay"
    snapshot = link.table_snapshot()
    assert snapshot is not None
    assert parse_snapshot(snapshot).prompt.kind != "illegal_move"
    link.poll()  # less than TICK_MS since the last event: no tick
    assert len(events) == 1
    clock.t_ms += TICK_MS
    link.poll()
    assert type(events[-1]).__name__ == "Tick"
    link.director(DirectorAction(DirectorActionKind.ADJUST_SCORE, side=opponent_side, delta=1))
    assert link.state.match.score == (0, 1)
    link.director(DirectorAction(DirectorActionKind.EXPORT_MAT))
    assert exports == ["mat"]


class KioskOverRefereeTest(GraphicUnitTest):  # type: ignore[misc]
    """The whole app over a referee: the opponent's touch on the screen reaches the referee."""

    def test_demanding_a_legal_move_on_the_screen(self) -> None:
        self.Window.size = (800, 480)
        self.Window.create_window()
        link, _clock, _events, _exports = _illegal_link()
        app = KioskApp(
            table_source=link.table_snapshot,
            director_source=link.director_snapshot,
            sink=link.touch,
            director_sink=link.director,
            pin="2468",
            poll=link.poll,
        )
        root = app.build()
        self.render(root)
        self.advance_frames(3)
        card = root.get_screen("table").card_view
        assert card is not None
        assert card.body.startswith("A 6 was played with 5-2")
        demand = next(w for w in card.walk() if getattr(w, "text", "") == "Demand a legal move")
        touch = UnitTestTouch(*demand.to_window(*demand.center))
        touch.touch_down()
        touch.touch_up()
        self.advance_frames(3)
        assert link.state.incidents[-1].kind == "illegal_move_replay"
        app.pump()
        self.advance_frames(2)
        after = root.get_screen("table").card_view
        assert after is not None
        assert after.title == "Aiko: play 5-2 again, legally"  # the referee's words, named
        app.on_stop()
