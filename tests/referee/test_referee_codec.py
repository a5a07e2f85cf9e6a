"""Events, incidents and configurations survive a JSON round trip; bad dicts are named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.referee import (
    BoardRead,
    BoardReading,
    ClockPress,
    CubeSeen,
    DiceRead,
    DieSeen,
    DirectorAction,
    PointSeen,
    RefereeConfig,
    Tick,
    Touch,
)
from kiosk.referee.codec import (
    CodecError,
    config_from_json,
    config_to_json,
    event_from_json,
    event_to_json,
    incident_from_json,
    incident_to_json,
    reading_from_json,
)
from kiosk.referee.events import DirectorVerb, TouchAction
from tests.referee.table import Table, config
from tests.referee.test_referee_irregularities import _illegal_opening

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**9), 10**9), st.text(max_size=8))
args = st.dictionaries(st.text(min_size=1, max_size=12), scalars, max_size=3).map(
    lambda d: tuple(d.items())
)
times = st.integers(0, 10**12)


@st.composite
def readings(draw: st.DrawFn) -> BoardReading:
    points = []
    for point in range(1, 25):
        low = draw(st.integers(0, 15))
        high = draw(st.integers(low, 15))
        colour = draw(st.sampled_from([None, "light", "dark"]))
        points.append(PointSeen(point, colour, low, high))
    counts = st.one_of(st.none(), st.integers(0, 15))
    cube = draw(
        st.one_of(
            st.none(),
            st.builds(
                CubeSeen,
                st.one_of(st.none(), st.sampled_from([1, 2, 4, 64])),
                st.sampled_from([None, "centre", "top", "bottom", "off-board"]),
            ),
        )
    )
    return BoardReading(
        tuple(points),
        (draw(counts), draw(counts)),
        (draw(counts), draw(counts)),
        cube,
        draw(st.booleans()),
    )


dice = st.builds(
    DieSeen,
    st.one_of(st.none(), st.integers(1, 6)),
    st.booleans(),
    st.sampled_from(["left-half", "right-half", "on-bar", "off-board"]),
    st.sampled_from([None, "top", "bottom"]),
)
events = st.one_of(
    st.builds(BoardRead, readings(), times),
    st.builds(DiceRead, st.lists(dice, max_size=4).map(tuple), times),
    st.builds(ClockPress, st.sampled_from(["left", "right", "centre"]), times),
    st.builds(
        Touch,
        st.sampled_from(TouchAction.__args__),  # type: ignore[attr-defined]
        st.sampled_from(["left", "right"]),
        times,
        args,
    ),
    st.builds(
        DirectorAction,
        st.sampled_from(DirectorVerb.__args__),  # type: ignore[attr-defined]
        times,
        args,
    ),
    st.builds(Tick, times),
)


@given(events)
def test_event_round_trip(event: object) -> None:
    """Every event kind comes back equal from its JSON text."""
    data = event_to_json(event)  # type: ignore[arg-type]
    assert data["v"] == 1
    assert event_from_json(json.loads(json.dumps(data))) == event


def test_incident_round_trip() -> None:
    """Incidents of a scripted match come back equal, with their play seen and legal plays."""
    table = Table(config("mso"))
    _illegal_opening(table)
    table.dice(6, 4, cocked=True)
    assert len(table.state.incidents) == 2
    for incident in table.state.incidents:
        data = json.loads(json.dumps(incident_to_json(incident)))
        assert data["kind"] == "incident"
        assert incident_from_json(data) == incident


@given(
    st.builds(
        RefereeConfig,
        ruleset=st.sampled_from(["mso", "biba", "ga", "jbl", "money"]),
        overrides=st.just((("clock.delay_s", 10),)),
        match_length=st.integers(1, 25),
        clocks=st.booleans(),
        reserve_ms=st.one_of(st.none(), st.integers(1, 10**8)),
        player0_home=st.sampled_from(["bottom-right", "bottom-left", "top-right", "top-left"]),
        player0_colour=st.sampled_from(["light", "dark"]),
        player0_seat=st.sampled_from(["left", "right"]),
        policy=st.sampled_from(["announce", "silent"]),
        policy_overrides=st.just((("illegal_move", "silent"),)),
    )
)
def test_config_round_trip(configuration: RefereeConfig) -> None:
    """A configuration comes back equal."""
    data = json.loads(json.dumps(config_to_json(configuration)))
    assert config_from_json(data) == configuration


def test_vision_reading_json_decodes() -> None:
    """A ``gammon-kiosk read --json`` reading decodes as is (DESIGN.md section 4)."""
    points = [{"point": p, "color": None, "count": 0, "min": 0, "max": 0} for p in range(1, 25)]
    points[5] = {"point": 6, "color": "dark", "count": None, "min": 3, "max": 5}
    vision = {
        "board": {"found": True, "corners": [[0, 0], [1, 0], [1, 1], [0, 1]]},
        "points": points,
        "bar": {"light": 0, "dark": 0},
        "off": {"light": None, "dark": None},
        "dice": [{"value": 5, "center": [1, 2], "zone": "right-half", "cocked": False}],
        "cube": {"value": 64, "center": [3, 4]},
        "occluded": False,
        "ms": 12.5,
    }
    reading = reading_from_json(vision)
    assert reading.points[5] == PointSeen(6, "dark", 3, 5)
    assert reading.off == (None, None)
    assert reading.cube == CubeSeen(64, None)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "tick", "v": 1}, "event.t_ms"),
        ({"kind": "tick", "v": 2, "t_ms": 1}, "event.v"),
        ({"kind": "jump", "v": 1, "t_ms": 1}, "event.kind"),
        ({"kind": "clock_press", "v": 1, "t_ms": 1, "side": "up"}, "event.side"),
        ({"kind": "touch", "v": 1, "t_ms": 1, "side": "left", "action": "fly"}, "event.action"),
        ({"kind": "dice_read", "v": 1, "t_ms": 1, "dice": [{"value": 7}]}, "event.dice[0]"),
        ({"kind": "board_read", "v": 1, "t_ms": 1, "reading": {"points": []}}, "event.reading"),
        ({"kind": "tick", "v": 1, "t_ms": "soon"}, "event.t_ms"),
    ],
)
def test_bad_event_names_the_field(data: dict[str, object], field: str) -> None:
    """Bad input gets a clear error naming what is wrong."""
    with pytest.raises(CodecError, match=field.replace("[", r"\[").replace("]", r"\]")):
        event_from_json(data)


def test_bad_config_names_the_field() -> None:
    """A bad configuration value is named."""
    with pytest.raises(CodecError, match=r"config\.player0_home"):
        config_from_json({"kind": "config", "v": 1, "player0_home": "middle"})
