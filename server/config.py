"""Server settings: command-line options over environment variables over defaults (12-factor).

Each setting is defined once, below, with its type, its range, its default and
its help: ``cardavia serve`` builds its options from these definitions, the
``CARDAVIA_*`` variables are read through pydantic-settings against them, and a
``ServerConfig`` built in code (as tests build it) is checked against them too.
A bad value raises ``SettingError``, which names the variable or option.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import annotated_types
from pydantic import (
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    create_model,
    field_validator,
)
from pydantic.dataclasses import dataclass
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, EnvSettingsSource, SettingsConfigDict
from pydantic_settings.sources.utils import parse_env_vars

from cardavia.protocol.messages import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from cardavia.server.limits import parse_networks
from cardavia.server.origins import parse_allowed_origins

ENV_PREFIX = "CARDAVIA_"

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
"""The lobby URL schemes that name a Redis Cluster (``redis+cluster://HOST:PORT``: any one node of
the cluster; the client learns the others from it; ``rediss+cluster://`` with TLS)."""


class SettingError(ValueError):
    """A setting with a value it cannot take; ``str()`` is one line naming the setting."""

    def __init__(self, field: str, reason: str, *, variable: str | None = None) -> None:
        self.field = field
        """The setting's name in ``ServerConfig``."""
        self.variable = variable
        """The environment variable the value came from; None when it was given in code or as an option."""
        self.reason = reason
        super().__init__(f"{variable or field}: {reason}")


@dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid"))
class ServerConfig:
    host: str = Field("127.0.0.1", min_length=1, description="address to listen on")
    port: int = Field(
        8765, ge=0, le=65535, description="port (WebSocket, /healthz, /metrics); 0 picks a free one"
    )
    public_url: str = Field("", description="the URL clients reach this node at (empty: ws://HOST:PORT/)")
    """The URL clients use to reach this node (redirects name it); defaults to ws://host:port/."""
    records_dir: str = Field(
        "records", min_length=1, description="the node's data directory (the embedded database's file)"
    )
    records_keep_days: int = Field(
        30, ge=0, description="days a casual match's record is kept in the archive (0: forever)"
    )
    """Casual matches that ended longer ago are deleted from the archive at start and once a day,
    so that it does not fill up with games nobody will fetch again. Rated matches are kept: they
    are the history ratings were computed from."""
    analysis_budget: int = Field(
        0, ge=0, description="strong bot iterations per analysed move of a replay (0: the bot's default)"
    )
    """What one replay's analysis costs a bot worker (once per match: the archive keeps it)."""
    database_url: str = Field(
        "", description="database URL of profiles, ratings and records (empty: records_dir/cardavia.db)"
    )
    """Where what lasts is kept (profiles, ratings, finished matches): empty for the embedded SQLite
    file ``cardavia.db`` in ``records_dir``; ``sqlite:///abs/path.db`` or ``sqlite:relative.db``
    for another file; ``postgresql://user:password@host:port/db`` (or ``postgres://``) for the
    PostgreSQL a cluster's nodes share. A malformed URL is refused at start (exit code 2), and so
    is a database that cannot be reached then."""
    transfer_code_seconds: float = Field(
        600.0, gt=0, le=86_400, description="how long a profile's transfer code stays valid"
    )
    transfer_codes_per_minute: int = Field(
        10, ge=0, description="transfer codes one address may try a minute (0: no limit)"
    )
    """Transfer codes (``redeem_transfer_code``) one address may try a minute, in bursts of as
    many; past that, codes are refused as ``rate_limited``. A code is 50 bits and lives ten
    minutes, so at this pace guessing one is hopeless. 0: no limit."""
    redis_url: str = Field("", description="Redis URL of the lobby (empty: the embedded in-memory lobby)")
    """Empty: the embedded in-memory lobby. ``redis://`` or ``rediss://`` (TLS), password in the URL:
    one Redis; ``redis+cluster://HOST:PORT`` or ``rediss+cluster://``: a Redis Cluster, by any one node."""
    redis_prefix: str = Field("cardavia:", min_length=1, description="prefix of every Redis key")
    """Prefix of every Redis key, so that several deployments can share one Redis."""
    redis_replicas_wait: int = Field(
        1, ge=0, le=16, description="replicas a journaled action waits for before its delta leaves (0: none)"
    )
    """Replicas of the lobby's Redis (each master of a cluster) that must hold a journaled action
    before its delta goes out (Redis's ``WAIT``), at most as many as the master has: replication is
    asynchronous, and an action only on a master that fails would be lost. 0: the master's word."""
    node_id: str = Field("node-1", min_length=1, description="this node's name in the lobby")
    max_frame: int = Field(4096, ge=64, description="largest frame a client may send (bytes)")
    """Largest frame a client may send, in bytes."""
    rate_per_second: float = Field(20.0, gt=0, description="messages a connection may send a second")
    rate_burst: int = Field(40, ge=1, description="messages a connection may send in one burst")
    abuse_limit: int = Field(20, ge=0, description="bad messages before a connection is closed (1008)")
    """Protocol errors a connection may cause before it is closed."""
    max_rooms_per_connection: int = Field(
        3, ge=0, description="rooms one connection may hold open at once (finished ones do not count)"
    )
    max_connections_per_ip: int = Field(
        64, ge=0, description="sockets one client address may hold open (0: no limit)"
    )
    """Sockets one client address may hold open at once, counted from the moment each is accepted,
    before its request is read, so sockets that never finish a request count too (0: no limit).
    Past it a WebSocket is closed with 1013 and a page request answered 503, a few at a time; further
    sockets are dropped unanswered. A trusted proxy's sockets count for the client they forward."""
    sessions_per_minute: int = Field(
        60, ge=0, description="new sessions one address may start a minute (0: no limit)"
    )
    """New sessions (a ``hello`` without a working resume token) one address may start a minute,
    in bursts of as many; more are refused and closed with 1013. 0: no limit."""
    failed_lookups_per_minute: int = Field(
        20, ge=0, description="room ids or codes naming no room one address may send a minute (0: no limit)"
    )
    """Room codes or ids that name no room, per address a minute (in bursts of as many); past
    that, lookups by code are refused as ``rate_limited``, so guessing a private room's code is
    hopeless. Each failed lookup also counts toward the connection's ``abuse_limit``. 0: no limit."""
    trusted_proxies: str = Field(
        "", description="reverse proxies' addresses or networks, comma-separated (empty: none)"
    )
    """Addresses or networks of reverse proxies, comma-separated (``10.0.0.0/8,127.0.0.1``): for a
    connection from one of them the client's address is read from ``X-Forwarded-For`` (or
    ``Forwarded``). Empty: the peer's own address is the client's."""
    metrics_allow: str = Field(
        "", description="addresses or networks that may read /metrics, comma-separated (empty: anyone)"
    )
    """Who may read ``/metrics``: addresses or networks, comma-separated (``127.0.0.1,10.0.0.0/8``),
    matched against the address that connects (never a forwarded header, which a client writes);
    others get 403. Empty: anyone, as a node listening on a private address needs no more."""
    allowed_origins: str = Field(
        "",
        description="origins of other sites' pages that may open the WebSocket, comma-separated "
        "(* any: unsafe; empty: the nodes' own only)",
    )
    """Browser pages that may open the game's WebSocket besides the node's own and the cluster's
    (``server/origins.py``): origins, comma-separated (``https://cards.example.com``, a page on
    another host that embeds the game; ``https://play.example.org``, the entry host of a cluster
    whose nodes have public URLs of their own). A browser's upgrade from any other ``Origin``
    (``null`` included) is refused with 403 before it counts against its address, so a page
    a player visits cannot spend the player's connections. Requests without ``Origin`` (the
    terminal client, bots) are accepted. ``*`` accepts every origin: the check off, which hands
any site's pages the budgets of their visitors' addresses again (unsafe)."""
    session_seconds: float = Field(
        300.0, ge=0, description="how long a session holding no seat outlives its last connection"
    )
    """How long a session that holds no seat outlives its last connection; then its resume token
    stops working (``bad_resume_token``) and the client starts a new session."""
    send_buffer: int = Field(
        262_144, ge=1024, description="bytes a client may leave unread before it is closed"
    )
    """Bytes a client may leave unread in the server's write buffer before it is closed as too slow."""
    idle_timeout: float = Field(300.0, gt=0, description="seconds a client in no room may stay silent")
    """Seconds a client outside any room may stay silent before it is disconnected.

    Players seated in a room or watching one are never idle: they may wait a long
    time for others to move, and keepalive pings (``ping_interval``) find dead peers."""
    ping_interval: float = Field(20.0, ge=0, description="seconds between keepalive pings (0: none)")
    grace_seconds: float = Field(60.0, ge=0, description="how long a dropped player's seat waits")
    """How long a dropped player's seat waits before a bot takes it over."""
    result_seconds: float = Field(
        600.0, ge=0, description="how long a finished room waits for a dropped player to see the result"
    )
    """How long a finished room nobody is in waits for a player who dropped before the end (a
    stand-in may have played its seat to the end) to come back and see how it ended; the room
    waits at least ``grace_seconds`` in any case."""
    bot_delay: float = Field(0.6, ge=0, le=60, description="seconds a bot waits before moving")
    """Pause before a bot moves so that people can follow; 0 in tests."""
    bot_workers: int = Field(1, ge=0, le=256, description="worker processes for search bots (0: a thread)")
    """Worker processes for search bots; 0 runs them in a thread (tests)."""
    heartbeat_seconds: float = Field(0.5, gt=0, description="how often a node tells the lobby it is alive")
    """How often a node tells the lobby it is alive; it counts as gone after ``node_ttl``."""
    node_ttl: float = Field(1.5, gt=0, description="seconds after its last heartbeat a node counts as gone")
    """Seconds after its last heartbeat a node counts as gone and the others adopt its rooms (at
    once: they look again the moment a node that missed its beats expires). Three heartbeats: a
    node whose loop stalls for two keeps its rooms, and a killed node's rooms are back elsewhere
    within this plus their replay, well under 2 s with the defaults."""
    reservation_seconds: float = Field(
        30.0, gt=0, description="how long a seat is held for a client sent to another node"
    )
    """How long a seat is held for a client redirected to the node that runs the room."""
    default_turn_seconds: float = Field(
        0.0, description=f"turn timer of public rooms, {MIN_TURN_SECONDS:g}-{MAX_TURN_SECONDS:g} s (0: off)"
    )
    """Turn timer of public rooms when the creator sets none; 0 means off. Bounded as a creator's
    ``turn_seconds`` is: a timer shorter than a person can answer in hands every turn to a bot, and
    the upper bound is the longest a table may be kept waiting on one player."""
    gc_freeze_seconds: float = Field(
        1.0, ge=0, description="how often the heap is moved out of the collector's way (0: never)"
    )
    """How often ``cardavia serve`` moves its heap out of the garbage collector's way (``gc_pacer.py``);
    0 leaves the collector as CPython runs it."""
    gc_full_seconds: float = Field(3600.0, gt=0, description="longest time between two full collections")
    """Longest time between two full collections; they come sooner the more memory cyclic garbage holds."""
    log_level: str = Field("INFO", description="least severe log lines written: " + ", ".join(LOG_LEVELS))
    web_dir: str = Field(
        "", description="the browser page's built files (empty: those installed with Cardavia)"
    )
    """The built browser page served at ``/`` (``index.html`` and its assets, read once at start);
    empty: ``clients/web/dist/`` as installed with the package."""

    @field_validator("trusted_proxies", "metrics_allow")
    @classmethod
    def _networks(cls, value: str) -> str:
        parse_networks(value)  # raises ValueError naming the bad entry
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: str) -> str:
        parse_allowed_origins(value)  # raises ValueError naming the bad entry
        return value

    @field_validator("default_turn_seconds", mode="wrap")
    @classmethod
    def _turn_timer(cls, value: object, parse: ValidatorFunctionWrapHandler) -> float:
        seconds = float(parse(value))
        if seconds != 0 and not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:  # NaN included
            bounds = f"from {MIN_TURN_SECONDS:g} to {MAX_TURN_SECONDS:g}"
            raise ValueError(f"must be 0 (off) or a number {bounds}, not {value!r}")
        return seconds

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, value: str) -> str:
        if not value:
            return value
        scheme, _, rest = value.partition("://")
        if scheme not in ("redis", "rediss", "unix", *CLUSTER_SCHEMES):
            schemes = "redis://, rediss://, unix://, " + ", ".join(f"{s}://" for s in CLUSTER_SCHEMES)
            raise ValueError(f"must be empty or a {schemes} URL, not {value!r}")
        from redis.connection import parse_url  # the client's own reading of the URL

        try:
            parts = parse_url(scheme.removesuffix("+cluster") + "://" + rest)  # type: ignore[no-untyped-call]
        except ValueError as exc:
            raise ValueError(f"not a Redis URL ({exc}): {value!r}") from None
        if scheme in CLUSTER_SCHEMES and (not parts.get("host") or parts.get("db", 0) != 0):
            raise ValueError(
                f"a Redis Cluster is named by HOST:PORT of one node, with no database: {value!r}"
            )
        return value

    @field_validator("database_url")
    @classmethod
    def _database(cls, value: str) -> str:
        if not value:
            return value
        from cardavia.server.store.base import check_postgres_url, sqlite_path  # the archive's own reading

        scheme = value.partition(":")[0].lower()
        shown = masked_url(value)
        if scheme not in ("sqlite", "postgresql", "postgres") or ":" not in value:
            raise ValueError(f"must be empty or a sqlite: or postgresql:// URL, not {shown!r}")
        if scheme != "sqlite" and not value.partition(":")[2].startswith("//"):
            raise ValueError(f"a PostgreSQL URL is postgresql://user@host:port/db, not {shown!r}")
        try:
            if scheme == "sqlite":
                sqlite_path(value)
            else:
                check_postgres_url(value)
        except ValueError as exc:
            raise ValueError(f"{str(exc).replace(value, shown)}") from None
        return value

    @field_validator("redis_prefix")
    @classmethod
    def _prefix(cls, value: str) -> str:
        if "{" in value or "}" in value:  # a brace would make the prefix a Redis Cluster hash tag
            raise ValueError(f"must hold no braces (the keys' hash tags follow it), not {value!r}")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: object) -> object:
        if isinstance(value, str) and value.upper() in LOG_LEVELS:
            return value.upper()
        raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}, not {value!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ServerConfig:
        """Defaults, then ``CARDAVIA_*`` variables, then explicit overrides (None: not given).

        Raises ``SettingError`` naming the variable (or, for an override, the setting) at fault.
        """
        env = os.environ if environ is None else environ
        try:
            cls(**(values := _read_environment(env)))
        except ValidationError as exc:
            field, reason = _first_error(exc)
            raise SettingError(field, reason, variable=variable(field)) from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except ValidationError as exc:
            field, reason = _first_error(exc)
            raise SettingError(
                field, reason, variable=None if field in overrides else variable(field)
            ) from None

    def records_path(self) -> Path:
        return Path(self.records_dir)

    def archive_url(self) -> str:
        """The database URL the node opens: ``database_url``, or the embedded SQLite file
        ``cardavia.db`` in ``records_dir`` when it is empty."""
        if self.database_url:
            return self.database_url
        return "sqlite:///" + str((self.records_path() / "cardavia.db").resolve()).lstrip("/")


def masked_url(url: str) -> str:
    """A database URL as it may be shown in an error or a log: any password replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return url
    credentials, _, host = rest.partition("@")
    user, has_password, _ = credentials.partition(":")
    return f"{scheme}://{user}{':***' if has_password else ''}@{host}"


def settings() -> dict[str, FieldInfo]:
    """Every setting's definition, by name, in the order of ``ServerConfig``."""
    fields: dict[str, FieldInfo] = ServerConfig.__pydantic_fields__  # type: ignore[attr-defined]
    return dict(fields)


def variable(field: str) -> str:
    """The environment variable of a setting."""
    return ENV_PREFIX + field.upper()


def describe(info: FieldInfo) -> str:
    """What a setting's values may be, as in "must be an integer from 0 to 65535"."""
    kinds: dict[object, str] = {int: "an integer", float: "a number"}
    kind = kinds.get(info.annotation, "a string")
    low: Any = None
    high: Any = None
    above = False
    for item in info.metadata:
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Gt):
            low, above = item.gt, True
        elif isinstance(item, annotated_types.Le):
            high = item.le
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None:
        return f"{kind} {'above' if above else 'of at least'} {low}"
    if high is not None:
        return f"{kind} of at most {high}"
    return kind


