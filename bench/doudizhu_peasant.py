"""Dou Dizhu: how much a `strong` peasant gains over a `basic` one against a `basic` landlord, deal by deal.

    python -m bench.doudizhu_peasant [--deals 200] [--seed q] [--jobs 2] [--perfect] [--two-step]

Each deal is bid by three `basic` bots, so the landlord is the one `basic`
bidding makes (landlords bid only on strong hands). The play is then run
three times from the same position: all `basic`, and once for each peasant
seat with `strong` in it beside a `basic` partner. Every seating counts once,
so the strong peasant's score and the basic peasant's score on the same cards
are compared pair by pair.

``--perfect`` is a diagnostic, not a bot: the strong peasant's sampler is
handed the true hidden hands instead of sampling them, which shows what
knowing the cards would be worth to the same search.

``--two-step`` is a diagnostic too: in the strong peasant's rollouts its own
later decisions are not `basic`'s but one-step searches of their own (each
candidate played out with `basic` all round on the rollout's world), which
shows what a deeper search would be worth. The rollouts cost more, so the same
budget buys fewer worlds; with ``--perfect`` every world is the true one.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardavia.bots.doudizhu_bots as ddz
from cardavia.bots.base import Bot
from cardavia.bots.doudizhu_heuristics import RankDeal, play_move_out, play_out
from cardavia.bots.registry import make_bot
from cardavia.games import doudizhu_moves as dm
from cardavia.games.doudizhu import DouDizhuState
from cardavia.games.doudizhu_moves import Move
from cardavia.games.registry import get_game

_TRUE: dict[str, list[Any]] = {}
"""The hidden hands as they are, for ``--perfect``."""


def _true_sample(self: ddz.Reading, hidden: Any, rng: Any) -> dict[str, list[Any]]:
    return {place: list(cards) for place, cards in _TRUE.items()}


def _looking_ahead(deal: RankDeal, seat: int) -> tuple[Move | None, int]:
    """``seat``'s move in a rollout by a one-step search of its own, and the plies that search played."""
    seen = deal.seen(seat)
    options = ddz.candidate_moves(seen, dm.generate(seen.counts, seen.table) if seen.table else None)
    if len(options) == 1:
        return options[0], 0
    values, plies = [], 0
    for move in options:
        points, stake, played = play_move_out(deal, move, seat)
        values.append(ddz.play_value(points, stake))
        plies += played
    return options[max(range(len(options)), key=values.__getitem__)], plies


def _two_step_out(deal: RankDeal, move: Move | None, seat: int) -> tuple[int, int, int]:
    return play_out(deal, seat, first=move, forced=True, decide=lambda d: _looking_ahead(d, seat))


def _play(state: DouDizhuState, bots: Sequence[Bot], peek: int | None = None) -> list[int]:
    deal = len(state.log)
    while state.to_move is not None and len(state.log) == deal:
        seat = state.to_move
        if seat == peek:
            _TRUE.clear()
            _TRUE.update({f"hand{s}": list(state.hands[s]) for s in range(3) if s != seat})
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat))
        state, _ = state.apply(action, seat=seat)
    score = state.log[deal - 1].score
    assert score is not None
    return list(score["points"])


def seatings(seed: str, deals: range, perfect: bool, two_step: bool = False) -> list[tuple[int, int]]:
    """(strong peasant's points, basic peasant's points on the same cards), one pair per seating."""
    if perfect:
        ddz.Reading.sample = _true_sample  # type: ignore[method-assign]
    if two_step:
        ddz.play_move_out = _two_step_out
    game = get_game("doudizhu")
    pairs = []
    for i in deals:
        name = f"{seed}/{i}"
        state = game.new({}, name)
        basics = [make_bot("doudizhu", "basic", f"{name}/b{k}") for k in range(3)]
        while state.landlord is None:
            seat = state.to_move
            assert seat is not None
            bid = basics[seat].choose(state.view(seat), state.legal_actions(seat))
            state, _ = state.apply(bid, seat=seat)
        assert isinstance(state, DouDizhuState)
        base = _play(state, basics)
        for seat in range(3):
            if seat != state.landlord:
                bots = list(basics)
                bots[seat] = make_bot("doudizhu", "strong", f"{name}/seat{seat}")
                pairs.append((_play(state, bots, seat if perfect else None)[seat], base[seat]))
    return pairs


def _ci(values: Sequence[float]) -> str:
    return f"{statistics.fmean(values):+.2f} ± {1.96 * statistics.stdev(values) / math.sqrt(len(values)):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", default="q")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--perfect", action="store_true", help="hand the sampler the true hidden hands")
    parser.add_argument("--two-step", action="store_true", help="search the peasant's rollout moves too")
    args = parser.parse_args()
    chunks = [range(j, args.deals, args.jobs) for j in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        flags = [args.perfect] * args.jobs, [args.two_step] * args.jobs
        pairs = [p for part in pool.map(seatings, [args.seed] * args.jobs, chunks, *flags) for p in part]
    strong, basic = [s for s, _ in pairs], [b for _, b in pairs]
    kind = "strong peasant" + ", two-step" * args.two_step + ", told the hidden hands" * args.perfect
    print(f"{len(pairs)} seatings ({args.deals} deals, seed {args.seed!r}), mean points per deal, 95% CI:")
    print(f"  {kind}: {_ci(strong)}")
    print(f"  basic peasant on the same cards: {_ci(basic)}")
    print(f"  gain: {_ci([s - b for s, b in pairs])}")


if __name__ == "__main__":
    main()
