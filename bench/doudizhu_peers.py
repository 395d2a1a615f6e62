"""Dou Dizhu engine speed against its peers: RLCard and OpenSpiel.

Every figure is random full games per second on the calling core: each game
plays uniformly random legal moves from a fresh deal until it ends.

* Cardavia, two ways: ``actions`` goes through the public contract
  (``legal_actions`` with concrete cards, then ``apply_unchecked``, as
  ``bench/engines.py`` does); ``moves`` uses the rank-level bot interface
  (``legal_moves`` / ``play_move``), which is what the peers offer: their
  actions are ranks too. Both list the complete move set and play the whole
  deal: bidding (redeals included), play, scoring and the record log.
* RLCard (pure Python, ``rlcard.games.doudizhu.game.DoudizhuGame``): no
  bidding (RLCard picks the landlord itself), random choice over
  ``state["actions"]``.
* OpenSpiel (C++ ``dou_dizhu`` through ``pyspiel``): the deal is 52 chance
  nodes, each uniform over its outcomes; random choice over ``legal_actions()``.

The peers are optional (``pip install rlcard open_spiel``); each function
imports its peer only when called and says what to install when it is missing.

``worst_legal_actions_time`` times ``legal_actions`` when leading from each
hand of a corpus of hard hands (many triples: many wings) and gives the worst.

    python -m bench.doudizhu_peers [--seconds 3] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from cardavia.games import doudizhu_moves
from cardavia.games.cards import DECK_54
from cardavia.games.doudizhu import GAME, DouDizhuState, Pass
from cardavia.games.doudizhu_moves import RANK_OF, SORT_KEY

HARD_HANDS: tuple[str, ...] = (
    "333444555666789TJQKA",  # 519 moves: four chained triples, singles for wings
    "3456789TTTJJJQQQKKKA",
    "456789TJJJQQQKKKAAA2",
    "3334445556667778889T",
    "333444555666777888BR",
    "33334444555566667777",
    "3333444455556666BR22",
    "33344455566677788899",
    "3456789TJQKA2BR33344",
    "33445566778899TTJJQQ",
)
"""Ranks of 20-card landlord hands with many moves when leading."""


class WorstCase(NamedTuple):
    seconds: float
    """The slowest ``legal_actions`` call (best of its repeats)."""
    hand: str
    actions: int


class PeerMissing(RuntimeError):
    """A peer engine is not installed."""


# ------------------------------------------------------------------ Cardavia
def cardavia_games_per_second(seconds: float, *, path: str = "actions", seed: str = "bench") -> float:
    """Random full Cardavia games per second; ``path`` is ``actions`` or ``moves`` (see above)."""
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state: DouDizhuState = GAME.new(None, f"{seed}/{played}")
        if path == "actions":
            while (seat := state.to_move) is not None:
                legal = state.legal_actions(seat)
                state = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
        elif path == "moves":
            while (seat := state.to_move) is not None:
                if state.phase == "bidding":
                    legal = state.legal_actions(seat)
                    state = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
                    continue
                moves = state.legal_moves()
                pick = rng.randrange(len(moves) + state.can_pass)
                state = (
                    state.play_move(moves[pick])[0] if pick < len(moves) else state.apply_unchecked(Pass())[0]
                )
        else:
            raise ValueError(f"path is 'actions' or 'moves', not {path!r}")
        played += 1
    return played / (time.perf_counter() - start)


def worst_legal_actions_time(corpus: Iterable[str] = HARD_HANDS, repeats: int = 20) -> WorstCase:
    """The slowest ``legal_actions`` of a landlord leading from each hand of ``corpus``
    (ranks as people type them, 20 cards at most), each the best of ``repeats`` calls."""
    worst = WorstCase(0.0, "", 0)
    deck = sorted(DECK_54, key=SORT_KEY.__getitem__)
    for ranks in corpus:
        counts = doudizhu_moves.parse_ranks(ranks)
        hand = [c for r in range(15) for c in [c for c in deck if RANK_OF[c] == r][: counts[r]]]
        rest = [c for c in deck if c not in hand]
        text = (
            "phase: play\nbids: 3\nlandlord: 0\nturn: 0\n"
            f"hands: {' '.join(c.code for c in hand)} / {rest[0].code} / {rest[1].code}"
        )
        best, actions = float("inf"), 0
        for _ in range(repeats):
            state = GAME.position(text)  # a fresh state: no cached legal list
            begin = time.perf_counter()
            actions = len(state.legal_actions(0))
            best = min(best, time.perf_counter() - begin)
        if best > worst.seconds:
            worst = WorstCase(best, ranks, actions)
    return worst


# -------------------------------------------------------------------- peers
def _missing(package: str, module: str, error: ImportError) -> PeerMissing:
    return PeerMissing(
        f"{module} is not installed ({error}); install the peer with: pip install {package} "
        "(or the project's 'bench' extra)"
    )


def rlcard_games_per_second(seconds: float, *, seed: int = 0) -> float:
    """Random full RLCard Dou Dizhu games per second (``pip install rlcard``)."""
    try:
        import numpy as np  # type: ignore[import-not-found, unused-ignore]
        from rlcard.games.doudizhu.game import DoudizhuGame  # type: ignore[import-untyped, unused-ignore]
    except ImportError as error:
        raise _missing("rlcard", "rlcard", error) from error
    game: Any = DoudizhuGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = game.init_game()
        while not game.is_over():
            actions = state["actions"]
            state, _ = game.step(actions[rng.randrange(len(actions))])
        played += 1
    return played / (time.perf_counter() - start)


def openspiel_games_per_second(seconds: float, *, seed: int = 0) -> float:
    """Random full OpenSpiel ``dou_dizhu`` games per second (``pip install open_spiel``)."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError as error:
        raise _missing("open_spiel", "pyspiel", error) from error
    game: Any = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():  # the deal: every outcome has the same probability
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        played += 1
    return played / (time.perf_counter() - start)


