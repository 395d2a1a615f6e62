from __future__ import annotations

import ast
import json
from importlib.resources import files
from typing import Any
from urllib.parse import urlparse

import pytest

from cardavia.games import traditions as tr
from cardavia.games.cards import DECK_40, DECK_54, DECK_SCHNAPSEN, Card
from cardavia.games.errors import CardError, UnknownGameError, UnknownTraditionError
from cardavia.games.traditions import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    TRADITIONS,
    Tradition,
    card_name,
    catalogue,
    default_tradition,
    game_name,
    get_tradition,
    rank_name,
    suit_name,
    traditions_for_game,
)

DATA = files("cardavia.games") / "data"
FIELDS = (
    "id",
    "name",
    "city",
    "region",
    "country",
    "cards",
    "suit_system",
    "description",
    "link",
    "games",
    "rank_scheme",
)
GAMES_BY_SIZE = {40: {"scopa", "briscola"}, 20: {"schnapsen"}, 54: {"doudizhu"}}


def raw_catalogue() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "traditions.json").read_text(encoding="utf-8"))
    return data


def raw_language(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def c(code: str) -> Card:
    return Card.parse(code)


# --- card and rank names as each tradition's players say them --------------------------------


def test_card_names_of_the_seeds() -> None:
    assert card_name(c("7D"), "bolognese", "sv") == "mynt · 7"
    assert card_name(c("7D"), "piemontesi", "sv") == "ruter · 7"
    assert card_name(c("7D"), "spanish", "es") == "Oros · 7"


def test_regional_court_names_are_kept_in_every_language() -> None:
    # Swedish and Norwegian pages keep the Italian names (seed 003); Polish keeps German (seed 004).
    for lang in LANGUAGES:
        assert [rank_name(r, "bolognese", lang) for r in "AJQK"] == ["Asso", "Fante", "Cavallo", "Re"]
        assert rank_name("Q", "piemontesi", lang) == "Regina"
        assert [rank_name(r, "spanish", lang) for r in "AJQK"] == ["As", "Sota", "Caballo", "Rey"]
        assert [rank_name(r, "schnapsen", lang) for r in "ATKQJ"] == ["Ass", "10", "König", "Dame", "Bube"]
        assert [rank_name(r, "doubledeutsch", lang) for r in "ATKQJ"] == [
            "Ass",
            "10",
            "König",
            "Ober",
            "Unter",
        ]


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Ace", "Jack", "Queen", "King"]),
        ("it", ["Asso", "Fante", "Donna", "Re"]),
        ("sv", ["ess", "knekt", "dam", "kung"]),
        ("nb", ["Ess", "Knekt", "Dame", "Konge"]),
        ("es", ["As", "Jota", "Reina", "Rey"]),
        ("pl", ["As", "Walet", "Dama", "Król"]),
    ],
)
def test_french_pack_ranks_are_localized(lang: str, names: list[str]) -> None:
    assert [rank_name(r, "french54", lang) for r in "AJQK"] == names
    assert rank_name("T", "french54", lang) == "10"
    assert card_name(c("TS"), "french54", lang).endswith(" · 10")


@pytest.mark.parametrize(
    ("lang", "black", "red"),
    [
        ("en", "Black joker", "Red joker"),
        ("it", "Jolly nero", "Jolly rosso"),
        ("sv", "svart joker", "röd joker"),
        ("nb", "Svart joker", "Rød joker"),
        ("es", "Comodín negro", "Comodín rojo"),
        ("pl", "Czarny joker", "Czerwony joker"),
    ],
)
def test_jokers(lang: str, black: str, red: str) -> None:
    assert card_name(c("BJ"), "french54", lang) == black
    assert card_name(c("RJ"), "french54", lang) == red


def test_suit_names_per_suit_system() -> None:
    assert [suit_name(s, "napoletane", "it") for s in "DHSC"] == ["Denari", "Coppe", "Spade", "Bastoni"]
    assert [suit_name(s, "spanish", "es") for s in "DHSC"] == ["Oros", "Copas", "Espadas", "Bastos"]
    assert [suit_name(s, "french54", "sv") for s in "DHSC"] == ["ruter", "hjärter", "spader", "klöver"]
    assert [suit_name(s, "french54", "nb") for s in "DHSC"] == ["Ruter", "Hjerter", "Spar", "Kløver"]
    assert [suit_name(s, "french54", "pl") for s in "DHSC"] == ["Karo", "Kier", "Pik", "Trefl"]
    assert [suit_name(s, "doubledeutsch", "en") for s in "DHSC"] == ["Bells", "Hearts", "Leaves", "Acorns"]
    assert card_name(c("KC"), "doubledeutsch", "pl") == "Żołądź · König"
    assert card_name(c("QH"), "schnapsen", "pl") == "Kier · Dame"


