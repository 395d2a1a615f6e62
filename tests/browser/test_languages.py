"""Every label in the chosen language: a whole match in Italian, the six languages with no
missing key, and the language and display settings surviving a reload."""

from __future__ import annotations

import re

import pytest

from cardavia.protocol import messages as m
from cardavia.protocol.i18n import served_catalogue
from tests.support.browser import (
    BROWSER,
    LANGUAGE_NAMES,
    LANGUAGES,
    RAW_KEY,
    PersonFactory,
    Player,
    english_only_words,
    play_on,
    words,
)

pytestmark = BROWSER


def names_on_screen(player: Player, lang: str) -> set[str]:
    """Words that are names, not labels: players and bots, languages, games, decks, cards."""
    allowed = {"cardavia"}
    for name in [*player.seat_names(), *LANGUAGE_NAMES.values()]:
        allowed |= words(name)
    served = served_catalogue(lang)
    for game in served["games"].values():
        allowed |= words(game)
    for deck in served["decks"].values():
        allowed |= words(f"{deck['name']} {deck['place']}")
        for card in deck["cards"].values():
            allowed |= words(card)
    return allowed


def english_left(player: Player, lang: str) -> set[str]:
    text = player.text()
    for code in player.room_codes():
        text = text.replace(code, " ")
    return (words(text) & english_only_words(lang)) - names_on_screen(player, lang)


def test_a_whole_briscola_match_in_italian(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    assert anna.lang() == "en"
    assert english_left(anna, "it"), "the check finds no English on the English lobby"
    anna.choose_language("it")
    assert anna.page.locator("select.language-select").input_value() == "it"
    assert not english_left(anna, "it"), "English on the Italian lobby"
    anna.play_now("briscola")

    seen: list[set[str]] = []
    turns = 0

    def move(player: Player) -> None:
        nonlocal turns
        turns += 1
        if turns % 5 == 1:
            seen.append(english_left(player, "it"))
        player.card(player.playable()[0]).click()

    assert play_on(anna, move) == "match"
    seen.append(english_left(anna, "it"))
    assert turns >= 20  # a whole deal of Briscola: twenty tricks
    assert all(not left for left in seen), f"English on the Italian table: {seen}"
    assert anna.page.get_by_role("dialog").get_by_role("button", name="Rivincita").is_visible()
    assert anna.count(m.MatchResult) == 1
    assert not anna.errors


@pytest.mark.parametrize(
    ("lang", "game"),
    [(lang, ["scopa", "briscola", "schnapsen", "doudizhu"][i % 4]) for i, lang in enumerate(LANGUAGES)],
)
def test_every_language_labels_the_lobby_and_a_table(person: PersonFactory, lang: str, game: str) -> None:
    anna = person()
    anna.open()
    if lang != "en":
        anna.choose_language(lang)
        assert not english_left(anna, lang), f"English on the {lang} lobby"
    check_labels(anna, "lobby")
    anna.page.locator('[data-focus-key="create"]').click()
    check_labels(anna, "create dialog")
    anna.page.keyboard.press("Escape")
    anna.page.get_by_role("button", name=anna.t("web.display.open")).click()
    check_labels(anna, "display dialog")
    anna.page.keyboard.press("Escape")
    anna.play_now(game)
    anna.state()  # the table asks something of us: its labels are all there
    check_labels(anna, f"{game} table")
    if lang != "en":
        assert not english_left(anna, lang), f"English on the {lang} {game} table"


def check_labels(player: Player, where: str) -> None:
    """No raw message key on screen, and every visible button has a name."""
    text = player.text()
    raw = [match.group(0) for match in RAW_KEY.finditer(text)]
    assert not raw, f"raw keys on the {where}: {raw}"
    unnamed = player.page.evaluate(
        """() => [...document.querySelectorAll('button, [role=button], input, select')]
          .filter(el => el.offsetParent !== null || el.closest('dialog[open]'))
          .filter(el => el.type !== 'hidden' && getComputedStyle(el).visibility !== 'hidden')
          .filter(el => {
            const labels = el.labels ? [...el.labels].map(l => l.textContent).join('') : '';
            const by = (el.getAttribute('aria-labelledby') || '').split(' ')
              .map(id => document.getElementById(id)?.textContent || '').join('');
            const name = (el.getAttribute('aria-label') || '') + by + labels
              + (el.tagName === 'BUTTON' ? el.textContent : '');
            return !name.trim();
          })
          .map(el => el.outerHTML.slice(0, 120))"""
    )
    assert not unnamed, f"controls without a name on the {where}: {unnamed}"
    empty = re.findall(r"\{[a-z_]+\}", text)
    assert not empty, f"unfilled placeholders on the {where}: {empty}"


def test_display_settings_and_language_survive_a_reload(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.choose_language("sv")
    page = anna.page
    page.get_by_role("button", name=anna.t("web.display.open")).click()
    dialog = page.get_by_role("dialog", name=anna.t("web.display.title"))
    contrast = dialog.get_by_role("slider", name=anna.t("web.display.contrast"))
    grain = dialog.get_by_role("slider", name=anna.t("web.display.grain"))
    temperature = dialog.get_by_role("slider", name=anna.t("web.display.temperature"))
    assert [contrast.input_value(), grain.input_value(), temperature.input_value()] == ["50", "50", "50"]
    contrast.press("End")
    grain.press("Home")
    for _ in range(10):
        temperature.press("ArrowLeft")
    assert [contrast.input_value(), grain.input_value(), temperature.input_value()] == ["100", "0", "40"]
    filtered = page.evaluate("() => document.documentElement.style.filter")
    assert "contrast(1.5)" in filtered
    assert "url(" in filtered
    dialog.get_by_role("button", name=anna.t("web.display.close")).click()

    page.reload()
    anna.wait_online()
    assert anna.lang() == "sv"
    assert page.locator("select.language-select").input_value() == "sv"
    assert page.evaluate("() => document.documentElement.style.filter") == filtered
    assert page.locator("#grain").is_hidden()  # no grain at 0
    page.get_by_role("button", name=anna.t("web.display.open")).click()
    dialog = page.get_by_role("dialog", name=anna.t("web.display.title"))
    values = [
        dialog.get_by_role("slider", name=anna.t(f"web.display.{key}")).input_value()
        for key in ("contrast", "grain", "temperature")
    ]
    assert values == ["100", "0", "40"]
    reset = dialog.get_by_role("button", name=anna.t("web.display.reset"))
    reset.click()
    assert page.evaluate("() => document.documentElement.style.filter") == ""
