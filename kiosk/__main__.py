"""``python -m kiosk`` runs the ``gammon-kiosk`` command."""

import sys

from kiosk.cli import main

if __name__ == "__main__":  # not when a spawned child process imports it
    sys.exit(main())
