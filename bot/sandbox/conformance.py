"""Check recorded requests against Discord's published OpenAPI spec.

Discord publishes its HTTP API as an OpenAPI 3.1 document (discord/discord-api-spec,
``openapi.json``). :class:`Spec` loads it and checks each :class:`~bot.sandbox.RecordedRequest`:

- the route: method + path match one of the spec's path templates (literal segments such
  as ``@me`` and ``@original`` win over a ``{param}`` in the same place), and every path
  parameter's value is valid under its schema (a ``{message_id}`` must be a snowflake);
- the query: every key is a query parameter the operation declares, and its value (a
  string in the URL, read as its parameter's type: Discord's documented boolean query
  strings ``True``/``true``/``1``, ``False``/``false``/``0``; digits for a number) is valid
  under its schema;
- the body: a JSON body is validated against the operation's ``application/json`` schema;
  a multipart body's ``payload_json`` against its ``multipart/form-data`` schema, and each
  file part's name against the parts that schema declares (or, where it declares none,
  Discord's documented ``files[n]``, n 0-9). A body where the operation takes none, or
  none where it requires one, is a violation too.

OpenAPI 3.1 schemas are JSON Schema 2020-12: they are validated as written with
``jsonschema`` (``$ref`` into ``#/components/schemas`` resolved by a ``referencing``
registry holding the whole document). Two things are worth knowing. Discord marks some
unions ``"x-discord-union": "oneOf"`` but writes them as ``anyOf``: they are checked as
``anyOf``, since their branches overlap (every field optional) and a body may fit several.
Snowflakes: the spec types every ID as a decimal string, but discord.py sends some as JSON
integers (``recipient_id`` when opening a DM; ``attachments[].id``, the index of the file
part, from ``File.to_dict``, on every upload), and Discord accepts them: the spec's type is
stricter than Discord's parser here, so they are reported, not failed. Where, and only where, the
schema asks for a snowflake (``components/schemas/SnowflakeType``) and the body holds an
integer in the snowflake range (0 to 2**64 - 1), the integer passes the ``type`` check (it
is a snowflake, written as a number); each such place is counted in
:attr:`Report.integer_snowflakes`, so nothing is hidden.
``format`` is checked for the integer formats the spec uses (``int32``, ``int64``: range);
other formats (``uri``, ``date-time``, ``snowflake``, ``nonce``) stay annotations, as 2020-12
makes them by default (snowflakes carry a ``pattern`` anyway).

``jsonschema-rs`` looks first (:mod:`bot.sandbox.fastcheck`): a value it finds valid
under a ``$ref``, or under a schema holding an ``anyOf``/``oneOf``, as the validator reads
it, is not validated again, since it has no errors; anything else is validated as above.

Usage::

    spec = Spec.load(find_spec())          # raises FileNotFoundError when absent
    report = spec.check(world.requests)
    assert not report.violations, report.summary()
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .fastcheck import FastCheck, escape, plain_json

#: Environment variable naming the spec file; it overrides the search in :func:`find_spec`.
SPEC_ENV = "HERDBOT_DISCORD_SPEC"
#: Where the spec lives relative to a directory holding it (``<dir>/shared/...``).
SPEC_RELATIVE = Path("shared") / "discord-api-spec" / "openapi.json"
#: The URI the spec document is registered under; its ``#/...`` references resolve in it.
SPEC_URI = "urn:discord-openapi"
#: Discord's documented name for the n-th file part of a multipart body (n 0-9).
FILE_PART = re.compile(r"^files\[[0-9]\]$")
_MARK = "an integer where a snowflake string is expected"
_TYPE = Draft202012Validator.VALIDATORS["type"]
_REF = Draft202012Validator.VALIDATORS["$ref"]
_AS_JSON = json.JSONEncoder(default=repr).encode  # json.dumps(value, default=repr)
_INDEX = re.compile(r"\[[0-9]+\]")
#: Stands for integers read as snowflakes in a value validated by :class:`FastCheck`.
_FOUND = -1
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_REPO = Path(__file__).resolve().parents[2]


#: How many folders above the repo :func:`spec_candidates` looks in.
SPEC_LEVELS = 3


def spec_candidates(repo: Path = _REPO) -> list[Path]:
    """Where :func:`find_spec` looks, in order: ``$HERDBOT_DISCORD_SPEC`` when set (then
    only there), else ``<repo>/../shared/discord-api-spec/openapi.json`` and the same
    ``shared/...`` path under the next :data:`SPEC_LEVELS` - 1 folders above (so a git
    worktree nested below the main checkout's parent finds it too), never higher."""
    env = os.environ.get(SPEC_ENV)
    if env:
        return [Path(env)]
    return [parent / SPEC_RELATIVE for parent in repo.parents[:SPEC_LEVELS]]


def find_spec(repo: Path = _REPO) -> Path | None:
    """The first existing file of :func:`spec_candidates`, or ``None``."""
    return next((p for p in spec_candidates(repo) if p.is_file()), None)


@dataclass(frozen=True)
class Violation:
    """One way a request breaks the spec.

    ``where`` is ``"route"``, ``"path"``, ``"query"``, ``"body"`` or ``"files"``;
    ``field`` the JSON path of the offending value (``$.data.components[0]``), or the
    parameter/part name; ``message`` jsonschema's (or our) explanation.
    """

    method: str
    path: str
    where: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}: {self.where} {self.field}: {self.message}"


