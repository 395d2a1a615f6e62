"""Logs: one logfmt line per record (timestamp and level first), at the level asked for, with
health probes and metric scrapes kept out of INFO; /metrics names its content type once."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardavia.cli import LogfmtFormatter, configure_logging
from cardavia.protocol import messages as m
from tests.support.clients import client
from tests.support.servers import own_server
from tests.support.waiting import wait_until

PAIR = re.compile(r'([a-z_]+)=("(?:[^"\\]|\\.)*"|[^ "=]*)(?: |$)')


def logfmt(line: str) -> dict[str, str]:
    """The pairs of a logfmt line; fails the test when the line is not logfmt through and through."""
    pairs = PAIR.findall(line)
    assert "".join(f"{k}={v} " for k, v in pairs).rstrip() == line, line
    return {key: value.strip('"') for key, value in pairs}


def record(name: str, level: int, msg: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_our_events_are_logfmt_with_their_values_quoted_when_needed() -> None:
    line = LogfmtFormatter().format(
        record("cardavia.records", logging.ERROR, "event=record_write_failed record=%s error=%r", "r1-1",
               OSError(28, "No space left on device"))
    )  # fmt: skip
    fields = logfmt(line)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", fields["ts"])
    assert (fields["level"], fields["logger"], fields["event"]) == (
        "error",
        "cardavia.records",
        "record_write_failed",
    )
    assert fields["record"] == "r1-1"
    assert "No space left on device" in fields["error"]


def test_other_messages_and_tracebacks_become_quoted_values() -> None:
    try:
        raise ValueError('bad "thing"')
    except ValueError:
        import sys

        entry = record("asyncio", logging.WARNING, "Task was destroyed but it is pending!")
        entry.exc_info = sys.exc_info()
    fields = logfmt(LogfmtFormatter().format(entry))
    assert fields["msg"] == "Task was destroyed but it is pending!"
    assert "ValueError" in fields["exc"]
    assert "\n" not in LogfmtFormatter().format(entry)


@pytest.fixture
def logs() -> Iterator[tuple[io.StringIO, list[str]]]:
    """Root logging as ``cardavia serve`` sets it, into a buffer; the test's choice of level."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    stream = io.StringIO()
    yield stream, []
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


async def _get(port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    await writer.wait_closed()
    return answer


async def test_probes_and_scrapes_stay_out_of_info_logs(
    tmp_path: Path, logs: tuple[io.StringIO, list[str]]
) -> None:
    stream, _ = logs
    configure_logging("INFO", stream)
    async with own_server(tmp_path) as (server, _url):
        for _ in range(3):
            assert (await _get(server.port, "/healthz")).startswith(b"HTTP/1.1 200")
            assert (await _get(server.port, "/metrics")).startswith(b"HTTP/1.1 200")
        await asyncio.sleep(0)  # let the connections' close lines, if any, be logged
    lines = stream.getvalue().splitlines()
    assert not [line for line in lines if "connection" in line or "HTTP response" in line], lines
    for line in lines:
        assert logfmt(line)["level"] != "debug"


async def test_at_debug_the_probe_lines_are_there_marked_debug(
    tmp_path: Path, logs: tuple[io.StringIO, list[str]]
) -> None:
    stream, _ = logs
    configure_logging("DEBUG", stream)
    async with own_server(tmp_path) as (server, _url):
        await _get(server.port, "/healthz")
    rejected = [logfmt(line) for line in stream.getvalue().splitlines() if "HTTP response sent" in line]
    assert rejected
    assert {fields["level"] for fields in rejected} == {"debug"}


def _events(text: str) -> list[dict[str, str]]:
    """Every line of ``text`` read as logfmt, for the lines our code writes (those with an event)."""
    return [fields for fields in map(logfmt, text.splitlines()) if "event" in fields]


async def test_a_session_and_a_rooms_life_are_logged_as_logfmt_events_and_a_probe_is_not(
    tmp_path: Path, logs: tuple[io.StringIO, list[str]]
) -> None:
    """At INFO an operator follows sessions and rooms by their ids, event by event, through a
    logfmt reader (any log pipeline's); a probe every few seconds must not bury those lines."""
    stream, _ = logs
    configure_logging("INFO", stream)
    async with own_server(tmp_path) as (server, url):
        anna = await client(url)
        welcome = await anna.hello()
        await anna.send(anna.req.create_room("scopa", humans=2))
        room = (await anna.expect(m.Snapshot)).room.room
        await anna.send(anna.req.leave())
        await anna.expect(m.Left)
        # the owner left: the waiting room closes as the server gets to it
        await wait_until(lambda: room not in server.rooms, "the waiting room closed")
        await anna.ws.close()
        # and its connection's end is logged, before the probes
        await wait_until(lambda: "event=disconnected" in stream.getvalue(), "the disconnection logged")
        before = stream.getvalue()
        for _ in range(3):
            assert (await _get(server.port, "/healthz")).startswith(b"HTTP/1.1 200")
        await asyncio.sleep(0.05)  # time on purpose: whatever the probes would log has been logged
        after = stream.getvalue()
    events = _events(before)
    assert all(fields["level"] == "info" and fields["logger"].startswith("cardavia") for fields in events)
    hellos = [fields for fields in events if fields["event"] == "hello"]
    assert [(f["session"], f["resumed"]) for f in hellos] == [(welcome.session, "False")]
    created = [fields for fields in events if fields["event"] == "room_created"]
    assert [(f["room"], f["game"], f["session"]) for f in created] == [(room, "scopa", welcome.session)]
    closed = [fields for fields in events if fields["event"] == "room_closed"]
    assert [(f["room"], f["game"], f["matches"]) for f in closed] == [(room, "scopa", "0")]
    order = [fields["event"] for fields in events]
    assert order.index("hello") < order.index("room_created") < order.index("room_closed")
    assert after.removeprefix(before) == "", "a health probe was logged at INFO"


async def test_metrics_name_their_content_type_once(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (server, _url):
        head = (await _get(server.port, "/metrics")).split(b"\r\n\r\n", 1)[0].decode()
    types = [line for line in head.split("\r\n") if line.lower().startswith("content-type:")]
    assert types == ["Content-Type: text/plain; version=0.0.4; charset=utf-8"]
