"""The physical world: clock buttons, camera frame sources, indicators, systemd notification.

Every adapter here turns hardware into plain, timestamped values (``ButtonEvent``, ``Frame``) for
the pure layers above; the decisions (debouncing, fault detection) are pure state machines fed
with explicit times, so they are tested without hardware. Pi-only libraries (picamera2, lgpio)
are imported lazily, never at module top level.
"""