@dataclass
class Report:
    """What :meth:`Spec.check` found.

    ``checked``: requests checked; ``with_body``: those of them that carried a body;
    ``routes``: ``"POST /channels/{channel_id}/messages"`` -> count (the raw path when no
    template matched); ``violations``; ``integer_snowflakes``: ``"POST /users/@me/channels
    $.recipient_id"`` -> how often an ID came as a JSON integer (see the module doc).
    """

    checked: int = 0
    with_body: int = 0
    routes: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    integer_snowflakes: Counter[str] = field(default_factory=Counter)

    def summary(self, limit: int = 3) -> str:
        """The counts, then the first ``limit`` violations and how many there are."""
        lines = [f"{self.checked} requests checked ({self.with_body} with a body) over "
                 f"{len(self.routes)} routes; {len(self.violations)} violation(s)"]
        if self.integer_snowflakes:
            lines.append("IDs sent as JSON integers: " + ", ".join(
                f"{k} x{n}" for k, n in sorted(self.integer_snowflakes.items())))
        lines += [f"  {v}" for v in self.violations[:limit]]
        if len(self.violations) > limit:
            lines.append(f"  ... and {len(self.violations) - limit} more")
        return "\n".join(lines)


@dataclass(frozen=True)
class Operation:
    """One method of one spec path template."""

    method: str  # upper case
    template: str
    regex: re.Pattern[str]
    specificity: tuple[int, ...]  # 1 for a literal segment, 0 for a {param}; higher wins
    pointer: str  # JSON pointer of the operation in the document
    params: dict[tuple[str, str], str]  # (in, name) -> JSON pointer of its schema
    body: dict[str, str]  # content type -> JSON pointer of its schema
    body_required: bool


def _format_checker() -> FormatChecker:
    checker = FormatChecker(formats=())

    @checker.checks("int32")
    def _int32(value: object) -> bool:
        return not isinstance(value, int) or -(2 ** 31) <= value < 2 ** 31

    @checker.checks("int64")
    def _int64(value: object) -> bool:
        return not isinstance(value, int) or -(2 ** 63) <= value < 2 ** 63

    return checker


#: Discord's documented boolean query strings ("Boolean Query Strings" in its reference).
QUERY_TRUE = ("True", "true", "1")
QUERY_FALSE = ("False", "false", "0")


def _from_query(schema: Any, value: str) -> Any:
    """A query string ``value`` as the JSON value its parameter ``schema`` (``$ref``
    already followed) describes: for a boolean, ``True``/``true``/``1`` and
    ``False``/``false``/``0`` as Discord documents; for an integer or number, the number
    the text spells; otherwise (or when it spells none) the text itself, which then
    fails the schema."""
    kinds = schema.get("type") if isinstance(schema, dict) else None
    kinds = [kinds] if isinstance(kinds, str) else (kinds or [])
    if "boolean" in kinds and value in QUERY_TRUE + QUERY_FALSE:
        return value in QUERY_TRUE
    if ("integer" in kinds or "number" in kinds) and re.fullmatch(r"-?[0-9]+", value):
        return int(value)
    if "number" in kinds and re.fullmatch(r"-?[0-9]+\.[0-9]+", value):
        return float(value)
    return value


