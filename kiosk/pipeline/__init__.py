"""``gammon-kiosk run``'s wiring: camera -> vision -> referee -> journal -> screens.

The camera half (:class:`~kiosk.pipeline.frames.FramePipeline`: read a frame, keep settled
readings only, add the demo's scripted inputs) runs on the vision thread; the referee half
(:class:`~kiosk.pipeline.match.MonitoredMatch`: step the referee, then journal off the press path
through :class:`~kiosk.pipeline.journal.JournalWriter`) runs on the UI thread with the clock
buttons. :mod:`kiosk.pipeline.live` assembles the kiosk with Kivy, the hardware and systemd;
:func:`~kiosk.pipeline.drive.drive` runs a recording headless.
"""
