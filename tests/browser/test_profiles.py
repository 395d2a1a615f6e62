"""Profiles in the page: a profile created, a rated Briscola match against bots and the
rating change it makes, the leaderboard and the history, the profile brought to a second
browser with a transfer code, the replay stepped through with its analysis, the profile
deleted; and the profile's screens and the replay in six languages.

Each test plays on a server of its own with its embedded SQLite archive (tests/browser/conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardavia.protocol import messages as m
from cardavia.protocol.i18n import own_messages, served_catalogue
from tests.browser.test_languages import names_on_screen
from tests.support.browser import (
    BROWSER,
    LANGUAGES,
    RAW_KEY,
    PersonFactory,
    Player,
    english_only_words,
    play_on,
    words,
)

pytestmark = BROWSER

PLAYER_KEY = "cardavia.player"


def words_of(player: Player, key: str, **args: Any) -> str:
    """A message of the page's language with its simple placeholders filled in."""
    lang = player.lang()
    text = own_messages(lang).get(key) or own_messages("en")[key]
    for name, value in args.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def create_profile(player: Player, name: str) -> None:
    player.page.locator(".menu-link[data-page='profile']").click()
    player.page.wait_for_function("() => location.hash === '#/profile'")
    form = player.page.locator(
        "form.page-form", has=player.page.get_by_role("button", name=player.t("profile.create.button"))
    )
    form.get_by_label(player.t("profile.name.label")).fill(name)
    form.get_by_role("button", name=player.t("profile.create.button")).click()
    player.page.get_by_role("heading", name=words_of(player, "profile.title", name=name)).wait_for()


def stored_key(player: Player) -> str | None:
    value = player.page.evaluate(f"() => localStorage.getItem('{PLAYER_KEY}')")
    return value if isinstance(value, str) else None


def play_rated_briscola(player: Player) -> m.RatingChange:
    """Plays a rated Briscola match against the bots from the lobby, to its end; the rating change."""
    player.page.locator(".brand").click()
    player.page.wait_for_function("() => !document.querySelector('.lobby').hidden")
    player.choose_game("briscola")
    assert player.page.locator('input[name="lobby-rated"][value="rated"]').is_checked(), (
        "rated is the default"
    )
    player.play_now("briscola")
    snapshot = player.last(m.Snapshot)
    assert snapshot is not None
    assert snapshot.room.rated
    assert play_on(player) == "match"
    summary = player.page.locator("dialog.tv-summary[open]")
    summary.locator(".tv-note", has_text="→").wait_for()
    change = player.last(m.RatingChange)
    assert change is not None
    assert change.game == "briscola"
    result = player.last(m.MatchResult)
    assert result is not None
    assert change.record == result.record
    return change


