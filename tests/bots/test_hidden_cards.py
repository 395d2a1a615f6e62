"""The hidden-cards bench: told determinizations put the true cards in place; its deals are paired."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import bench.hidden_cards
import cardavia.bots.registry  # noqa: F401  (registers every game's determinizer and model)
from bench.hidden_cards import (
    TOLD,
    Seat,
    play_all,
    play_deal,
    read_record,
    report,
    role_figures,
    seatings,
    true_places,
)
from cardavia.bots.arena import arrangements, head_to_head, mean_interval, role_samples, wilson
from cardavia.bots.determinize import all_placements, is_told, sample_places, told
from cardavia.bots.doudizhu_bots import Reading, doudizhu_hidden
from cardavia.bots.models import MODELS
from cardavia.bots.registry import make_bot
from cardavia.games.engine import State
from cardavia.games.registry import get_game

GAMES = ("briscola", "scopa", "schnapsen", "doudizhu")


def stock_of(game_id: str, state: Any) -> list[Any]:
    """The state's cards that are neither in a hand nor seen: in their order where it matters."""
    if game_id == "doudizhu":
        return sorted(state.kitty)
    return list(state.talon if game_id == "schnapsen" else state.stock)


def positions(game_id: str, seed: str, every: int = 3) -> list[tuple[State[Any], int]]:
    """Every ``every``-th decision of one deal played by `basic` bots: (state, seat to move)."""
    game = get_game(game_id)
    state: State[Any] = game.new({}, seed)
    bots = [make_bot(game_id, "basic", f"{seed}/{s}") for s in range(game.players)]
    deal, out = len(state.log), []
    while (seat := state.to_move) is not None and len(state.log) == deal:
        out.append((state, seat))
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat))
        state, _ = state.apply(action, seat=seat)
    return out[::every]


@pytest.mark.parametrize("game_id", GAMES)
def test_told_all_every_sampled_world_is_the_true_position(game_id: str) -> None:
    determinizer = MODELS[game_id].determinizer
    rng = random.Random(1)
    checked = 0
    for state, seat in positions(game_id, f"told/{game_id}"):
        view = state.view(seat)
        with told(true_places(game_id, state, seat, "all")):
            worlds = [determinizer.determinize(view, rng) for _ in range(3)]
            every = list(all_placements(determinizer.hidden(view)))
        assert len(every) == 1
        for world in worlds:
            assert [sorted(h) for h in world.hands] == [sorted(h) for h in state.hands]
            assert stock_of(game_id, world) == stock_of(game_id, state)
            assert world.to_move == state.to_move
        checked += 1
    assert checked > 3
    assert not is_told()


@pytest.mark.parametrize("game_id", GAMES)
def test_told_hands_keeps_the_opponents_hands_and_samples_the_stock(game_id: str) -> None:
    determinizer = MODELS[game_id].determinizer
    rng = random.Random(2)
    reordered = 0
    for state, seat in positions(game_id, f"hands/{game_id}"):
        view = state.view(seat)
        with told(true_places(game_id, state, seat, "hands")):
            world = determinizer.determinize(view, rng)
        for other in range(len(state.hands)):
            assert sorted(world.hands[other]) == sorted(state.hands[other])
        true_stock, stock = stock_of(game_id, state), stock_of(game_id, world)
        assert sorted(stock) == sorted(true_stock)
        reordered += stock != true_stock
    if game_id != "doudizhu":  # no stock after the bidding, and the kitty has no order
        assert reordered > 0


def test_a_dou_dizhu_reading_gives_the_told_hands_after_bids_and_plays() -> None:
    read = 0
    for state, seat in positions("doudizhu", "reading", every=5)[1:]:
        view = state.view(seat)
        reading = Reading(view)
        if not reading.active:
            continue
        places = true_places("doudizhu", state, seat, "all")
        with told(places):
            placed = reading.sample(doudizhu_hidden(view), random.Random(3))
        assert {p: sorted(c) for p, c in placed.items()} == {p: sorted(c) for p, c in places.items()}
        read += 1
    assert read > 2


def test_outside_told_placements_are_sampled_as_before() -> None:
    state = get_game("briscola").new({}, "plain")
    view = state.view(0)
    hidden = MODELS["briscola"].determinizer.hidden(view)
    with told(true_places("briscola", state, 0, "all")):
        assert is_told()
    assert not is_told()
    assert sample_places(hidden, random.Random(5)) == sample_places(hidden, random.Random(5))
    assert sample_places(hidden, random.Random(5))["hand"] != list(state.hands[1])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_deal_is_played_in_every_seating(game_id: str) -> None:
    tasks = seatings(game_id, "told-all", "strong", 3, "s")
    players = get_game(game_id).players
    assert len(tasks) == 3 * len(arrangements(players))
    for deal in range(3):
        seated = [names for _, names, seed in tasks if seed == f"s/{deal}"]
        assert seated == [tuple(("told-all", "strong")[i] for i in s) for s in arrangements(players)]
    assert seatings(game_id, "strong", "strong", 2, "s") == [
        (game_id, ("strong",) * players, "s/0"),
        (game_id, ("strong",) * players, "s/1"),
    ]


