"""The rules texts and message catalogues as the server serves them: over the protocol and over HTTP."""

from __future__ import annotations

import asyncio
import gzip
import json
import urllib.error
import urllib.request

import pytest

from cardavia.games.rules import LANGUAGES, rules_text
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import own_messages
from cardavia.server.app import CardaviaServer
from tests.support.clients import client


async def test_rules_come_in_the_language_of_the_hello_unless_another_is_asked(url: str) -> None:
    ola = await client(url, "Ola")
    await ola.send(ola.req.hello("Ola", lang="pl"))
    await ola.expect(m.Welcome)
    await ola.send(ola.req.get_rules("schnapsen"))
    polish: m.Rules = await ola.expect(m.Rules)
    assert (polish.id, polish.game, polish.lang) == (2, "schnapsen", "pl")
    assert polish.markdown == rules_text("schnapsen", "pl").markdown
    await ola.send(ola.req.get_rules("doudizhu", "es"))
    spanish: m.Rules = await ola.expect(m.Rules)
    assert spanish.lang == "es"
    assert "terrateniente" in spanish.markdown


def _get(server: CardaviaServer, path: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=5) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


async def test_rules_pages_are_served_over_http_on_the_same_port(server: CardaviaServer) -> None:
    status, headers, body = await asyncio.to_thread(_get, server, "/rules/scopa?lang=sv")
    assert status == 200
    assert headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert headers["Content-Language"] == "sv"
    assert body == rules_text("scopa", "sv").markdown
    status, headers, body = await asyncio.to_thread(_get, server, "/rules/briscola?lang=de")
    assert (status, headers["Content-Language"]) == (200, "en")  # a language Cardavia does not speak
    assert body.startswith("# Briscola")


@pytest.mark.parametrize("path", ["/rules/poker", "/rules/", "/rules/../etc/passwd"])
async def test_a_rules_page_of_no_game_is_not_found(server: CardaviaServer, path: str) -> None:
    status, _, _ = await asyncio.to_thread(_get, server, path)
    assert status == 404


async def test_a_language_catalogue_is_served_as_json_with_english_filling_its_gaps(
    server: CardaviaServer,
) -> None:
    status, headers, body = await asyncio.to_thread(_get, server, "/i18n/pl.json")
    assert status == 200
    assert headers["Content-Type"] == "application/json"  # UTF-8 by definition (RFC 8259)
    assert headers["Content-Language"] == "pl"
    served = json.loads(body)
    assert (served["lang"], served["fallback"]) == ("pl", "en")
    assert served["languages"] == list(LANGUAGES)
    english = own_messages("en")
    assert set(served["messages"]) == set(english)  # every key, none a raw key on screen
    polish = own_messages("pl")
    for key, text in served["messages"].items():
        assert text == polish.get(key, english[key])
    assert served["messages"]["errors.room_full"] == polish["errors.room_full"] != english["errors.room_full"]


@pytest.mark.parametrize("path", ["/i18n/de.json", "/i18n/pl-PL.json", "/i18n/.json", "/i18n/../en.json"])
async def test_a_catalogue_of_no_language_of_ours_is_not_found(server: CardaviaServer, path: str) -> None:
    status, _, body = await asyncio.to_thread(_get, server, path)
    assert status == 404
    assert "languages: en, it, sv, nb, es, pl" in body


async def test_a_catalogue_comes_gzipped_and_a_page_that_has_it_gets_a_304(server: CardaviaServer) -> None:
    def fetch(headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(f"http://127.0.0.1:{server.port}/i18n/it.json", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    status, headers, body = await asyncio.to_thread(fetch, {"Accept-Encoding": "gzip"})
    assert (status, headers["Content-Encoding"]) == (200, "gzip")
    assert json.loads(gzip.decompress(body))["lang"] == "it"
    again = {"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]}
    status, _, body = await asyncio.to_thread(fetch, again)
    assert (status, body) == (304, b"")
