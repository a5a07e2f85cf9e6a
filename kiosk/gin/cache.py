"""The bear-off tables on disk: built on first use (about 15 s), then loaded.

The kiosk builds them in a child process (``build_apart``): a build on its own thread would hold
the GIL and starve the vision thread for those seconds.

The only I/O of the gin package. The file holds a magic string, the four tables (one byte per
position, in :func:`kiosk.gin.tables.home_positions` order) and a SHA-256 of them; a missing,
short or corrupt file is rebuilt. Default place: ``$XDG_CACHE_HOME/gammon-kiosk`` or
``~/.cache/gammon-kiosk``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import tempfile
from functools import cache
from multiprocessing.connection import Connection
from pathlib import Path

from kiosk.gin.tables import BearoffTables, build_tables, home_positions

FILE_NAME = "bearoff-v2.bin"
_MAGIC = b"GKBEAROFF2\n"
_DIGEST = 32
_TABLES = 4


def default_cache_dir() -> Path:
    """Where the tables are kept unless a path is given."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gammon-kiosk"


def encode(tables: BearoffTables) -> bytes:
    """The file contents for ``tables``."""
    payload = tables.least + tables.most + tables.most_first + tables.most_first_forward
    return _MAGIC + payload + hashlib.sha256(payload).digest()


def decode(data: bytes) -> BearoffTables | None:
    """The tables in ``data``, or None when it is not a complete, intact table file."""
    positions = _positions()
    size = len(positions)
    if len(data) != len(_MAGIC) + _TABLES * size + _DIGEST or not data.startswith(_MAGIC):
        return None
    payload = data[len(_MAGIC) : -_DIGEST]
    if hashlib.sha256(payload).digest() != data[-_DIGEST:]:
        return None
    parts = [payload[k * size : (k + 1) * size] for k in range(_TABLES)]
    return BearoffTables(positions, *parts)


@cache
def _positions() -> tuple[tuple[int, ...], ...]:
    return tuple(home_positions())


def _build_into(sender: Connection) -> None:
    """Build the tables at a lower CPU priority and send them encoded (a child process)."""
    os.nice(10)
    sender.send_bytes(encode(build_tables()))
    sender.close()


def _build_apart() -> BearoffTables:
    """The tables built in a daemon child process, so the build never holds this process's GIL
    (the kiosk's vision thread keeps reading frames meanwhile) and never delays its exit."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_build_into, args=(sender,), name="gin-tables", daemon=True)
    child.start()
    sender.close()
    try:
        tables = decode(receiver.recv_bytes())
    except EOFError:
        tables = None
    finally:
        receiver.close()
        child.join()
    if tables is None:
        raise RuntimeError(f"gin tables: their build stopped unfinished (exit {child.exitcode})")
    return tables


def load_tables(directory: Path | None = None, build_apart: bool = False) -> BearoffTables:
    """The tables from ``directory`` (default :func:`default_cache_dir`), built and written
    there first when absent or damaged; with ``build_apart`` built in a child process. A
    directory that cannot be written only costs the rebuild next time."""
    folder = directory or default_cache_dir()
    path = folder / FILE_NAME
    try:
        found = decode(path.read_bytes())
    except OSError:
        found = None
    if found is not None:
        return found
    tables = _build_apart() if build_apart else build_tables()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, delete=False) as handle:
            handle.write(encode(tables))
        os.replace(handle.name, path)
    except OSError:
        pass
    return tables