# --- the catalogue data -----------------------------------------------------------------------


def test_required_traditions_exist() -> None:
    required = {
        "bolognese",
        "napoletane",
        "piacentine",
        "spanish",
        "piemontesi",
        "french54",
        "schnapsen",
        "doubledeutsch",
    }
    assert required <= set(TRADITIONS)
    bolognese = get_tradition("bolognese")
    assert (bolognese.name, bolognese.city, bolognese.region, bolognese.country) == (
        "Primiera Bolognese",
        "Bologna",
        "Emilia-Romagna",
        "Italy",
    )
    assert bolognese.place() == "Bologna · Emilia-Romagna · Italy"
    assert bolognese.place("sv") == "Bologna · Emilia-Romagna · Italien"
    assert bolognese.description == "Bologna's forty-card pack, with interlaced swords and batons."
    assert get_tradition("spanish").name == "Baraja española"
    assert get_tradition("piemontesi").suit_system == "french"
    assert get_tradition("doubledeutsch").suit_system == "german"


@pytest.mark.parametrize("raw", raw_catalogue()["traditions"], ids=lambda r: str(r.get("id")))
def test_every_tradition_has_every_field(raw: dict[str, Any]) -> None:
    assert set(raw) == set(FIELDS)
    for key in ("id", "name", "country", "suit_system", "description", "link", "rank_scheme"):
        assert isinstance(raw[key], str)
        assert raw[key].strip()
    assert raw["id"].isascii()
    assert raw["id"] == raw["id"].lower()
    assert raw["id"].isalnum()
    assert isinstance(raw["city"], str)
    assert isinstance(raw["region"], str)
    link = urlparse(raw["link"])
    assert link.scheme == "https"
    assert link.netloc.endswith("wikipedia.org")
    assert raw["suit_system"] in tr.SUIT_SYSTEMS
    assert raw["rank_scheme"] in raw_catalogue()["rank_schemes"]
    assert set(raw["games"]) == GAMES_BY_SIZE[raw["cards"]]


def test_decks_match_card_counts() -> None:
    decks = {40: DECK_40, 20: DECK_SCHNAPSEN, 54: DECK_54}
    for t in TRADITIONS.values():
        assert t.deck == decks[t.cards]
        assert len(t.deck) == t.cards


def test_games_and_defaults() -> None:
    assert default_tradition("scopa").id == "bolognese"
    assert default_tradition("briscola").id == "bolognese"
    assert default_tradition("schnapsen").id == "schnapsen"
    assert default_tradition("doudizhu").id == "french54"
    for game, size in (("scopa", 40), ("briscola", 40), ("schnapsen", 20), ("doudizhu", 54)):
        packs = traditions_for_game(game)
        assert packs
        assert all(isinstance(t, Tradition) and t.cards == size for t in packs)
        assert default_tradition(game) in packs
    assert {t.id for t in traditions_for_game("schnapsen")} == {"schnapsen", "doubledeutsch"}
    with pytest.raises(UnknownGameError):
        traditions_for_game("poker")
    with pytest.raises(UnknownGameError):
        default_tradition("poker")


# --- language files: complete, with English only as a documented fallback ---------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_file_names_every_card_of_every_pack(lang: str) -> None:
    data = raw_language(lang)
    assert data["language"] == lang
    assert "{suit}" in data["card_format"]
    assert "{rank}" in data["card_format"]
    for t in TRADITIONS.values():
        suits = data["suits"][t.suit_system]
        ranks = data["ranks"][t.rank_scheme]
        for card in t.deck:
            if not card.is_joker:
                assert suits[card.suit].strip(), (t.id, card)
            assert ranks[card.rank].strip(), (t.id, card)
            assert card_name(card, t.id, lang)
    for game in tr.GAME_IDS:
        assert data["games"][game].strip()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE])
def test_language_file_translates_every_tradition_and_place(lang: str) -> None:
    # English texts live in traditions.json; every other language has its own.
    data = raw_language(lang)
    for t in TRADITIONS.values():
        texts = data["traditions"][t.id]
        assert texts["name"].strip()
        assert texts["description"].strip()
        assert t.display_description(lang) == texts["description"]
        for place in (t.city, t.region, t.country):
            if place:
                assert data["places"][place].strip()


