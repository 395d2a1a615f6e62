"""Text one player writes for others to read: player names and chat lines.

Names and chat are the only free text a client sends that other people's
screens show, so they are where a hostile client would put a terminal escape
sequence (ESC ``[2J`` clears a screen, OSC 8 makes a link), a bell, a NUL, a
line break that forges a log line of its own, or a bidirectional override that
makes ``"Anna\\u202egnirts"`` read backwards and reorders whatever a client
prints after it. The server refuses such text with ``invalid_field`` and a
message naming the character, rather than cleaning it: a client that sends
it is broken or hostile, and a quiet change would show the room something its
sender never saw.

Refused, anywhere in the text:

- control characters (category Cc: C0 controls with TAB, CR and LF, DEL, C1
  controls): a name or a chat line is one line of plain text;
- bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E,
  U+2066 to U+2069): they change the order in which the rest of a line is shown;
- every other format character (category Cf: U+200B zero width space, U+2060
  word joiner, U+FEFF, U+00AD soft hyphen, tag characters…) except U+200C ZERO
  WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER, which Persian and Indic
  writing and emoji sequences need. Format characters draw nothing, so they
  would let two names that look the same differ, or hide text in a line;
- line and paragraph separators (U+2028, U+2029) and lone surrogates;
- characters that draw nothing although Unicode does not file them as format
  characters: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), which
  modern Hangul, composed to NFC, never needs, and U+034F COMBINING GRAPHEME
  JOINER. Like format characters they would let two names that look the same
  differ, or make a name look empty.

Refused too: more than ``MAX_MARKS`` (4) combining marks (category M) on one
base character, counted across the joiners U+200C/U+200D between them. No
writing needs more on one letter (Vietnamese, Thai, Hindi, Tibetan stacks and
pointed Hebrew use at most 3 or 4, and NFC composes most of them into the
letter); a long run is "Zalgo" text, which paints over the lines above and
below it.

Accepted text is normalised to NFC, so the same name typed as a precomposed
``é`` or as ``e`` with a combining accent is one string, and limits count
code points of the normalised text. Names also lose leading and trailing
whitespace (after the check: a control character at either end is refused,
not trimmed). The text must hold at least one visible character (a letter,
digit, punctuation mark or symbol, not counting the blank Braille pattern,
which draws nothing but is allowed inside Braille text): a name of spaces, joiners or
fillers would be an invisible player.

``display_safe`` is the client's side of the same rule: whatever a server
sends (an old server that let such text through, or a hostile one), a client
shows nothing the server would have refused.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Final

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

BIDI_FORMATTING: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Arabic letter mark, the directional marks, embeddings, overrides and isolates (UAX #9)."""

JOINERS: Final = frozenset("\u200c\u200d")
"""The format characters writing needs: ZERO WIDTH NON-JOINER (Persian, Indic scripts) and
ZERO WIDTH JOINER (emoji sequences such as a family, Indic conjuncts)."""

BLANK: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing: the Hangul fillers and the blank Braille pattern,
a well-known way to an empty-looking name."""

INVISIBLE: Final = frozenset("\u034f\u115f\u1160\u3164\uffa0")
"""Refused characters that Unicode files as letters or marks although they draw nothing:
U+034F COMBINING GRAPHEME JOINER and the Hangul fillers."""

MAX_MARKS: Final = 4
"""The most combining marks (category M) one base character may carry."""

REPLACEMENT: Final = "\ufffd"
"""What ``display_safe`` shows in place of a refused character."""

_VISIBLE_CATEGORIES: Final = frozenset("LNPS")


_SORTS: Final = {
    "control": "a control character",
    "bidi": "a bidirectional formatting character",
    "format": "an invisible format character",
    "separator": "a line or paragraph separator",
    "surrogate": "a lone surrogate",
    "invisible": "a character that shows nothing",
}
"""The sorts of refused character, by the short name clients' catalogues select on."""


def refused_sort(char: str) -> str | None:
    """The sort of refused character ``char`` is (a key of ``_SORTS``), or None if it is allowed."""
    category = unicodedata.category(char)
    if category == "Cc":
        return "control"
    if char in BIDI_FORMATTING:
        return "bidi"
    if category == "Cf" and char not in JOINERS:
        return "format"
    if category in ("Zl", "Zp"):
        return "separator"
    if category == "Cs":
        return "surrogate"
    if char in INVISIBLE:
        return "invisible"
    return None


def refusal(char: str) -> str | None:
    """What kind of refused character ``char`` is (for the error message), or None if it is allowed."""
    sort = refused_sort(char)
    return None if sort is None else _SORTS[sort]


