"""Each game's rules as players read them: Markdown texts shipped with the package, per language.

The English texts are the project's own reference for every decided rule
(they say what the engines do, and ``tests/games/test_rules_texts.py`` holds
them to the facts of the rules); a language without a text of its own falls
back to English, and says so, so that a player always gets the whole rules.
Texts live in ``games/data/rules/<game>.<lang>.md``; adding a language is
adding its files.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files

from cardavia.games.errors import UnknownGameError
from cardavia.games.registry import GAMES
from cardavia.games.traditions import LANGUAGES, normalize_language

__all__ = ["LANGUAGES", "RulesText", "languages_of", "rules_text"]

_TEXTS = files("cardavia.games") / "data" / "rules"


@dataclass(frozen=True, slots=True)
class RulesText:
    game: str
    lang: str
    """The language of ``markdown``: the one asked for, or English when that one has no text."""
    markdown: str

    @property
    def title(self) -> str:
        """The text's first heading."""
        first = self.markdown.lstrip().splitlines()[0]
        return first.lstrip("#").strip()

    def sections(self) -> list[str]:
        """The level-2 headings, in order."""
        return [line[3:].strip() for line in self.markdown.splitlines() if line.startswith("## ")]


def languages_of(game: str) -> list[str]:
    """The languages ``game``'s rules are written in, English first."""
    _check(game)
    return [lang for lang in LANGUAGES if (_TEXTS / f"{game}.{lang}.md").is_file()]


def rules_text(game: str, lang: str = "en") -> RulesText:
    """``game``'s rules in ``lang`` (``sv``, or a tag such as ``sv-SE``), else in English."""
    _check(game)
    for candidate in dict.fromkeys((normalize_language(lang), "en")):
        path = _TEXTS / f"{game}.{candidate}.md"
        if path.is_file():
            return RulesText(game, candidate, path.read_text(encoding="utf-8"))
    raise UnknownGameError(f"the rules of {game} are not shipped with this installation")


def _check(game: str) -> None:
    if game not in GAMES:
        raise UnknownGameError(f"no game {game!r}; games: {', '.join(sorted(GAMES))}")
