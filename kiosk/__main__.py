"""``python -m kiosk`` runs the ``gammon-kiosk`` command."""

import sys

from kiosk.cli import main

sys.exit(main())