def describe(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``; control characters have no name: ``U+001B``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


class TextRefused(ValueError):
    """Text a person may not show others; ``kind`` is a pydantic-style error type, ``reason`` says
    why in words, naming the character by code point when one character is the cause."""

    def __init__(self, kind: str, reason: str, context: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.context = kind, reason, context or {}


def check(text: str, *, max_length: int, strip: bool = False) -> str:
    """``text`` normalised to NFC (and stripped, for names), or ``TextRefused``.

    The order is the order a reader of the error wants: a refused character
    first (whatever the length, it is the real problem), then the length of
    the normalised text, then whether anything at all would be seen.
    """
    text = unicodedata.normalize("NFC", text)
    for position, char in enumerate(text):
        sort = refused_sort(char)
        if sort is not None:
            shown, kind = describe(char), _SORTS[sort]
            raise TextRefused(
                "character_not_allowed",
                f"{shown} ({kind}) at position {position + 1} is not allowed",
                {"character": shown, "kind": kind, "sort": sort, "position": position + 1},
            )
    _check_marks(text)
    if strip:
        text = text.strip()
    if not text:
        raise TextRefused("string_too_short", "must not be empty", {"min_length": 1})
    if len(text) > max_length:
        raise TextRefused(
            "string_too_long",
            f"has {len(text)} characters after NFC normalisation; at most {max_length} are allowed",
            {"max_length": max_length, "length": len(text)},
        )
    if not any(unicodedata.category(c)[0] in _VISIBLE_CATEGORIES and c not in BLANK for c in text):
        raise TextRefused(
            "nothing_visible", "needs at least one visible letter, digit, punctuation mark or symbol"
        )
    return text


def _mark_runs(text: str) -> list[int]:
    """For each character of ``text``: how many combining marks its base carries up to and
    including it (0 for anything not a mark). Joiners between marks do not end the run."""
    runs, run = [], 0
    for char in text:
        if unicodedata.category(char)[0] == "M":
            run += 1
        elif char not in JOINERS:
            run = 0
        runs.append(run if unicodedata.category(char)[0] == "M" else 0)
    return runs


def _check_marks(text: str) -> None:
    """``TextRefused`` when one base character carries more than ``MAX_MARKS`` combining marks;
    the position is the base's (the first character's, when the text starts with marks)."""
    base = marks = 0
    for index, char in enumerate(f"{text} "):  # the space ends the last run
        if unicodedata.category(char)[0] == "M":
            marks += 1
        elif char not in JOINERS:
            if marks > MAX_MARKS:
                raise TextRefused(
                    "too_many_marks",
                    f"{marks} combining marks on the character at position {base + 1}; "
                    f"at most {MAX_MARKS} are allowed on one character",
                    {"marks": marks, "max_marks": MAX_MARKS, "position": base + 1},
                )
            base, marks = index, 0


def display_safe(text: str) -> str:
    """``text`` with every character the server would refuse replaced by U+FFFD.

    For clients showing what others wrote: even text from an old or hostile
    server then cannot move a terminal's cursor, ring its bell, open a link,
    break a line or reorder the rest of a line. The replacement stays visible
    (rather than dropping the character) so that two names differing only in
    such characters still look different. Marks beyond ``MAX_MARKS`` on one
    character are replaced too, so a stack of them shows as a row of U+FFFD
    rather than painting over the lines around it.
    """
    runs = _mark_runs(text)
    if text.isprintable() and not INVISIBLE.intersection(text) and max(runs, default=0) <= MAX_MARKS:
        return text  # the usual case: no Cc, Cf, Zl, Zp or Cs at all (nor any Z but space)
    return "".join(
        REPLACEMENT if refusal(c) is not None or run > MAX_MARKS else c
        for c, run in zip(text, runs, strict=True)
    )


@dataclass(frozen=True, slots=True)
class PlayerText:
    """Pydantic metadata for a string people write for others: ``Annotated[str, PlayerText(32)]``.

    Validates with ``check`` after the (strict) string check. The JSON Schema
    keeps the length limits, which a schema validator applies to the text as
    sent; its description says the server counts the normalised text.
    """

    max_length: int
    strip: bool = False

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._validate, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        description = (
            "Normalised to NFC (the length counts the normalised text). Control characters, "
            "bidirectional formatting characters and invisible format characters other than "
            "U+200C/U+200D are refused, so are the Hangul fillers and U+034F and more than "
            f"{MAX_MARKS} combining marks on one character; the text needs one visible character."
        )
        if self.strip:
            description += " Leading and trailing whitespace is removed."
        json_schema.update(minLength=1, maxLength=self.max_length, description=description)
        return json_schema

    def _validate(self, text: str) -> str:
        try:
            return check(text, max_length=self.max_length, strip=self.strip)
        except TextRefused as exc:
            raise PydanticCustomError(exc.kind, exc.reason, exc.context) from None
