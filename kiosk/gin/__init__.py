"""Gin: certain, possible and impossible outcomes of a no-contact position, for the game and for
the match. Pure except :func:`load_tables`, which keeps the bear-off tables on disk."""

from kiosk.gin.cache import default_cache_dir, load_tables
from kiosk.gin.match import MatchGin, certain_points, match_gin
from kiosk.gin.tables import BearoffTables, build_tables, home_positions
from kiosk.gin.verdict import GinVerdict, SideBounds, Verdict, gin, side_bounds

__all__ = [
    "BearoffTables",
    "GinVerdict",
    "MatchGin",
    "SideBounds",
    "Verdict",
    "build_tables",
    "certain_points",
    "default_cache_dir",
    "gin",
    "home_positions",
    "load_tables",
    "match_gin",
    "side_bounds",
]
