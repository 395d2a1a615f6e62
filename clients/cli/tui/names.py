"""Card, suit and game names in the player's language and the table's deck tradition.

The server speaks card codes; people read names. A code the pack does not
know (a deck this client has never heard of) is shown as the code itself.
Ranks are named in the player's language ("Svärd · Riddare", not "Svärd ·
Cavallo"): a player who chose Swedish may know no Italian or German.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len

from cardavia.games.errors import CardaviaError
from cardavia.games.traditions import (
    TRADITIONS,
    deck_names,
    default_tradition,
    game_name,
    get_tradition,
    language_data,
    normalize_language,
    suit_name,
)
from cardavia.protocol.i18n import Texts


class CardNames:
    """Names of one pack's cards in one language (English where a name is missing)."""

    def __init__(self, deck: str | None, lang: str = "en", game: str | None = None) -> None:
        self.lang = normalize_language(lang)
        self.texts = Texts(self.lang)
        """The interface's words in the same language, for everything around the names."""
        self.deck = _pack(deck, game)
        self._names = deck_names(self.deck, self.lang, regional=False) if self.deck else {}
        self._short = _short_names(self.deck, self.lang)

    def card(self, code: str) -> str:
        return self._names.get(code, code)

    def short(self, code: str) -> str | None:
        """The card's corner index ("K♠", "10♥"), for a hand too long for full names; None if
        the pack has no such index (suits other than French ones)."""
        return self._short.get(code)

    def legend(self, width: int = 10_000) -> str | None:
        """What the letters of a compact hand stand for ("Card letters: E = ess · Kn = knekt…"),
        in the page's words (``legend`` catalogue), within ``width`` cells where it can be: the
        jokers' stars (the least needed) go first, then the heading; None for a pack drawn
        without letters."""
        if not self._short:
            return None
        data = language_data(self.lang)
        indices = data.get("rank_indices", {}).get("french", {})
        words = data.get("ranks", {}).get("french", {})
        # as the page's legend: an ace marked "A" needs no words, and the words are lower case
        marks = ((str(indices.get(rank, rank)), words.get(rank, rank)) for rank in "AJQK")
        courts = [self._legend_entry(letter, name) for letter, name in marks if letter != "A"]
        jokers = [  # ☆ black, ★ red: the pack's joker ranks B and R
            self._legend_entry(symbol, words.get(code[0], code))
            for code, symbol in JOKER_SYMBOLS.items()
            if code in self._short
        ]
        for entries in (courts + jokers, courts):
            text = self.texts("legend.line", letters=" · ".join(entries))
            if cell_len(text) <= width:
                return text
        return " · ".join(courts)

    def _legend_entry(self, letter: str, name: object) -> str:
        return self.texts("legend.entry", letter=letter, name=str(name).lower())

    def cards(self, codes: Iterable[str], sep: str = ", ") -> str:
        return sep.join(self.card(c) for c in codes) or self.texts("table.cards.nothing")

    def suit(self, letter: str) -> str:
        if self.deck is None:
            return letter
        try:
            return suit_name(letter, self.deck, self.lang)
        except CardaviaError:
            return letter

    def suit_word(self, letter: str) -> str:
        """A suit's name inside a sentence ("announces a marriage in hearts"): every language
        Cardavia speaks writes suits in lower case in running text, as its glossary says, while
        card labels ("Hearts · King") keep the capital."""
        return self.suit(letter).lower()

    def deck_name(self) -> str:
        return (
            get_tradition(self.deck).display_name(self.lang) if self.deck else self.texts("table.cards.any")
        )

    def game(self, game_id: str) -> str:
        try:
            return game_name(game_id, self.lang)
        except CardaviaError:
            return game_id


SUIT_SYMBOLS = {"D": "♦", "H": "♥", "S": "♠", "C": "♣"}
JOKER_SYMBOLS = {"BJ": "☆", "RJ": "★"}
"""Dou Dizhu's small (black) and big (red) jokers."""


def _short_names(deck: str | None, lang: str) -> dict[str, str]:
    if deck is None or get_tradition(deck).suit_system != "french":
        return {}
    indices = language_data(lang).get("rank_indices", {}).get("french", {})
    out: dict[str, str] = {}
    for card in get_tradition(deck).deck:
        if card.is_joker:
            out[card.code] = JOKER_SYMBOLS.get(card.code, card.code)
        else:
            out[card.code] = str(indices.get(card.rank, card.rank)) + SUIT_SYMBOLS[card.suit]
    return out


def _pack(deck: str | None, game: str | None) -> str | None:
    """The tradition to name cards by: the table's, else the game's default, else none."""
    if deck in TRADITIONS:
        return deck
    if game is not None:
        try:
            return default_tradition(game).id
        except CardaviaError:
            return None
    return None


def combo_name(combo: str, texts: Texts) -> str:
    """A Dou Dizhu combination by its record name (``pair``, ``airplane1``) as players call it;
    a combination this client does not know is shown by its record name."""
    return texts.get(f"combo.{combo}", combo)
