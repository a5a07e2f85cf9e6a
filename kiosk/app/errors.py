"""Errors of the touchscreen's input: each message names the field that is wrong."""

from __future__ import annotations


class SnapshotError(ValueError):
    """A table or director snapshot that does not follow the documented format."""
