"""The kiosk at a venue: its match published to the director's dashboard, rulings and settings
received from it (``kiosk.venue``, MQTT QoS 1 through a persistent SQLite outbox).

:class:`VenueLink` sits beside the :class:`~kiosk.pipeline.match.MonitoredMatch`:

* the table's status (players, score, cube, state, whose turn, clocks) at most once a second,
  when it changed, and every :data:`STATUS_EVERY_MS` when it did not;
* every referee incident with the camera frame the journal keeps as its snapshot (JPEG), through
  :class:`VenueJournal`, which tees the match's journal entries;
* the result when the match is over (final score, winner and the ``.mat`` record if the caller
  gives a way to write it);
* rulings for this table become the referee's ``rule`` action on the UI thread, are shown at the
  table as a notice for :data:`RULING_SHOWN_MS`, then acknowledged to the director;
* event settings: a new rule set or delay (``set_ruleset``) at once, the reserves
  (``set_clock``) if the match has not started; match length, clocks on/off and the
  announce-or-record policy from the next match on (:meth:`VenueLink.match_config`).

Nothing here blocks the UI loop or the press path: the UI thread only queues plain values; a
writer thread validates and enqueues them in the outbox (SQLite), the publisher's own threads
do the network. Messages about one incident or result have ids derived from the table, the
match and the incident, so a restored match re-offers its incidents without duplicating any.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import queue
import threading
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from kiosk.pipeline.match import JournalSink, MonitoredMatch
from kiosk.referee import DirectorAction, Incident, RefereeConfig, RefereeState
from kiosk.referee.codec import CodecError, incident_from_json, incident_to_json
from kiosk.referee.events import Args
from kiosk.referee.view import players_view
from kiosk.rulesets import load_ruleset
from kiosk.store import JsonDict, StoreError, encode_snapshot
from kiosk.venue.bridge import incident_fields
from kiosk.venue.link import BrokerConfig, NowMs, TlsOptions
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from kiosk.venue.schema import MAX_SNAPSHOT_BYTES, EventSettings, Ruling
from kiosk.venue.topics import TopicError, check_name

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]

LOG = logging.getLogger("kiosk.pipeline")

STATUS_MIN_MS: Final = 1000
"""At most one status a second (clocks in ms change on every UI frame)."""
STATUS_EVERY_MS: Final = 5000
"""A status at least this often even when nothing changed (the dashboard sees the table alive)."""
RULING_SHOWN_MS: Final = 20_000
"""How long a director's ruling stays on the table's screen (when no other prompt is up)."""
RULING_APPLY_WAIT_S: Final = 2.0
"""How long the network thread waits for the UI loop to apply a ruling before acknowledging."""
DEFAULT_PASSWORD_ENV: Final = "GAMMON_MQTT_PASSWORD"
OUTBOX_NAME: Final = "venue-outbox.db"
DECISIONS: Final = {"condone": "condone", "replay-legal": "replay"}
"""Venue decisions the referee acts on (MSO 4.8, JBL 4.2.3: the illegal play condoned or a legal
play demanded); other decisions are recorded as they are."""
RULE_SETS: Final = ("MSO", "BIBA", "GA", "JBL")


class VenueConfigError(ValueError):
    """A venue configuration that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class VenueConfig:
    """Where the venue broker is and which table this kiosk is (``--venue CONFIG.toml``)."""

    host: str
    port: int
    event: str
    table_id: str
    username: str
    password: str = field(repr=False)
    tls: TlsOptions | None = None
    outbox: Path | None = None
    """The outbox database; None: :data:`OUTBOX_NAME` in the kiosk's state directory."""
    client_id: str = ""

    def broker(self) -> BrokerConfig:
        """The MQTT connection settings (client id ``kiosk-<event>-<table>`` by default)."""
        client_id = self.client_id or f"kiosk-{self.event}-{self.table_id}"
        return BrokerConfig(
            self.host, self.port, self.username, self.password, client_id, tls=self.tls
        )


_KEYS: Final = frozenset(
    {
        "host",
        "port",
        "event",
        "table",
        "username",
        "password_file",
        "password_env",
        "tls_ca",
        "tls_cert",
        "tls_key",
        "outbox",
        "client_id",
    }
)


