"""The compiled build (setup.py) holds the engine and every module that derives from its classes:
a pure class may not derive from a compiled one, so a game module left out of ``COMPILED`` fails
on import in the compiled package (scripts/test-compiled runs the games' tests against it)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import pickle
import pkgutil
import random
from pathlib import Path

import cardavia.games
from cardavia.games import cards
from cardavia.games.engine import Action, Game, State
from cardavia.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


def _compiled() -> list[str]:
    """setup.py's ``COMPILED``; the file calls ``setup()`` only when run as a script."""
    spec = importlib.util.spec_from_file_location("cardavia_setup", ROOT / "setup.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    compiled: list[str] = module.COMPILED
    return compiled


def _engine_subclasses() -> dict[str, list[str]]:
    """Each module of the games package that defines a class deriving from the contract's, with
    those classes."""
    found: dict[str, list[str]] = {}
    for info in pkgutil.iter_modules(cardavia.games.__path__, "cardavia.games."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and value.__module__ == info.name
                and issubclass(value, (Action, State, Game))
                and value not in (Action, State, Game)
            ):
                found.setdefault(info.name, []).append(name)
    return found


def test_every_module_that_derives_from_the_engine_is_compiled_with_it() -> None:
    compiled = _compiled()
    subclasses = _engine_subclasses()
    assert "cardavia.games.engine" in compiled
    assert {"cardavia.games.briscola", "cardavia.games.doudizhu_actions"} <= set(subclasses)
    missing = {module: names for module, names in subclasses.items() if module not in compiled}
    assert not missing, f"derive from the compiled engine but stay pure: {missing}"


def test_every_games_engine_is_compiled() -> None:
    """The rules of every game run compiled: legal_actions, apply and view are per action."""
    compiled = set(_compiled())
    for game in GAMES.values():
        assert type(game).__module__ in compiled, game.id
        assert game.new(None, "compiled").__class__.__module__ in compiled, game.id
    assert "cardavia.games.cards" in compiled


def test_actions_pickle_back_to_the_same_actions() -> None:
    """Bots choose in worker processes: the legal actions go there and the choice comes back
    pickled. Compiled, a frozen dataclass refuses pickle's attribute-by-attribute restore."""
    for game in GAMES.values():
        rng = random.Random(game.id)
        state = game.new(None, "pickle")
        seen: set[type[Action]] = set()
        while (seat := state.to_move) is not None:
            legal = state.legal_actions(seat)
            back = pickle.loads(pickle.dumps(legal))
            assert back == legal
            assert [type(a) for a in back] == [type(a) for a in legal]
            assert [a.to_data() for a in back] == [a.to_data() for a in legal]
            seen.update(type(a) for a in legal)
            state = state.apply(legal[rng.randrange(len(legal))], seat=seat)[0]
        assert seen, game.id


def test_the_games_know_whether_they_run_compiled() -> None:
    """The engines pick their fastest way to copy a state and to build plays by ``COMPILED``;
    scripts/test-compiled sets ``CARDAVIA_EXPECT_COMPILED`` for its run of the compiled build."""
    expected = os.environ.get("CARDAVIA_EXPECT_COMPILED") == "1"
    assert cards.COMPILED is expected
    assert (Path(cards.__file__ or "").suffix == ".py") is not expected
