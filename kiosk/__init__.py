"""gammon-kiosk: the table monitor for backgammon tournaments.

Subpackages: ``kiosk.rules`` (the pure rules core), ``kiosk.cli`` (the ``gammon-kiosk`` command).
"""

__version__ = "0.1.0"