def _discriminated(errors: list[ValidationError]) -> bool:
    """True when a union branch failed on what tells the branches apart: the JSON type of
    the value itself (``null`` vs an object) or its ``type`` field (the component or
    callback type)."""
    for e in errors:
        where = list(e.relative_path)
        if (not where and e.validator == "type") or (
                where == ["type"] and e.validator in ("const", "enum", "type")):
            return True
    return False


def _narrow(error: ValidationError) -> ValidationError:
    """The error that explains a failed ``anyOf``/``oneOf``: within the branch the value
    was meant for (its ``type`` matched; among several, the one that got deepest before
    failing), recursively; ``error`` itself when no branch stands out."""
    while error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for e in error.context:
            e.parent = error  # a shared context (see _clone) hangs under this error now
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        meant = [b for b in branches.values() if not _discriminated(b)]
        if not meant:
            break
        chosen = max(meant, key=lambda b: max(len(e.absolute_path) for e in b))
        error = max(chosen, key=lambda e: len(e.absolute_path))
    return error


def _clone(error: ValidationError) -> ValidationError:
    """A copy of ``error`` whose paths a caller may change (jsonschema prepends the outer
    path to every error it passes up, and to those only). Its ``context`` is shared with
    ``error``: nothing changes a context's errors, but their ``parent`` (which their
    absolute paths follow) is set again by whoever walks down to them (:func:`_narrow`,
    :meth:`Spec._int_paths`)."""
    new = error.__class__.__new__(error.__class__)
    new.__dict__.update(error.__dict__)
    new.__cause__ = error.__cause__
    new.path = new.relative_path = deque(error.path)
    new.schema_path = new.relative_schema_path = deque(error.schema_path)
    return new


