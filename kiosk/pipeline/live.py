"""The kiosk assembled: camera, vision thread, clock buttons, referee, journal, Kivy screens and
systemd's notifications. ``run_kiosk(options)`` runs it until the window closes.

Threads: the frame grabber (``hardware.camera``) keeps the newest frame; the vision thread reads
it (``FramePipeline``) and queues the result; the UI loop (``KioskApp.pump``, 30 times a second)
takes button presses first, then the vision results, steps the referee, ticks, beats the
watchdog and shows the new snapshots. The journal is written on its own thread after each step.
The embedded demo restarts a fresh match each time its recording starts over.
"""

from __future__ import annotations

import logging
import os
import queue
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hardware.button_events import ButtonEvent, EventKind
from hardware.camera.frame import FrameSource
from hardware.camera.health import CameraEvent, WatchdogConfig
from hardware.sdnotify import SystemdNotifier
from kiosk.demo import Demo, load_demo
from kiosk.pipeline.demo_driver import DemoDriver
from kiosk.pipeline.drive import Ticker, deliver
from kiosk.pipeline.frames import FramePipeline, FrameResult
from kiosk.pipeline.journal import JournalWriter
from kiosk.pipeline.latency import ScreenLatency
from kiosk.pipeline.match import MonitoredMatch
from kiosk.pipeline.readers import FrameReader, LabelReader, VisionReader
from kiosk.pipeline.recovery import OpenedMatch, last_readings, open_match
from kiosk.pipeline.sources import CameraSpec
from kiosk.referee import BoardRead, ClockPress, DiceRead, GinJudge, RefereeConfig, RefereeState
from kiosk.store import Store
from vision.config import ReadConfig

if TYPE_CHECKING:
    from kiosk.pipeline.venue_link import VenueConfig, VenueLink

LOG = logging.getLogger("kiosk.run")
ReaderKind = Literal["vision", "labels"]
ButtonsKind = Literal["gpio", "keyboard"]
RESTART = "restart"
"""Queued by the vision thread when the demo's recording starts over: a fresh match."""


@dataclass(frozen=True)
class RunOptions:
    """What ``gammon-kiosk run`` was asked for. ``camera`` None: the embedded demo."""

    config: RefereeConfig
    camera: CameraSpec | None
    state_dir: Path | None
    reader: ReaderKind
    buttons: ButtonsKind
    fullscreen: bool = False
    exit_after_s: float | None = None
    pin: str = "0000"
    names: tuple[str, str] = ("Player 0", "Player 1")
    venue: VenueConfig | None = None
    """The venue broker to publish to (``--venue``); None: no network at all."""
    principal_point: tuple[float, float] | None = None
    """The camera's principal point in shares of the frame (``--principal-point``; the vision
    reader's ``ReadConfig.principal_point``); None: the demo camera's where the demo plays,
    else the frame's centre."""
    focal_length: float | None = None
    """The camera's focal length in shares of the frame's width (``--focal-length``;
    ``ReadConfig.focal_length``); None: the demo camera's where the demo plays, else found from
    the board's outline."""


def frame_source(camera: CameraSpec | None, demo: Demo | None) -> tuple[FrameSource, bool]:
    """The frame source and whether it is a replay (still rendered scenes repeat exactly, so the
    frozen-camera check is off)."""
    from hardware.camera.paced import PacedSource
    from hardware.camera.replay import ReplaySource

    if camera is None:
        assert demo is not None
        return PacedSource(ReplaySource(demo.frames_dir, loop=True)), True
    if camera.kind == "replay":
        return PacedSource(ReplaySource(str(camera.target), loop=True)), True
    if camera.kind == "opencv":
        from hardware.camera.opencv_source import OpenCVSource

        assert camera.target is not None
        return OpenCVSource(camera.target), False
    from hardware.camera.picamera_source import PiCameraSource

    return PiCameraSource(), False


def frame_reader(
    kind: ReaderKind,
    demo: Demo | None,
    principal_point: tuple[float, float] | None = None,
    focal_length: float | None = None,
) -> FrameReader:
    """``vision.read`` on the pixels (the camera's principal point in shares of the frame and
    focal length in shares of its width; each None: the demo camera's, else not calibrated),
    or the demo's exact labels."""
    if kind == "vision":
        if principal_point is None and demo is not None:
            principal_point = demo.principal_point
        if focal_length is None and demo is not None:
            focal_length = demo.focal_length
        return VisionReader(ReadConfig(principal_point=principal_point, focal_length=focal_length))
    from vision.labels import Reading

    assert demo is not None
    return LabelReader([Reading.from_json(demo.labels[name]) for name in demo.files])


