"""The bot catalogue: levels per game, plain data for clients."""

from __future__ import annotations

import json

import pytest

from cardavia.bots.base import Budget
from cardavia.bots.registry import LEVELS, catalogue, levels_for, make_bot
from cardavia.bots.strong_bot import StrongBot
from cardavia.games.registry import GAMES


def test_scopa_and_briscola_have_every_level() -> None:
    assert levels_for("scopa") == ["random", "basic", "strong"]
    assert levels_for("briscola") == ["random", "basic", "strong", "expert"]


def test_every_game_has_at_least_the_random_level() -> None:
    for game in GAMES:
        assert "random" in levels_for(game)


def test_the_catalogue_is_plain_data_with_ids_levels_and_descriptions() -> None:
    entries = catalogue()
    assert json.loads(json.dumps(entries)) == entries
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids))
    assert "scopa-strong" in ids
    assert "briscola-basic" in ids
    for entry in entries:
        assert entry["level"] in LEVELS
        assert entry["game"] in GAMES
        assert entry["description"]
    assert [e["level"] for e in catalogue("briscola")] == ["random", "basic", "strong", "expert"]


def test_make_bot_refuses_unknown_levels_and_games() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("scopa", "genius")
    missing = [g for g in GAMES if "strong" not in levels_for(g)]
    for game in missing:
        with pytest.raises(ValueError, match="no strong bot"):
            make_bot(game, "strong")


def test_bots_describe_themselves() -> None:
    bot = make_bot("briscola", "basic")
    assert bot.describe()["level"] == "basic"


def test_a_game_can_route_its_levels_to_its_own_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardavia.bots import registry
    from cardavia.bots.basic_bot import BasicBot

    made: list[tuple[str, object, object]] = []

    def factory(level: str, seed: str | int | None, iterations: int | None) -> BasicBot:
        made.append((level, seed, iterations))
        return BasicBot(seed)

    monkeypatch.setitem(registry.GAME_FACTORIES, "briscola", factory)
    registry.make_bot("briscola", "strong", "s", iterations=5)
    registry.make_bot("briscola", "random", "s")
    assert made == [("strong", "s", 5)]


@pytest.mark.parametrize(
    ("game_id", "iterations"), [("schnapsen", 960), ("briscola", 300), ("doudizhu", 1800)]
)
def test_the_expert_searches_its_own_budget_unless_told_another(game_id: str, iterations: int) -> None:
    expert = make_bot(game_id, "expert", "e")
    assert isinstance(expert, StrongBot)
    assert expert.default_budget(game_id) == Budget(iterations=iterations)
    told = make_bot(game_id, "expert", "e", iterations=40)
    assert isinstance(told, StrongBot)
    assert told.default_budget(game_id) == Budget(iterations=40)