def _narrowed(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """Each top-level error, narrowed to the branch of an anyOf/oneOf the value was for."""
    for error in errors:
        yield _narrow(error)


def _describe(error: ValidationError, limit: int = 60) -> str:
    """jsonschema's message with the offending value's repr cut to ``limit`` characters
    (a 2,001-character content would bury the reason), its length added when cut."""
    message, shown = error.message, repr(error.instance)
    if len(shown) > limit and message.startswith(shown):
        size = f" ({len(error.instance)} long)" if isinstance(error.instance, str | list | dict) \
            else ""
        message = shown[:limit] + "..." + size + message[len(shown):]
    return message


class Spec:
    """Discord's OpenAPI document, indexed by route, with validators compiled on first use.

    Build it with :meth:`load` (cached per file). :meth:`match` finds an operation,
    :meth:`check_request` / :meth:`check` validate recorded requests.
    """

    def __init__(self, document: dict[str, Any]):
        self.document = document
        resource: Resource[Any] = Resource.from_contents(document,
                                                         default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.format_checker = _format_checker()
        self.operations: list[Operation] = []
        for template, item in document.get("paths", {}).items():
            shared = item.get("parameters", [])
            segments = template.strip("/").split("/")
            regex = re.compile("^/" + "/".join(
                "([^/]+)" if s.startswith("{") and s.endswith("}") else re.escape(s)
                for s in segments) + "$")
            specificity = tuple(0 if s.startswith("{") else 1 for s in segments)
            for method in METHODS:
                op = item.get(method)
                if op is None:
                    continue
                base = f"/paths/{escape(template)}"
                params: dict[tuple[str, str], str] = {}
                for where, plist in ((f"{base}/parameters", shared),
                                     (f"{base}/{method}/parameters", op.get("parameters", []))):
                    for i, p in enumerate(plist):
                        params[(p["in"], p["name"])] = f"{where}/{i}/schema"
                rb = op.get("requestBody") or {}
                body = {ctype: f"{base}/{method}/requestBody/content/{escape(ctype)}/schema"
                        for ctype in rb.get("content", {})}
                self.operations.append(Operation(
                    method.upper(), template, regex, specificity, f"{base}/{method}",
                    params, body, bool(rb.get("required"))))
        self._validators: dict[str, Draft202012Validator] = {}
        # (schema pointer, canonical body) -> (errors, integer snowflake paths): a body
        # sent many times (a deferral, an unchanged panel) is validated once.
        self._bodies: dict[tuple[str, str], tuple[tuple[tuple[str, str], ...],
                                                  tuple[str, ...]]] = {}
        self._ints: list[int] | None = None  # integers read as snowflakes, while validating
        self._plain = False  # whether the value validated now is plain JSON (fastcheck)
        spec = self

        def is_int_snowflake(types: Any, instance: Any, schema: Any) -> bool:
            return (types == "string" and type(instance) is int and 0 <= instance < 2 ** 64
                    and (schema is spec.snowflake or schema == spec.snowflake))

        def type_(validator: Any, types: Any, instance: Any, schema: Any) -> Any:
            if is_int_snowflake(types, instance, schema):
                if spec._ints is not None:
                    spec._ints.append(instance)
                return iter(())
            return _TYPE(validator, types, instance, schema)

        def marked(validator: Any, types: Any, instance: Any, schema: Any) -> Any:
            if is_int_snowflake(types, instance, schema):
                return iter([ValidationError(_MARK)])
            return _TYPE(validator, types, instance, schema)

        # (validator class, $ref, the value as JSON) -> [(integers read as snowflakes
        # before the error, the error)] and the integers after the last: a value met again
        # (a button, a union branch tried on it) is not validated again; its errors come
        # back as fresh copies, its integers as they came, in the same order.
        self._refs: dict[tuple[Any, str, str], tuple[list[tuple[list[int], Any]], list[int]]] = {}
        #: The spec's snowflake schema (``components/schemas/SnowflakeType``), if any.
        self.snowflake: Any = document.get("components", {}).get("schemas", {}).get(
            "SnowflakeType")
        #: ``jsonschema-rs``'s first look: a value it finds valid is not validated again.
        self._fast = FastCheck(document, SPEC_URI, self.snowflake)

        def known_valid(validator: Any, ref: str, instance: Any) -> list[int] | None:
            # None unless jsonschema-rs finds ``instance`` valid under ``ref`` as
            # ``validator`` reads it (so it has no errors); then the integers to count:
            # where the plain validator read one as a snowflake (the strict copy refuses
            # the value), _FOUND, so that their paths are looked up as when counted.
            if not spec._plain:
                return None
            if type(validator) is spec._marking:
                return [] if spec._fast.valid(ref, instance, lenient=False) else None
            if not spec._fast.valid(ref, instance, lenient=True):
                return None
            return [] if spec._fast.valid(ref, instance, lenient=False) else [_FOUND]

        def union(keyword: str) -> Any:
            check = Draft202012Validator.VALIDATORS[keyword]

            def fast_union(validator: Any, branches: Any, instance: Any, schema: Any) -> Any:
                # A value valid under the whole schema holding the union passes the union:
                # its branches are not tried one by one.
                pointer = spec._fast.pointer(schema)
                ints = None if pointer is None else known_valid(validator, pointer, instance)
                if ints is None:
                    yield from check(validator, branches, instance, schema)
                elif spec._ints is not None:
                    spec._ints += ints

            return fast_union

        def ref(validator: Any, ref: str, instance: Any, schema: Any) -> Any:
            key = (type(validator), ref, _AS_JSON(instance))
            found = spec._refs.get(key)
            if found is None and key[0] is spec._marking:
                # The marking class differs from the plain one only where an integer is
                # read as a snowflake: a value the plain one met none in has its errors.
                plain = spec._refs.get((spec._cls, ref, key[2]))
                if plain is not None and not plain[1] and not any(i for i, _ in plain[0]):
                    found = plain
            if found is None and len(spec._refs) > 5_000:
                spec._refs.clear()
            if found is None:
                ints = known_valid(validator, ref, instance)
                if ints is not None:
                    found = spec._refs[key] = ([], ints)
            if found is None:
                outer, spec._ints, steps = spec._ints, [], []
                try:
                    for error in _REF(validator, ref, instance, schema):
                        steps.append((spec._ints, _clone(error)))
                        spec._ints = []
                    found = spec._refs[key] = (steps, spec._ints)
                finally:
                    spec._ints = outer
            for ints, error in found[0]:
                if spec._ints is not None:
                    spec._ints += ints
                yield _clone(error)
            if spec._ints is not None:
                spec._ints += found[1]

        unions = {keyword: union(keyword) for keyword in ("anyOf", "oneOf")}
        self._cls = validators.extend(Draft202012Validator,
                                      {"type": type_, "$ref": ref, **unions})
        # Same, but an integer snowflake is reported, so its JSON path is known.
        self._marking = validators.extend(Draft202012Validator,
                                          {"type": marked, "$ref": ref, **unions})

    @classmethod
    def load(cls, path: Path | str) -> Spec:
        """The spec at ``path`` (parsed and indexed once per process; raises
        ``FileNotFoundError`` when it is absent)."""
        return _load(str(Path(path).resolve()))

    @property
    def version(self) -> str:
        """The document's ``info.version``."""
        return str(self.document.get("info", {}).get("version", "?"))

    def validator(self, pointer: str) -> Draft202012Validator:
        """A 2020-12 validator for the schema at JSON ``pointer`` in the document."""
        v = self._validators.get(pointer)
        if v is None:
            v = self._cls({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry,
                          format_checker=self.format_checker)
            self._validators[pointer] = v
        return v

    def resolve(self, pointer: str) -> Any:
        """The raw value at JSON ``pointer`` (no ``$ref`` followed)."""
        node: Any = self.document
        for token in pointer.strip("/").split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node

    def resolve_schema(self, pointer: str) -> Any:
        """The schema at ``pointer`` with local ``$ref``s at its top followed."""
        node = self.resolve(pointer)
        for _ in range(16):
            if not (isinstance(node, dict) and str(node.get("$ref", "")).startswith("#/")):
                break
            node = self.resolve(node["$ref"][1:])
        return node

    def match(self, method: str, path: str) -> tuple[Operation | None, list[str]]:
        """The operation of ``method`` whose template matches ``path`` (the most literal one
        when several do) and the path's parameter values; ``(None, [])`` when none."""
        best: tuple[Operation, list[str]] | None = None
        for op in self.operations:
            if op.method != method.upper():
                continue
            m = op.regex.match(path)
            if m is None:
                continue
            if best is None or op.specificity > best[0].specificity:
                best = (op, list(m.groups()))
        return best if best is not None else (None, [])

    def _file_parts(self, pointer: str) -> set[str]:
        """Names of the ``files[n]`` parts the schema at ``pointer`` declares (following
        ``allOf``/``anyOf``/``oneOf`` but not ``$ref``: the referenced message schemas
        describe the JSON fields)."""
        names: set[str] = set()
        stack = [self.resolve(pointer)]
        while stack:
            node = stack.pop()
            if not isinstance(node, dict):
                continue
            names.update(k for k in node.get("properties", {}) if FILE_PART.match(k))
            for key in ("allOf", "anyOf", "oneOf"):
                stack.extend(node.get(key, []))
        return names

    def _errors(self, validator: Any, instance: Any) -> Iterator[ValidationError]:
        """``validator``'s top-level errors of ``instance``, one at a time;
        ``jsonschema-rs`` looks first when ``instance`` is plain JSON."""
        self._plain = plain_json(instance)
        try:
            yield from validator.iter_errors(instance)
        finally:
            self._plain = False

    def _int_paths(self, pointer: str, instance: Any) -> tuple[str, ...]:
        """JSON paths of the integers standing for snowflakes in ``instance``."""
        validator = self._marking({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry,
                                  format_checker=self.format_checker)
        paths: set[str] = set()
        stack = list(self._errors(validator, instance))
        while stack:
            e = stack.pop()
            for child in e.context or ():
                child.parent = e  # a shared context (see _clone) hangs under ``e`` now
                stack.append(child)
            if e.message == _MARK:
                paths.add(e.json_path)
        return tuple(sorted(paths))

    def check_request(self, method: str, path: str, query: dict[str, str], body: Any,
                      files: Iterable[Any] = (), *,
                      integer_snowflakes: list[str] | None = None) -> list[Violation]:
        """Every violation of one request (``files``: objects with a ``name``, the form
        part name; a non-empty ``files`` means the body was sent as multipart). The JSON
        paths where an ID came as an integer are appended to ``integer_snowflakes``."""
        out: list[Violation] = []

        def bad(where: str, fld: str, message: str) -> None:
            out.append(Violation(method, path, where, fld, message))

        op, values = self.match(method, path)
        if op is None:
            templates = [o.template for o in self.operations if o.regex.match(path)]
            bad("route", path, f"the spec declares {method} for none of "
                               f"{templates or 'its paths'}")
            return out
        names = re.findall(r"\{([^}]+)\}", op.template)
        for name, value in zip(names, values, strict=True):
            pointer = op.params.get(("path", name))
            if pointer is None:
                bad("path", name, f"not declared in {op.template}")
                continue
            for e in _narrowed(self._errors(self.validator(pointer), value)):
                bad("path", name, _describe(e))
        for key, value in query.items():
            pointer = op.params.get(("query", key))
            if pointer is None:
                declared = sorted(n for (w, n) in op.params if w == "query")
                bad("query", key, f"not a query parameter of {method} {op.template} "
                                  f"(declared: {declared})")
                continue
            instance = _from_query(self.resolve_schema(pointer), value)
            for e in _narrowed(self._errors(self.validator(pointer), instance)):
                bad("query", key, _describe(e))
        parts = list(files)
        if body is None and not parts:
            if op.body_required:
                bad("body", "$", f"{method} {op.template} requires a body; none was sent")
            return out
        if not op.body:
            bad("body", "$", f"{method} {op.template} takes no body; one was sent")
            return out
        ctype = "multipart/form-data" if parts else "application/json"
        pointer = op.body.get(ctype)
        if pointer is None:
            bad("body", "$", f"{method} {op.template} does not accept {ctype}")
            return out
        instance = body if body is not None else {}
        cache_key = (pointer, json.dumps(instance, sort_keys=True, default=repr))
        found = self._bodies.get(cache_key)
        if found is None:
            if len(self._bodies) > 50_000:
                self._bodies.clear()
            self._ints = []
            try:
                errors = tuple((e.json_path, _describe(e)) for e in _narrowed(
                    self._errors(self.validator(pointer), instance)))
                found = (errors, self._int_paths(pointer, instance) if self._ints else ())
            finally:
                self._ints = None
            self._bodies[cache_key] = found
        for fld, message in found[0]:
            bad("body", fld, message)
        if integer_snowflakes is not None:
            integer_snowflakes += found[1]
        if parts:
            file_parts = self._file_parts(pointer)
            for part in parts:
                name = str(getattr(part, "name", part))
                ok = name in file_parts if file_parts else bool(FILE_PART.match(name))
                if not ok:
                    bad("files", name, "not a file part the spec declares" if file_parts
                        else "not a documented files[n] part")
        return out

    def check(self, requests: Iterable[Any]) -> Report:
        """Check recorded requests (objects with ``method``, ``path``, ``query``, ``json``
        and ``files``, like :class:`~bot.sandbox.RecordedRequest`)."""
        report = Report()
        for r in requests:
            report.checked += 1
            op, _ = self.match(r.method, r.path)
            report.routes[f"{r.method} {op.template if op else r.path}"] += 1
            if r.json is not None or r.files:
                report.with_body += 1
            ints: list[str] = []
            report.violations += self.check_request(r.method, r.path, dict(r.query or {}),
                                                    r.json, r.files or (),
                                                    integer_snowflakes=ints)
            for where in ints:
                where = _INDEX.sub("[]", where)
                report.integer_snowflakes[f"{r.method} {op.template if op else r.path} "
                                          f"{where}"] += 1
        return report


@functools.lru_cache(maxsize=4)
def _load(path: str) -> Spec:
    with open(path, encoding="utf-8") as f:
        return Spec(json.load(f))
