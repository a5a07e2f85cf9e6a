"""The kiosk's settled frame -> verdict on screen figure (kiosk.pipeline.latency)."""

from __future__ import annotations

from kiosk.pipeline.latency import ScreenLatency

MS = 1_000_000


def test_each_judged_frame_counts_once_from_its_taking_to_the_drawn_screen() -> None:
    latency = ScreenLatency()
    latency.ready(100 * MS)
    latency.judged(150 * MS)
    latency.judged(170 * MS)
    latency.drawn(230 * MS)
    latency.drawn(400 * MS)  # nothing waiting: nothing counted again
    latency.judged(500 * MS)
    latency.drawn(545 * MS)
    assert latency.shown_ms == [80.0, 60.0, 45.0]
    assert latency.summary() == (
        "settled frame -> verdict on screen: 3 frames, median 60.0 ms, max 80.0 ms "
        "(0 taken before the kiosk was ready left out)"
    )


def test_frames_taken_before_the_kiosk_was_ready_are_left_out() -> None:
    latency = ScreenLatency()
    latency.judged(10 * MS)  # read while the window was still opening
    latency.ready(2_000 * MS)
    latency.judged(2_010 * MS)
    latency.drawn(2_050 * MS)
    assert latency.shown_ms == [40.0]
    assert latency.before_ready == 1
    assert ScreenLatency().summary() == "settled frame -> verdict on screen: no settled frame shown"
