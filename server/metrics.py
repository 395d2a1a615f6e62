"""Prometheus metrics of one node, on a registry of its own (so tests can run several servers)."""

from __future__ import annotations

from typing import Generic, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

M = TypeVar("M", Counter, Histogram)


class Children(Generic[M]):
    """A labelled metric's children by label value, each looked up once: ``labels`` takes a
    lock and builds a key (about 2 µs), which metrics touched on every action need not pay."""

    def __init__(self, metric: M) -> None:
        self.metric: M = metric
        self._children: dict[str, M] = {}

    def __call__(self, value: str) -> M:
        child = self._children.get(value)
        if child is None:
            child = self._children[value] = self.metric.labels(value)
        return child


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Gauge("cardavia_connections", "Open WebSocket connections", registry=self.registry)
        self.rooms = Gauge("cardavia_rooms", "Rooms on this node", ["game", "state"], registry=self.registry)
        self.actions = Counter("cardavia_actions_total", "Actions applied", ["game"], registry=self.registry)
        self.actions_of = Children(self.actions)
        """``actions_of(game).inc()``: counted once per action."""
        self.action_latency = Histogram(
            "cardavia_action_seconds",
            "Time from receiving an accepted act to queuing every recipient's delta (journal write included)",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25),
            registry=self.registry,
        )
        self.bot_think = Histogram(
            "cardavia_bot_think_seconds",
            "Time a bot takes to choose a move, by level (a worker's queue included)",
            ["level"],
            buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.gc_pause = Histogram(
            "cardavia_gc_pause_seconds",
            "Time the event loop stood still for a garbage collection, by generation (2: full)",
            ["generation"],
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5),
            registry=self.registry,
        )
        self.table_size = Gauge(
            "cardavia_table_size",
            "Entries in each table the node keeps (rooms, sessions, lobby, per-address limits, ...)",
            ["table"],
            registry=self.registry,
        )
        self.limited = Counter(
            "cardavia_limited_total",
            "Connections and requests refused by a per-address limit (connections, sessions, lookups)",
            ["limit"],
            registry=self.registry,
        )
        self.origin_refused = Counter(
            "cardavia_origin_refused",
            "WebSocket upgrades refused (403) for their Origin: a page of another site, null, several",
            registry=self.registry,
        )
        self.storage_up = Gauge(
            "cardavia_storage_up",
            "1 while the archive's database (profiles, ratings, records) answers, 0 while it is away",
            registry=self.registry,
        )
        self.storage_up.set(1)
        self.profiles = Counter(
            "cardavia_profile_events_total",
            "Profile events: created, signed_in, renamed, code_issued, code_redeemed, deleted",
            ["event"],
            registry=self.registry,
        )
        self.errors = Counter(
            "cardavia_errors_total", "Errors sent to clients", ["code"], registry=self.registry
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)
