"""Two people at two browsers in one Dou Dizhu room (a bot in the third seat), and a third
who watches: each player sees the other's moves, and the watcher is shown no hand, neither
on the page nor in any frame the server sends it."""

from __future__ import annotations

import json
import re
from typing import Any

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, STATE_JS, PersonFactory, Player
from tests.support.clients import card_codes_of

pytestmark = BROWSER


def moment(view: dict[str, Any]) -> str:
    """The point of the game a view shows, from what every seat and a watcher see alike."""
    public = {
        key: view.get(key) for key in ("deal", "phase", "bids", "played", "plays", "to_move", "landlord")
    }
    return json.dumps(public, sort_keys=True)


def events_of(player: Player, seat: int) -> list[dict[str, Any]]:
    """The events of ``seat``'s moves in the deltas ``player``'s page has received so far."""
    return [e for d in player.messages if isinstance(d, m.Delta) for e in d.events if e.get("seat") == seat]


def doudizhu_move(player: Player) -> None:
    """Bids once it may (no bid when it may not), else the first play the hint suggests or a pass."""
    actions = player.page.locator(".tv-actions")
    keyed = actions.locator("button[aria-keyshortcuts]")
    bids = keyed.filter(has_text=re.compile(r"^bid \d", re.IGNORECASE))
    if bids.count():
        bids.first.click()
        return
    if keyed.filter(has_text=re.compile("^no bid")).count():
        keyed.filter(has_text=re.compile("^no bid")).click()
        return
    actions.get_by_role("button", name=player.t("webtable.hint")).click()
    if player.page.locator(".tv-hand button.tv-card.tv-selected").count():
        actions.get_by_role("button", name=player.t("webtable.play_selected")).click()
    else:
        actions.get_by_role("button", name="Pass", exact=True).click()


def test_two_players_and_a_watcher_in_a_doudizhu_room(person: PersonFactory) -> None:
    anna, bo, cy = person(), person(), person()
    anna.open()
    anna.rename("Anna")
    code = anna.create_room("doudizhu", humans=2)

    bo.open(f"#/room/{code}")  # the room's link: a seat for Bo
    bo.wait_table("doudizhu")
    bo.page.get_by_role("listitem").filter(has_text=re.compile(r"\bAnna\b")).first.wait_for()
    # a room with an owner starts when the owner says so
    anna.page.get_by_role("button", name=anna.t("webtable.start")).click()
    for player in (anna, bo):
        player.page.locator(".table-root.tv:not(.tv-waiting)").wait_for()

    cy.open()
    cy.page.get_by_role("textbox", name=cy.t("web.lobby.code.label")).fill(code.lower())
    cy.page.locator(".code-form").get_by_role("button", name=cy.t("web.lobby.watch")).click()
    cy.wait_table("doudizhu")
    assert cy.last(m.Snapshot).seat is None

    names = anna.seat_names()
    bo_name = next(
        n for i, n in enumerate(names) if i != anna.last(m.Snapshot).seat and not n.startswith("Bot")
    )

    # play until each person has made three moves, each page acting on its own turns
    made = {"anna": 0, "bo": 0}
    for _ in range(400):
        if min(made.values()) >= 3:
            break
        acted = False
        for key, player in (("anna", anna), ("bo", bo)):
            state = player.page.evaluate(STATE_JS)
            if state == "turn":
                doudizhu_move(player)
                made[key] += 1
                acted = True
            elif state == "deal":
                player.close_summary()
                acted = True
            elif state == "match":
                raise AssertionError("the match ended before each had moved three times")
        if not acted:  # the bot's turn, or a frame on its way: look at both pages again soon
            anna.page.wait_for_timeout(20)
    assert min(made.values()) >= 3, made

    # each sees the other's moves: the other's events reached it and its log tells them
    anna_seat, bo_seat = anna.last(m.Snapshot).seat, bo.last(m.Snapshot).seat
    assert {anna_seat, bo_seat} == {0, 1, 2} - {s for s, n in enumerate(names) if n.startswith("Bot")}
    for me, other, other_seat, other_name in ((anna, bo, bo_seat, bo_name), (bo, anna, anna_seat, "Anna")):
        theirs = events_of(other, other_seat)
        assert theirs
        # the other's last move may still be on its way to this page: its frames are read as
        # the browser reports them, and the loop above stopped at the move itself
        for _ in range(100):
            if all(e in events_of(me, other_seat) for e in theirs):
                break
            me.page.wait_for_timeout(50)
        assert all(e in events_of(me, other_seat) for e in theirs)
        log = me.page.get_by_role("log")
        assert other_name in log.inner_text()

    # the watcher's page: the table, no hand and no playable card
    page = cy.page
    assert page.locator(".table-root.tv-spectator").count() == 1
    assert not cy.hand_group().is_visible()
    assert page.locator(".tv-hand button.tv-card").count() == 0
    assert page.get_by_text(cy.t("webtable.spectating")).first.is_visible()
    assert page.locator(".room-bar .badge").get_by_text(cy.t("web.room.watching")).is_visible()

    # the watcher's frames: no hand in any view, no card a seat holds at that moment
    hands: dict[str, list[set[str]]] = {}
    for player in (anna, bo):
        for view in player.views.history:
            if "hand" in view:  # a waiting room's view is empty
                hands.setdefault(moment(view), []).append(set(view["hand"] or []))
    matched = 0
    assert cy.views.history
    for view in cy.views.history:
        assert view.get("hand") is None
        assert all(seat is None for seat in cy.views.seats)
        held = hands.get(moment(view))
        if held is None:
            continue
        matched += 1
        secret = set().union(*held) - set(view.get("kitty") or [])
        assert not card_codes_of(view) & secret, "the watcher was sent a card a seat holds"
    assert matched >= 3, f"only {matched} of the watcher's views match a moment the players saw"
    for player in (anna, bo, cy):
        assert not player.errors