class _VisionThread:
    """Reads the grabber's newest frame on a daemon thread and queues the results; ``wake``
    asks the UI loop for an extra frame when a result carries events."""

    def __init__(
        self,
        latest: Callable[[], Any],
        frames: FramePipeline,
        results: queue.Queue[FrameResult | str],
        driver: DemoDriver | None,
        wake: Callable[[], None] = lambda: None,
    ) -> None:
        self._latest = latest
        self._frames = frames
        self._results = results
        self._driver = driver
        self._wake = wake
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vision", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def _run(self) -> None:
        lap = 0
        last_error = ""
        while not self._stop.is_set():
            frame = self._latest()
            if frame is None:
                self._stop.wait(0.005)
                continue
            if self._driver is not None and self._driver.lap(frame.seq) > lap:
                lap = self._driver.lap(frame.seq)
                self._frames.restart()
                self._results.put(RESTART)
            try:
                result = self._frames.process(frame)
                self._results.put(result)
                if result.events:  # the UI judges them now, not at its next frame
                    self._wake()
            except Exception as error:  # a frame the reader chokes on must not stop the kiosk
                message = f"{type(error).__name__}: {error}"
                if message != last_error:  # once per distinct error, not once per frame
                    LOG.exception("vision: frame %d not read", frame.seq)
                last_error = message