def test_localized_texts() -> None:
    piemontesi = get_tradition("piemontesi")
    assert piemontesi.place("it") == "Torino · Piemonte · Italia"
    assert piemontesi.place("pl") == "Turyn · Piemont · Włochy"
    assert get_tradition("napoletane").place("es") == "Nápoles · Campania · Italia"
    assert get_tradition("french54").display_name("sv") == "Fransk kortlek med jokrar"
    assert get_tradition("bolognese").display_name("nb") == "Primiera Bolognese"
    assert game_name("doudizhu", "pl") == "Dou Dizhu"


@pytest.mark.parametrize("lang", ["fr", "de", "", "xx-YY"])
def test_unknown_language_falls_back_to_english(lang: str) -> None:
    assert card_name(c("7D"), "bolognese", lang) == "Coins · 7"
    assert card_name(c("QS"), "french54", lang) == "Spades · Queen"
    assert suit_name("D", "piemontesi", lang) == "Diamonds"
    assert game_name("scopa", lang) == "Scopa"
    assert get_tradition("bolognese").place(lang) == "Bologna · Emilia-Romagna · Italy"
    assert catalogue(lang) == catalogue("en")


def test_language_tags_are_normalized() -> None:
    assert card_name(c("7D"), "bolognese", "sv-SE") == "mynt · 7"
    assert card_name(c("7D"), "bolognese", "SV") == "mynt · 7"
    assert card_name(c("KD"), "french54", "no") == "Ruter · Konge"


# --- errors -----------------------------------------------------------------------------------


def test_unknown_tradition() -> None:
    with pytest.raises(UnknownTraditionError, match="bolognese") as info:
        get_tradition("bavarian")
    assert info.value.code == "unknown_deck"
    with pytest.raises(UnknownTraditionError):
        card_name(c("7D"), "bavarian", "en")
    with pytest.raises(UnknownTraditionError):
        suit_name("D", "bavarian", "en")


@pytest.mark.parametrize(
    ("code", "tradition"),
    [
        ("8D", "bolognese"),
        ("TS", "spanish"),
        ("9H", "piemontesi"),
        ("BJ", "napoletane"),
        ("7D", "schnapsen"),
        ("2C", "doubledeutsch"),
        ("RJ", "schnapsen"),
    ],
)
def test_card_not_in_the_pack(code: str, tradition: str) -> None:
    with pytest.raises(CardError, match=f"{code} is not in the") as info:
        card_name(c(code), tradition, "sv")
    assert info.value.code == "bad_card"


def test_rank_or_suit_not_in_the_pack() -> None:
    with pytest.raises(CardError):
        rank_name("8", "bolognese", "en")
    with pytest.raises(CardError):
        rank_name("B", "bolognese", "en")
    with pytest.raises(CardError):
        suit_name("J", "bolognese", "en")
    with pytest.raises(CardError):
        suit_name("X", "french54", "en")
    assert suit_name("J", "french54", "es") == "Comodín"
    assert rank_name("10", "french54", "en") == "10"


# --- catalogue() for the protocol layer -------------------------------------------------------


def _plain(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, str | int):
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_is_plain_json_data(lang: str) -> None:
    entries = catalogue(lang)
    assert [e["id"] for e in entries] == list(TRADITIONS)
    assert _plain(entries)
    assert json.loads(json.dumps(entries, ensure_ascii=False)) == entries
    for entry in entries:
        t = get_tradition(entry["id"])
        assert entry["cards"] == t.cards
        assert entry["name"] == t.display_name(lang)
        assert {g["id"] for g in entry["games"]} == set(t.games)
        jokers = [r for r in entry["ranks"] if r in "BR"]
        plain_suits = [s for s in entry["suits"] if s != "J"]
        assert (len(entry["ranks"]) - len(jokers)) * len(plain_suits) + len(jokers) == t.cards


def test_catalogue_is_localized() -> None:
    sv = {e["id"]: e for e in catalogue("sv")}
    assert sv["bolognese"]["place"] == "Bologna · Emilia-Romagna · Italien"
    assert sv["bolognese"]["suits"]["D"] == "mynt"
    assert sv["piemontesi"]["suits"]["D"] == "ruter"
    assert sv["bolognese"]["default_for"] == ["scopa", "briscola"]


def test_module_imports_only_stdlib_and_games() -> None:
    source = (files("cardavia.games") / "traditions.py").read_text(encoding="utf-8")
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    for module in modules:
        assert module.startswith("cardavia.games") or module.split(".")[0] in {
            "__future__",
            "json",
            "collections",
            "dataclasses",
            "functools",
            "importlib",
            "types",
            "typing",
        }, module