def test_a_profile_a_rated_match_its_replay_leaderboard_history_and_another_device(
    person: PersonFactory, artifacts: Path
) -> None:
    anna = person()
    anna.open()
    assert anna.page.locator(".rated-offer").is_visible(), (
        "without a profile the lobby says rated play needs one"
    )
    create_profile(anna, "Anna")
    key = stored_key(anna)
    assert key
    assert key not in anna.page.url
    assert anna.page.locator(".menu-link.has-profile").inner_text() == "Anna"
    anna.page.screenshot(path=str(artifacts / "profile-new.png"))

    change = play_rated_briscola(anna)
    summary = anna.page.locator("dialog.tv-summary[open]")
    sign = "+" if change.after > change.before else ("\u2212" if change.after < change.before else "\u00b1")
    assert summary.get_by_text(
        re.compile(f"{change.before} → {change.after} \\({re.escape(sign)}")
    ).is_visible()
    anna.page.screenshot(path=str(artifacts / "match-end-rating.png"))
    record = change.record

    # the replay, from the match summary's link
    summary.locator("a.tv-replay-link").click()
    anna.page.wait_for_function("r => location.hash === '#/replay/' + r", arg=record)
    replay = anna.page.locator(".page-replay.ready")
    replay.wait_for()
    assert anna.page.locator(".replay-table .tv-hand button.tv-card").count() == 3
    assert anna.page.locator(".replay-hand .tv-table-card").count() == 3, "the bot's hand, face up"
    anna.page.keyboard.press("ArrowRight")
    anna.page.locator(
        ".replay-where", has_text=words_of(anna, "profile.replay.step", at=1, count=40)
    ).wait_for()
    marks: set[str] = set()
    for _ in range(40):
        mark = anna.page.locator(".replay-move .analysis").get_attribute("data-mark")
        if mark:
            marks.add(mark)
        anna.page.keyboard.press("ArrowRight")
    assert marks & {"differs", "agrees"}, f"the person's moves are analysed: {marks}"
    assert anna.page.locator(".replay-where").inner_text() == words_of(
        anna, "profile.replay.step", at=40, count=40
    )
    assert anna.page.locator(".replay-step[data-step='forward']").is_disabled()
    anna.page.locator(".replay-step[data-step='first']").click()
    assert anna.page.locator(".replay-where").inner_text() == anna.t("profile.replay.start")
    anna.page.locator("button.replay-note").click()
    if "differs" in marks:
        analysis = anna.page.locator(".replay-move .analysis-differs")
        analysis.wait_for()
        assert "?!" in analysis.inner_text()
        anna.page.screenshot(path=str(artifacts / "replay-differs.png"))
    replay_messages = [msg for msg in anna.messages if isinstance(msg, m.Replay)]
    assert len(replay_messages) == 1
    assert replay_messages[0].record_id == record

    # the leaderboard: the player's own row, the bots at their levels
    anna.page.locator(".menu-link[data-page='leaderboard']").click()
    anna.page.locator(".board-game select").select_option("briscola")
    mine = anna.page.locator(".board-table tr.mine")
    mine.wait_for()
    assert "Anna" in mine.inner_text()
    assert str(change.after) in mine.inner_text()
    assert mine.get_attribute("aria-current") == "true"
    assert anna.page.locator(".board-table .bot-badge").count() >= 3
    anna.page.screenshot(path=str(artifacts / "leaderboard.png"))

    # the history: the match, its rating change and a link to its replay
    anna.page.locator(".menu-link[data-page='history']").click()
    row = anna.page.locator(f".history-table tr[data-record='{record}']")
    row.wait_for()
    assert f"{change.before} → {change.after}" in row.inner_text()
    assert row.get_by_role("link").get_attribute("href") == f"#/replay/{record}"
    anna.page.screenshot(path=str(artifacts / "history.png"))

    # the profile: the rating, provisional after one match
    anna.page.locator(".menu-link[data-page='profile']").click()
    rating = anna.page.locator(".ratings-table tr[data-game='briscola']")
    rating.wait_for()
    assert str(change.after) in rating.inner_text()
    assert rating.locator(".provisional").is_visible()

    # a replay's address is shareable: a browser without a profile opens it
    bo = person()
    bo.open(f"#/replay/{record}")
    bo.page.locator(".page-replay.ready").wait_for()
    bo.page.locator(".replay-step[data-step='last']").click()
    assert bo.page.locator(".replay-move .replay-over").is_visible()
    assert stored_key(bo) is None

    # a transfer code brings the profile to that second browser
    anna.page.get_by_role("button", name=anna.t("profile.transfer.button")).click()
    code = anna.page.locator(".transfer-code code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{5}-[A-Z0-9]{5}", code)
    assert (
        anna.page.locator(".transfer-left")
        .inner_text()
        .startswith(words_of(anna, "profile.transfer.left", time="")[:5])
    )
    anna.page.screenshot(path=str(artifacts / "transfer-code.png"))
    bo.page.locator(".menu-link[data-page='profile']").click()
    bo.page.get_by_label(bo.t("profile.redeem.label")).fill(code.lower())
    bo.page.get_by_role("button", name=bo.t("profile.redeem.button")).click()
    bo.page.get_by_role("heading", name=words_of(bo, "profile.title", name="Anna")).wait_for()
    bo_key = stored_key(bo)
    assert bo_key
    assert bo_key != key, "the second device has a key of its own"
    bo.page.locator(".ratings-table tr[data-game='briscola']").wait_for()
    bo.page.locator(".menu-link[data-page='history']").click()
    bo.page.locator(f".history-table tr[data-record='{record}']").wait_for()

    # the code worked once
    anna_profile = anna.page.locator(".menu-link[data-page='profile']")
    anna_profile.click()
    third = person()
    third.open("#/profile")
    third.page.get_by_label(third.t("profile.redeem.label")).fill(code)
    third.page.get_by_role("button", name=third.t("profile.redeem.button")).click()
    third.page.get_by_role("alert").filter(has_text=third.t("errors.unknown_code")).wait_for()
    assert stored_key(third) is None

    # a reload keeps the profile: the key goes in the hello, never in the address
    anna.page.reload()
    anna.wait_online()
    anna.page.get_by_role("heading", name=words_of(anna, "profile.title", name="Anna")).wait_for()
    welcome = anna.last(m.Welcome)
    assert welcome is not None
    assert welcome.player is not None
    assert welcome.player.name == "Anna"
    assert not anna.errors
    assert not bo.errors
    assert not third.errors


