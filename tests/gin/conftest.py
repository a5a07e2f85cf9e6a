"""Shared fixtures: the full bear-off tables, built once per session in a temporary cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.gin import BearoffTables, load_tables


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory holding the tables (built on first use, about 15 s)."""
    folder = tmp_path_factory.mktemp("gin-cache")
    load_tables(folder)
    return folder


@pytest.fixture(scope="session")
def tables(tables_dir: Path) -> BearoffTables:
    """The tables as the kiosk uses them."""
    return load_tables(tables_dir)
