"""What a player meets at the page's table: the log after a reload, the screen reader's live
region when the match is over, the marriage offered beside the cards, the card letters
explained, and the lobby's room-code field in every language at phone and desktop width."""

from __future__ import annotations

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, PersonFactory, Player, play_on

pytestmark = BROWSER

LOG = "() => [...document.querySelectorAll('.tv-log li')].map((li) => li.textContent)"
LIVE = "() => document.querySelector('.tv > p[aria-live=assertive]').textContent"


def play_turns(player: Player, turns: int) -> None:
    for _ in range(turns):
        assert player.state() == "turn"
        player.card(player.playable()[0]).click()


def log_lines(player: Player) -> list[str]:
    """The log's lines, each seat's name written as its number (names are the seats' of the
    moment: a guest's may change with a new connection)."""
    lines = [str(line) for line in player.page.evaluate(LOG)]
    names = player.seat_names()
    for seat, name in sorted(enumerate(names), key=lambda pair: -len(pair[1])):
        if name:
            lines = [line.replace(name, f"<seat {seat}>") for line in lines]
    return lines


def test_the_log_is_the_same_after_a_reload(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.play_now("briscola")
    play_turns(anna, 3)
    assert anna.state() == "turn"  # the others wait for Anna: nothing happens while the page loads
    before = log_lines(anna)
    assert anna.t("table.match.begins").split("{")[0] in before[1]
    assert len(before) > 6, "the opening, the start, the deal and the cards played"

    anna.page.reload()
    anna.wait_table("briscola")
    assert anna.state() == "turn"
    assert log_lines(anna) == before
    # and the log goes on from there
    play_turns(anna, 1)
    assert anna.state() == "turn"
    after = log_lines(anna)
    assert after[: len(before)] == before
    assert len(after) > len(before)
    assert not anna.errors


def test_the_live_region_no_longer_says_your_turn_once_the_match_is_over(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.play_now("briscola")
    assert anna.state() == "turn"
    anna.page.wait_for_function(f"() => ({LIVE})() === {anna.t('table.your_turn')!r}")
    assert play_on(anna) == "match"
    over = anna.t("webtable.over")
    anna.page.wait_for_function(f"() => ({LIVE})().startsWith({over!r})")
    said = anna.page.evaluate(LIVE)
    assert anna.t("table.your_turn") not in said
    winner = anna.last(m.MatchResult).winner
    assert (anna.t("summary.title.you_win") in said) == (winner == anna.last(m.Snapshot).seat)
    assert not anna.errors
