"""Discord's documented request limits, checked by the sandbox before anything is stored.

Every check answers as Discord does: :class:`Refusal` carries HTTP 400 and either code 50035
"Invalid Form Body" with Discord's nested ``errors`` object (``{"content": {"_errors":
[{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}``; list
indices are string keys, callback bodies are under ``data``) or code 50006 for an empty
message. All errors of one body are reported together, like Discord.

Lengths are counted in Unicode code points (Python ``len``). The limits, written from
Discord's developer documentation (D: discord.com/developers/docs: resources/message
"Create Message" and "Embed Limits", components/reference, interactions/receiving-and-
responding "Modal", resources/channel "Start Thread", "Modify Channel") and cross-checked
with ``discord-api-spec/openapi.json`` (S: the schema that states the same bound):

=====================================  ===========  =================================
rule                                   limit        source
=====================================  ===========  =================================
message content                        <= 2,000     D Create Message; S webhook bodies
embeds per message                     <= 10        D; S MessageCreateRequest.embeds
embed title / description              256 / 4,096  D Embed Limits; S RichEmbed
embed fields                           <= 25        D; S RichEmbed.fields
field name / value (required)          256 / 1,024  D; S RichEmbedField (required)
footer text / author name              2,048 / 256  D; S RichEmbedFooter, RichEmbedAuthor
all embed text of a message            <= 6,000     D Embed Limits ("combined sum")
files per message                      <= 10        D Uploading Files; S attachments
``attachment://NAME`` in an embed      names a file D Uploading Files (our own code)
top-level action rows                  <= 5         D components (legacy messages)
components per row                     1-5          D Action Row; S ActionRow minItems
a select's width                       the row      D "a select alone in its row"
``custom_id``                          1-100, uniq  D components; S minLength/maxLength
button label                           <= 80        D Button; S ButtonComponent...
non-link button / link button          custom_id /  D Button (url XOR custom_id)
                                       url
button label or emoji                  required     D Button
select options                         1-25         D String Select; S options
option label / value / description     100 each     D Select Option; S StringSelectOption
option values                          unique       D String Select
select placeholder                     <= 150       D; S placeholder maxLength
min_values / max_values                0-25 / 1-25  D; S minimum/maximum
min <= max <= number of options        consistent   D String Select
all components (components v2)         <= 40        D "up to 40 total components"
modal title / custom_id                1-45 / 1-100 D Modal; S ModalInteractionCallback...
modal components                       1-5          D Modal
text input label                       1-45         D Text Input; S TextInput...
text input placeholder / value         100 / 4,000  D; S
text input min_length / max_length     0-4000/1-4000 D; S, and min <= max
thread or channel name                 1-100        D Start Thread, Modify Channel; S
empty message (create)                 50006        D "Cannot send an empty message"
=====================================  ===========  =================================

The rules of Components V2 messages (no legacy fields, layout components, media
references, the flag on edits) are in :mod:`bot.sandbox.limits_v2`; their errors join these.

Codes are Discord's where known (``BASE_TYPE_*``, ``NUMBER_TYPE_*``,
``COMPONENT_CUSTOM_ID_DUPLICATED``, ``COMPONENT_LAYOUT_WIDTH_EXCEEDED``,
``MAX_EMBED_SIZE_EXCEEDED``); the few others (marked "ours" below) are plausible names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import limits_modal, limits_v2

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER_TEXT = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_SELECT_PLACEHOLDER = 150
MAX_SELECT_VALUES = 25
MAX_V2_COMPONENTS = 40
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_PLACEHOLDER = 100
MAX_TEXT_INPUT_VALUE = 4000
MAX_LABEL_DESCRIPTION = 100
MAX_CHANNEL_NAME = 100

#: Message flag IS_COMPONENTS_V2: top-level components are layout components, no 5-row rule.
FLAG_COMPONENTS_V2 = limits_v2.FLAG_COMPONENTS_V2

_SELECTS = (3, 5, 6, 7, 8)
_EMBED_MEDIA = (("image", "url"), ("thumbnail", "url"), ("author", "icon_url"),
                ("footer", "icon_url"))

Path = tuple[str | int, ...]


class Refusal(Exception):
    """Discord's answer to a request body it refuses: ``status`` (400), ``code`` (50035 or
    50006) and ``body``, the JSON Discord sends (``errors`` present for 50035)."""

    def __init__(self, code: int, message: str, errors: dict[str, Any] | None = None,
                 status: int = 400):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.body: dict[str, Any] = {"message": message, "code": code}
        if errors is not None:
            self.body["errors"] = errors


class _Errors:
    """Collects field errors into Discord's nested ``errors`` object."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    # --- the common shapes
    def required(self, path: Path) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def length(self, path: Path, value: Any, lo: int, hi: int) -> None:
        """``value`` (a string or list) must have ``lo``..``hi`` items; absent is fine."""
        if value is None:
            return
        n = len(value)
        if lo <= n <= hi:
            return
        if lo == 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length.")
        else:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")

    def number(self, path: Path, value: Any, lo: int, hi: int) -> None:
        if value is None:
            return
        if value < lo:
            self.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {lo}.")
        elif value > hi:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {hi}.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise Refusal(50035, "Invalid Form Body", self.tree)


