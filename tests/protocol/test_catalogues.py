"""The message catalogues: complete in every language, every key used, the same placeholders, translated.

These are the checks a translator's change must pass: a language that lacks a
key English has, a key no client uses any more, a message whose placeholders
differ from English's (a missing ``{name}`` would drop the player's name) or
an English sentence left untranslated in another language each fail here.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from babel import Locale

from cardavia.games.rules import LANGUAGES
from cardavia.games.traditions import normalize_language
from cardavia.protocol import i18n
from cardavia.protocol.i18n import (
    FALLBACK,
    MessageError,
    Texts,
    areas,
    language_from_environment,
    own_messages,
    parse,
    placeholders,
    plural_cases,
    same_as_english,
    served_catalogue,
)
from cardavia.protocol.text import TextRefused, check

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "protocol" / "catalogues"
OTHERS = [lang for lang in LANGUAGES if lang != FALLBACK]
ENGLISH = own_messages(FALLBACK)


@cache
def client_sources() -> str:
    """Every client's source text: the terminal client's and the command's Python, the page's JavaScript."""
    paths = [*(ROOT / "clients").rglob("*.py"), *(ROOT / "protocol").rglob("*.py")]
    paths += (ROOT / "cardavia").glob("*.py")
    web = ROOT / "clients" / "web" / "src"
    if web.is_dir():
        paths += [*web.rglob("*.js"), *web.rglob("*.ts")]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths if "node_modules" not in p.parts)


def used_prefixes(source: str) -> set[str]:
    """Key prefixes of keys built at run time: ``f"combo.{name}"`` (Python), `` `combo.${name}` `` (JS)."""
    python = re.findall(r"""f["']([a-z][a-z0-9_.]*\.)\{""", source)
    script = re.findall(r"`([a-z][a-z0-9_.]*\.)\$\{", source)
    return set(python) | set(script)


def words(text: str) -> set[str]:
    """The words of a message, placeholders and their syntax left out."""
    plain = re.sub(r"\{[^{}]*\}", " ", text)  # simple placeholders
    plain = re.sub(r"\b(plural|select|one|few|many|other)\b", " ", plain)
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", plain)}


def test_every_area_has_a_file_in_every_language() -> None:
    assert areas(), "no catalogue at all"
    for area in areas():
        for lang in LANGUAGES:
            path = CATALOGUES / f"{area}.{lang}.json"
            assert path.is_file(), f"{path.name} is missing"
            data = json.loads(path.read_text(encoding="utf-8"))
            assert isinstance(data, dict)
            assert all(isinstance(v, str) for k, v in data.items() if not k.startswith("_")), path.name


def test_no_language_has_a_file_of_an_area_english_lacks() -> None:
    english = set(areas())
    for path in CATALOGUES.glob("*.json"):
        area, lang, _ = path.name.rsplit(".", 2)
        assert lang in LANGUAGES, f"{path.name}: {lang} is not a language of Cardavia"
        assert area in english, f"{path.name}: English has no {area} area"


@pytest.mark.parametrize("lang", OTHERS)
def test_a_language_has_every_key_english_has_and_no_other(lang: str) -> None:
    own = own_messages(lang)
    missing = sorted(set(ENGLISH) - set(own))
    assert not missing, f"{lang} lacks {len(missing)} keys: {missing[:20]}"
    stale = sorted(set(own) - set(ENGLISH))
    assert not stale, f"{lang} has keys English does not: {stale[:20]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_parses_and_counts_in_the_plural_forms_of_its_language(lang: str) -> None:
    locale = Locale.parse(lang)
    needed = {locale.plural_form(n) for n in range(0, 1000)}  # the forms whole counts take
    for key, text in own_messages(lang).items():
        tree = parse(text, f"{lang}:{key}")
        for cases in plural_cases(tree):
            lacking = needed - cases - {"other"}
            assert not lacking, f"{lang}:{key} counts without the {sorted(lacking)} form: {text!r}"
            assert "other" in cases


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_has_the_placeholders_of_the_english_one(lang: str) -> None:
    for key, text in own_messages(lang).items():
        ours = placeholders(parse(text, f"{lang}:{key}"))
        theirs = placeholders(parse(ENGLISH[key], f"en:{key}"))
        assert ours == theirs, f"{lang}:{key} has {ours}, English has {theirs}"


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_sentence_is_left_untranslated(lang: str) -> None:
    allowed = same_as_english(lang)
    own = own_messages(lang)
    copied = sorted(
        key
        for key, text in own.items()
        if text == ENGLISH[key] and words(text) and key not in allowed  # names and numbers excepted
    )
    assert not copied, f"{lang} still says in English: {[(k, own[k]) for k in copied[:15]]}"
    stale = sorted(key for key in allowed if own.get(key) != ENGLISH.get(key))
    assert not stale, f"{lang} lists as the same as English keys that are not: {stale}"