class Kiosk:
    """Everything ``run_kiosk`` holds, and the UI loop's work (:meth:`poll`)."""

    def __init__(self, options: RunOptions, demo: Demo | None, started_ns: int) -> None:
        self.options = options
        self.demo = demo
        self.started_ns = started_ns
        self.notifier = SystemdNotifier()
        self.presses: queue.Queue[ButtonEvent] = queue.Queue()
        self.camera_events: queue.Queue[CameraEvent] = queue.Queue()
        self.results: queue.Queue[FrameResult | str] = queue.Queue()
        state_dir = options.state_dir
        self.scratch: Path | None = None
        """The demo's throw-away state folder (no ``--state-dir``), removed by :meth:`close`."""
        if state_dir is None and demo is not None:
            state_dir = self.scratch = Path(tempfile.mkdtemp(prefix="gammon-kiosk-demo-"))
        self.store = Store(state_dir, set_aside_damaged=True)
        if self.store.set_aside is not None:
            LOG.warning("damaged journal set aside as %s", self.store.set_aside)
        self.gin: GinJudge | None = None
        self.source_name = "demo" if options.camera is None else options.camera.kind
        self.venue: VenueLink | None = None
        if options.venue is not None:
            self.venue = self._venue_link(options.venue)
        self._open(resume=demo is None)
        self.base_ms = self.opened.t_ms
        self.origin_ns = time.monotonic_ns()
        self.ticker = Ticker(self.base_ms)
        self._ready = False
        self._next_watchdog = 0.0
        self.latency = ScreenLatency()
        self.exports = 0
        """Counts the director's ``.mat`` exports: the director's view redraws after each."""
        self.exported: dict[str, str | None] | None = None
        if self.venue is not None:
            self.venue.start()

    def _venue_link(self, config: VenueConfig) -> VenueLink:
        from kiosk.pipeline.venue_link import OUTBOX_NAME, VenueLink

        def wall_ms() -> int:
            return time.time_ns() // 1_000_000

        outbox = config.outbox or self.store.state_dir / OUTBOX_NAME
        LOG.info(
            "venue %s table %s via %s:%d", config.event, config.table_id, config.host, config.port
        )
        return VenueLink(
            config,
            outbox,
            wall_ms,
            lambda t_ms: wall_ms() - self.now_ms() + t_ms,
            mat_text=_mat_text,
        )

    def _open(self, *, resume: bool) -> None:
        venue = self.venue
        config = self.options.config
        opened: OpenedMatch = open_match(
            self.store,
            config if venue is None else venue.match_config(config),
            self.options.names,
            self.source_name,
            self.gin,
            resume=resume,
        )
        if opened.restored:
            LOG.warning(
                "restored match %d from %s: clocks paused at %d ms",
                opened.journal.match_id,
                self.store.path,
                opened.t_ms,
            )
        self.opened = opened
        self.writer = JournalWriter(opened.journal)
        journal = self.writer if venue is None else venue.journal(self.writer)
        self.match = MonitoredMatch(opened.state, journal, opened.names, self.gin)
        if venue is not None:
            restored = opened.state.incidents if opened.restored else ()
            venue.begin_match(opened.journal.match_id, opened.journal.info.created_ms, restored)

    def to_ms(self, t_ns: int) -> int:
        """Match time (ms) of a monotonic time (ns)."""
        return self.base_ms + (t_ns - self.origin_ns) // 1_000_000

    def now_ms(self) -> int:
        """Match time now."""
        return self.to_ms(time.monotonic_ns())

    def restart(self) -> None:
        """A fresh match in a new journal (the demo's recording started over). Match time runs on:
        the vision thread stamps frames on the same clock."""
        self.writer.close()
        self.opened.journal.finish()
        self._open(resume=False)
        self.ticker = Ticker(self.now_ms())

    def poll(self) -> None:
        """One UI frame: the play of the last frame's press judged, then presses (the clock),
        readings, ticks and the watchdog."""
        self.match.judge(self.now_ms())
        while not self.presses.empty():
            event = self.presses.get()
            if event.kind is EventKind.PRESS:
                self.match.apply(ClockPress(event.button.value, self.to_ms(event.t_ns)))
            elif event.kind in (EventKind.FAULT, EventKind.RECOVERED):
                LOG.warning("button %s %s: %s", event.button.value, event.kind.value, event.detail)
                self.notifier.status(f"button {event.button.value} {event.kind.value}")
        while not self.results.empty():
            result = self.results.get()
            if isinstance(result, FrameResult):
                deliver(self.match, result)
                if any(isinstance(e, BoardRead | DiceRead) for e in result.events):
                    self.latency.judged(result.taken_ns)
            else:
                self.restart()
        while not self.camera_events.empty():
            camera = self.camera_events.get()
            LOG.warning("camera %s: %s %s", camera.source, camera.kind.value, camera.detail)
            self.notifier.status(f"camera {camera.kind.value}")
        self.ticker(self.match, self.now_ms())
        if self.venue is not None:
            self.venue.poll(self.match, self.now_ms())
        self._notify()

    def _notify(self) -> None:
        if not self._ready:
            self._ready = True
            self.latency.ready(time.monotonic_ns())
            seconds = (time.monotonic_ns() - self.started_ns) / 1e9
            self.notifier.ready(f"match {self.opened.journal.match_id} on {self.source_name}")
            LOG.info("ready in %.2f s (state in %s)", seconds, self.store.state_dir)
        interval = self.notifier.watchdog_interval_s
        if interval is not None and time.monotonic() >= self._next_watchdog:
            self.notifier.watchdog()
            self._next_watchdog = time.monotonic() + interval

    def table(self) -> dict[str, object]:
        """The players' screen now; at a venue the director's latest ruling shows as a notice."""
        now = self.now_ms()
        table = self.match.table(now)
        return table if self.venue is None else self.venue.overlay(table, now)

    def export_mat(self) -> None:
        """Write the match so far as a ``.mat`` record in the state directory's ``exports/``
        (``kiosk.store.export_mat``); the director's view shows the file, or why it failed."""
        from kiosk.referee.record import match_record
        from kiosk.store import StoreError, export_mat

        self.exports += 1
        record = match_record(self.match.state, self.match.seating.names)
        try:
            path = export_mat(self.opened.journal, record)
        except StoreError as error:
            LOG.warning("%s", error)
            self.exported = {"path": None, "error": str(error)}
            return
        LOG.info("match %d exported to %s", self.opened.journal.match_id, path)
        self.exported = {"path": str(path), "error": None}

    def director(self) -> dict[str, object]:
        """The director's screen now, with the last ``.mat`` export."""
        return {**self.match.director(self.now_ms()), "export": self.exported}

    def load_gin(self) -> None:
        """Load the bear-off tables on a thread (built on first use in a child process, about
        20 s, and cached); until then, or if the build fails, gin questions go to the director
        (``kiosk.referee.gin``)."""

        def load() -> None:
            from kiosk.gin import load_tables
            from kiosk.referee.gin import gin_judge

            try:
                tables = load_tables(build_apart=True)
            except (RuntimeError, OSError) as error:
                LOG.warning("gin tables not loaded (%s): gin questions go to the director", error)
                return
            judge = gin_judge(tables)
            self.gin = judge
            self.match.gin = judge
            LOG.info("gin tables loaded")

        threading.Thread(target=load, name="gin-tables", daemon=True).start()

    def close(self) -> None:
        """Write what is queued and close the journal; the demo's throw-away state goes."""
        self.notifier.stopping()
        if self.venue is not None:
            self.venue.close()
        self.writer.close()
        self.store.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _mat_text(state: RefereeState, names: tuple[str, str]) -> str:
    """The match as a ``.mat`` record (the result the venue collects)."""
    from kiosk.matfile.writer import format_mat
    from kiosk.referee.record import match_record

    return format_mat(match_record(state, names))