# ---------------------------------------------------------------------------- messages


def check_message(body: Mapping[str, Any] | None, filenames: Sequence[str] = (), *,
                  create: bool, current: Mapping[str, Any] | None = None,
                  prefix: Path = ()) -> None:
    """Check a message body (create or edit) against Discord's documented limits.

    ``filenames`` are the uploaded files' names; ``current`` is the stored message (its
    Discord JSON) when editing, whose attachments an edit may keep; ``prefix`` is put in
    front of every error path (``("data",)`` for an interaction callback). Raises
    :class:`Refusal` (400, 50035 with ``errors``; or 50006 for an empty ``create``).
    """
    body = body or {}
    err = _Errors()
    v2 = limits_v2.is_v2(body, current)
    limits_v2.check_fields(err, prefix, body, current)
    content = body.get("content")
    if isinstance(content, str):
        err.length((*prefix, "content"), content, 0, MAX_CONTENT)
    embeds = body.get("embeds") or []
    files = _available_files(body, filenames, current)
    _check_embeds(err, prefix, embeds, files)
    new_attachments = [a for a in body.get("attachments") or []
                       if not _is_kept(a, current)]
    if max(len(filenames), len(new_attachments)) > MAX_FILES:
        err.add((*prefix, "attachments"), "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_FILES} or fewer in length.")
    components = body.get("components")
    if components:
        _check_message_components(err, (*prefix, "components"), components, v2, files)
    err.raise_if_any()
    if create and not (content or embeds or filenames or components or body.get("sticker_ids")
                       or body.get("poll")):
        raise Refusal(50006, "Cannot send an empty message")


def _is_kept(att: Mapping[str, Any], current: Mapping[str, Any] | None) -> bool:
    if current is None:
        return False
    return any(str(a.get("id")) == str(att.get("id"))
               for a in limits_v2.message_attachments(current))


def _available_files(body: Mapping[str, Any], filenames: Sequence[str],
                     current: Mapping[str, Any] | None) -> set[str]:
    """Names an ``attachment://`` reference may use: new uploads and, on an edit, the kept
    attachments (all of them when the body does not list ``attachments``)."""
    names = set(filenames)
    for a in body.get("attachments") or []:
        if a.get("filename"):
            names.add(str(a["filename"]))
    if current is not None:
        old = limits_v2.message_attachments(current)
        if "attachments" in body:
            listed = {str(a.get("id")) for a in body.get("attachments") or []}
            old = [a for a in old if str(a.get("id")) in listed]
        names.update(str(a.get("filename")) for a in old)
    return names