def test_a_rated_room_is_marked_in_the_rooms_list_and_needs_a_profile_to_join(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    create_profile(anna, "Anna")
    anna.page.locator(".brand").click()
    anna.page.get_by_role("button", name=anna.t("web.lobby.create")).click()
    dialog = anna.page.get_by_role("dialog", name=anna.t("web.create.title"))
    dialog.get_by_label(anna.t("forms.create.game")).select_option("briscola")
    dialog.get_by_label(anna.t("forms.create.humans")).select_option("2")
    dialog.get_by_label(anna.t("profile.create_room.rated")).check()
    dialog.get_by_role("button", name=anna.t("forms.create.button.create")).click()
    anna.wait_table("briscola")
    snapshot = anna.last(m.Snapshot)
    assert snapshot is not None
    assert snapshot.room.rated
    code = snapshot.room.code

    bo = person()
    bo.open()
    assert bo.page.locator("form .checkbox-field", has_text=bo.t("profile.create_room.rated")).count() == 0
    row = bo.page.locator(".rooms-table tr", has=bo.page.locator(".room-code", has_text=code))
    row.wait_for()
    assert row.locator(".rated-badge").inner_text() == bo.t("profile.rated")
    row.get_by_role("button", name=words_of(bo, "web.lobby.join_room", code=code)).click()
    bo.page.locator(".lobby-status", has_text=bo.t("errors.profile_required")).wait_for()
    assert bo.last(m.Error).code == "profile_required"
    assert not anna.errors
    assert not bo.errors


def test_deleting_the_profile_says_what_goes_and_forgets_the_key(
    person: PersonFactory, artifacts: Path
) -> None:
    anna = person()
    anna.open()
    create_profile(anna, "Anna")
    rename = anna.page.locator(
        "form.page-form", has=anna.page.get_by_role("button", name=anna.t("profile.rename.button"))
    )
    rename.get_by_label(anna.t("profile.name.label")).fill("Anna B.")
    rename.get_by_role("button", name=anna.t("profile.rename.button")).click()
    anna.page.get_by_role("heading", name=words_of(anna, "profile.title", name="Anna B.")).wait_for()
    assert anna.page.locator(".menu-link.has-profile").inner_text() == "Anna B."
    renamed = anna.last(m.Profile)
    assert renamed is not None
    assert renamed.key is None, "a rename makes no new key"
    anna.page.get_by_role("button", name=anna.t("profile.delete.button")).click()
    dialog = anna.page.get_by_role(
        "dialog", name=words_of(anna, "profile.delete.confirm_title", name="Anna B.")
    )
    assert dialog.get_by_text(anna.t("profile.delete.confirm_text")).is_visible()
    anna.page.screenshot(path=str(artifacts / "delete-confirm.png"))
    dialog.get_by_role("button", name=anna.t("profile.delete.cancel")).click()
    assert stored_key(anna) is not None, "kept when the player thinks again"
    anna.page.get_by_role("button", name=anna.t("profile.delete.button")).click()
    dialog.get_by_role("button", name=anna.t("profile.delete.confirm")).click()
    anna.page.get_by_text(anna.t("profile.status.deleted")).wait_for()
    assert stored_key(anna) is None
    assert anna.page.locator(".menu-link.has-profile").count() == 0
    assert anna.count(m.ProfileDeleted) == 1


def test_a_key_the_server_does_not_know_is_forgotten_and_the_player_told(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.page.evaluate(f"() => localStorage.setItem('{PLAYER_KEY}', 'a-key-nobody-was-given-0123456789abc')")
    anna.page.reload()
    anna.wait_online()
    anna.page.get_by_role("alert").filter(has_text=anna.t("profile.key_lost")).wait_for()
    assert stored_key(anna) is None
    welcome = anna.last(m.Welcome)
    assert welcome is not None
    assert welcome.player is None
    assert welcome.player_error in ("unknown_player", "malformed_player_key")


def english_on(player: Player, lang: str, extra_names: set[str]) -> set[str]:
    text = player.page.locator("main").inner_text() + " " + player.page.locator("header.topbar").inner_text()
    for code in player.room_codes():
        text = text.replace(code, " ")
    return (words(text) & english_only_words(lang)) - names_on_screen(player, lang) - extra_names


def test_the_profile_screens_and_the_replay_in_six_languages(person: PersonFactory, artifacts: Path) -> None:
    anna = person()
    anna.open()
    create_profile(anna, "Anna")
    change = play_rated_briscola(anna)
    anna.close_summary()
    anna.page.get_by_role("button", name=anna.t("webtable.leave")).click()
    anna.page.locator(".rated-group").wait_for()
    record = change.record
    # the bots' names as the server wrote them, and the record's id, are names, not labels
    names = {"anna"} | {w for name in anna.seat_names() for w in words(name)} | words(record)
    screens = {
        "profile": (".menu-link[data-page='profile']", ".ratings-table tr[data-game='briscola']"),
        "leaderboard": (".menu-link[data-page='leaderboard']", ".board-table tr.mine"),
        "history": (".menu-link[data-page='history']", f".history-table tr[data-record='{record}']"),
    }
    anna.page.locator(".menu-link[data-page='leaderboard']").click()
    anna.page.locator(".board-game select").select_option("briscola")
    anna.page.locator(".board-table tr.mine").wait_for()
    found: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        anna.choose_language(lang)
        anna.page.locator(".brand").click()
        anna.page.locator(".rated-group").wait_for()
        anna.page.locator(".rated-group").scroll_into_view_if_needed()
        assert anna.page.locator(".rated-group legend").inner_text() == anna.t("profile.lobby.legend")
        if lang != "en":
            found[f"{lang} lobby"] = english_on(anna, lang, names)
        for screen, (link, ready) in screens.items():
            anna.page.locator(link).click()
            anna.page.locator(ready).wait_for()
            anna.page.locator(".page-title").wait_for()
            assert anna.page.locator(".page-title").inner_text().strip(), f"{lang} {screen}: no title"
            text = anna.page.locator("body").inner_text()
            assert not RAW_KEY.search(text), f"{lang} {screen}: a raw key {RAW_KEY.search(text)}"
            if lang != "en":
                found[f"{lang} {screen}"] = english_on(anna, lang, names)
            anna.page.screenshot(path=str(artifacts / f"{screen}-{lang}.png"))
        anna.page.goto(anna.base + f"#/replay/{record}")
        anna.page.locator(".page-replay.ready").wait_for()
        for _ in range(3):
            anna.page.keyboard.press("ArrowRight")
        anna.page.locator(".replay-move .analysis, .replay-move .analysis-none").first.wait_for()
        game = served_catalogue(lang)["games"]["briscola"]
        assert anna.page.locator("h1.page-title").inner_text() == words_of(
            anna, "profile.replay.title", game=game
        )
        text = anna.page.locator("body").inner_text()
        assert not RAW_KEY.search(text), f"{lang} replay: a raw key {RAW_KEY.search(text)}"
        if lang != "en":
            found[f"{lang} replay"] = english_on(anna, lang, names)
        anna.page.screenshot(path=str(artifacts / f"replay-{lang}.png"))
    left = {screen: seen for screen, seen in found.items() if seen}
    assert not left, f"English left on: {left}"
    assert not anna.errors
    assert anna.page.locator("html").get_attribute("lang") == LANGUAGES[-1]
