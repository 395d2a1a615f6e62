"""A new player is a guest with a number the page keeps: the lobby suggests "Player N" in the
page's language, the table seats that same player, and a reload keeps the number; bots are
named in the page's language too."""

from __future__ import annotations

import re

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, PersonFactory, Player

pytestmark = BROWSER


def suggested(player: Player) -> str:
    """The name the lobby's name field suggests (its placeholder) while no name is typed."""
    field = player.page.get_by_label(player.t("web.name.label"))
    assert field.input_value() == ""
    return str(field.get_attribute("placeholder") or "")


def stored_guest(player: Player) -> int:
    value = player.page.evaluate("() => JSON.parse(localStorage.getItem('cardavia.settings')).guest")
    assert isinstance(value, int)
    return value


def test_a_new_player_is_seated_as_the_guest_the_lobby_suggests_and_stays_so(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.choose_language("pl")
    number = stored_guest(anna)
    assert 100 <= number <= 999
    assert suggested(anna) == f"Gracz {number}"
    welcome = anna.last(m.Welcome)
    assert welcome.guest == number  # the first hello already carried it: no "Cardavia", no other number

    anna.play_now("scopa")
    snapshot = anna.last(m.Snapshot)
    assert snapshot.room.seats[0]["guest"] == number
    anna.page.locator(".table-root").get_by_text(f"Gracz {number}").first.wait_for()
    assert "Cardavia" not in anna.page.locator(".table-root").inner_text()

    anna.page.goto(anna.base)  # back to the lobby, and a reload of the page
    anna.page.reload()
    anna.wait_online()
    assert stored_guest(anna) == number
    assert suggested(anna) == f"Gracz {number}"
    welcomes = [msg for msg in anna.messages if isinstance(msg, m.Welcome)]
    assert {w.guest for w in welcomes} == {number}
    assert not anna.errors


def test_a_swedish_page_names_the_bot_in_swedish(person: PersonFactory) -> None:
    ola = person()
    ola.open()
    ola.choose_language("sv")
    ola.play_now("briscola")
    snapshot = ola.last(m.Snapshot)
    assert snapshot.room.seats[1]["name"] == "Bot 2 (basic)"  # the server's English fallback
    table = ola.page.locator(".table-root")
    table.get_by_text("Dator 2 (enkel)").first.wait_for()
    assert not re.search(r"Bot 2 \(basic\)", table.inner_text())
    assert not ola.errors
