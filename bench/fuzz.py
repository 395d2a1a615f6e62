"""Fuzzing the decoder and the read loop: answers by error code, valid frames, frames a second.

    python -m bench.fuzz --frames 1000000 --seed S
    python -m bench.fuzz --frames 1000000 --seed S --server [--server-frames 100000]

The frames are the seeded corpus of ``tests/fuzz_frames.py`` (every family,
``--frames`` of them): each goes through ``protocol.codec.decode_client``,
which must return a message or raise ``ProtocolError``. The table counts the
outcomes by wire code (``decoded``: a valid request, which mutations sometimes
make) and by family; frames a second count decoding alone, then generating and
decoding together. Any other exception is printed with the frame's index,
family and bytes in hex, and the run exits 1.

With ``--server`` a live server in this process (every limit out of reach)
gets ``--server-frames`` frames the server must refuse on any connection (the
decoder refuses them, or they are hostile requests: ``refused_corpus``), spread
over four connections at once: one before ``hello``, one in the lobby, one
seated in a Scopa game under way and one watching it. Every answer must be an
``error`` with a documented code that is the client's fault and, for a frame
the decoder refuses, the decoder's code and request id; anything else (another
message, ``internal_error``, a closed connection, a failure in the server's
log) is printed with its frame, and the run exits 1. Client and server share
this process, so its frames a second are a floor for the server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests
from cardavia.protocol.codec import MAX_CLIENT_FRAME, decode_client, decode_server, encode
from cardavia.protocol.errors import ERROR_CODES, ProtocolError
from tests.fuzz_frames import FAMILIES, NO_LIMITS, Fuzzed, corpus, refusal, refused_corpus

BATCH = 10_000
"""Frames generated before they are decoded, so the decoding is timed apart from the generating."""
SHOWN = 20
"""Failures printed in full; the rest are counted."""


def frame_hex(frame: bytes | str) -> str:
    if isinstance(frame, str):
        return "text:" + frame.encode("utf-8", "surrogatepass").hex()
    return frame.hex()


@dataclasses.dataclass
class DecoderRun:
    codes: Counter[str] = dataclasses.field(default_factory=Counter)
    families: dict[str, Counter[str]] = dataclasses.field(default_factory=dict)
    failures: list[str] = dataclasses.field(default_factory=list)
    decode_seconds: float = 0.0
    total_seconds: float = 0.0


def run_decoder(seed: str, frames: int) -> DecoderRun:
    """Every frame through ``decode_client``: outcomes by code and family, and what escaped."""
    run = DecoderRun(families={name: Counter() for name in FAMILIES})
    stream = corpus(seed, frames)
    started = time.perf_counter()
    index = 0
    while index < frames:
        batch = [item for _, item in zip(range(BATCH), stream, strict=False)]
        clock = time.perf_counter()
        outcomes = []
        for item in batch:
            try:
                decode_client(item.frame)
                outcomes.append("decoded")
            except ProtocolError as exc:
                outcomes.append(exc.code if exc.code in ERROR_CODES else f"undocumented {exc.code}")
            except Exception as exc:  # the very thing this run looks for
                outcomes.append("other exception")
                run.failures.append(
                    f"frame {index + len(outcomes) - 1} ({item.family}) raised {exc!r}\n"
                    f"  frame: {frame_hex(item.frame)}\n" + "".join(traceback.format_exc(limit=-3))
                )
        run.decode_seconds += time.perf_counter() - clock
        for item, outcome in zip(batch, outcomes, strict=True):
            run.codes[outcome] += 1
            run.families[item.family][outcome] += 1
        index += len(batch)
    run.total_seconds = time.perf_counter() - started
    return run


# ------------------------------------------------------------------ server
@dataclasses.dataclass
class ServerRun:
    codes: Counter[str] = dataclasses.field(default_factory=Counter)
    failures: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    frames: int = 0


class _Errors(logging.Handler):
    """Keeps the server's error log: a request or a room task that failed."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def _recv(ws: ClientConnection) -> m.Reply:
    frame = await asyncio.wait_for(ws.recv(), 30.0)
    if not isinstance(frame, bytes):
        raise AssertionError(f"a text frame from the server: {frame!r}")
    return decode_server(frame)


async def _expect(ws: ClientConnection, kind: type[m.Reply]) -> Any:
    while True:
        message = await _recv(ws)
        if isinstance(message, kind):
            return message


async def _fuzz(ws: ClientConnection, frames: list[Fuzzed], said_hello: bool, run: ServerRun) -> None:
    """Send ``frames`` 100 at a time and check each answer (the server answers in order)."""
    for start in range(0, len(frames), 100):
        chunk = frames[start : start + 100]
        for item in chunk:
            await ws.send(item.frame)
        for item in chunk:
            try:
                answer = await _recv(ws)
            except Exception as exc:  # closed, or not a server message
                run.failures.append(f"{exc!r} after ({item.family}) {frame_hex(item.frame)}")
                return
            wrong = ""
            expected = refusal(item.frame)
            if not isinstance(answer, m.Error):
                wrong = "not an error"
                run.codes[f"({type(answer).__name__})"] += 1
            else:
                run.codes[answer.code] += 1
                if answer.code not in ERROR_CODES or ERROR_CODES[answer.code].fault != "client":
                    wrong = "not a client error"
                elif expected is not None and (answer.code, answer.id) != expected:
                    wrong = f"the decoder says {expected}"
                elif expected is None and not said_hello and answer.code != "handshake_required":
                    wrong = "not handshake_required before hello"
            if wrong:
                run.failures.append(f"{answer!r} ({wrong}) for ({item.family}) {frame_hex(item.frame)}")


