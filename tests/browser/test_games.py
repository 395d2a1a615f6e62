"""Playing each game at the page: the choices a person makes (a Scopa capture among several,
Schnapsen's exchange and closing, Dou Dizhu's bids, combinations and passes), and a Briscola
deal by keyboard alone.

The server deals from seeds it picks itself, so a test cannot ask for a situation: it plays
on until the situation comes up (bounded by a number of deals), handles it each time it
does, and counts how often it did."""

from __future__ import annotations

import re
from typing import Any

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, Opponent, PersonFactory, Player, ServerThread, play_on

pytestmark = BROWSER


def legal_now(player: Player) -> list[dict[str, Any]]:
    """The moves of the turn the page shows now: the last ``your_turn`` once the page's playable
    cards are the ones it names (its frame event may be handled a moment after the page drew it)."""
    for _ in range(200):
        legal = player.legal()
        plays = {str(a["play"]) for a in legal if "play" in a}
        if plays == set(player.playable()):
            return legal
        player.page.wait_for_timeout(10)
    raise AssertionError("the page's playable cards are not those of its last your_turn")


def deals_done(player: Player) -> int:
    return player.count(m.DealResult)


# ---------------------------------------------------------------- Scopa


def lay_first(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Scopa played to leave cards on the table: a card laid whenever one may be."""
    return next((a for a in legal if not a.get("capture")), legal[0])


def test_scopa_capture_choices(person: PersonFactory, server: ServerThread) -> None:
    """Against a bot a capture choice comes up about once in three deals; against a person who
    lays cards rather than taking them (played over the protocol), several times a deal."""
    anna = person()
    anna.open()
    code = anna.create_room("scopa", humans=2)
    bo = Opponent(server, code, lay_first)
    anna.page.get_by_role("listitem").filter(has_text=re.compile(r"\bBo\b")).first.wait_for()
    # a room with an owner starts when the owner says so
    anna.page.get_by_role("button", name=anna.t("webtable.start")).click()
    expected: list[list[dict[str, Any]]] = []  # the options of each card played, in order
    counts = {"turns": 0, "several": 0, "dialogs": 0}

    def move(player: Player) -> None:
        legal = legal_now(player)
        by_card: dict[str, list[dict[str, Any]]] = {}
        for action in legal:
            by_card.setdefault(str(action["play"]), []).append(action)
        # a card with several captures if there is one, for the choice; else a card laid on the
        # table, which leaves more cards there to capture in more ways
        laid = [c for c, actions in by_card.items() if actions == [{"play": c, "capture": []}]]
        card = max(by_card, key=lambda c: (len(by_card[c]), c in laid))
        counts["turns"] += 1
        counts["several"] += len(by_card[card]) > 1
        expected.append(by_card[card])
        player.card(card).click()

    def choose(player: Player) -> None:
        options = expected[-1]
        assert len(options) > 1, "a choice for a card with one way to play it"
        dialog = player.page.get_by_role("dialog")
        # one button for each way to play the card, and Cancel
        assert dialog.get_by_role("button").count() == len(options) + 1
        assert dialog.get_by_role("button", name=player.t("webtable.cancel")).count() == 1
        counts["dialogs"] += 1
        # the last option, chosen by its number key: the server gets exactly that capture
        taken = sorted(options[-1]["capture"])
        player.page.keyboard.press(str(len(options)))
        mine = player.last(m.Snapshot).seat
        player.page.wait_for_function("() => !document.querySelector('dialog.tv-choice[open]')")
        for _ in range(200):
            captures = [
                e
                for d in player.messages
                if isinstance(d, m.Delta)
                for e in d.events
                if e.get("type") == "capture" and e.get("seat") == mine
            ]
            if captures and sorted(captures[-1]["cards"]) == taken:
                return
            player.page.wait_for_timeout(10)
        raise AssertionError(f"the capture chosen ({taken}) was not the one made")

    def enough(state: str) -> bool:
        if (state == "turn" and counts["dialogs"] >= 2) or deals_done(anna) >= 8:
            return True
        if state == "match":  # Bo asks for a rematch too
            anna.page.get_by_role("dialog").get_by_role("button", name=anna.t("webtable.rematch")).click()
        return False

    try:
        play_on(anna, move, choose, enough)
    finally:
        bo.stop()
    print(f"scopa: {counts} over {deals_done(anna) + 1} deals, Bo made {bo.moves} moves")
    assert counts["dialogs"] == counts["several"] >= 1
    assert not anna.errors


# ---------------------------------------------------------------- Schnapsen


def test_schnapsen_exchange_and_closing(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.play_now("schnapsen")
    page = anna.page
    done = {"exchange": 0, "close": 0, "offered_exchange": 0, "offered_close": 0}

    def move(player: Player) -> None:
        exchange = page.locator('.tv-actions button[aria-keyshortcuts="X"]')
        close = page.locator('.tv-actions button[aria-keyshortcuts="C"]')
        if exchange.count():
            done["offered_exchange"] += 1
            view = player.views.history[-1]
            indicator, jack = (
                view["indicator"],
                next(str(a["exchange"]) for a in player.legal() if "exchange" in a),
            )
            assert jack in player.hand()
            exchange.click()
            page.wait_for_function(
                "card => !!document.querySelector(`.tv-hand button[data-code='${card}']`)", arg=indicator
            )
            assert jack not in player.hand()
            done["exchange"] += 1
            return
        if close.count():
            done["offered_close"] += 1
            # close once an exchange was made (closing ends the drawing, and with it the chances
            # of holding the trump jack), or after several deals without one
            if done["exchange"] or deals_done(player) >= 8:
                assert close.get_by_text("close the stock").count() == 1
                close.click()
                page.get_by_text(player.t("table.schnapsen.closed_by")).wait_for()
                done["close"] += 1
                return
        player.card(player.playable()[0]).click()

    def rematch_or_stop(state: str) -> bool:
        if done["exchange"] and done["close"]:
            return True
        if deals_done(anna) >= 24:
            return True
        if state == "match":  # the match ended first: another one
            page.get_by_role("dialog").get_by_role("button", name="Rematch").click()
            return False
        return False

    play_on(anna, move, stop=rematch_or_stop, turns=2000)
    print(f"schnapsen: {done} over {deals_done(anna)} deals")
    assert done["exchange"] >= 1
    assert done["close"] >= 1
    assert not anna.errors


# ---------------------------------------------------------------- Dou Dizhu


def test_doudizhu_bid_combination_and_pass(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.play_now("doudizhu")
    page = anna.page
    done = {"bids": 0, "combinations": 0, "readings": 0, "passes": 0, "singles": 0}

    def selected() -> list[str]:
        codes = page.locator(".tv-hand button.tv-card.tv-selected").evaluate_all(
            "buttons => buttons.map(b => b.dataset.code)"
        )
        return [str(c) for c in codes]

    def move(player: Player) -> None:
        actions = page.locator(".tv-actions")
        keyed = actions.locator("button[aria-keyshortcuts]")
        bids = keyed.filter(has_text=re.compile(r"^bid \d", re.IGNORECASE))
        if bids.count():
            bids.last.click()  # the highest bid: the landlord leads, with the kitty's cards
            done["bids"] += 1
            return
        if actions.locator("button[aria-keyshortcuts]").filter(has_text=re.compile("^no bid")).count():
            actions.get_by_role("button", name="no bid").click()
            return
        pass_button = actions.get_by_role("button", name="Pass", exact=True)
        if pass_button.count() and not done["passes"]:
            pass_button.click()
            done["passes"] += 1
            return
        # the hint steps through the plays the server allows: take the first of several cards
        hint = actions.get_by_role("button", name=player.t("webtable.hint"))
        if not hint.count():
            raise AssertionError("a turn with neither bids nor plays")
        first: list[str] | None = None
        for _ in range(40):
            hint.click()
            chosen = selected()
            if not chosen:  # nothing beats the table
                pass_button.click()
                done["passes"] += 1
                return
            if first is None:
                first = chosen
            elif chosen == first:
                break  # round the suggestions once
            if len(chosen) > 1:
                break
        done["combinations" if len(selected()) > 1 else "singles"] += 1
        actions.get_by_role("button", name=player.t("webtable.play_selected")).click()

    def choose(player: Player) -> None:
        # several readings of the same cards (say an airplane or a bomb with wings)
        done["readings"] += 1
        dialog = page.get_by_role("dialog")
        assert dialog.get_by_role("heading", name=player.t("table.choose.reading")).count() == 1
        dialog.locator("button.tv-option").last.click()

    def enough(state: str) -> bool:
        if done["bids"] and done["combinations"] and done["passes"] and state in ("turn", "deal"):
            return True
        if deals_done(anna) >= 8:
            return True
        if state == "match":
            page.get_by_role("dialog").get_by_role("button", name=anna.t("webtable.rematch")).click()
        return False

    play_on(anna, move, choose, enough, turns=3000)
    print(f"doudizhu: {done} over {deals_done(anna) + 1} deals")
    assert done["bids"] >= 1
    assert done["combinations"] >= 1
    assert done["passes"] >= 1
    sent = [e for d in anna.messages if isinstance(d, m.Delta) for e in d.events if e.get("type") == "pass"]
    assert sent, "no pass reached the table"
    assert not anna.errors


# ---------------------------------------------------------------- by keyboard alone


def test_a_briscola_deal_by_keyboard_alone(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    page = anna.page
    focused = "() => document.activeElement && document.activeElement.dataset.focusKey || ''"
    for _ in range(40):  # Tab to the games
        page.keyboard.press("Tab")
        if page.evaluate(focused).startswith("game-"):
            break
    for _ in range(4):  # the arrow keys move through the games and choose
        if page.evaluate(focused) == "game-briscola":
            break
        page.keyboard.press("ArrowRight")
    assert page.locator('.games-list input[value="briscola"]').is_checked()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(focused) == "play-now":
            break
    page.keyboard.press("Enter")
    anna.wait_table("briscola")

    on_card = "() => !!document.activeElement?.matches('.tv-hand button.tv-card')"
    turns = 0
    for _ in range(200):
        state = anna.state()
        if state == "match":
            break
        if state == "deal":
            assert page.evaluate("() => !!document.activeElement?.matches('dialog[open] .tv-primary')")
            page.keyboard.press("Enter")
        elif state == "turn":
            for _ in range(40):  # the hand takes the focus on our turn; else Tab goes there
                if page.evaluate(on_card):
                    break
                page.keyboard.press("Tab")
            if turns % 2:
                page.keyboard.press("ArrowRight")  # another card, still one we may play
            assert page.evaluate("() => document.activeElement.classList.contains('tv-playable')")
            page.keyboard.press("Enter")
            turns += 1
        else:
            raise AssertionError(f"the page shows {state!r}")
    assert anna.count(m.MatchResult) == 1
    assert turns == 20
    # the summary's first button has the focus, and Enter asks for a rematch
    assert page.evaluate("() => !!document.activeElement?.matches('dialog[open] .tv-primary')")
    assert not anna.errors
