"""MQTT topic layout of a venue, version 1.

Every topic starts with ``gammon/v1/<event>``. A table's topics are
``gammon/v1/<event>/table/<table_id>/<kind>``; the event's settings are
``gammon/v1/<event>/settings``.

Kiosk -> director (a kiosk may publish only under its own table id, enforced by the broker ACL):
``status`` (retained), ``incident``, ``result``, ``ack`` (a ruling received), ``presence``
(retained; the kiosk's Last Will publishes ``online: false`` there).
Director -> kiosk: ``ruling`` (to one table), ``settings`` (to the whole event, retained).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal, get_args

ROOT: Final = "gammon/v1"

TableKind = Literal["status", "incident", "result", "ack", "presence", "ruling"]
TABLE_KINDS: Final[tuple[str, ...]] = get_args(TableKind)
KIOSK_KINDS: Final = ("status", "incident", "result", "ack", "presence")
"""The table topics a kiosk publishes on (the broker ACL grants exactly these)."""

NAME_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}"
_NAME = re.compile(NAME_PATTERN)


class TopicError(ValueError):
    """A topic outside the venue layout, or a name that cannot be part of one."""


def check_name(what: str, name: str) -> str:
    """Return ``name`` if it is a valid event or table id (1-32 of ``A-Z a-z 0-9 _ -``)."""
    if not _NAME.fullmatch(name):
        raise TopicError(f"{what} {name!r}: use 1-32 letters, digits, '_' or '-'")
    return name


def table_topic(event: str, table_id: str, kind: TableKind) -> str:
    """``gammon/v1/<event>/table/<table_id>/<kind>``."""
    return f"{ROOT}/{check_name('event', event)}/table/{check_name('table id', table_id)}/{kind}"


def settings_topic(event: str) -> str:
    """``gammon/v1/<event>/settings``: the event's settings, retained, for every table."""
    return f"{ROOT}/{check_name('event', event)}/settings"


def event_tables_filter(event: str) -> str:
    """Subscription filter for every table topic of an event (the director's dashboard)."""
    return f"{ROOT}/{check_name('event', event)}/table/+/+"


@dataclass(frozen=True, slots=True)
class TopicAddress:
    """A parsed topic: ``table_id`` is None for the event's ``settings`` topic."""

    event: str
    kind: str
    table_id: str | None = None


def parse_topic(topic: str) -> TopicAddress:
    """Parse a venue topic; raise :class:`TopicError` naming what does not fit."""
    prefix = ROOT + "/"
    if not topic.startswith(prefix):
        raise TopicError(f"topic {topic!r} does not start with {prefix!r}")
    parts = topic[len(prefix) :].split("/")
    if len(parts) == 2 and parts[1] == "settings":
        return TopicAddress(event=check_name("event", parts[0]), kind="settings")
    if len(parts) == 4 and parts[1] == "table" and parts[3] in TABLE_KINDS:
        return TopicAddress(
            event=check_name("event", parts[0]),
            kind=parts[3],
            table_id=check_name("table id", parts[2]),
        )
    raise TopicError(f"topic {topic!r} is not <event>/settings or <event>/table/<id>/<kind>")
