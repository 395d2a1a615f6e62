"""Determinizations agree with everything the seat has seen (property tests)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardavia.bots.determinize import (
    DETERMINIZERS,
    DeterminizeError,
    HiddenPlaces,
    all_placements,
    briscola_hidden,
    determinize,
    placement_count,
    sample_places,
)
from cardavia.games.cards import ALL_CARDS, DECK_40, Card
from tests.bots.positions import GENERIC_GAMES, position_after, random_positions

CODES = {c.code for c in ALL_CARDS}
FRESH_LOG = ("history", "last_deal")
"""View fields a rebuilt position cannot repeat: it starts a new log (see the report)."""


def cards_in(data: Any) -> set[str]:
    """Every card code anywhere in plain data."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and item in CODES:
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def without_log(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in FRESH_LOG}


@settings(max_examples=120)
@given(
    game=st.sampled_from(GENERIC_GAMES),
    seed=st.text(max_size=6),
    plies=st.integers(0, 150),
    salt=st.integers(0, 2**32),
)
def test_determinization_matches_the_view(game: str, seed: str, plies: int, salt: int) -> None:
    state = position_after(game, seed, plies)
    for seat in (0, 1):
        view = state.view(seat)
        world = determinize(view, random.Random(salt))
        # The seat sees exactly what it saw: same hand, table, piles, counts, scores.
        assert without_log(world.view(seat)) == without_log(view)
        # The hidden cards are the real hidden cards, in the right places and numbers.
        assert world.secret_cards(seat) == state.secret_cards(seat)
        real, built = state.places(), world.places()
        other = f"hand{1 - seat}"
        assert len(built[other]) == len(real[other])
        assert len(built["stock"]) == len(real["stock"])
        # No card the seat has seen anywhere lies in a hidden place.
        assert not {c.code for c in world.secret_cards(seat)} & cards_in(view)


def test_the_trump_card_stays_at_the_bottom_of_the_briscola_stock() -> None:
    for state in random_positions("briscola", "trump", 20, every=3):
        seat = state.to_move
        world: Any = determinize(state.view(seat), random.Random(1))
        if state.stock:
            assert world.stock[-1] is state.trump
        assert world.trump is state.trump


def test_determinizations_vary_and_repeat_with_the_generator() -> None:
    state = position_after("scopa", "vary", 3)
    view = state.view(state.to_move)
    first = determinize(view, random.Random(5)).to_text()
    assert determinize(view, random.Random(5)).to_text() == first
    assert len({determinize(view, random.Random(i)).to_text() for i in range(10)}) > 1


@pytest.mark.parametrize("game", GENERIC_GAMES)
def test_fully_known_exactly_when_the_stock_is_empty(game: str) -> None:
    determinizer = DETERMINIZERS[game]
    seen = set()
    for state in random_positions(game, "known", 15, every=2):
        seat = state.to_move
        known = determinizer.fully_known(state.view(seat))
        assert known == (not state.places()["stock"])
        seen.add(known)
        if known:
            # Only one placement: every sample is the real state.
            world = determinizer.determinize(state.view(seat), random.Random(3))
            assert _same_hands(world.places(), state.places())
    assert seen == {True, False}


def _same_hands(a: dict[str, list[Card]], b: dict[str, list[Card]]) -> bool:
    return all(sorted(a[k]) == sorted(b[k]) for k in a)


def test_a_spectator_view_cannot_be_determinized() -> None:
    state = position_after("briscola", "spectator", 2)
    with pytest.raises(DeterminizeError):
        determinize(state.view(None), random.Random(0))
    with pytest.raises(DeterminizeError):
        determinize({"game": "no-such-game"}, random.Random(0))


@st.composite
def placement_problems(draw: st.DrawFn) -> tuple[HiddenPlaces, dict[str, set[Card]]]:
    """A constrained placement problem built around one valid answer (so it is solvable)."""
    cards = draw(st.lists(st.sampled_from(DECK_40), min_size=1, max_size=20, unique=True))
    names = ["hand", "other", "stock"]
    answer: dict[str, set[Card]] = {n: set() for n in names}
    for card in cards:
        answer[draw(st.sampled_from(names))].add(card)
    known = {n: frozenset(c for c in answer[n] if draw(st.booleans()) and draw(st.booleans())) for n in names}
    excluded = {
        n: frozenset(c for c in cards if c not in answer[n] and draw(st.booleans())) for n in names[:2]
    }
    hidden = HiddenPlaces(
        tuple(cards),
        {n: len(answer[n]) for n in names},
        ordered=frozenset({"stock"}),
        known=known,
        excluded=excluded,
    )
    return hidden, answer


@settings(max_examples=200)
@given(problem=placement_problems(), salt=st.integers(0, 2**32))
def test_constrained_placements_keep_sizes_known_cards_and_voids(
    problem: tuple[HiddenPlaces, dict[str, set[Card]]], salt: int
) -> None:
    hidden, _ = problem
    placed = sample_places(hidden, random.Random(salt))
    assert sorted(c for cards in placed.values() for c in cards) == sorted(hidden.unseen)
    for place, size in hidden.sizes.items():
        assert len(placed[place]) == size
        assert hidden.known.get(place, frozenset()) <= set(placed[place])
        assert not hidden.excluded.get(place, frozenset()) & set(placed[place])


def test_an_impossible_placement_is_refused() -> None:
    two = DECK_40[:2]
    wrong_size = HiddenPlaces(two, {"hand": 3})
    with pytest.raises(DeterminizeError):
        sample_places(wrong_size, random.Random(0))
    void = HiddenPlaces(two, {"hand": 2}, excluded={"hand": frozenset(two[:1])})
    with pytest.raises(DeterminizeError):
        sample_places(void, random.Random(0))


@settings(max_examples=60)
@given(problem=placement_problems())
def test_enumerating_placements_lists_each_valid_one_once(
    problem: tuple[HiddenPlaces, dict[str, set[Card]]],
) -> None:
    hidden, answer = problem
    assume(placement_count(hidden) <= 2000)
    every = [tuple(tuple(p[name]) for name in sorted(p)) for p in all_placements(hidden)]
    assert len(every) == len(set(every))
    assert len(every) <= placement_count(hidden)
    if not any(hidden.excluded.values()):
        assert len(every) == placement_count(hidden)
    wanted = dict(answer)
    assert any(
        {name: set(cards) for name, cards in zip(sorted(answer), p, strict=True)} == wanted for p in every
    )


def test_every_world_of_a_late_briscola_view() -> None:
    for state in random_positions("briscola", "worlds", 30):
        if len(state.places()["stock"]) == 2:
            view = state.view(state.to_move)
            worlds = list(DETERMINIZERS["briscola"].every_world(view))
            assert len(worlds) == placement_count(briscola_hidden(view)) == 4
            assert any(_same_hands(w.places(), state.places()) for w in worlds)
            return
    pytest.fail("no position with two cards in the stock")
