"""The checked-in schema documents match the code, and every example validates."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest

from cardavia.protocol import messages as m
from cardavia.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from cardavia.protocol.schema import ANSWERS, NEVER_NUMBERED, SCHEMA_FILES, asyncapi, json_schema, render

PROTOCOL_DIR = Path(__file__).resolve().parents[2] / "protocol"


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_checked_in_schema_matches_the_code(name: str) -> None:
    on_disk = (PROTOCOL_DIR / "schema" / name).read_text(encoding="utf-8")
    assert on_disk == render()[name], "run `cardavia schema` and commit protocol/schema/"


def test_json_schema_is_valid_and_every_example_fits() -> None:
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for direction, examples in (("ClientMessage", CLIENT_EXAMPLES), ("ServerMessage", SERVER_EXAMPLES)):
        validator = jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{direction}"})
        for example in examples:
            validator.validate(example.model_dump(mode="json"))


def test_schema_refuses_what_the_decoder_refuses() -> None:
    schema = json_schema()
    validator = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/ClientMessage"})
    assert not validator.is_valid({"type": "resync", "extra": 1})
    assert not validator.is_valid({"type": "hello", "version": 1, "name": ""})


def test_asyncapi_document_shape() -> None:
    doc = asyncapi()
    assert doc["asyncapi"] == "3.0.0"
    names = set(doc["components"]["messages"])
    assert names == {t.model_fields["type"].default for t in (*m.CLIENT_TYPES, *m.SERVER_TYPES)}
    refs = re.findall(r'"\$ref": "#/components/schemas/(\w+)"', str(doc).replace("'", '"'))
    assert refs
    assert set(refs) <= set(doc["components"]["schemas"])


def test_protocol_readme_describes_every_message() -> None:
    readme = (PROTOCOL_DIR / "README.md").read_text(encoding="utf-8")
    for model in (*m.CLIENT_TYPES, *m.SERVER_TYPES):
        assert f"`{model.model_fields['type'].default}`" in readme, model.__name__


def test_asyncapi_says_what_answers_each_request_and_which_messages_never_carry_an_id() -> None:
    messages = asyncapi()["components"]["messages"]
    server_names = {t.model_fields["type"].default for t in m.SERVER_TYPES}
    for model in m.CLIENT_TYPES:
        name = model.model_fields["type"].default
        reply, numbered = ANSWERS[name]
        assert reply in server_names
        assert messages[name]["description"].startswith(f"Answer: `{reply}`"), name
        assert (reply in NEVER_NUMBERED) is not numbered, name
    for name in NEVER_NUMBERED:
        assert messages[name]["examples"][0]["payload"]["id"] is None, name
