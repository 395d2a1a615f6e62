"""Briscola's expert: worlds weighted by the opponent's plays, the strong search over them."""

from __future__ import annotations

import random

import pytest

from cardavia.bots.briscola_expert import BriscolaExpertBot, Reading
from cardavia.bots.registry import levels_for, make_bot
from cardavia.games import briscola
from cardavia.games.briscola import Play
from cardavia.games.cards import DECK_40, Card, format_cards, parse_cards
from cardavia.games.engine import View

from .positions import random_positions

# Seat 0 leads the three of hearts; seat 1 could take it with its ace of hearts, or throw the two of clubs.
HANDS = ("3H 4D 6D", "2C AH 7C")


def _after(follow: str) -> View:
    """Seat 0's view once seat 1 has followed the three of hearts with ``follow`` (and both drew)."""
    trump = Card.parse("5S")
    held = set(parse_cards(" ".join(HANDS).split()))
    stock = [c for c in DECK_40 if c not in held and c is not trump] + [trump]
    text = "\n".join(
        [
            "game: briscola",
            "dealer: 1",
            "turn: 0",
            f"trump: {trump}",
            f"hands: {HANDS[0]} / {HANDS[1]}",
            f"stock: {format_cards(stock)}",
        ]
    )
    state = briscola.GAME.position(text)
    state = state.apply(Play(Card.parse("3H")), seat=0)[0]
    state = state.apply(Play(Card.parse(follow)), seat=1)[0]
    return state.view(0)


def _hand(text: str) -> list[Card]:
    return list(parse_cards(text.split()))


def test_worlds_where_the_opponent_would_have_played_otherwise_weigh_less() -> None:
    reading = Reading(_after("2C"), 0.1)
    rng = random.Random(5)
    kept_the_ace = reading.likelihood(_hand("AH 7C 5D"), rng)
    never_had_it = reading.likelihood(_hand("4C 7C 5D"), rng)
    assert kept_the_ace < 0.5 * never_had_it


def test_taking_with_the_ace_makes_the_ace_likely_and_the_random_share_flattens_the_weights() -> None:
    view = _after("AH")
    rng = random.Random(5)
    ratios = []
    for share in (0.0, 1.0):
        reading = Reading(view, share)
        with_two = reading.likelihood(_hand("2C 7C 5D"), rng)
        ratios.append(with_two / reading.likelihood(_hand("4C 7C 5D"), rng))
    assert ratios[1] == pytest.approx(1.0)
    assert ratios[0] != 1.0


def test_no_plays_weigh_every_world_alike() -> None:
    state = briscola.GAME.new(None, "w")
    view = state.view(state.to_move)
    reading = Reading(view, 0.3)
    assert not reading.active
    assert reading.likelihood(list(parse_cards(view["hand"])), random.Random(1)) == 1.0


def test_expert_is_listed_and_made_for_briscola() -> None:
    assert "expert" in levels_for("briscola")
    bot = make_bot("briscola", "expert", "s", iterations=40)
    assert isinstance(bot, BriscolaExpertBot)
    assert bot.level == "expert"


def test_expert_plays_legal_moves_and_is_deterministic_for_a_seed() -> None:
    for state in random_positions("briscola", "bx", 2, every=5):
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_actions(seat)
        first = make_bot("briscola", "expert", "s", iterations=60).choose(view, legal)
        again = make_bot("briscola", "expert", "s", iterations=60).choose(view, legal)
        assert first in legal
        assert first == again
