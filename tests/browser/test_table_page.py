"""What a player meets at the page's table: the log after a reload, the screen reader's live
region when the match is over, the marriage offered beside the cards, the card letters
explained, and the lobby's room-code field in every language at phone and desktop width."""

from __future__ import annotations

import pytest

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, LANGUAGES, NARROW, PersonFactory, Player, play_on

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
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


def test_a_schnapsen_marriage_is_a_button_beside_the_cards(person: PersonFactory) -> None:
    """The server deals from seeds of its own: the match is played on until a lead may announce
    a marriage, which is then announced by its key alone."""
    anna = person()
    anna.open()
    anna.play_now("schnapsen")
    page = anna.page
    announced: list[dict[str, object]] = []

    def move(player: Player) -> None:
        marriages = [a for a in player.legal() if a.get("marriage")]
        button = page.locator('.tv-actions button[aria-keyshortcuts="1"]')
        if marriages and not announced:
            assert button.count() == 1
            card = player.card(str(marriages[0]["play"])).get_attribute("aria-label")
            assert card
            assert card in button.inner_text()
            announced.append(marriages[0])
            page.keyboard.press("1")
            page.locator(".tv-board").get_by_text(
                player.t("table.schnapsen.marriages"), exact=True
            ).wait_for()
            return
        assert button.count() == (1 if marriages else 0)
        player.card(player.playable()[0]).click()

    def stop(state: str) -> bool:
        if announced or anna.count(m.DealResult) >= 16:
            return True
        if state == "match":
            page.get_by_role("dialog").get_by_role("button", name=anna.t("webtable.rematch")).click()
        return False

    play_on(anna, move, stop=stop, turns=2000)
    assert announced, "no marriage in 16 deals"
    said = [
        e
        for msg in anna.messages
        if isinstance(msg, m.Delta)
        for e in msg.events
        if e.get("type") == "marriage"
    ]
    assert said, "the server heard the marriage"
    assert not anna.errors


PLACEHOLDER = """
() => {
  const input = document.querySelector('.code-form input.code-input');
  const style = getComputedStyle(input);
  const shown = getComputedStyle(input, '::placeholder');
  const probe = document.createElement('span');
  probe.textContent = input.placeholder;
  const copied = ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'letterSpacing', 'textTransform'];
  for (const name of copied) probe.style[name] = shown[name];
  probe.style.whiteSpace = 'pre';
  probe.style.position = 'absolute';
  probe.style.visibility = 'hidden';
  document.body.append(probe);
  const text = probe.getBoundingClientRect().width;
  probe.remove();
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {
    placeholder: input.placeholder, text, room, scroll: input.scrollWidth, client: input.clientWidth,
  };
}
"""


@pytest.mark.parametrize("size", ["narrow", "phone", "desktop"])
def test_the_room_code_placeholder_fits_in_every_language(person: PersonFactory, size: str) -> None:
    anna = person(viewport={"phone": PHONE, "desktop": DESKTOP, "narrow": NARROW}[size])
    anna.open()
    cut: dict[str, object] = {}
    for lang in LANGUAGES:
        anna.choose_language(lang)
        wanted = anna.t("forms.code.placeholder").replace("{example}", "KX4P-7MQ2")
        anna.page.wait_for_function(
            "text => document.querySelector('.code-form input.code-input')?.placeholder === text", arg=wanted
        )
        measured = anna.page.evaluate(PLACEHOLDER)
        if measured["text"] > measured["room"] or measured["scroll"] > measured["client"]:
            cut[lang] = measured
    assert not cut, f"placeholders cut off at {size} width: {cut}"


LEGEND = "() => (document.querySelector('.tv-legend')?.textContent ?? '').replace(/\\u00a0/g, ' ')"
# the corner letters of the hand's cards, the jokers (which spell JOKER) left out
FACE_LETTERS = """
() => [...document.querySelectorAll('.tv-hand button.tv-card:not([data-code$=J]) svg text')]
  .map((t) => t.textContent)
"""


def test_the_card_letters_are_explained_under_the_hand(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.play_now("briscola")  # an Italian pack: F, C, R
    assert anna.state() == "turn"
    legend = anna.page.evaluate(LEGEND)
    assert "F = Fante (jack)" in legend
    assert "C = Cavallo (knight)" in legend
    assert "R = Re (king)" in legend
    assert anna.page.locator(".tv-legend").is_visible()
    anna.page.get_by_role("button", name=anna.t("webtable.leave")).click()
    anna.page.locator(".lobby:not([hidden])").wait_for()

    anna.choose_language("sv")
    anna.play_now("doudizhu")  # a French pack, with the Swedish corner letters
    anna.page.wait_for_function(f"() => ({LEGEND})().includes('Kn = knekt')")
    assert anna.page.evaluate(LEGEND) == "Kortens bokstäver: E = ess · Kn = knekt · D = dam · K = kung"
    letters = set(anna.page.evaluate(FACE_LETTERS))
    assert not letters & {"J", "Q"}, f"the cards are drawn with the English letters: {letters}"
    if any(code.startswith("J") for code in anna.hand()):
        assert "Kn" in letters
    assert not anna.errors
