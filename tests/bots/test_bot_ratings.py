"""The bots' fixed ratings: the published table, the catalogue, and the arena's calibration."""

from __future__ import annotations

import json
import math

import pytest

from cardavia.bots import arena
from cardavia.bots.arena import MatchOutcome
from cardavia.bots.ratings import BOT_DEVIATION, bot_rating, bot_ratings
from cardavia.bots.registry import catalogue, levels_for
from cardavia.cli import main
from cardavia.games.ratings import Rating
from cardavia.games.registry import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_level_of_every_game_has_a_published_rating_anchored_at_basic(game: str) -> None:
    table = bot_ratings(game)
    assert list(table) == levels_for(game)
    assert table["basic"] == 1500
    assert table["random"] < table["basic"] < table["strong"]


def test_a_bots_rating_is_fixed_and_fairly_certain() -> None:
    strong = bot_rating("briscola", "strong")
    assert strong == Rating(float(bot_ratings("briscola")["strong"]), BOT_DEVIATION, 0.06)
    assert BOT_DEVIATION == 60.0


@pytest.mark.parametrize(("game", "level"), [("whist", "basic"), ("briscola", "genius")])
def test_no_rating_for_an_unknown_game_or_level(game: str, level: str) -> None:
    with pytest.raises(ValueError, match="no published rating"):
        bot_rating(game, level)
    assert bot_ratings("whist") == {}


def test_the_catalogue_shows_each_levels_rating() -> None:
    for entry in catalogue():
        assert entry["ratings"] == {entry["game"]: bot_ratings(entry["game"])[entry["level"]]}


def _outcome(seats: tuple[str, ...], scores: tuple[int, ...], winner: int | None) -> MatchOutcome:
    return MatchOutcome(seats, scores, winner, [], [[] for _ in seats])


def test_two_seat_matches_are_one_comparison_each_from_either_side() -> None:
    outcomes = [
        _outcome(("basic", "random"), (70, 50), 0),
        _outcome(("random", "basic"), (80, 40), 0),
        _outcome(("basic", "random"), (60, 60), None),
    ]
    (tally,) = arena.pairwise_tallies(outcomes, "briscola")
    assert (tally.a, tally.b) == ("basic", "random")
    assert (tally.wins, tally.draws, tally.losses, tally.games) == (1, 1, 1, 3)


def test_dou_dizhu_compares_different_bots_with_different_totals_only() -> None:
    outcomes = [
        # strong the landlord, winning: two wins over the basic peasants
        _outcome(("strong", "basic", "basic"), (4, -2, -2), 0),
        # basic the landlord, winning: the strong peasant loses once; the basic peasant and
        # the basic landlord are the same bot, never compared with itself
        _outcome(("basic", "strong", "basic"), (2, -2, -2), 0),
    ]
    (tally,) = arena.pairwise_tallies(outcomes, "doudizhu")
    assert {tally.a, tally.b} == {"strong", "basic"}
    strong_wins = tally.wins if tally.a == "strong" else tally.losses
    assert (tally.games, strong_wins) == (3, 2)


def test_calibration_anchors_basic_at_1500_on_the_logistic_scale() -> None:
    # basic beats random 3 of 4 (with the one virtual draw per pair: 3.5 of 5, 70%),
    # strong beats basic 1 of 2 and random 2 of 2.
    outcomes = [_outcome(("basic", "random"), (1, 0), 0)] * 3 + [_outcome(("random", "basic"), (1, 0), 0)]
    outcomes += [_outcome(("strong", "basic"), (1, 0), 0), _outcome(("basic", "strong"), (1, 0), 0)]
    outcomes += [_outcome(("strong", "random"), (1, 0), 0)] * 2
    fitted = arena.calibrate(outcomes, "briscola")
    assert fitted["basic"] == 1500
    assert fitted["random"] < 1500 < fitted["strong"]
    # maximum likelihood: each bot's expected points against the field equal its points
    tallies = arena.pairwise_tallies(outcomes, "briscola")
    for name in fitted:
        expected = points = 0.0
        for t in tallies:
            if name in (t.a, t.b):
                other = t.b if name == t.a else t.a
                p = 1 / (1 + 10 ** ((fitted[other] - fitted[name]) / 400))
                expected += p * (t.games + 1)
                points += (t.points if name == t.a else t.games - t.points) + 0.5
        assert math.isclose(expected, points, rel_tol=0.01)


def test_calibration_needs_the_anchor() -> None:
    with pytest.raises(ValueError, match="basic"):
        arena.calibrate([_outcome(("strong", "random"), (1, 0), 0)], "briscola")


@pytest.mark.parametrize(("bots", "words"), [("strong:50,basic", "iterations"), ("strong,random", "basic")])
def test_the_calibrate_command_refuses_what_it_cannot_publish(
    bots: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--game", "briscola", "--calibrate", "--bots", bots, "--games", "2"]) == 2
    assert words in capsys.readouterr().err


def test_the_calibrate_command_prints_a_block_to_paste(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--game", "briscola", "--calibrate", "--bots", "random,basic", "--games", "4"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    block = json.loads(last)
    assert list(block) == ["briscola"]
    assert list(block["briscola"]) == ["random", "basic"]
    assert block["briscola"]["basic"] == 1500
    assert block["briscola"]["random"] < 1500
