"""What the cards a bot cannot see are worth to the `strong` search: the same bot told them, per deal.

    python -m bench.hidden_cards [--games briscola,scopa,schnapsen,doudizhu] [--deals 400] [--seed h]
        [--jobs 2] [--pairs told-hands:strong,told-all:strong,strong:basic] [--record FILE]

Two "told" players are the `strong` bot unchanged, whose determinizations are
given what the true state holds (``determinize.told``) before each decision:

* ``told-hands``: every sampled world puts the opponents' true hands in
  place; the stock (Scopa, Briscola) and the talon (Schnapsen) hold the
  cards left, still in a random order.
* ``told-all``: every hidden card in its true place, the stock in its true
  order: every sampled world is the true position.

The told bot still receives only its view, and its search, budget and
playouts are the strong bot's; so the difference against `strong` measures
the information alone. In Dou Dizhu the two other hands leave only the
kitty while bidding (the cards left, in no order that matters) and nothing
after it, so there told-hands and told-all are the same player: with both
in ``--pairs`` only told-all plays. Any level the bot registry makes
(``make_bot``: ``basic``, ``strong``, ``strong/800`` for 800 iterations, a
later ``expert``) plays as itself.

A pairing ``a:b`` plays ``--deals`` deals (the first deal of a match, from
``game.new(options, seed)`` with one seed per deal), each in every seating of
the arena (``arena.arrangements``: two-player games twice with the seats
swapped; Dou Dizhu six times, each bot alone in each seat), so both bots play
the same cards from every seat, and every pairing plays the same deals. The
deals run in this module's loop over the engine (``legal_actions``, ``apply``)
because a told bot needs the true state beside its view; a pairing without
told bots is the same loop. Each seated deal becomes one ``MatchOutcome``
whose points are the deal's points (Schnapsen: game points; Briscola: card
points; Scopa: deal points; Dou Dizhu: each seat's points), and the figures are
the arena's: a seated deal is won when ``a``'s points beat ``b``'s (a draw
counts half; Wilson 95% interval, ``arena.wilson``) and the points per deal
are ``a``'s minus ``b``'s with a normal 95% interval (``arena.mean_interval``).
In Dou Dizhu the figures are also given by role (``arena.role_samples``): a
side wins a deal when its points are positive. ``a:a`` plays a bot against
itself (one seating per deal), for a baseline by role such as the strong
landlord against strong peasants.

A 400-deal figure costs hours of both cores (an expert Dou Dizhu seated deal
takes about 9 s of a core), so ``--record FILE`` keeps every seated deal's
outcome as one JSON line, written as it finishes: a run with the same file
plays only the seated deals the file lacks and reports on all of them, so a
figure can be built over several runs, stopped and resumed, and the lines
behind a published figure can be kept beside it. A seated deal is the same
whenever it is played (the bots and the deal are seeded; budgets count
iterations), so lines from different runs add up to one figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from cardavia.bots.arena import (
    BotSpec,
    MatchOutcome,
    arrangements,
    deal_roles,
    head_to_head,
    mean_interval,
    role_samples,
    wilson,
)
from cardavia.bots.base import Bot
from cardavia.bots.determinize import told
from cardavia.bots.registry import make_bot
from cardavia.games.cards import Card
from cardavia.games.engine import State
from cardavia.games.registry import get_game

GAMES = ("briscola", "scopa", "schnapsen", "doudizhu")
TOLD = {"told-hands": "hands", "told-all": "all"}
"""The told players and what each is told; both are the `strong` level."""
DEFAULT_PAIRS = "told-hands:strong,told-all:strong,strong:basic"
STOCKS = {"scopa": "stock", "briscola": "stock", "schnapsen": "talon", "doudizhu": "kitty"}
"""The name of each game's hidden place that is not a hand (``HiddenPlaces.sizes``)."""


def true_places(game_id: str, state: Any, seat: int, what: str) -> dict[str, list[Card]]:
    """The true cards of the places ``seat``'s determinizer fills (``what``: "hands" or "all").

    Place names and orders are the determinizers': the others' hands, and the
    stock as the position text lists it, without a card the view shows (the
    face-up Briscola trump and Schnapsen indicator at its end).
    """
    players = len(state.hands)
    if game_id == "doudizhu":
        places = {f"hand{s}": list(state.hands[s]) for s in range(players) if s != seat}
        stock = list(state.kitty) if state.landlord is None else None
    else:
        places = {"hand": list(state.hands[1 - seat])}
        rest = list(state.talon if game_id == "schnapsen" else state.stock)
        stock = rest if game_id == "scopa" else rest[:-1]
    if what == "all" and stock is not None:
        places[STOCKS[game_id]] = stock
    return places