def test_every_key_is_used_by_a_client() -> None:
    source = client_sources()
    prefixes = used_prefixes(source)
    dead = sorted(
        key
        for key in ENGLISH
        if f'"{key}"' not in source
        and f"'{key}'" not in source
        and not any(key.startswith(prefix) for prefix in prefixes)
    )
    assert not dead, f"{len(dead)} keys no client uses: {dead[:30]}"


def test_every_key_a_client_names_exists_in_english() -> None:
    areas_ = tuple(f"{area}." for area in areas())
    named = set(re.findall(r"""texts\w*\(\s*["']([a-z][a-z0-9_.]+)["']""", client_sources()))
    missing = sorted(k for k in named if k.startswith(areas_) and k not in ENGLISH)
    assert not missing, f"clients ask for keys no catalogue has: {missing}"


def test_polish_counts_in_three_forms() -> None:
    texts = Texts("pl")
    assert texts.locale.plural_form(1) == "one"
    assert [texts.locale.plural_form(n) for n in (2, 3, 4, 22)] == ["few"] * 4
    assert [texts.locale.plural_form(n) for n in (5, 11, 12, 25)] == ["many"] * 4


def test_a_message_missing_from_a_language_reads_in_english_never_as_its_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key, english = next((k, t) for k, t in ENGLISH.items() if not placeholders(parse(t)))
    swedish = {k: t for k, t in own_messages("sv").items() if k != key}  # a Swedish file without it
    monkeypatch.setattr(i18n, "own_messages", lambda lang: swedish if lang == "sv" else ENGLISH)
    i18n._parsed.cache_clear()
    try:
        assert Texts("sv")(key) == english
        assert Texts("sv").has(key)
    finally:
        i18n._parsed.cache_clear()


def test_every_message_formats_in_every_language_with_its_placeholders_given() -> None:
    for lang in LANGUAGES:
        texts = Texts(lang)
        for key in ENGLISH:
            tree = parse(ENGLISH[key])
            for count in (0, 1, 2, 5, 22):
                args = {
                    name: count if kind == "plural" else "Ola" for name, kind in placeholders(tree).items()
                }
                text = texts(key, **args)
                assert text, f"{lang}:{key} is empty"
                assert "{" not in text, f"{lang}:{key} -> {text!r}"


def test_a_missing_placeholder_is_an_error_not_a_blank() -> None:
    key = next(k for k, text in ENGLISH.items() if "text" in placeholders(parse(text)).values())
    with pytest.raises(MessageError, match="needs"):
        Texts("en")(key)
    with pytest.raises(KeyError, match="no message"):
        Texts("en")("lobby.no_such_key")


def test_the_language_comes_from_the_system_locale_when_cardavia_speaks_it() -> None:
    assert language_from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert language_from_environment({"LANG": "nb_NO.UTF-8"}) == "nb"
    assert language_from_environment({"LANG": "no_NO"}) == "nb"
    assert language_from_environment({"LANG": "de_DE.UTF-8"}) == "en"
    assert language_from_environment({"LANG": "C"}) == "en"
    assert language_from_environment({}) == "en"
    assert language_from_environment({"LC_ALL": "it_IT.UTF-8", "LANG": "sv_SE.UTF-8"}) == "it"
    assert language_from_environment({"LC_ALL": "", "LC_MESSAGES": "es_ES", "LANG": "sv_SE"}) == "es"
    assert normalize_language("sv-SE") == "sv"
    assert normalize_language("pl.UTF-8") == "pl"


def test_the_served_catalogue_is_the_language_over_english() -> None:
    served = served_catalogue("it")
    assert served["lang"] == "it"
    assert set(served["messages"]) == set(ENGLISH)
    assert served_catalogue("xx")["lang"] == "en"


@pytest.mark.parametrize(
    ("text", "polish"),
    [
        ("", "tekst nie może być pusty"),
        ("a" * 40, "tekst jest za długi: 40 znaków, najwyżej 32"),
        ("a" * 33, "tekst jest za długi: 33 znaki, najwyżej 32"),
        (
            "a\u202eb",
            "U+202E RIGHT-TO-LEFT OVERRIDE (znak formatowania dwukierunkowego) na pozycji 2 "
            "jest niedozwolony",
        ),
    ],
)
def test_a_refused_name_is_explained_in_the_players_language(text: str, polish: str) -> None:
    with pytest.raises(TextRefused) as refused:
        check(text, max_length=32, strip=True)
    assert Texts("pl").refusal(refused.value) == polish
    assert Texts("en").refusal(refused.value) != polish


def test_each_deck_is_drawn_in_its_own_ranks() -> None:
    decks = served_catalogue("en")["decks"]
    assert decks["piemontesi"]["rank_scheme"] == "french_italian"  # Fante, Regina, Re on French suits
    assert decks["schnapsen"]["rank_scheme"] == "schnapsen"
    assert decks["french54"]["rank_scheme"] == "french"
    assert decks["bolognese"]["rank_scheme"] == "italian"
