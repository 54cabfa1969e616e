"""A fast first look at a value with ``jsonschema-rs``, for :mod:`bot.sandbox.conformance`.

:class:`FastCheck` answers one question: is a value valid under a ``$ref`` of the spec?
It validates with two copies of the document, compiled by ``jsonschema-rs``:

- *strict*: the spec as ``jsonschema`` reads it there, the ``int32``/``int64`` formats
  written as the ranges they check (``jsonschema-rs`` checks formats on strings only);
- *lenient*: the same, where every schema equal to the spec's snowflake schema also takes
  an integer from 0 to 2**64 - 1, as the checker's own ``type`` rule does.

Only plain JSON values may be asked about (:func:`plain_json`: dicts with string keys,
lists, strings, integers, booleans, ``None``): ``jsonschema-rs`` reads a tuple as an
array, and floats are left out (the two libraries may compare them differently). When
``jsonschema-rs`` cannot compile a schema or read the value the answer is ``False`` ("not
known valid"): the caller validates with ``jsonschema`` as before, so a ``False`` never
changes a result, only its cost.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import jsonschema_rs

#: The integer formats the checker checks, as the (inclusive) ranges it allows.
INT_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "int64": (-(2 ** 63), 2 ** 63 - 1)}
#: An integer standing for a snowflake (see the conformance module's docstring).
SNOWFLAKE_INT = {"type": "integer", "minimum": 0, "maximum": 2 ** 64 - 1}
#: Keywords whose values are data, not schemas: left as they are.
_DATA = frozenset({"const", "enum", "default", "example", "examples"})
#: Keywords (and the spec's ``schemas``) whose values map names to schemas: a name there is
#: not a keyword, even one spelt as a member of :data:`_DATA`.
_NAMED = frozenset({"properties", "patternProperties", "$defs", "definitions",
                    "dependentSchemas", "schemas"})


def escape(token: str) -> str:
    """``token`` as one step of a JSON pointer (RFC 6901: ``~`` and ``/`` escaped)."""
    return token.replace("~", "~0").replace("/", "~1")


def _parts(node: dict[str, Any]) -> list[tuple[str, Any]]:
    """The members of ``node`` that may hold schemas: each (key, value), the values of a
    :data:`_NAMED` map one by one (key ``"<keyword>/<name>"``, already escaped)."""
    out: list[tuple[str, Any]] = []
    for key, value in node.items():
        if key in _NAMED and isinstance(value, dict):
            out += ((f"{escape(key)}/{escape(name)}", sub) for name, sub in value.items())
        elif key not in _DATA:
            out.append((escape(key), value))
    return out


def plain_json(value: Any) -> bool:
    """True when ``value`` is made of dicts with string keys, lists, strings, integers,
    booleans and ``None`` only."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is dict:
        return all(type(k) is str and plain_json(v) for k, v in value.items())
    if kind is list:
        return all(plain_json(v) for v in value)
    return False


def rewrite(node: Any, snowflake: Any, lenient: bool) -> Any:
    """A copy of spec ``node`` with each integer format also written as its range, and
    (``lenient``) each schema equal to ``snowflake`` also taking an integer snowflake."""
    if isinstance(node, list):
        return [rewrite(v, snowflake, lenient) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: v if k in _DATA else rewrite(v, snowflake, lenient) for k, v in node.items()
           if k not in _NAMED or not isinstance(v, dict)}
    for k, v in node.items():
        if k in _NAMED and isinstance(v, dict):
            out[k] = {name: rewrite(sub, snowflake, lenient) for name, sub in v.items()}
    fmt = node.get("format")
    if isinstance(fmt, str) and fmt in INT_RANGES:
        low, high = INT_RANGES[fmt]
        out["allOf"] = [*out.get("allOf", []), {"minimum": low, "maximum": high}]
    if lenient and snowflake is not None and node == snowflake:
        return {"anyOf": [out, SNOWFLAKE_INT]}
    return out


class FastCheck:
    """Validators of ``document`` (registered under ``uri``) compiled by ``jsonschema-rs``,
    one per ``$ref`` and mode, on first use. The document must stay unchanged: its
    schemas are known by identity (:meth:`pointer`)."""

    def __init__(self, document: dict[str, Any], uri: str, snowflake: Any):
        self.uri = uri
        self._registries = {
            lenient: jsonschema_rs.Registry([(uri, rewrite(document, snowflake, lenient))])
            for lenient in (False, True)}
        self._validators: dict[tuple[str, bool], Any] = {}
        # id() of each schema object of ``document`` -> its ``#/...`` reference.
        self._pointers: dict[int, str] = {}
        stack: list[tuple[Any, str]] = [(document, "#")]
        while stack:
            node, where = stack.pop()
            if isinstance(node, dict):
                self._pointers[id(node)] = where
                stack += ((v, f"{where}/{step}") for step, v in _parts(node))
            elif isinstance(node, list):
                stack += ((v, f"{where}/{i}") for i, v in enumerate(node))

    def pointer(self, schema: Any) -> str | None:
        """The ``#/...`` reference of ``schema``, an object of the document (not a copy),
        or ``None``."""
        return self._pointers.get(id(schema))

    def valid(self, ref: str, instance: Any, *, lenient: bool) -> bool:
        """True when ``instance``, plain JSON (:func:`plain_json`: the caller checks),
        is valid under ``ref`` (``#/...`` or ``<uri>#/...``) in the strict or lenient
        copy; False when not, or not known."""
        key = (ref, lenient)
        if key not in self._validators:
            self._validators[key] = self._compile(ref, lenient)
        validator = self._validators[key]
        if validator is None:
            return False
        try:
            return bool(validator.is_valid(instance))
        except Exception:  # a value jsonschema-rs cannot read: not known valid
            return False

    def _compile(self, ref: str, lenient: bool) -> Any:
        """The validator of ``ref`` (its pointer percent-encoded, as a URI's fragment
        is), or ``None`` for a reference outside the document or one ``jsonschema-rs``
        cannot compile."""
        where, _, pointer = (self.uri + ref if ref.startswith("#") else ref).partition("#")
        if where != self.uri:
            return None
        target = f"{self.uri}#{urllib.parse.quote(urllib.parse.unquote(pointer), safe='/~')}"
        try:
            return jsonschema_rs.Draft202012Validator(
                {"$ref": target}, registry=self._registries[lenient], validate_formats=False)
        except Exception:  # noqa: BLE001 - a schema it cannot read (a pattern): not known
            return None