def test_a_paired_deal_deals_the_same_cards_with_the_bots_swapped(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt: dict[tuple[str, ...], dict[int, tuple[str, list[Any]]]] = {}
    choose = Seat.choose

    def spy(self: Seat, game_id: str, state: State[Any], seat: int) -> Any:
        first = dealt.setdefault(current, {})
        first.setdefault(seat, (self.name, sorted(state.hands[seat])))
        return choose(self, game_id, state, seat)

    monkeypatch.setattr(Seat, "choose", spy)
    for _, names, seed in seatings("briscola", "basic", "random", 1, "pair"):
        current = names
        outcome = play_deal("briscola", names, seed)
        assert outcome.seats == names
        assert sum(outcome.scores) == 120
    one, other = dealt[("basic", "random")], dealt[("random", "basic")]
    for seat in (0, 1):
        assert one[seat][1] == other[seat][1]
        assert one[seat][0] != other[seat][0]


def test_a_record_keeps_each_seated_deal_and_a_later_run_plays_only_the_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "deals.jsonl"
    fresh = play_all(seatings("doudizhu", "basic", "random", 2, "r"), jobs=1)
    first = play_all(seatings("doudizhu", "basic", "random", 1, "r"), jobs=1, record=record)
    assert len(record.read_text().splitlines()) == 6

    def played_alike(outcome: Any) -> Any:
        return outcome.seats, outcome.scores, outcome.deal_points, outcome.deal_roles

    assert [played_alike(o) for o in first] == [played_alike(o) for o in fresh[:6]]
    read = read_record(record)
    for task, outcome in zip(seatings("doudizhu", "basic", "random", 1, "r"), first, strict=True):
        assert played_alike(read[task]) == played_alike(outcome)
        assert [len(t) for t in read[task].times] == [len(t) for t in outcome.times]

    played: list[Any] = []
    play = bench.hidden_cards._play

    def counted(task: Any) -> Any:
        played.append(task)
        return play(task)

    monkeypatch.setattr(bench.hidden_cards, "_play", counted)
    both = play_all(seatings("doudizhu", "basic", "random", 2, "r"), jobs=1, record=record)
    assert [seed for _, _, seed in played] == ["r/1"] * 6
    assert [(o.seats, o.scores, o.deal_roles) for o in both] == [
        (o.seats, o.scores, o.deal_roles) for o in fresh
    ]
    assert len(read_record(record)) == 12


def test_a_line_cut_short_by_a_stopped_run_is_played_again(tmp_path: Path) -> None:
    record = tmp_path / "deals.jsonl"
    tasks = seatings("briscola", "basic", "random", 2, "c")
    whole = play_all(tasks, jobs=1, record=record)
    lines = record.read_text().splitlines()
    record.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])
    assert len(read_record(record)) == len(tasks) - 1
    again = play_all(tasks, jobs=1, record=record)
    assert [o.scores for o in again] == [o.scores for o in whole]
    assert len(read_record(record)) == len(tasks)


def test_worker_processes_record_every_deal_and_return_them_in_order(tmp_path: Path) -> None:
    record = tmp_path / "deals.jsonl"
    tasks = seatings("briscola", "basic", "random", 2, "w")
    pooled = play_all(tasks, jobs=2, record=record)
    assert [o.scores for o in pooled] == [o.scores for o in play_all(tasks, jobs=1)]
    assert set(read_record(record)) == set(tasks)


def test_the_figures_are_the_arenas() -> None:
    outcomes = play_all(seatings("scopa", "basic", "random", 4, "f"), jobs=1)
    tally = head_to_head(outcomes, "basic", "random")
    low, high = wilson(tally.points, tally.games)
    margin, half = mean_interval(tally.deal_margins)
    line = report("scopa", "basic", "random", outcomes)[0]
    assert f"{tally.games} seated deals" in line
    assert f"[{low:.1%}-{high:.1%}]" in line
    assert f"{margin:+.2f} ± {half:.2f}" in line


def test_dou_dizhu_figures_by_role_use_wilson_and_mean_interval() -> None:
    outcomes = play_all(seatings("doudizhu", "basic", "random", 2, "r"), jobs=1)
    figures = role_figures(outcomes)
    assert {f.key[1] for f in figures} <= {"landlord", "peasant"}
    for fig in figures:
        values = [
            v
            for o in outcomes
            for points, roles in zip(o.deal_points, o.deal_roles, strict=False)
            for key, v in role_samples(o.seats, roles, points)
            if key == fig.key
        ]
        won = sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in values)
        assert fig.deals == len(values)
        assert fig.interval == wilson(won, len(values))
        assert fig.points == mean_interval(values)


def test_the_told_players_are_the_strong_level() -> None:
    assert set(TOLD) == {"told-hands", "told-all"}
    outcome = play_deal("scopa", ("told-all:60", "basic"), "told")
    assert outcome.seats == ("told-all:60", "basic")
    assert len(outcome.deal_points) == 1
