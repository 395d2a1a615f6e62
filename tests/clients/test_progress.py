"""The status line: redrawn in place on a terminal, printed now and then into a log."""

from __future__ import annotations

import io

from cardavia.clients.cli.progress import CLEAR_LINE, Progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_on_a_terminal_the_line_is_redrawn_in_place_and_results_go_above_it() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress(out, tty=True, clock=clock)
    progress.update("1 game")
    clock.now += 0.01
    progress.update("2 games")  # too soon to redraw
    clock.now += 0.2
    progress.update("3 games")
    progress.print("bot-1: game 3 won")
    progress.close()
    assert out.getvalue() == (
        CLEAR_LINE + "1 game" + CLEAR_LINE + "3 games" + CLEAR_LINE + "bot-1: game 3 won\n"
        + CLEAR_LINE + "3 games" + CLEAR_LINE + "3 games\n"
    )  # fmt: skip


def test_in_a_log_the_status_is_a_plain_line_every_interval_and_at_the_end() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress(out, tty=False, every=10.0, clock=clock)
    for done in range(1, 31):
        clock.now += 1.0
        progress.update(f"{done} games")
    progress.print("result")
    progress.close("all done")
    assert out.getvalue().splitlines() == ["1 games", "11 games", "21 games", "result", "all done"]


def test_the_last_status_is_not_printed_twice_in_a_log() -> None:
    out = io.StringIO()
    with Progress(out, tty=False, every=10.0, clock=Clock()) as progress:
        progress.update("only line")
    assert out.getvalue() == "only line\n"


def test_counting_shows_done_total_rate_and_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress(out, tty=False, every=0.0, clock=clock)
    clock.now += 10.0
    progress.count(25, 100, "games", "1 reconnect")
    progress.count(100, 100, "games")
    assert out.getvalue().splitlines() == [
        "25/100 games (25%), 2.5/s, about 30 s left, 1 reconnect",
        "100/100 games (100%), 10.0/s",
    ]


def test_results_may_go_to_another_stream_while_the_status_line_is_cleared_and_redrawn() -> None:
    status, results = io.StringIO(), io.StringIO()
    progress = Progress(status, tty=True, clock=Clock())
    progress.update("1/2 games")
    progress.print("game 1: seat 0 wins", file=results)
    assert results.getvalue() == "game 1: seat 0 wins\n"
    assert status.getvalue() == CLEAR_LINE + "1/2 games" + CLEAR_LINE + CLEAR_LINE + "1/2 games"