# --------------------------------------------------------------------- main
def _median(measure: Callable[[float], float], seconds: float, runs: int) -> float | str:
    try:
        return statistics.median(measure(seconds) for _ in range(runs))
    except PeerMissing as missing:
        return str(missing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    report(args.seconds, args.runs)


def report(seconds: float, runs: int) -> None:
    """Cardavia's Dou Dizhu and its peers side by side, the ratios, and the worst legal_actions call."""
    rows: dict[str, float | str] = {
        "cardavia (legal_actions, cards)": _median(cardavia_games_per_second, seconds, runs),
        "cardavia (legal_moves, ranks)": _median(
            lambda s: cardavia_games_per_second(s, path="moves"), seconds, runs
        ),
        "rlcard (pure Python)": _median(rlcard_games_per_second, seconds, runs),
        "openspiel (C++ pyspiel)": _median(openspiel_games_per_second, seconds, runs),
    }
    print(f"{'engine':<34} {'games/s':>10}")
    for name, value in rows.items():
        print(f"{name:<34} {value:>10.1f}" if isinstance(value, float) else f"{name:<34} {value}")
    ours = [v for k, v in rows.items() if k.startswith("cardavia") and isinstance(v, float)]
    for peer in ("rlcard (pure Python)", "openspiel (C++ pyspiel)"):
        theirs = rows[peer]
        if isinstance(theirs, float):
            ratios = ", ".join(f"{v / theirs:.2f}x" for v in ours)
            print(f"cardavia / {peer}: {ratios} (actions, moves)")
    worst = worst_legal_actions_time()
    print(
        f"worst legal_actions when leading: {worst.seconds * 1e3:.3f} ms "
        f"({worst.actions} actions, hand {worst.hand})"
    )


if __name__ == "__main__":
    main()