def embed_text_length(embed: Mapping[str, Any]) -> int:
    """Characters of one embed that count towards Discord's 6,000 total: title,
    description, field names and values, footer text and author name."""
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or []:
        n += len(f.get("name") or "") + len(f.get("value") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    return n


def _check_embeds(err: _Errors, prefix: Path, embeds: Sequence[Mapping[str, Any]],
                  files: set[str]) -> None:
    p: Path = (*prefix, "embeds")
    err.length(p, embeds, 0, MAX_EMBEDS)
    for i, e in enumerate(embeds):
        ep: Path = (*p, i)
        err.length((*ep, "title"), e.get("title"), 0, MAX_EMBED_TITLE)
        err.length((*ep, "description"), e.get("description"), 0, MAX_EMBED_DESCRIPTION)
        fields = e.get("fields") or []
        err.length((*ep, "fields"), fields, 0, MAX_EMBED_FIELDS)
        for j, f in enumerate(fields):
            for key, hi in (("name", MAX_FIELD_NAME), ("value", MAX_FIELD_VALUE)):
                if not f.get(key):
                    err.required((*ep, "fields", j, key))
                else:
                    err.length((*ep, "fields", j, key), f[key], 0, hi)
        err.length((*ep, "footer", "text"), (e.get("footer") or {}).get("text"), 0,
                   MAX_FOOTER_TEXT)
        err.length((*ep, "author", "name"), (e.get("author") or {}).get("name"), 0,
                   MAX_AUTHOR_NAME)
        for part, key in _EMBED_MEDIA:
            url = (e.get(part) or {}).get(key)
            if isinstance(url, str) and url.startswith("attachment://"):
                name = url[len("attachment://"):]
                if name not in files:  # code ours
                    err.add((*ep, part, key), "EMBED_ATTACHMENT_NOT_FOUND",
                            f"No attachment named {name} in this message.")
    if sum(embed_text_length(e) for e in embeds) > MAX_EMBED_TOTAL:
        err.add(p, "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


# ---------------------------------------------------------------------------- components


class _Components:
    """Walks one message's (or modal's) components: per-type rules, custom_id uniqueness."""

    def __init__(self, err: _Errors, *, modal: bool = False):
        self.err = err
        self.modal = modal
        self.seen: set[str] = set()
        self.count = 0
        #: walking the component of a modal's label (where 19, 21-23 may stand)
        self.in_label = False

    def custom_id(self, path: Path, c: Mapping[str, Any], *, required: bool = True) -> None:
        cid = c.get("custom_id")
        if cid is None:
            if required:
                self.err.required((*path, "custom_id"))
            return
        cid = str(cid)
        if not 1 <= len(cid) <= MAX_CUSTOM_ID:
            self.err.length((*path, "custom_id"), cid, 1, MAX_CUSTOM_ID)
        elif cid in self.seen:
            self.err.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                         "Component custom id was already specified")
        self.seen.add(cid)

    def any(self, path: Path, c: Mapping[str, Any]) -> None:
        """One component of any type, with its children."""
        self.count += 1
        t = c.get("type")
        if t == 1:
            self.row(path, c)
        elif t == 2:
            self.button(path, c)
        elif t == 3:
            self.string_select(path, c)
        elif t in _SELECTS:
            self.select_common(path, c, None)
        elif t == 4:
            self.text_input(path, c, labelled=False)
        elif t == 9:  # section: text displays and an accessory
            for i, sub in enumerate(c.get("components") or []):
                self.any((*path, "components", i), sub)
            if c.get("accessory"):
                self.any((*path, "accessory"), c["accessory"])
        elif t == 17:  # container
            for i, sub in enumerate(c.get("components") or []):
                self.any((*path, "components", i), sub)
        elif t == 18:
            self.label(path, c)
        elif t in limits_modal.LABEL_ONLY:
            if not (self.modal and self.in_label):
                limits_modal.not_allowed(self.err, path, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17))
            else:
                self.custom_id(path, c)
                check = limits_modal.CHECKS.get(t)
                if check is not None:
                    check(self.err, path, c)

    def row(self, path: Path, row: Mapping[str, Any]) -> None:
        items = row.get("components") or []
        cp: Path = (*path, "components")
        if self.modal:
            # a modal's action row holds exactly one text input
            self.err.length(cp, items, 1, 1)
        else:
            self.err.length(cp, items, 1, MAX_ROW_WIDTH)
            if len(items) <= MAX_ROW_WIDTH:
                width = 0
                for i, item in enumerate(items):
                    width += MAX_ROW_WIDTH if item.get("type") in _SELECTS else 1
                    if width > MAX_ROW_WIDTH:
                        self.err.add((*cp, i), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                     "The specified component exceeds the maximum width")
                        break
        for i, item in enumerate(items):
            self.any((*cp, i), item)

    def button(self, path: Path, b: Mapping[str, Any]) -> None:
        style = b.get("style")
        self.err.length((*path, "label"), b.get("label"), 0, MAX_BUTTON_LABEL)
        if style == 5:
            if not b.get("url"):
                self.err.required((*path, "url"))
            if b.get("custom_id") is not None:  # code ours
                self.err.add((*path, "custom_id"), "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
                             "A link button cannot have a custom id")
        elif style == 6:
            if not b.get("sku_id"):
                self.err.required((*path, "sku_id"))
        else:
            self.custom_id(path, b)
            if b.get("url") is not None:  # code ours
                self.err.add((*path, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                             "Only a link button can have a url")
        if style != 6 and not b.get("label") and not b.get("emoji"):  # code ours
            self.err.add((*path, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                         "A button needs a label or an emoji")

    def select_common(self, path: Path, s: Mapping[str, Any], n_options: int | None) -> None:
        self.custom_id(path, s)
        self.err.length((*path, "placeholder"), s.get("placeholder"), 0,
                        MAX_SELECT_PLACEHOLDER)
        lo, hi = s.get("min_values"), s.get("max_values")
        self.err.number((*path, "min_values"), lo, 0, MAX_SELECT_VALUES)
        self.err.number((*path, "max_values"), hi, 1, MAX_SELECT_VALUES)
        lo = 1 if lo is None else lo
        hi = 1 if hi is None else hi
        if lo > hi:  # code ours
            self.err.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_ABOVE_MAX",
                         f"min_values ({lo}) must not exceed max_values ({hi})")
        if n_options is not None and 1 <= n_options < hi:  # code ours
            self.err.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_ABOVE_OPTIONS",
                         f"max_values ({hi}) must not exceed the number of options "
                         f"({n_options})")

    def string_select(self, path: Path, s: Mapping[str, Any]) -> None:
        options = s.get("options")
        if options is None:
            self.err.required((*path, "options"))
            options = []
        else:
            self.err.length((*path, "options"), options, 1, MAX_SELECT_OPTIONS)
        self.select_common(path, s, len(options))
        values: set[str] = set()
        for k, o in enumerate(options):
            op: Path = (*path, "options", k)
            for key in ("label", "value"):
                if o.get(key) is None:
                    self.err.required((*op, key))
                else:
                    self.err.length((*op, key), str(o[key]), 1, MAX_OPTION_TEXT)
            self.err.length((*op, "description"), o.get("description"), 0, MAX_OPTION_TEXT)
            value = o.get("value")
            if value is not None:
                if str(value) in values:  # code ours
                    self.err.add((*op, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                                 "Select option values must be unique")
                values.add(str(value))

    def text_input(self, path: Path, t: Mapping[str, Any], *, labelled: bool) -> None:
        self.custom_id(path, t)
        if not labelled:
            if t.get("label") is None:
                self.err.required((*path, "label"))
            else:
                self.err.length((*path, "label"), t["label"], 1, MAX_TEXT_INPUT_LABEL)
        self.err.length((*path, "placeholder"), t.get("placeholder"), 0,
                        MAX_TEXT_INPUT_PLACEHOLDER)
        self.err.length((*path, "value"), t.get("value"), 0, MAX_TEXT_INPUT_VALUE)
        lo, hi = t.get("min_length"), t.get("max_length")
        self.err.number((*path, "min_length"), lo, 0, MAX_TEXT_INPUT_VALUE)
        self.err.number((*path, "max_length"), hi, 1, MAX_TEXT_INPUT_VALUE)
        if lo is not None and hi is not None and lo > hi:  # code ours
            self.err.add((*path, "min_length"), "TEXT_INPUT_MIN_LENGTH_ABOVE_MAX",
                         f"min_length ({lo}) must not exceed max_length ({hi})")

    def label(self, path: Path, c: Mapping[str, Any]) -> None:
        if c.get("label") is None:
            self.err.required((*path, "label"))
        else:
            self.err.length((*path, "label"), c["label"], 1, MAX_TEXT_INPUT_LABEL)
        self.err.length((*path, "description"), c.get("description"), 0,
                        MAX_LABEL_DESCRIPTION)
        inner = c.get("component")
        if inner is None:
            self.err.required((*path, "component"))
        elif inner.get("type") == 4:
            self.count += 1
            self.text_input((*path, "component"), inner, labelled=True)
        elif inner.get("type") not in limits_modal.IN_LABEL:
            limits_modal.not_allowed(self.err, (*path, "component"), limits_modal.IN_LABEL)
        else:
            self.in_label = True
            self.any((*path, "component"), inner)
            self.in_label = False


def _check_message_components(err: _Errors, path: Path, components: Sequence[Any],
                              v2: bool, files: set[str]) -> None:
    walker = _Components(err)
    if not v2:
        err.length(path, components, 0, MAX_ROWS)
        for i, row in enumerate(components):
            if row.get("type") != 1:  # a legacy message's top level holds action rows only
                err.add((*path, i, "type"), "UNION_TYPE_CHOICES",
                        "Value of field \"type\" must be one of (1,).")
                continue
            walker.any((*path, i), row)
        return
    limits_v2.check_components(err, path, components, walker, files)
    if walker.count > MAX_V2_COMPONENTS:  # code ours
        err.add(path, "COMPONENTS_V2_TOO_MANY_COMPONENTS",
                f"A message holds at most {MAX_V2_COMPONENTS} components")


def check_modal(data: Mapping[str, Any] | None, prefix: Path = ("data",)) -> None:
    """Check a modal (interaction callback type 9 ``data``): title 1-45, custom_id 1-100,
    1-5 components, each an action row holding one text input (label 1-45) or a label
    component. Raises :class:`Refusal` (400, 50035)."""
    data = data or {}
    err = _Errors()
    if data.get("title") is None:
        err.required((*prefix, "title"))
    else:
        err.length((*prefix, "title"), data["title"], 1, MAX_MODAL_TITLE)
    walker = _Components(err, modal=True)
    if data.get("custom_id") is None:
        err.required((*prefix, "custom_id"))
    else:
        err.length((*prefix, "custom_id"), str(data["custom_id"]), 1, MAX_CUSTOM_ID)
    components = data.get("components")
    cp: Path = (*prefix, "components")
    if components is None:
        err.required(cp)
    else:
        err.length(cp, components, 1, MAX_MODAL_COMPONENTS)
        for i, c in enumerate(components):
            if c.get("type") not in limits_modal.MODAL_TOP:
                limits_modal.not_allowed(err, (*cp, i), limits_modal.MODAL_TOP)
                continue
            if c.get("type") == 1:
                for j, item in enumerate(c.get("components") or []):
                    if item.get("type") != 4:  # a modal row carries text inputs only
                        err.add((*cp, i, "components", j, "type"), "UNION_TYPE_CHOICES",
                                "Value of field \"type\" must be one of (4,).")
            walker.any((*cp, i), c)
    err.raise_if_any()


def check_callback(body: Mapping[str, Any] | None, filenames: Sequence[str] = (), *,
                   current: Mapping[str, Any] | None = None) -> None:
    """Check an interaction callback body: type 4 (a new message), 7 (an update of
    ``current``, the component's message) and 9 (a modal); other types carry no message.
    Raises :class:`Refusal`."""
    body = body or {}
    rtype = int(body.get("type") or 0)
    data = body.get("data")
    if rtype == 4:
        check_message(data, filenames, create=True, prefix=("data",))
    elif rtype == 7:
        check_message(data, filenames, create=False, current=current, prefix=("data",))
    elif rtype == 9:
        check_modal(data)


def check_channel_name(body: Mapping[str, Any] | None, *, required: bool) -> None:
    """Check a thread or channel ``name``: 1-100 characters (Discord's documented limit);
    ``required`` on thread creation. Raises :class:`Refusal` (400, 50035)."""
    body = body or {}
    err = _Errors()
    if "name" not in body or body["name"] is None:
        if required:
            err.required(("name",))
    else:
        err.length(("name",), str(body["name"]), 1, MAX_CHANNEL_NAME)
    err.raise_if_any()


def error_paths(errors: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, str]]:
    """Flatten an ``errors`` object into ``(dotted path, code)`` pairs (for tests/logs)."""
    for key, value in errors.items():
        if key == "_errors":
            for e in value:
                yield prefix, e["code"]
        else:
            yield from error_paths(value, f"{prefix}.{key}" if prefix else key)