async def run_server(seed: str, frames: int) -> ServerRun:
    from cardavia.server.app import CardaviaServer
    from cardavia.server.config import ServerConfig

    run = ServerRun()
    errors = _Errors()
    logging.getLogger("cardavia").addHandler(errors)
    known = {f.name for f in dataclasses.fields(ServerConfig)}
    with tempfile.TemporaryDirectory() as records:
        settings = {**NO_LIMITS, "port": 0, "records_dir": str(Path(records) / "records"), "bot_delay": 0.0}
        settings.update(bot_workers=0, ping_interval=0.0, max_frame=MAX_CLIENT_FRAME)
        server = CardaviaServer(ServerConfig(**{k: v for k, v in settings.items() if k in known}))
        await server.start()
        url = f"ws://127.0.0.1:{server.port}/"
        try:
            sockets = [await connect(url, compression=None, max_size=2**20) for _ in range(4)]
            seated, watcher, lobby, stranger = sockets
            req = Requests()
            for ws, name in ((seated, "Anna"), (watcher, "Cleo"), (lobby, "Dan")):
                await ws.send(encode(req.hello(name)))
                await _expect(ws, m.Welcome)
            await seated.send(encode(req.play_now("scopa", "random")))
            snapshot: m.Snapshot = await _expect(seated, m.Snapshot)
            await _expect(seated, m.YourTurn)
            await watcher.send(encode(req.spectate(code=snapshot.room.code)))
            await _expect(watcher, m.Snapshot)
            chosen = list(refused_corpus(seed, frames, game="scopa"))
            started = time.perf_counter()
            await asyncio.gather(
                *(
                    _fuzz(ws, chosen[i::4], said_hello=ws is not stranger, run=run)
                    for i, ws in enumerate(sockets)
                )
            )
            run.seconds = time.perf_counter() - started
            run.frames = len(chosen)
            for ws in sockets:
                if ws.close_code is not None:
                    run.failures.append(f"a connection was closed: {ws.close_code} {ws.close_reason}")
                await ws.close()
        finally:
            await server.shutdown()
    logging.getLogger("cardavia").removeHandler(errors)
    for record in errors.records:
        cause = f": {record.exc_info[1]!r}" if record.exc_info else ""
        run.failures.append(f"server log: {record.getMessage()}{cause}")
    return run


# -------------------------------------------------------------------- output
def _table(title: str, counts: Counter[str], total: int) -> None:
    print(title)
    print(f"{'answer':<20} {'frames':>10} {'share':>7}")
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{code:<20} {count:>10,} {count / total:>7.2%}")
    print(f"{'total':<20} {total:>10,}")


def _failures(failures: list[str]) -> None:
    for text in failures[:SHOWN]:
        print(text)
    if len(failures) > SHOWN:
        print(f"... and {len(failures) - SHOWN} more")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--frames", type=int, default=1_000_000, help="frames through the decoder")
    parser.add_argument("--seed", default="1", help="the corpus seed (any string)")
    parser.add_argument("--server", action="store_true", help="also fuzz a live server's read loop")
    parser.add_argument("--server-frames", type=int, default=100_000, help="frames through the server")
    args = parser.parse_args()
    print(f"python -m bench.fuzz --frames {args.frames} --seed {args.seed}", end="")
    print(f" --server --server-frames {args.server_frames}" if args.server else "")

    decoder = run_decoder(args.seed, args.frames)
    _table("\ndecode_client, by outcome", decoder.codes, args.frames)
    print("\nby family (decoded / refused, the most frequent refusal)")
    for family, found in decoder.families.items():
        refused = sum(v for k, v in found.items() if k != "decoded")
        top = max((k for k in found if k != "decoded"), key=lambda k: found[k], default="-")
        print(f"{family:<16} {found['decoded']:>8,} / {refused:>8,}  {top}")
    print(
        f"\ndecoded-valid frames: {decoder.codes['decoded']:,}"
        f"\ndecoding: {args.frames / decoder.decode_seconds:,.0f} frames/s"
        f"; generating and decoding: {args.frames / decoder.total_seconds:,.0f} frames/s"
        f"\nexceptions other than ProtocolError: {len(decoder.failures)}"
    )
    _failures(decoder.failures)
    failed = bool(decoder.failures)

    if args.server:
        server = asyncio.run(run_server(args.seed, args.server_frames))
        _table(
            f"\nthe server's read loop ({server.frames:,} frames, 4 connections)", server.codes, server.frames
        )
        print(
            f"\nframes/s (client and server in one process): {server.frames / server.seconds:,.0f}"
            f"\nwrong answers, closes or server failures: {len(server.failures)}"
        )
        _failures(server.failures)
        failed = failed or bool(server.failures)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
