"""The collector pacer: what it freezes, when it collects everything, and that it gives the heap back."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest
from prometheus_client import CollectorRegistry, Histogram

from cardavia.server.config import ServerConfig
from cardavia.server.gc_pacer import MIN_FULL_SECONDS, SHARE, THRESHOLDS, GcPacer
from tests.support.waiting import wait_until


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Node:
    """A container that can be made part of a reference cycle."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def pacer(clock: Clock) -> Iterator[GcPacer]:
    before = gc.get_threshold()
    pacer = GcPacer(1.0, 600.0, clock=clock)
    pacer.start()
    try:
        yield pacer
    finally:
        pacer.stop()
        assert gc.get_threshold() == before


def cyclic_garbage() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_start_collects_then_freezes_and_sets_the_thresholds(pacer: GcPacer) -> None:
    assert gc.get_threshold() == THRESHOLDS
    assert pacer.heap > 0
    assert pacer.blocks > pacer.heap
    assert gc.get_freeze_count() > 0
    assert pacer.full_collections == 1


def test_a_tick_takes_what_was_made_since_out_of_the_young_generation(pacer: GcPacer) -> None:
    kept = [Node() for _ in range(100)]
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert id(kept[0]) in young
    frozen = gc.get_freeze_count()
    assert pacer.tick() is False
    assert gc.get_freeze_count() >= frozen + 100
    assert id(kept[0]) not in {id(o) for o in gc.get_objects(generation=0)}


def test_frozen_objects_are_still_freed_by_reference_counting(pacer: GcPacer) -> None:
    node = Node()
    ref = weakref.ref(node)
    pacer.tick()
    del node
    assert ref() is None


def test_frozen_cycles_wait_for_the_first_full_collection_a_minute_after_start(
    pacer: GcPacer, clock: Clock
) -> None:
    ref = cyclic_garbage()
    pacer.tick()
    gc.collect()  # what CPython's own collector would do finds nothing: the cycle is frozen
    assert ref() is not None
    clock.now += MIN_FULL_SECONDS - 1
    assert pacer.tick() is False
    assert ref() is not None
    clock.now += 1
    assert pacer.tick() is True
    assert ref() is None
    assert pacer.found >= 2
    assert pacer.full_collections == 2
    assert pacer.last_full == clock.now


def test_no_garbage_found_puts_the_next_full_collection_off_to_the_longest_wait(
    pacer: GcPacer, clock: Clock
) -> None:
    clock.now += MIN_FULL_SECONDS
    gc.collect()  # nothing cyclic left for the pacer's own collection to find
    assert pacer.tick() is True
    assert pacer.found == 0
    assert pacer.next_full == clock.now + 600.0
    clock.now += 599.0
    assert pacer.tick() is False


def test_the_garbage_found_paces_the_next_full_collection(pacer: GcPacer, clock: Clock) -> None:
    clock.now += MIN_FULL_SECONDS
    # garbage at a twentieth of the heap a minute: the next collection in about five minutes
    heap = gc.get_freeze_count() + len(gc.get_objects())
    gc.disable()  # so that CPython's own young collections leave the garbage to the pacer
    try:
        garbage = [cyclic_garbage() for _ in range(heap // 40 + 1000)]
        assert pacer.tick() is True
    finally:
        gc.enable()
    assert all(ref() is None for ref in garbage)
    assert pacer.found >= 2 * len(garbage)
    assert pacer.released >= 2 * len(garbage)
    # when the same garbage would reach SHARE of the heap, within the bounds
    rate = pacer.released / MIN_FULL_SECONDS
    wait = min(600.0, max(MIN_FULL_SECONDS, SHARE * pacer.blocks / rate))
    assert pacer.next_full == pytest.approx(clock.now + wait)
    assert MIN_FULL_SECONDS <= pacer.next_full - clock.now < 600.0


def test_a_few_garbage_objects_holding_much_memory_bring_the_next_collection_forward(
    pacer: GcPacer, clock: Clock
) -> None:
    clock.now += MIN_FULL_SECONDS
    gc.disable()  # the cycle must wait for the pacer, as a frozen one would
    try:
        a, b = Node(), Node()
        a.other, b.other = b, [f"payload {n}" for n in range(pacer.blocks // 2)]  # strings: no gc
        b.other.append(a)
        ref = weakref.ref(a)
        del a, b
        assert pacer.tick() is True
    finally:
        gc.enable()
    assert ref() is None
    assert pacer.found < 10  # two nodes and a list: counted as objects, nearly nothing
    assert pacer.released >= pacer.blocks // 3  # but they held a large share of the heap's memory
    assert pacer.next_full == clock.now + MIN_FULL_SECONDS  # so the next collection comes soon


def test_a_heap_grown_past_its_bound_gets_a_full_collection_at_once(clock: Clock) -> None:
    pacer = GcPacer(1.0, 600.0, clock=clock, growth=1.0, slack=20_000)
    pacer.start()
    try:
        ref = cyclic_garbage()
        few = [Node() for _ in range(1000)]
        assert pacer.tick() is False
        assert ref() is not None
        many = [Node() for _ in range(30_000)]
        assert pacer.tick() is True  # no time has passed: the growth alone called for it
        assert ref() is None
        assert pacer.tick() is False  # measured from the new size, the same heap is no growth
        assert len(few) + len(many) == 31_000
    finally:
        pacer.stop()


def test_stop_gives_the_whole_heap_back_to_the_collector(clock: Clock) -> None:
    pacer = GcPacer(1.0, 600.0, clock=clock)
    pacer.start()
    ref = cyclic_garbage()
    pacer.tick()
    pacer.stop()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert ref() is None


def test_every_collection_is_timed_by_generation(clock: Clock) -> None:
    pauses = Histogram("pause", "", ["generation"], registry=CollectorRegistry())
    pacer = GcPacer(1.0, 600.0, pauses=pauses, clock=clock)
    pacer.start()
    try:
        gc.collect(0)
    finally:
        pacer.stop()
    gc.collect(0)  # after stop: not timed
    (metric,) = pauses.collect()
    samples = {s.labels["generation"]: s.value for s in metric.samples if s.name == "pause_count"}
    assert samples == {"2": 1.0, "0": 1.0}


def test_run_ticks_until_cancelled_and_zero_leaves_the_collector_alone(clock: Clock) -> None:
    async def scenario() -> None:
        before = gc.get_threshold()
        await GcPacer(0.0, 600.0, clock=clock).run()  # off: returns at once, nothing frozen
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before
        pacer = GcPacer(0.01, 600.0, clock=clock)
        task = asyncio.create_task(pacer.run())
        await wait_until(lambda: gc.get_freeze_count() > 0, "the pacer's first tick")
        assert gc.get_freeze_count() > 0
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before

    asyncio.run(scenario())


def test_the_pace_is_configured_like_every_other_setting() -> None:
    config = ServerConfig.from_env({"CARDAVIA_GC_FREEZE_SECONDS": "0.5", "CARDAVIA_GC_FULL_SECONDS": "60"})
    assert (config.gc_freeze_seconds, config.gc_full_seconds) == (0.5, 60.0)
    assert ServerConfig().gc_freeze_seconds == 1.0