def _first_error(exc: ValidationError) -> tuple[str, str]:
    error = exc.errors()[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    info = settings().get(field)
    if error["type"] == "value_error":  # the validator's message names the value
        return field, str(error["ctx"]["error"]) if "ctx" in error else error["msg"]
    if error["type"] == "extra_forbidden":
        return field, "is not a setting"
    if error["type"] == "string_too_short":
        reason = "must not be empty"
    elif info is not None:
        reason = f"must be {describe(info)}"
    else:  # pragma: no cover - every field has a definition
        reason = error["msg"]
    given = error.get("input")
    return field, f"{reason}, not {given!r}" if isinstance(given, str | int | float) else reason


class _EnvironSource(EnvSettingsSource):
    """``CARDAVIA_*`` variables from a given mapping (``os.environ`` or a test's dictionary)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return parse_env_vars(
            self._environ, self.case_sensitive, self.env_ignore_empty, self.env_parse_none_str
        )


class _Variables(BaseSettings):
    model_config = SettingsConfigDict(env_ignore_empty=True, case_sensitive=True, extra="ignore")


@functools.cache
def _variables_model() -> type[BaseSettings]:
    """The settings as pydantic-settings reads them: each under its ``CARDAVIA_*`` name."""
    fields: dict[str, Any] = {
        name: (str, Field(None, validation_alias=variable(name))) for name in settings()
    }
    model: type[BaseSettings] = create_model("ServerVariables", __base__=_Variables, **fields)
    return model


def _read_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings given by ``CARDAVIA_*`` variables, as the text they were given as."""
    names = {variable(name): name for name in settings()}
    found = _EnvironSource(_variables_model(), environ)()
    return {names.get(key, key): value for key, value in found.items() if value is not None}
