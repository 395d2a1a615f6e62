"""The profile, leaderboard and history screens, rated or casual matches and rating changes, by keys."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input, Label, Static

from cardavia.clients.cli.keys import PLAYER, KeyStore
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.profile import (
    ConfirmScreen,
    HistoryScreen,
    LeaderboardScreen,
    NameScreen,
    ProfileScreen,
    TransferCodeScreen,
)
from cardavia.clients.cli.tui.replay_screen import ReplayScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.protocol import messages as m
from tests.clients.replays import played
from tests.clients.tui.driver import SIZE, catalogue_ready, screen_ready, screen_text, text_of, until
from tests.clients.tui.fakes import FakeSession, room_info

KEY = "q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u"
OTHER_KEY = "Zt0q9V3cMx2Jm1yQ8kLp3vB7nHa4JfE9"
CODE = "K7MQ2XPR4T"
ANNA = m.PlayerInfo(id="p-5c0a9e1f2b3d4c6e", name="Anna")


class Profiles:
    """The server's side of the profile requests, for one scripted session."""

    def __init__(self, session: FakeSession) -> None:
        self.session = session
        self.deleted = False
        session.answers.update(
            {
                m.CreateProfile: lambda r: m.Profile(
                    id=r.id, player=ANNA.model_copy(update={"name": r.name}), key=KEY
                ),
                m.RenameProfile: lambda r: m.Profile(
                    id=r.id, player=ANNA.model_copy(update={"name": r.name})
                ),
                m.NewTransferCode: lambda r: m.TransferCode(id=r.id, code=CODE, expires_in=600.0),
                m.RedeemTransferCode: self.redeem,
                m.DeleteProfile: self.delete,
                m.GetHistory: self.history,
                m.GetLeaderboard: self.leaderboard,
                m.GetReplay: self.replay,
            }
        )

    def redeem(self, request: m.RedeemTransferCode) -> m.Reply:
        if request.code != CODE:
            return m.Error(id=request.id, code="unknown_code", message="no such code")
        return m.Profile(id=request.id, player=ANNA, key=OTHER_KEY)

    def delete(self, request: m.DeleteProfile) -> m.Reply:
        self.deleted = True
        return m.ProfileDeleted(id=request.id)

    def history(self, request: m.GetHistory) -> m.Reply:
        entries = [
            m.HistoryEntry(
                record="r-7f3a-1", game="scopa", ended=1796000000.0, rated=True, seat=0,
                players=[{"name": "Anna", "bot": False, "player": ANNA.id},
                         {"name": "Bot (basic)", "bot": True, "player": None}],
                scores=[11, 7], winner=0, rating_before=1548, rating_after=1562,
            ),
            m.HistoryEntry(
                record="r-9c2d-1", game="briscola", ended=1795990000.0, rated=False, seat=1,
                players=[{"name": "", "bot": False, "player": None},
                         {"name": "Anna", "bot": False, "player": ANNA.id}],
                scores=[70, 50], winner=0,
            ),
        ]  # fmt: skip
        return m.History(
            id=request.id,
            player=self.session.player or ANNA,
            ratings=[m.GameRatingInfo(game="scopa", rating=1562, deviation=88, games=14)],
            matches=entries[: request.limit],
        )

    def replay(self, request: m.GetReplay) -> m.Reply:
        if request.record != "r-7f3a-1":
            return m.Error(id=request.id, code="unknown_record", message="no such match")
        replay, _ = played("scopa", "history")
        return replay.model_copy(update={"id": request.id, "record_id": request.record})

    def leaderboard(self, request: m.GetLeaderboard) -> m.Reply:
        def row(rank: int, player: str, name: str, rating: int, deviation: int, **more: Any) -> m.Standing:
            games = more.pop("games", 0)
            return m.Standing(
                rank=rank, player=player, name=name, rating=rating, deviation=deviation, games=games, **more
            )

        me = row(3, ANNA.id, "Anna", 1562, 88, games=14)
        top = [
            row(1, "bot:strong", "Bot (strong)", 1710, 60, bot=True, level="strong"),
            row(2, "p-00aa11bb22cc33dd", "Ladder One", 1605, 140, games=3, bot=True),
            me,
        ]
        return m.Leaderboard(id=request.id, game=request.game, top=top, me=me)