def _buttons(kind: ButtonsKind, sink: Callable[[ButtonEvent], None]) -> Any:
    if kind == "gpio":
        from hardware.buttons import ButtonPins, GpioButtons

        return GpioButtons(ButtonPins(), sink)
    from hardware.keyboard import KeyboardButtons

    return KeyboardButtons(sink)


def configure_logging() -> None:
    """The kiosk's log lines on stderr (Kivy keeps its own logger)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("gammon-kiosk run: %(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.INFO)
    LOG.propagate = False
    pipeline = logging.getLogger("kiosk.pipeline")
    pipeline.addHandler(handler)
    pipeline.propagate = False


def run_kiosk(options: RunOptions, started_ns: int) -> int:
    """Run the kiosk until its window closes (or ``exit_after_s``); the exit status."""
    configure_logging()
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    if options.fullscreen:
        Config.set("graphics", "fullscreen", "auto")
    from kivy.clock import Clock

    from kiosk.app.actions import DirectorAction, PlayerAction
    from kiosk.app.main import KioskApp
    from kiosk.app.referee_adapter import director_event, touch_event
    from kiosk.referee.view import director_view

    demo = load_demo() if options.camera is None else None
    kiosk = Kiosk(options, demo, started_ns)
    source, replay = frame_source(options.camera, demo)
    from hardware.camera.grabber import FrameGrabber
    from hardware.camera.watchdog import CameraWatchdog

    config = WatchdogConfig(freeze_ns=None) if replay else None
    watchdog = CameraWatchdog(source, kiosk.camera_events.put, config=config)
    grabber = FrameGrabber(watchdog)
    driver = DemoDriver(demo) if demo is not None else None
    frames = FramePipeline(
        frame_reader(options.reader, demo, options.principal_point, options.focal_length),
        kiosk.to_ms,
        driver,
    )
    if kiosk.opened.restored:  # the table as the crashed kiosk last saw it is no news
        frames.resume(*last_readings(kiosk.opened.journal))
    screens: list[KioskApp] = []  # the app, once built below
    # A trigger is safe to fire from the vision thread; the frame it asks for pumps the app.

    def pump_screens(_dt: float) -> None:
        for app in screens:
            app.pump()

    pump = Clock.create_trigger(pump_screens)
    vision = _VisionThread(grabber.latest, frames, kiosk.results, driver, pump)
    buttons = _buttons(options.buttons, kiosk.presses.put)
    LOG.info(
        "%s, %s readings, %s buttons",
        "embedded demo" if demo is not None else source.name,
        options.reader,
        options.buttons,
    )

    def on_touch(action: PlayerAction) -> None:
        try:
            kiosk.match.apply(touch_event(action, kiosk.now_ms()))
        except ValueError as error:
            LOG.warning("touch ignored: %s", error)

    def on_director(action: DirectorAction) -> None:
        match = kiosk.match
        now = kiosk.now_ms()
        try:
            event = director_event(action, director_view(match.state, now), match.seating, now)
        except ValueError as error:
            LOG.warning("director action ignored: %s", error)
            return
        if event is None:
            kiosk.export_mat()
            return
        match.apply(event)

    shown = {"version": -1, "exports": 0}

    def director_source() -> dict[str, object] | None:
        if kiosk.match.version == shown["version"] and kiosk.exports == shown["exports"]:
            return None
        shown["version"], shown["exports"] = kiosk.match.version, kiosk.exports
        return kiosk.director()

    def poll() -> None:
        buttons.poll()
        watchdog.tick()
        kiosk.poll()
        if kiosk.latency.waiting:  # runs on the loop's next tick, after this frame is drawn
            Clock.schedule_once(lambda _dt: kiosk.latency.drawn(time.monotonic_ns()))

    app = KioskApp(
        table_source=kiosk.table,
        director_source=director_source,
        sink=on_touch,
        director_sink=on_director,
        pin=options.pin,
        poll=poll,
        attach_keyboard=buttons.attach_kivy if options.buttons == "keyboard" else None,
    )
    screens.append(app)
    if options.exit_after_s is not None:
        Clock.schedule_once(lambda _dt: app.stop(), options.exit_after_s)
    grabber.start()
    vision.start()
    kiosk.load_gin()
    try:
        app.run()
    finally:
        vision.stop()
        grabber.stop()
        if options.buttons == "gpio":
            buttons.close()
        kiosk.close()
    LOG.info(kiosk.latency.summary())
    LOG.info("stopped")
    return 0