def load_venue_config(path: Path, environ: Mapping[str, str] | None = None) -> VenueConfig:
    """Read the ``[venue]`` table of a TOML file (keys in ``kiosk/venue/README.md``).

    Relative paths are relative to the file's folder. The password is read from
    ``password_file`` or else from the environment variable ``password_env``
    (default ``GAMMON_MQTT_PASSWORD``); it is never in the file itself.
    """
    env = os.environ if environ is None else environ
    where = str(path)
    try:
        with path.open("rb") as stream:
            document = tomllib.load(stream)
    except OSError as error:
        raise VenueConfigError(f"{where}: cannot read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise VenueConfigError(f"{where}: not TOML ({error})") from None
    venue = document.get("venue")
    if not isinstance(venue, dict):
        raise VenueConfigError(f"{where}: no [venue] table")
    unknown = sorted(set(venue) - _KEYS)
    if unknown:
        raise VenueConfigError(f"{where}: [venue] {unknown[0]}: unknown key")

    def text(key: str, default: str | None = None) -> str:
        value = venue.get(key, default)
        if not isinstance(value, str) or not value:
            raise VenueConfigError(f"{where}: [venue] {key}: a non-empty string is required")
        return value

    def file(key: str) -> Path | None:
        if key not in venue:
            return None
        return path.parent / text(key)

    try:
        event = check_name("event", text("event"))
        table = check_name("table id", text("table"))
    except TopicError as error:
        raise VenueConfigError(f"{where}: [venue] {error}") from None
    ca = file("tls_ca")
    port = venue.get("port", 1883 if ca is None else 8883)
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        raise VenueConfigError(f"{where}: [venue] port: an integer 1-65535 is required")
    if ca is None and ("tls_cert" in venue or "tls_key" in venue):
        raise VenueConfigError(f"{where}: [venue] tls_cert/tls_key: need tls_ca as well")
    tls = None if ca is None else TlsOptions(ca, file("tls_cert"), file("tls_key"))
    return VenueConfig(
        host=text("host"),
        port=port,
        event=event,
        table_id=table,
        username=text("username", table),
        password=_password(venue, where, file("password_file"), env),
        tls=tls,
        outbox=file("outbox"),
        client_id=text("client_id", f"kiosk-{event}-{table}"),
    )


def _password(
    venue: Mapping[str, Any], where: str, password_file: Path | None, env: Mapping[str, str]
) -> str:
    if password_file is not None:
        try:
            password = password_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            raise VenueConfigError(
                f"{where}: [venue] password_file: cannot read {password_file} ({error})"
            ) from None
        if not password:
            raise VenueConfigError(f"{where}: [venue] password_file: {password_file} is empty")
        return password
    name = venue.get("password_env", DEFAULT_PASSWORD_ENV)
    if not isinstance(name, str) or not env.get(name):
        raise VenueConfigError(
            f"{where}: [venue] password_file or password_env: no password (${name} is not set)"
        )
    return env[name]


def message_id(*parts: object) -> str:
    """A message id derived from ``parts`` (32 hex digits): the same incident gets the same id
    however often it is offered, and the outbox and the dashboard apply it once."""
    return hashlib.sha256("/".join(str(part) for part in parts).encode()).hexdigest()[:32]


def table_state(state: RefereeState) -> str:
    """The dashboard's one-word state of the table (``kiosk.venue.schema.TableState``)."""
    game = state.game
    prompt = state.prompt
    if game.phase == "match_over":
        return "finished"
    if prompt is not None and prompt.kind == "director_called":
        return "director-called"
    if prompt is not None and prompt.kind == "break":
        return "break"
    if prompt is not None and prompt.incident is not None:
        return "incident"
    if game.phase == "opening":
        return "setup"
    if state.clock is not None and state.clock.running is None:
        return "paused"
    return "playing"


def status_fields(state: RefereeState, names: tuple[str, str], t_ms: int) -> dict[str, Any]:
    """The fields of a venue ``TableStatus`` for the referee's state at match time ``t_ms``."""
    view = players_view(state, max(t_ms, state.t_ms))
    clocks = view.clocks
    crawford = "crawford" if view.crawford else "post" if view.post_crawford else "pre"
    return {
        "players": names,
        "score": view.score,
        "match_length": view.match_length,
        "crawford": crawford,
        "cube": {"value": view.cube_value, "owner": view.cube_owner},
        "state": table_state(state),
        "turn": view.turn,
        "clocks": {
            "enabled": clocks is not None,
            "reserve_ms": (0, 0) if clocks is None else clocks.reserves_ms,
            "allowance_ms": 0 if clocks is None else clocks.allowance_left_ms,
            "running": None if clocks is None else clocks.running,
        },
        "rule_set": state.config.ruleset.upper(),
    }


@dataclass(frozen=True)
class _Outgoing:
    kind: str  # "status", "incident" or "result"
    fields: dict[str, Any] = field(default_factory=dict)
    incident: JsonDict | None = None
    image: Image | None = None
    match_key: str = ""
    state: RefereeState | None = None


@dataclass
class _Incoming:
    message: Ruling | EventSettings
    applied: threading.Event = field(default_factory=threading.Event)


class VenueLink:
    """One table's link to the venue; create, :meth:`start`, call :meth:`poll` on every UI
    frame, :meth:`close` at the end. ``wall_ms`` is the wall clock (ms since the Unix epoch),
    ``to_wall_ms`` turns a match time (ms) into wall-clock ms, ``mat_text`` writes the
    finished match's ``.mat`` record from the referee's state and the players' names (on the
    writer thread; None: results carry an empty record)."""

    def __init__(
        self,
        config: VenueConfig,
        outbox_path: Path,
        wall_ms: NowMs,
        to_wall_ms: Callable[[int], int],
        mat_text: Callable[[RefereeState, tuple[str, str]], str] | None = None,
    ) -> None:
        self.config = config
        self.errors = 0
        self._to_wall_ms = to_wall_ms
        self._mat_text = mat_text
        self._outbox = Outbox(outbox_path)
        self._publisher = KioskPublisher(
            TableIdentity(config.event, config.table_id),
            config.broker(),
            self._outbox,
            wall_ms,
            on_ruling=self._received,
            on_settings=self._received,
        )
        self._outgoing: queue.Queue[_Outgoing | None] = queue.Queue()
        self._incoming: queue.Queue[_Incoming] = queue.Queue()
        self._writer = threading.Thread(target=self._write_loop, name="venue", daemon=True)
        self._match_key = ""
        self._result_sent = False
        self._last_status: dict[str, Any] | None = None
        self._last_status_ms = -STATUS_EVERY_MS
        self._notice: tuple[JsonDict, int] | None = None  # prompt, shown until (match time)

    @property
    def publisher(self) -> KioskPublisher:
        """The MQTT publisher (connection state, pending count)."""
        return self._publisher

    def start(self) -> None:
        """Start the writer thread and connect (in the background, retrying)."""
        self._writer.start()
        self._publisher.start()

    def close(self) -> None:
        """Write what is queued to the outbox, mark the table offline and disconnect."""
        self._outgoing.put(None)
        self._writer.join()
        self._publisher.stop()
        self._outbox.close()

    def flush(self) -> None:
        """Wait until everything queued so far is in the outbox (tests)."""
        self._outgoing.join()

    # -- the match (UI thread) ----------------------------------------------------------------

    def begin_match(self, match_id: int, created_ms: int, restored: tuple[Incident, ...]) -> None:
        """A new or restored match from the journal; ``restored``: its incidents so far (offered
        again without snapshots; those already queued keep their ids and are not sent twice)."""
        self._match_key = f"m{match_id}-{created_ms}"
        self._result_sent = False
        self._last_status = None
        for incident in restored:
            self.queue_incident(incident_to_json(incident), None)

    def journal(self, journal: JournalSink) -> VenueJournal:
        """The match's journal sink that also publishes every incident."""
        return VenueJournal(journal, self)

    def queue_incident(self, data: JsonDict, image: Image | None) -> None:
        """Publish an incident (``kiosk.referee.codec`` JSON) with its frame as the snapshot."""
        entry = _Outgoing("incident", incident=data, image=image, match_key=self._match_key)
        self._outgoing.put(entry)

    def match_config(self, base: RefereeConfig) -> RefereeConfig:
        """The configuration of a new match: ``base`` with the latest event settings, if any."""
        settings = self._publisher.latest_settings()
        if settings is None:
            return base
        length = settings.match_length
        clock = settings.clock
        reserve = clock.reserve_per_point_ms * max(1, length) if clock.enabled else None
        return dataclasses.replace(
            base,
            ruleset=settings.rule_set.lower(),
            overrides=_delay_override(settings),
            match_length=length,
            clocks=clock.enabled,
            reserve_ms=reserve or None,
            policy="announce" if settings.irregularities == "announce" else "silent",
        )

    def poll(self, match: MonitoredMatch, t_ms: int) -> None:
        """Apply what the director sent, publish the status if due and the result once."""
        while not self._incoming.empty():
            item = self._incoming.get()
            if isinstance(item.message, Ruling):
                self._apply_ruling(match, item.message, t_ms)
            else:
                self._apply_settings(match, item.message, t_ms)
            item.applied.set()
        state = match.state
        if state.game.phase == "match_over" and not self._result_sent:
            self._result_sent = True
            self._result(match)
        since = t_ms - self._last_status_ms
        if since < STATUS_MIN_MS:
            return
        fields = status_fields(state, match.seating.names, t_ms)
        if fields != self._last_status or since >= STATUS_EVERY_MS:
            self._last_status = fields
            self._last_status_ms = t_ms
            self._outgoing.put(_Outgoing("status", fields))

    def _result(self, match: MonitoredMatch) -> None:
        state = match.state
        fields = {
            "id": message_id(self.config.event, self.config.table_id, self._match_key, "result"),
            "players": match.seating.names,
            "score": state.match.score,
            "match_length": state.match.length,
            "winner": state.match.winner,
        }
        self._outgoing.put(_Outgoing("result", fields, state=state))

    def _apply_ruling(self, match: MonitoredMatch, ruling: Ruling, t_ms: int) -> None:
        prefix = f"{self._match_key}-"
        number = ruling.incident_id.removeprefix(prefix)
        self._notice = (ruling_notice(number, ruling), t_ms + RULING_SHOWN_MS)
        if not ruling.incident_id.startswith(prefix) or not number.isdigit():
            LOG.warning("venue: ruling on %s, not an incident of this match", ruling.incident_id)
            return
        note = f"{ruling.director}: {ruling.note}" if ruling.note else ruling.director
        decision = DECISIONS.get(ruling.decision, ruling.decision)
        args = (("incident", int(number)), ("decision", decision), ("note", note))
        match.apply(DirectorAction("rule", t_ms, args))

    def _apply_settings(self, match: MonitoredMatch, settings: EventSettings, t_ms: int) -> None:
        state = match.state
        name = settings.rule_set.lower()
        overrides = _delay_override(settings)
        if name != state.config.ruleset or overrides != state.config.overrides:
            args: Args = (("name", name), *((f"override.{k}", v) for k, v in overrides))
            match.apply(DirectorAction("set_ruleset", t_ms, args))
        clock = settings.clock
        game = state.game
        fresh = game.number == 1 and game.phase == "opening" and state.match.score == (0, 0)
        if fresh and clock.enabled and clock.reserve_per_point_ms and state.clock is not None:
            reserve = clock.reserve_per_point_ms * max(1, state.match.length)
            args = (("reserve0_ms", reserve), ("reserve1_ms", reserve))
            match.apply(DirectorAction("set_clock", t_ms, args))
        LOG.info(
            "venue: settings revision %d (match length, clocks on/off and the policy apply from"
            " the next match)",
            settings.revision,
        )

    def overlay(self, table: dict[str, object], t_ms: int) -> dict[str, object]:
        """The table snapshot with the latest ruling shown as a notice, unless the table is asked
        something (a prompt with choices, or a ruling that may carry a gin verdict)."""
        if self._notice is None:
            return table
        notice, until = self._notice
        if t_ms >= until:
            self._notice = None
            return table
        prompt = table.get("prompt")
        if isinstance(prompt, dict) and not _informative(prompt):
            return table
        return {**table, "prompt": notice}

    # -- the director (paho's network thread) --------------------------------------------

    def _received(self, message: Ruling | EventSettings) -> None:
        item = _Incoming(message)
        self._incoming.put(item)
        if not item.applied.wait(RULING_APPLY_WAIT_S):
            LOG.warning("venue: %s %s queued for the UI loop", message.kind, message.id)

    # -- the writer thread ----------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            item = self._outgoing.get()
            try:
                if item is None:
                    return
                self._write(item)
            except (ValueError, StoreError, CodecError) as error:  # pydantic's ValidationError
                self.errors += 1
                LOG.error("venue: %s not queued: %s", item and item.kind, error)
            finally:
                self._outgoing.task_done()

    def _write(self, item: _Outgoing) -> None:
        publisher = self._publisher
        if item.kind == "status":
            rule_set = item.fields["rule_set"]
            if rule_set in RULE_SETS:  # money play has no venue status
                publisher.publish_status(**item.fields)
        elif item.kind == "result":
            assert item.state is not None  # immutable: safe to read on this thread
            names = item.fields["players"]
            mat = "" if self._mat_text is None else self._mat_text(item.state, names)
            publisher.publish_result(**item.fields, mat=mat)
        else:
            assert item.incident is not None
            self._write_incident(item.incident, item.image, item.match_key)

    def _write_incident(self, data: JsonDict, image: Image | None, match_key: str) -> None:
        incident = incident_from_json(data)
        fields = incident_fields(
            dataclasses.replace(incident, t_ms=self._to_wall_ms(incident.t_ms)),
            match_key,
            None if image is None else _snapshot(image),
        )
        fields["id"] = message_id(self.config.event, self.config.table_id, fields["incident_id"])
        fields["rule"] = fields["rule"] or "not cited"
        try:
            self._publisher.publish_incident(**fields)
        except ValueError as error:  # a play the venue's notation refuses: keep it as text
            LOG.warning("venue: incident %s sent without its plays: %s", incident.id, error)
            seen = f" (play seen {incident.play_seen})" if incident.play_seen else ""
            fields.update(play_seen=None, legal_plays=[], seen_position_id=None)
            fields["note"] = (incident.detail + seen)[:500]
            self._publisher.publish_incident(**fields)


def ruling_notice(number: str, ruling: Ruling) -> JsonDict:
    """The director's ruling as the table's notice: the screen writes it in its language from
    the params (kiosk.app.texts); ``text`` is the English."""
    text = f"Director's ruling on incident {number}: {ruling.decision}"
    if ruling.note:
        text += f" ({ruling.note})"
    params = {"incident": number, "decision": ruling.decision, "note": ruling.note}
    return {"kind": "notice", "subject": "director_ruling", "params": params, "text": text}


def _informative(prompt: dict[Any, Any]) -> bool:
    """A prompt that only informs (none, or a notice without choices) may give way."""
    kind = prompt.get("kind")
    if kind == "none":
        return True
    return kind == "notice" and not prompt.get("choices") and not prompt.get("ruling")


def _delay_override(settings: EventSettings) -> tuple[tuple[str, int], ...]:
    """``clock.delay_s`` overridden when the event's delay differs from the rule set's."""
    delay_s = settings.clock.allowance_ms // 1000
    if delay_s == load_ruleset(settings.rule_set.lower()).clock.delay_s:
        return ()
    return (("clock.delay_s", delay_s),)


def _snapshot(image: Image) -> bytes:
    """The frame as a JPEG small enough for a venue message (halved until it fits)."""
    import cv2
    import numpy as np

    jpeg = encode_snapshot(image)
    while len(jpeg) > MAX_SNAPSHOT_BYTES:
        image = np.asarray(cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2)), np.uint8)
        jpeg = encode_snapshot(image)
    return jpeg


class VenueJournal:
    """A journal sink that writes to the match's journal and publishes each incident."""

    def __init__(self, journal: JournalSink, venue: VenueLink) -> None:
        self._journal = journal
        self._venue = venue

    def event(self, data: JsonDict) -> None:
        """Journal one event."""
        self._journal.event(data)

    def incident(self, data: JsonDict, image: Image | None) -> None:
        """Journal one incident with its frame, and publish it."""
        self._journal.incident(data, image)
        self._venue.queue_incident(data, image)

    def heartbeat(self, t_ms: int) -> None:
        """Journal a clock heartbeat."""
        self._journal.heartbeat(t_ms)