def make_app(
    tmp_path: Path, *, player: m.PlayerInfo | None = None
) -> tuple[CardaviaApp, FakeSession, KeyStore]:
    session = FakeSession()
    session.player = player
    Profiles(session)
    keys = KeyStore(tmp_path / "cardavia" / "play.json")
    return CardaviaApp(session, name="Anna", keys=keys), session, keys


def rows(table: DataTable[Any]) -> list[list[str]]:
    return [[str(getattr(c, "plain", c)) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_a_profile_is_made_its_key_kept_owner_only_and_never_shown(tmp_path: Path) -> None:
    app, session, keys = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        assert not app.lobby.rated
        await pilot.press("i")
        await screen_ready(pilot, app, ProfileScreen, "the profile screen")
        assert "without a profile" in text_of(app.screen.query_one("#ratings", Static))
        await pilot.press("n")
        await screen_ready(pilot, app, NameScreen, "the name form")
        assert app.screen.query_one("#name", Input).value == "Anna"
        await pilot.press("ctrl+a", *(["delete"] * 4), "enter")  # an empty name: refused here
        assert "empty" in text_of(app.screen.query_one("#problem", Label)).lower()
        await pilot.press("b", "e", "a", "enter")
        await until(pilot, lambda: session.sent_of(m.CreateProfile), "create_profile")
        assert session.sent_of(m.CreateProfile)[0].name == "bea"
        assert session.sent_of(m.CreateProfile)[0].bot is False
        await until(
            pilot, lambda: "bea" in text_of(app.screen.query_one("#title", Label)), "the profile's name"
        )
        await until(pilot, lambda: "1562 ±88" in text_of(app.screen.query_one("#ratings", Static)), "ratings")
        assert "14 rated matches" in text_of(app.screen.query_one("#ratings", Static))
        assert KEY not in screen_text(app)
        assert app.lobby.rated  # rated is the choice once there is a profile
    assert keys.key(session.url, PLAYER) == KEY
    assert stat.S_IMODE(keys.path.stat().st_mode) == 0o600
    assert KEY not in repr(keys)


async def test_rename_transfer_code_and_delete_after_a_confirmation(tmp_path: Path) -> None:
    app, session, keys = make_app(tmp_path, player=ANNA)
    keys.remember(session.url, PLAYER, KEY, player=ANNA.id, name="Anna")
    profiles_deleted = lambda: session.sent_of(m.DeleteProfile)  # noqa: E731
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("i")
        await screen_ready(pilot, app, ProfileScreen, "the profile screen")
        await pilot.press("e")
        await screen_ready(pilot, app, NameScreen, "the name form")
        await pilot.press("end", "space", "b", "enter")
        await until(pilot, lambda: session.sent_of(m.RenameProfile), "rename_profile")
        assert session.sent_of(m.RenameProfile)[0].name == "Anna b"
        await until(pilot, lambda: "Anna b" in text_of(app.screen.query_one("#title", Label)), "the new name")
        await pilot.press("t")
        await until(
            pilot, lambda: CODE in text_of(app.screen.query_one("#code", Static)), "the transfer code"
        )
        assert "10 minutes" in text_of(app.screen.query_one("#code", Static))
        await pilot.press("x")
        await screen_ready(pilot, app, ConfirmScreen, "the question")
        assert "cannot be undone" in text_of(app.screen.query_one(".title", Label))
        await pilot.press("n")  # kept
        await screen_ready(pilot, app, ProfileScreen, "the profile screen again")
        assert not profiles_deleted()
        assert keys.key(session.url) == KEY
        await pilot.press("x")
        await screen_ready(pilot, app, ConfirmScreen, "the question")
        await pilot.press("y")
        await until(pilot, profiles_deleted, "delete_profile")
        await until(
            pilot, lambda: "deleted" in text_of(app.screen.query_one("#problem", Label)), "the notice"
        )
        assert "without a profile" in text_of(app.screen.query_one("#ratings", Static))
        assert not app.lobby.rated
    assert keys.key(session.url) is None  # the key went with the profile


async def test_a_transfer_code_brings_a_profile_here_and_a_wrong_one_is_refused_in_words(
    tmp_path: Path,
) -> None:
    app, session, keys = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("i")
        await screen_ready(pilot, app, ProfileScreen, "the profile screen")
        await pilot.press("u")
        await screen_ready(pilot, app, TransferCodeScreen, "the code form")
        await pilot.press("a", "b", "enter")  # too short: refused here, nothing sent
        assert "10 letters and digits" in text_of(app.screen.query_one("#problem", Label))
        await pilot.press("backspace", "backspace", *"zzzz-zzzz", "enter")
        await screen_ready(pilot, app, ProfileScreen, "the profile screen")
        await until(pilot, lambda: text_of(app.screen.query_one("#problem", Label)), "the refusal")
        refusal = text_of(app.screen.query_one("#problem", Label))
        assert "unknown_code" not in refusal
        assert refusal == app.texts.error("unknown_code")
        await pilot.press("u")
        await screen_ready(pilot, app, TransferCodeScreen, "the code form")
        await pilot.press(*"k7mq-2xpr 4t".replace(" ", ""), "enter")
        await until(pilot, lambda: len(session.sent_of(m.RedeemTransferCode)) == 2, "redeem")
        assert [r.code for r in session.sent_of(m.RedeemTransferCode)] == ["ZZZZZZZZ", CODE]
        await until(pilot, lambda: "Anna" in text_of(app.screen.query_one("#title", Label)), "the profile")
        assert OTHER_KEY not in screen_text(app)
    assert keys.key(session.url) == OTHER_KEY  # this device's own key


async def test_rated_or_casual_goes_with_play_now_and_quick_match_and_needs_a_profile(tmp_path: Path) -> None:
    app, session, _ = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("a")
        assert not app.lobby.rated
        assert "need a profile" in text_of(app.lobby.query_one("#lobby-status", Static))
        await pilot.press("p")
        await until(pilot, lambda: session.sent_of(m.PlayNow), "play_now")
        assert session.sent_of(m.PlayNow)[-1].rated is False
    app, session, _ = make_app(tmp_path, player=ANNA)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await until(pilot, lambda: app.lobby.rated, "rated, with a profile")
        assert "rated" in text_of(app.lobby.query_one("#deck-info", Static))
        await pilot.press("m")
        await until(pilot, lambda: session.sent_of(m.QuickMatch), "quick_match")
        assert session.sent_of(m.QuickMatch)[-1].rated is True
        await pilot.press("a")
        assert "casual" in text_of(app.lobby.query_one("#deck-info", Static))
        await pilot.press("p")
        await until(pilot, lambda: session.sent_of(m.PlayNow), "play_now")
        assert session.sent_of(m.PlayNow)[-1].rated is False


async def test_the_leaderboard_marks_bots_and_says_where_the_player_stands(tmp_path: Path) -> None:
    app, session, _ = make_app(tmp_path, player=ANNA)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("down")  # Briscola
        await pilot.press("t")
        await screen_ready(pilot, app, LeaderboardScreen, "the leaderboard")
        table = app.screen.query_one("#board", DataTable)
        await until(pilot, lambda: table.row_count == 3, "three rows")
        assert session.sent_of(m.GetLeaderboard)[0].game == "briscola"
        shown = rows(table)
        assert shown[0][:3] == ["1", "Bot: Strong", "1710 ±60"]
        assert shown[1][1:3] == ["Ladder One (a bot)", "1605 ±140 (provisional)"]
        assert shown[2] == ["3", "Anna", "1562 ±88", "14"]
        assert "Briscola" in screen_text(app)
        assert "rank 3" in text_of(app.screen.query_one("#me", Label))
        assert "p-" not in screen_text(app)  # no player id is shown
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")


async def test_history_lists_matches_with_opponents_results_and_rating_changes(tmp_path: Path) -> None:
    app, _session, _ = make_app(tmp_path, player=ANNA)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("h")
        await screen_ready(pilot, app, HistoryScreen, "the history")
        table = app.screen.query_one("#matches", DataTable)
        await until(pilot, lambda: table.row_count == 2, "two matches")
        first, second = rows(table)
        assert first[1:] == ["Scopa", "Bot (basic)", "11 - 7", "won", "1548 → 1562 (+14)"]
        assert second[1:] == ["Briscola", "(deleted profile)", "70 - 50", "lost", "casual"]
        await until(
            pilot, lambda: "r-7f3a-1" in text_of(app.screen.query_one("#record", Label)), "the record"
        )
        assert "cardavia replay --server ws://fake.invalid/ r-7f3a-1" in text_of(
            app.screen.query_one("#record", Label)
        )


async def test_a_key_the_server_does_not_know_is_said_and_dropped_and_a_rating_change_shows(
    tmp_path: Path,
) -> None:
    app, session, keys = make_app(tmp_path)
    keys.remember(session.url, PLAYER, KEY)
    keys.remember("ws://elsewhere.example/", PLAYER, OTHER_KEY)
    session.player_key = KEY
    session.player_error = "unknown_player"
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        status = app.lobby.query_one("#lobby-status", Static)
        refused = app.texts.error("unknown_player")
        await until(pilot, lambda: refused in text_of(status), "why the key was not taken")
        session.push(
            m.Snapshot(room=room_info("scopa", ["Anna", "Bot"]), seat=0, seq=1, view={"game": "scopa"})
        )
        await screen_ready(pilot, app, TableScreen, "the table")
        session.push(m.RatingChange(record="r-test-1", game="scopa", before=1548, after=1562, deviation=88))
        await until(pilot, lambda: "1548 → 1562 (+14)" in screen_text(app), "the rating change")
        assert "Scopa rating" in screen_text(app)
    assert session.player_key is None  # a key the server does not know is dropped, here and in the file
    assert keys.key(session.url) is None
    assert keys.key("ws://elsewhere.example/") == OTHER_KEY  # another server's key stays


async def test_enter_on_a_match_of_the_history_steps_through_its_replay(tmp_path: Path) -> None:
    app, session, _ = make_app(tmp_path, player=ANNA)
    replay, _ = played("scopa", "history")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("h")
        await screen_ready(pilot, app, HistoryScreen, "the history")
        table = app.screen.query_one("#matches", DataTable)
        await until(pilot, lambda: table.row_count == 2, "two matches")
        table.focus()
        await pilot.press("enter")
        await screen_ready(pilot, app, ReplayScreen, "the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await until(pilot, lambda: screen.steps, "the replay's steps")
        assert session.sent_of(m.GetReplay)[0].record == "r-7f3a-1"
        total = len(replay.steps)
        assert text_of(screen.query_one("#where", Label)) == f"Replay: move 0 of {total}"
        moves = screen.query_one("#moves", Static)
        assert "Anna: " in text_of(moves)  # every hand at the start
        await pilot.press("right", "right", "space")
        assert text_of(screen.query_one("#where", Label)) == f"Replay: move 3 of {total}"
        assert "3. " in text_of(moves)
        assert "4. " not in text_of(moves)
        await pilot.press("left")
        assert "3. " not in text_of(moves)
        await pilot.press("end")
        assert text_of(screen.query_one("#where", Label)) == f"Replay: move {total} of {total}"
        assert text_of(moves).splitlines()[-1].startswith("Final scores")
        assert "the strong bot would play" in text_of(moves)
        await pilot.press("escape")
        await screen_ready(pilot, app, HistoryScreen, "the history again")


async def test_the_create_room_form_offers_a_rated_room_only_with_a_profile(tmp_path: Path) -> None:
    from textual.widgets import Checkbox

    from cardavia.clients.cli.tui.forms import CreateRoomScreen

    app, session, _ = make_app(tmp_path, player=ANNA)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("c")
        await screen_ready(pilot, app, CreateRoomScreen, "the create-room form")
        assert app.screen.query_one("#rated", Checkbox).value  # rated is the lobby's choice now
        await pilot.press("ctrl+s")
        await until(pilot, lambda: session.sent_of(m.CreateRoom), "create_room")
        assert session.sent_of(m.CreateRoom)[-1].rated is True
    app, session, _ = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("c")
        await screen_ready(pilot, app, CreateRoomScreen, "the create-room form")
        assert not app.screen.query("#rated")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: session.sent_of(m.CreateRoom), "create_room")
        assert session.sent_of(m.CreateRoom)[-1].rated is False
