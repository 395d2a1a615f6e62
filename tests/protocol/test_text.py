"""Names and chat lines: one line of visible text, NFC-normalised, with nothing that drives a terminal."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, pack
from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.i18n import Texts
from cardavia.protocol.text import MAX_MARKS, REPLACEMENT, TextRefused, check, display_safe, refusal

HOSTILE = {
    "NUL": "Anna\x00",
    "bell": "An\x07na",
    "a colour escape": "\x1b[31mAnna",
    "a screen clear": "Anna\x1b[2J",
    "an OSC 8 link": "\x1b]8;;https://evil.example\x07Anna\x1b]8;;\x07",
    "CR": "Anna\rBo",
    "LF": "Anna\nBo: I resign",
    "CRLF": "Anna\r\n",
    "TAB": "An\tna",
    "DEL": "Anna\x7f",
    "a C1 CSI": "Anna\x9b31m",
    "NEL": "Anna\x85",
    "right-to-left override": "Anna\u202egnp.exe",
    "left-to-right override": "\u202dAnna",
    "right-to-left embedding": "\u202bAnna\u202c",
    "first strong isolate": "\u2068Anna\u2069",
    "right-to-left mark": "Anna\u200f",
    "Arabic letter mark": "\u061cAnna",
    "zero width space": "An\u200bna",
    "byte order mark": "\ufeffAnna",
    "word joiner": "An\u2060na",
    "soft hyphen": "An\u00adna",
    "tag characters": "Anna\U000e0041\U000e0042",
    "line separator": "Anna\u2028Bo",
    "paragraph separator": "Anna\u2029",
}

PEOPLE = [
    "Åsa",
    "Łukasz",
    "张伟",
    "Zoë",
    "Ñandú",
    "محمد",  # Arabic
    "יעל",  # Hebrew
    "Nguyễn Thị Minh Khai",
    "Σωκράτης",
    "Дмитрий",
    "さくら",
    "김민준",
    "अनुष्का",
    "\u0641\u0631\u0632\u0627\u0646\u0647\u200c\u0647\u0627",  # Persian, with a ZERO WIDTH NON-JOINER
    "👨‍👩‍👧 family",  # emoji joined by ZERO WIDTH JOINERs
    "O'Brien-Smith Jr.",
    "Anna\u00a0Maria",  # a no-break space inside is fine
]


def hello(name: object, request: int = 3) -> bytes:
    return pack({"type": "hello", "id": request, "version": m.PROTOCOL_VERSION, "name": name})


def chat(text: object, request: int = 4) -> bytes:
    return pack({"type": "chat", "id": request, "text": text})


def refused(frame: bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_client(frame)
    return caught.value


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_name_is_refused_naming_the_field_and_the_character(text: str) -> None:
    error = refused(hello(text))
    assert error.code == "invalid_field"
    assert error.request_id == 3
    assert error.message.startswith("name: U+")
    assert "is not allowed" in error.message
    bad = next(c for c in text if refusal(c))
    assert f"U+{ord(bad):04X}" in error.message


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_chat_line_is_refused_naming_the_field_and_the_character(text: str) -> None:
    error = refused(chat(f"gg {text} gg"))
    assert (error.code, error.request_id) == ("invalid_field", 4)
    assert error.message.startswith("text: U+")


def test_the_message_says_what_kind_of_character_and_where() -> None:
    assert refused(hello("An\x1b[1mna")).message == (
        "name: U+001B (a control character) at position 3 is not allowed"
    )
    assert refused(chat("ok\u202eko")).message == (
        "text: U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional formatting character) "
        "at position 3 is not allowed"
    )
    assert refused(hello("\u200b")).message == (
        "name: U+200B ZERO WIDTH SPACE (an invisible format character) at position 1 is not allowed"
    )
    assert "line or paragraph separator" in refused(chat("a\u2028b")).message


def test_a_control_character_at_either_end_of_a_name_is_refused_not_trimmed() -> None:
    assert refused(hello("Anna\n")).code == "invalid_field"
    assert refused(hello("\tAnna")).code == "invalid_field"


@pytest.mark.parametrize("name", PEOPLE)
def test_names_in_many_scripts_pass_unchanged(name: str) -> None:
    message = decode_client(hello(name))
    assert isinstance(message, m.Hello)
    assert message.name == unicodedata.normalize("NFC", name) == name
    line = decode_client(chat(f"{name}: bella scopa!"))
    assert isinstance(line, m.Chat)
    assert line.text == f"{name}: bella scopa!"


def test_text_is_normalised_to_nfc() -> None:
    message = decode_client(hello("Rene\u0301e"))
    assert isinstance(message, m.Hello)
    assert message.name == "Ren\u00e9e"
    line = decode_client(chat("cafe\u0301 ?"))
    assert isinstance(line, m.Chat)
    assert line.text == "caf\u00e9 ?"
    assert m.Chat(text="e\u0301").text == "\u00e9"  # building a message normalises too


def test_lengths_count_the_normalised_text() -> None:
    decomposed = "e\u0301" * 32  # 64 code points as sent, 32 once composed
    message = decode_client(hello(decomposed))
    assert isinstance(message, m.Hello)
    assert message.name == "\u00e9" * 32
    too_long = refused(hello("e\u0301" * 33))
    assert too_long.message == "name: has 33 characters after NFC normalisation; at most 32 are allowed"
    assert decode_client(chat("x" * 200))
    assert refused(chat("x" * 201)).code == "invalid_field"


def test_names_are_trimmed_and_must_show_something() -> None:
    message = decode_client(hello("  Anna Maria  "))
    assert isinstance(message, m.Hello)
    assert message.name == "Anna Maria"
    assert refused(hello("   ")).message == "name: must not be empty"
    assert refused(hello("")).message == "name: must not be empty"
    assert refused(chat("")).message == "text: must not be empty"
    for invisible in ("\u200d", "\u200c\u200d", "\u2800", "\u2800 \u2800", " \u0301"):
        error = refused(hello(invisible))
        assert error.message == "name: needs at least one visible letter, digit, punctuation mark or symbol"
    assert refused(chat("   ")).message.startswith("text: needs at least one visible")


def test_strict_types_are_kept() -> None:
    assert refused(hello(5)).message == "name: Input should be a valid string"
    assert refused(chat(b"hi")).code == "invalid_field"
    assert refused(chat(["hi"])).code == "invalid_field"


def test_the_model_refuses_what_the_decoder_refuses() -> None:
    with pytest.raises(ValidationError, match=r"U\+001B \(a control character\)"):
        m.Hello(version=m.PROTOCOL_VERSION, name="\x1b[31mAnna")
    with pytest.raises(ValidationError, match="bidirectional"):
        m.Chat(text="\u2067x")


def test_check_raises_its_own_error_outside_pydantic() -> None:
    assert check("  Zoe\u0308 ", max_length=32, strip=True) == "Zoë"
    assert check("  hi ", max_length=5) == "  hi "  # chat keeps its spaces
    with pytest.raises(TextRefused) as caught:
        check("a\x00", max_length=5)
    assert caught.value.kind == "character_not_allowed"
    assert caught.value.context == {
        "character": "U+0000",
        "kind": "a control character",
        "sort": "control",
        "position": 2,
    }


def test_display_safe_replaces_what_the_server_refuses() -> None:
    assert display_safe("Anna") == "Anna"
    assert display_safe("\x1b[31mAnna\x07") == f"{REPLACEMENT}[31mAnna{REPLACEMENT}"
    assert display_safe("a\r\nb\tc") == f"a{REPLACEMENT}{REPLACEMENT}b{REPLACEMENT}c"
    assert display_safe("Anna\u202egnp.exe") == f"Anna{REPLACEMENT}gnp.exe"
    assert display_safe("\u2066x\u2069\u200f\u061c") == f"{REPLACEMENT}x{REPLACEMENT * 3}"
    assert display_safe("a\u200bb\ufeff\u2028") == f"a{REPLACEMENT}b{REPLACEMENT * 2}"
    assert display_safe("\x9b2J\x85") == f"{REPLACEMENT}2J{REPLACEMENT}"
    for name in PEOPLE:  # what the server accepts is shown as it is
        assert display_safe(name) == name


@given(st.text())
def test_display_safe_leaves_nothing_the_server_would_refuse(text: str) -> None:
    shown = display_safe(text)
    assert len(shown) == len(text)
    assert not any(refusal(c) for c in shown)
    assert all(unicodedata.category(c) not in ("Cc", "Zl", "Zp", "Cs") for c in shown)


@given(st.text(max_size=40))
def test_whatever_the_checker_accepts_is_displayed_unchanged(text: str) -> None:
    try:
        accepted = check(text, max_length=200)
    except TextRefused:
        return
    assert display_safe(accepted) == accepted
    assert unicodedata.is_normalized("NFC", accepted)


INVISIBLE = {
    "combining grapheme joiner": ("An\u034fna", "U+034F COMBINING GRAPHEME JOINER", 3),
    "Hangul choseong filler": ("\u115fAnna", "U+115F HANGUL CHOSEONG FILLER", 1),
    "Hangul jungseong filler": ("Anna\u1160", "U+1160 HANGUL JUNGSEONG FILLER", 5),
    "Hangul filler": ("\u3164", "U+3164 HANGUL FILLER", 1),
    "halfwidth Hangul filler": ("Bo\uffa0", "U+FFA0 HALFWIDTH HANGUL FILLER", 3),
}


@pytest.mark.parametrize(("text", "shown", "position"), INVISIBLE.values(), ids=INVISIBLE.keys())
def test_invisible_fillers_and_the_grapheme_joiner_are_refused_in_names_and_chat(
    text: str, shown: str, position: int
) -> None:
    assert refused(hello(text)).message == (
        f"name: {shown} (a character that shows nothing) at position {position} is not allowed"
    )
    assert refused(chat(f"{text} gg")).code == "invalid_field"
    assert display_safe(text) == text.translate(
        {ord(c): REPLACEMENT for c in "\u034f\u115f\u1160\u3164\uffa0"}
    )


def test_a_stack_of_combining_marks_is_refused_with_the_limit() -> None:
    zalgo = "Anna" + "\u0316\u033d\u0353" * 50  # 150 marks on the last a
    assert refused(chat(zalgo)).message == (
        "text: 150 combining marks on the character at position 4; at most 4 are allowed on one character"
    )
    assert refused(hello("B" + "\u0300" * 5)).code == "invalid_field"
    with pytest.raises(TextRefused) as caught:
        check("ok x\u0300\u200d\u0301\u200c\u0302\u0303\u0304!", max_length=200)  # joiners do not end a run
    assert caught.value.kind == "too_many_marks"
    assert caught.value.context == {"marks": 5, "max_marks": MAX_MARKS, "position": 4}
    assert Texts("sv").refusal(caught.value) == (
        "tecknet på position 4 har 5 diakritiska tecken; högst 4 är tillåtna på ett och samma tecken"
    )


def test_real_writing_keeps_its_marks() -> None:
    for text in (
        "a\u0300\u0301\u0302\u0303",  # four marks: the limit
        "Nguye\u0302\u0303n",  # Vietnamese, decomposed
        "\u05e9\u05bc\u05c1\u05b8\u05a3",  # pointed and cantillated Hebrew shin: four marks
        "\u0f67\u0fa8\u0fb1\u0f71",  # a Tibetan stack
        "\u0e01\u0e34\u0e48",  # Thai: vowel and tone mark
        "1\ufe0f\u20e3 \U0001f3f3\ufe0f\u200d\U0001f308",  # keycap and rainbow flag
    ):
        assert check(text, max_length=200) == unicodedata.normalize("NFC", text)
        assert display_safe(text) == text


def test_display_safe_replaces_marks_beyond_the_limit() -> None:
    assert display_safe("a" + "\u0301" * 6 + "b") == "a" + "\u0301" * 4 + REPLACEMENT * 2 + "b"
