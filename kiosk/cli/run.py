"""``gammon-kiosk run``: start the kiosk (camera -> vision -> referee -> journal -> touchscreen).

On a machine without Pi hardware and without ``--camera`` it plays the embedded demo: a recorded
match replayed from the package's frames, its presses and touches scripted, the keyboard as the
clock buttons (shift/z left, rshift/m right, space/p centre). An unfinished match in the state
directory is restored first (clocks paused), except in the demo, which keeps its own journal.
"""

from __future__ import annotations

import argparse
import os

NAME = "run"
HELP = "start the kiosk (the embedded demo on a PC without a camera)"
DEMO_PIN = "0000"
"""The director's PIN in the embedded demo; a real table needs ``$GAMMON_KIOSK_PIN``."""
PIN_VARIABLE = "GAMMON_KIOSK_PIN"
DIRECTOR_MINUTES_PER_POINT = 2
"""The reserve per player and match point where the rule set leaves it to the director (MSO-clock
2.1), so that the kiosk starts at boot; the director corrects the clocks in the director view."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true", help="play the embedded demo")
    parser.add_argument(
        "--camera",
        metavar="SOURCE",
        help="replay:DIR (recorded frames or a video), opencv:N (USB camera N or a device/video "
        "path) or picamera; default: picamera on a Raspberry Pi, else the embedded demo",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="the journal's directory (default: $STATE_DIRECTORY or ~/.local/state/gammon-kiosk;"
        " the demo: a new temporary directory)",
    )
    parser.add_argument(
        "--ruleset",
        default="mso",
        help="mso, biba, ga, jbl or money (mso); the demo keeps its own table settings",
    )
    parser.add_argument("--length", type=int, default=5, help="match length in points (5)")
    parser.add_argument(
        "--reserve-minutes",
        type=int,
        metavar="N",
        help="each player's reserve (default: the rule set's formula; where the rule set leaves it "
        f"to the director, MSO-clock 2.1, {DIRECTOR_MINUTES_PER_POINT} minutes per point until the "
        "director sets the clocks)",
    )
    parser.add_argument(
        "--players", nargs=2, metavar="NAME", default=["Player 0", "Player 1"], help="names"
    )
    parser.add_argument(
        "--reader",
        choices=("vision", "labels"),
        help="vision: read the frames with vision.read (the default); labels: the demo's exact "
        "rendered labels, a perfect camera (the demo only)",
    )
    parser.add_argument(
        "--buttons",
        choices=("gpio", "keyboard"),
        help="clock buttons: gpio (GPIO 17 left, 27 right; default on a Pi) or the keyboard",
    )
    parser.add_argument(
        "--principal-point",
        metavar="X,Y",
        help="the camera's principal point in shares of the frame's width and height, from its "
        "calibration (default: the demo camera's, else not calibrated: dice zones as their top "
        "faces show; the judge of cocked dice takes it at the centre)",
    )
    parser.add_argument(
        "--focal-length",
        metavar="F",
        help="the camera's focal length in shares of the frame's width (fx / width), from its "
        "calibration (default: the demo camera's, else found from the board's outline)",
    )
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen")
    parser.add_argument(
        "--venue",
        metavar="CONFIG.toml",
        help="publish the table to the venue's broker and take the director's rulings and "
        "settings (keys: kiosk/venue/README.md); without it, no network at all",
    )
    parser.add_argument(
        "--exit-after", type=float, metavar="SECONDS", help="stop after SECONDS (tests, benchmarks)"
    )


def run(args: argparse.Namespace) -> int:
    import time

    started_ns = time.monotonic_ns()
    from pathlib import Path

    from kiosk.cli import CliError
    from kiosk.cli.read import focal_length_option, principal_point_option
    from kiosk.demo import load_demo
    from kiosk.pipeline.live import ReaderKind, RunOptions, run_kiosk
    from kiosk.pipeline.sources import CameraSpec, SourceError, on_raspberry_pi, parse_camera
    from kiosk.referee import ConfigError, RefereeConfig, new_referee
    from kiosk.rulesets import RuleSetError, load_ruleset

    pi = on_raspberry_pi()
    camera: CameraSpec | None = None
    if args.camera is not None and args.demo:
        raise CliError("--camera: not with --demo (the demo replays its own frames)")
    if args.camera is not None:
        try:
            camera = parse_camera(args.camera)
        except SourceError as error:
            raise CliError(str(error)) from None
        if camera.kind == "replay" and not Path(str(camera.target)).exists():
            raise CliError(f"--camera: no such folder or video: {camera.target}")
    elif pi and not args.demo:
        camera = CameraSpec("picamera")
    reader: ReaderKind = args.reader or "vision"
    if reader == "labels" and camera is not None:
        raise CliError("--reader: labels exist only for the embedded demo's frames")
    if camera is None:
        config = load_demo().config
    else:
        if args.length < 0:
            raise CliError(f"--length: must be >= 0, got {args.length}")
        try:
            rules = load_ruleset(args.ruleset)
        except RuleSetError as error:
            raise CliError(f"--ruleset: {error}") from None
        minutes = args.reserve_minutes
        if minutes is None and rules.clock.new_match.formula == "director":
            minutes = DIRECTOR_MINUTES_PER_POINT * max(1, args.length)
        reserve = None if minutes is None else minutes * 60_000
        try:
            config = RefereeConfig(
                ruleset=args.ruleset, match_length=args.length, reserve_ms=reserve
            )
            new_referee(config)
        except ConfigError as error:
            raise CliError(f"--ruleset/--length/--reserve-minutes: {error}") from None
    venue = None
    if args.venue is not None:
        from kiosk.pipeline.venue_link import VenueConfigError, load_venue_config

        try:
            venue = load_venue_config(Path(args.venue))
        except VenueConfigError as error:
            raise CliError(f"--venue: {error}") from None
    principal = principal_point_option(args.principal_point)
    focal = focal_length_option(args.focal_length)
    pin = os.environ.get(PIN_VARIABLE)
    if pin is None and camera is None:
        pin = DEMO_PIN
    if pin is None or not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise CliError(
            f"{PIN_VARIABLE}: the director's PIN must be set to 4-8 digits for a real table"
            " (systemd: /etc/gammon-kiosk/kiosk.env, written by systemd/install-pi.sh)"
        )
    options = RunOptions(
        config=config,
        camera=camera,
        state_dir=None if args.state_dir is None else Path(args.state_dir),
        reader=reader,
        buttons=args.buttons or ("gpio" if pi else "keyboard"),
        fullscreen=args.fullscreen,
        exit_after_s=args.exit_after,
        pin=pin,
        names=(args.players[0], args.players[1]),
        venue=venue,
        principal_point=principal,
        focal_length=focal,
    )
    return run_kiosk(options, started_ns)
