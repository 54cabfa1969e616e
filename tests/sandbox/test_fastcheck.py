"""The conformance checker's first look with jsonschema-rs (``bot.sandbox.fastcheck``): on
a small made-up spec, what it finds valid in its strict and lenient copies."""

from __future__ import annotations

import pytest

from bot.sandbox.fastcheck import FastCheck, plain_json

URI = "https://spec.example/openapi.json"
SNOWFLAKE = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}
DOCUMENT = {"components": {"schemas": {
    "SnowflakeType": SNOWFLAKE,
    "Thing": {"type": "object", "additionalProperties": False, "properties": {
        "count": {"type": "integer", "format": "int32"},
        "big": {"type": "integer", "format": "int64"},
        "default": {"type": "integer", "format": "int32"},  # a property named as a keyword
        "id": {"$ref": "#/components/schemas/SnowflakeType"},
        "flag": {"type": "boolean"}}},
    "Odd": {"type": "string", "pattern": "^a\\Z"},  # Python's re reads it; Rust's does not
}}}
THING = "#/components/schemas/Thing"


@pytest.fixture(scope="module")
def check() -> FastCheck:
    return FastCheck(DOCUMENT, URI, DOCUMENT["components"]["schemas"]["SnowflakeType"])


@pytest.mark.parametrize(("value", "valid"), [
    ({"count": 2**31 - 1}, True), ({"count": 2**31}, False),
    ({"count": -(2**31)}, True), ({"count": -(2**31) - 1}, False),
    ({"big": 2**63 - 1}, True), ({"big": 2**63}, False),
    ({"default": 5}, True), ({"default": 2**40}, False),
    ({"count": True}, False), ({"flag": 1}, False), ({"flag": False}, True),
    ({"id": "123"}, True), ({"id": "0123"}, False), ({"id": 123}, False),
    ({"other": 1}, False),
])
def test_the_strict_copy_checks_integer_formats_as_ranges(check, value, valid):
    assert check.valid(THING, value, lenient=False) is valid


@pytest.mark.parametrize(("value", "valid"), [
    ({"id": 123}, True), ({"id": 0}, True), ({"id": 2**64 - 1}, True),
    ({"id": 2**64}, False), ({"id": -1}, False), ({"id": "123"}, True),
    ({"count": 2**31}, False),
])
def test_the_lenient_copy_also_takes_integer_snowflakes(check, value, valid):
    assert check.valid(THING, value, lenient=True) is valid


def test_what_it_cannot_compile_or_find_is_not_known_valid(check):
    assert check.valid("#/components/schemas/Odd", "a", lenient=False) is False
    assert check.valid("https://elsewhere.example/spec.json#/x", {}, lenient=False) is False
    assert check.valid(f"{URI}{THING}", {"count": 1}, lenient=False) is True


def test_pointers_name_the_documents_own_schemas(check):
    schemas = DOCUMENT["components"]["schemas"]
    assert check.pointer(schemas["Thing"]["properties"]["default"]) == (
        "#/components/schemas/Thing/properties/default")
    assert check.pointer(dict(schemas["Thing"])) is None  # a copy is not the document's


def test_plain_json_is_dicts_lists_strings_integers_booleans_and_none():
    assert plain_json({"a": [1, "x", None, True, {"b": []}]}) is True
    assert [plain_json(v) for v in ({"a": 1.5}, (1,), {1: "x"}, {"a": b"x"})] == [
        False, False, False, False]
