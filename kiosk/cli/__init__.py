"""The ``gammon-kiosk`` command: one subcommand per module in this package.

Each command module defines ``NAME`` and ``HELP`` (strings), ``add_arguments(parser)`` and
``run(args) -> int``. Modules import only the standard library at top level and import their
heavy dependencies (OpenCV, Kivy, ...) inside ``run``, so that ``gammon-kiosk check`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol, cast

# Module names under kiosk.cli, in the order they are listed in --help.
COMMANDS: tuple[str, ...] = (
    "plays",
    "check",
    "clock_allowance",
    "evaluate_vision",
    "replay",
    "gin",
    "read",
    "run",
)


class CommandModule(Protocol):
    """What a command module provides."""

    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


class CliError(Exception):
    """A user error: printed as ``gammon-kiosk <command>: <message>`` on stderr, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command registered."""
    parser = argparse.ArgumentParser(
        prog="gammon-kiosk", description="Table monitor for backgammon tournaments."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMANDS:
        module = cast(CommandModule, importlib.import_module(f"kiosk.cli.{module_name}"))
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except CliError as error:
        print(f"gammon-kiosk {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
