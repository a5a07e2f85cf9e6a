"""The demo's frames (JPEG) and their replay manifest ``frames.json``: package data only."""
