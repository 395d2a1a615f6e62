"""What an error means to a player, in every language: one sentence per wire error code and close code.

A client shows ``Texts(lang).error(code, message)`` instead of the server's
English ``message``: every code of ``protocol/errors.py`` and every close code
the protocol README documents has a sentence in each language, a code this
client does not know yet (a newer server) reads as the server's own message,
and the sentence never shows the player the code itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardavia.games.rules import LANGUAGES
from cardavia.protocol.errors import ERROR_CODES
from cardavia.protocol.i18n import FALLBACK, Texts, own_messages, parse, placeholders

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"
CODES = sorted(ERROR_CODES)


def documented_close_codes() -> list[str]:
    """The close codes listed under "Close codes" in the protocol README (1000, 1008…)."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"\*\*Close codes\.\*\*(.*?)(?:\n\n|\n- \*\*|\n#)", text, re.DOTALL)
    assert found, "the protocol README has no Close codes paragraph"
    return sorted(set(re.findall(r"\b[1-4]\d{3}\b", found.group(1))))


CLOSE_CODES = documented_close_codes()


def error_messages(lang: str) -> dict[str, str]:
    """The ``errors`` area of ``lang``'s own catalogue, by key without the area."""
    return {k.removeprefix("errors."): t for k, t in own_messages(lang).items() if k.startswith("errors.")}


def test_the_readme_documents_the_close_codes_a_client_sees() -> None:
    assert {"1008", "1009", "1012", "1013"} <= set(CLOSE_CODES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_wire_error_code_has_a_sentence(lang: str) -> None:
    messages = error_messages(lang)
    missing = [code for code in CODES if code not in messages]
    assert not missing, f"{lang} has no errors.<code> for {missing}"
    assert "unknown" in messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_documented_close_code_has_a_sentence(lang: str) -> None:
    messages = error_messages(lang)
    missing = [code for code in CLOSE_CODES if f"close.{code}" not in messages]
    assert not missing, f"{lang} has no errors.close.<code> for {missing}"


def test_english_explains_no_code_the_protocol_does_not_have() -> None:
    expected = {*CODES, "unknown", *(f"close.{code}" for code in CLOSE_CODES)}
    stale = sorted(set(error_messages(FALLBACK)) - expected)
    assert not stale, f"errors keys for codes neither protocol/errors.py nor the README has: {stale}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_error_reads_in_the_players_language(lang: str) -> None:
    texts = Texts(lang)
    own = own_messages(lang)
    for code in CODES:
        assert texts.error(code) == own[f"errors.{code}"]
        assert texts.error(code, "the server's English words") == own[f"errors.{code}"]
    for code in CLOSE_CODES:
        assert texts(f"errors.close.{code}") == own[f"errors.close.{code}"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_code_the_client_does_not_know_reads_as_the_servers_message_else_in_general(lang: str) -> None:
    texts = Texts(lang)
    assert texts.error("a_code_from_a_newer_server", "The moon is in the way.") == "The moon is in the way."
    assert texts.error("a_code_from_a_newer_server") == own_messages(lang)["errors.unknown"]
    assert texts.error("a_code_from_a_newer_server", "") == own_messages(lang)["errors.unknown"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_shows_the_player_the_code(lang: str) -> None:
    messages = error_messages(lang)
    raw = {key: key.removeprefix("close.") for key in messages}
    shown = sorted(key for key, code in raw.items() if code.lower() in messages[key].lower())
    assert not shown, f"{lang} says the code itself in {shown}"
    every_code = [*CODES, *CLOSE_CODES]
    leaked = sorted(
        (key, code) for key, text in messages.items() for code in every_code if code in text.lower()
    )
    assert not leaked, f"{lang} names a code in {leaked}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_error_sentence_needs_no_placeholder_and_is_one_line(lang: str) -> None:
    """``Texts.error`` passes no values, so a placeholder would fail when the error arrives."""
    for key, text in error_messages(lang).items():
        assert not placeholders(parse(text, f"{lang}:errors.{key}")), f"{lang}:errors.{key}: {text!r}"
        assert text == text.strip(), f"{lang}:errors.{key}: {text!r}"
        assert "\n" not in text, f"{lang}:errors.{key}: {text!r}"
        assert text[-1] in ".!", f"{lang}:errors.{key} is not a sentence: {text!r}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != FALLBACK])
def test_every_language_says_it_in_its_own_words(lang: str) -> None:
    english = error_messages(FALLBACK)
    same = sorted(key for key, text in error_messages(lang).items() if text == english.get(key))
    assert not same, f"{lang} still says in English: {same}"