@dataclass(frozen=True, slots=True)
class Seat:
    """A player of the bench: a registered level, or the strong bot told ``what``."""

    name: str
    bot: Bot
    what: str | None

    @classmethod
    def make(cls, name: str, game_id: str, seed: str) -> Seat:
        spec = BotSpec.parse(name)
        if spec.level in TOLD:
            return cls(name, make_bot(game_id, "strong", seed, iterations=spec.iterations), TOLD[spec.level])
        return cls(name, spec.make(game_id, seed), None)

    def choose(self, game_id: str, state: State[Any], seat: int) -> Any:
        view, legal = state.view(seat), state.legal_actions(seat)
        if self.what is None:
            return self.bot.choose(view, legal)
        with told(true_places(game_id, state, seat, self.what)):
            return self.bot.choose(view, legal)


Task = tuple[str, tuple[str, ...], str]
"""One seated deal: the game, the bot in each seat, the deal's seed."""


def play_deal(game_id: str, names: Sequence[str], seed: str) -> MatchOutcome:
    """One deal with ``names[s]`` in seat ``s``, as a one-deal ``MatchOutcome`` (a worker runs it)."""
    game = get_game(game_id)
    state: State[Any] = game.new({}, seed)
    seats = [Seat.make(name, game_id, f"{seed}/seat{s}") for s, name in enumerate(names)]
    times: list[list[float]] = [[] for _ in seats]
    deal = len(state.log)
    while (seat := state.to_move) is not None and len(state.log) == deal:
        start = time.perf_counter()
        action = seats[seat].choose(game_id, state, seat)
        if len(state.legal_actions(seat)) > 1:
            times[seat].append(time.perf_counter() - start)
        state, _ = state.apply(action, seat=seat)
    score = state.log[deal - 1].score
    assert score is not None
    points = list(score["points"])
    roles = deal_roles(score, game.players)
    return MatchOutcome(tuple(names), tuple(points), None, [points], times, [roles] if roles else [])


def seatings(game_id: str, a: str, b: str, deals: int, seed: str) -> list[Task]:
    """(game, seat names, deal seed) of every seated deal: each deal in every seating of ``a`` and ``b``."""
    players = get_game(game_id).players
    order = [(0,) * players] if a == b else arrangements(players)
    return [
        (game_id, tuple((a, b)[i] for i in seating), f"{seed}/{deal}")
        for deal in range(deals)
        for seating in order
    ]


def _play(task: Task) -> MatchOutcome:
    return play_deal(*task)


def to_line(task: Task, outcome: MatchOutcome) -> str:
    """A seated deal's outcome as one JSON line of ``--record``: the task, the points, roles and times."""
    game_id, names, seed = task
    return json.dumps(
        {
            "game": game_id,
            "seats": list(names),
            "seed": seed,
            "points": list(outcome.scores),
            "roles": list(outcome.deal_roles[0]) if outcome.deal_roles else None,
            "ms": [[round(1000 * t, 1) for t in spent] for spent in outcome.times],
        },
        separators=(",", ":"),
    )


def from_line(line: str) -> tuple[Task, MatchOutcome]:
    """The task and outcome a ``to_line`` line holds."""
    row = json.loads(line)
    names, points = tuple(row["seats"]), tuple(row["points"])
    roles = [tuple(row["roles"])] if row["roles"] else []
    times = [[ms / 1000 for ms in spent] for spent in row["ms"]]
    outcome = MatchOutcome(names, points, None, [list(points)], times, roles)
    return (row["game"], names, row["seed"]), outcome


def read_record(path: Path) -> dict[Task, MatchOutcome]:
    """Every seated deal a record file holds (a line cut short by a stopped run is skipped)."""
    done: dict[Task, MatchOutcome] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                task, outcome = from_line(line)
            except (ValueError, KeyError, TypeError):
                continue
            done[task] = outcome
    return done


def play_all(tasks: Sequence[Task], jobs: int, record: Path | None = None) -> list[MatchOutcome]:
    """Every seated deal, in order (in ``jobs`` worker processes when more than one).

    With ``record``, the deals the file holds are read from it and each deal played is appended
    to it as soon as it finishes.
    """
    done = read_record(record) if record is not None else {}
    todo = [task for task in dict.fromkeys(tasks) if task not in done]
    out = None
    if record is not None:
        out = record.open("a", encoding="utf-8")
        if record.stat().st_size and not _ends_a_line(record):
            out.write("\n")  # after a line cut short: its remains stay a line of their own, skipped
    try:
        if jobs <= 1:
            for task in todo:
                _keep(done, task, _play(task), out)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(_play, task): task for task in todo}
                for future in as_completed(futures):
                    _keep(done, futures[future], future.result(), out)
    finally:
        if out is not None:
            out.close()
    return [done[task] for task in tasks]


def _ends_a_line(path: Path) -> bool:
    with path.open("rb") as file:
        file.seek(-1, 2)
        return file.read(1) == b"\n"


def _keep(done: dict[Task, MatchOutcome], task: Task, outcome: MatchOutcome, out: TextIO | None) -> None:
    done[task] = outcome
    if out is not None:
        out.write(to_line(task, outcome) + "\n")
        out.flush()


@dataclass(frozen=True, slots=True)
class RoleFigure:
    """A bot's deals in one role against one other side: share won (points above 0) and mean points."""

    key: tuple[str, str, str]
    deals: int
    won: float
    interval: tuple[float, float]
    points: tuple[float, float]


def role_figures(outcomes: Sequence[MatchOutcome]) -> list[RoleFigure]:
    """Figures by (bot, role, other side) over deals that gave roles, through ``arena.role_samples``."""
    samples: dict[tuple[str, str, str], list[float]] = {}
    for outcome in outcomes:
        for points, roles in zip(outcome.deal_points, outcome.deal_roles, strict=False):
            for key, value in role_samples(outcome.seats, roles, points):
                samples.setdefault(key, []).append(value)
    figures = []
    for key, values in sorted(samples.items()):
        won = sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in values)
        figures.append(
            RoleFigure(key, len(values), won / len(values), wilson(won, len(values)), mean_interval(values))
        )
    return figures


def report(game_id: str, a: str, b: str, outcomes: Sequence[MatchOutcome]) -> list[str]:
    """Printable lines for one pairing in one game."""
    lines = []
    if a == b:
        lines.append(f"{game_id:<10} {a} v itself: {len(outcomes)} deals")
    else:
        tally = head_to_head(outcomes, a, b)
        low, high = tally.interval
        margin, half = mean_interval(tally.deal_margins)
        own, own_half = mean_interval(tally.scores[a])
        lines.append(
            f"{game_id:<10} {a} v {b}: {tally.games} seated deals, {a} won {tally.win_rate:.1%} "
            f"[{low:.1%}-{high:.1%}] (draws {tally.draws}), points per deal {a} minus {b} "
            f"{margin:+.2f} ± {half:.2f}, {a}'s own {own:+.2f} ± {own_half:.2f}"
        )
    for fig in role_figures(outcomes):
        bot, role, other = fig.key
        low, high = fig.interval
        mean, half = fig.points
        lines.append(
            f"{'':<10}   {bot} as {role} v {other}: {fig.deals} deals, won {fig.won:.1%} "
            f"[{low:.1%}-{high:.1%}], points {mean:+.2f} ± {half:.2f}"
        )
    times: dict[str, list[float]] = {}
    for outcome in outcomes:
        for seat, spent in enumerate(outcome.times):
            times.setdefault(outcome.seats[seat], []).extend(spent)
    lines.append(
        f"{'':<10}   mean decision ms: "
        + ", ".join(f"{bot} {1000 * statistics.fmean(t):.0f}" for bot, t in times.items() if t)
    )
    return lines


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``a:b,c:d`` -> [(a, b), (c, d)]; a bot with an iteration count is written ``strong/800``."""
    pairs = []
    for item in text.split(","):
        a, sep, b = item.strip().partition(":")
        if not sep or not a or not b:
            raise ValueError(f"pair {item!r}: write it bot:bot")
        pairs.append((a.replace("/", ":"), b.replace("/", ":")))
    return pairs


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--deals", type=int, default=400, help="deals per pairing, each in every seating")
    parser.add_argument("--seed", default="h")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="a:b pairs; strong/800 for strong:800")
    parser.add_argument("--record", type=Path, help="JSON lines of seated deals: read, and appended to")
    args = parser.parse_args(argv)
    pairs = parse_pairs(args.pairs)
    for game_id in args.games.split(","):
        for a, b in pairs:
            if (
                game_id == "doudizhu"
                and "told-hands" in (a, b)
                and "told-all" in {x for p in pairs for x in p}
            ):
                continue  # the same player as told-all here: no kitty order, no stock after bidding
            start = time.perf_counter()
            outcomes = play_all(seatings(game_id, a, b, args.deals, args.seed), args.jobs, args.record)
            for line in report(game_id, a, b, outcomes):
                print(line)
            print(f"{'':<10}   ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
