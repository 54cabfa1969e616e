"""Discord's rules for Components V2 messages (message flag ``IS_COMPONENTS_V2``, ``1 << 15``).

:func:`bot.sandbox.limits.check_message` calls these beside its legacy rules, so every error
of one body lands in the same 50035 ``errors`` object. Sources: D = Discord's developer
documentation (components/reference: the introduction, "Anatomy of a Component", Section,
Text Display, Thumbnail, Media Gallery, File, Separator, Container, Unfurled Media Item;
components/using-message-components; resources/message "Create Message" note ** and "Edit
Message" flags note; resources/webhook "Execute Webhook" and "Edit Webhook Message" flags
notes), S = the schema of ``discord-api-spec/openapi.json`` stating the same bound, O = an
answer of Discord quoted by public projects (where the error code comes from), G = the
discord.js guide's "display components" page and docs.discord.food (the 4,000-character total,
which Discord's own pages leave out):

===========================================  ============================  ==============
rule                                         answer (code at path)         source
===========================================  ============================  ==============
no ``content``/``embeds``/``sticker_ids``/   MESSAGE_CANNOT_USE_LEGACY_    D Create Message
``poll``/``shared_client_theme`` (only       FIELDS_WITH_COMPONENTS_V2     **; O code and
``null``, or ``[]`` for a list, is allowed)  at the field                  message
an edit cannot clear the flag                MESSAGE_CANNOT_REMOVE_        D Edit Message;
                                             COMPONENTS_V2_FLAG at flags   O code
an edit may set it, if it resets what the    the legacy-fields code at     D Edit Message
message has: content/poll null, embeds []    each field left as it was     flags note
top-level types 1, 9, 10, 12, 13, 14, 17     UNION_TYPE_CHOICES at type    S MessageCreate-
container children 1, 9, 10, 12, 13, 14      (the same)                    Request; D
section: 1-3 text displays + accessory       BAD_LENGTH / REQUIRED /       D Section; S
(button or thumbnail)                        UNION_TYPE_CHOICES            SectionComp...
container: 1-40 children, accent_color       BAD_LENGTH / NUMBER_TYPE_*    S Container...;
0..0xFFFFFF                                                                D Container
text display content 1-4,000                 BAD_LENGTH                    S TextDisplay...
all text displays together <= 4,000          COMPONENTS_V2_TEXT_TOO_LONG   G (code ours)
media gallery 1-10 items; item and           BAD_LENGTH                    D Media Gallery;
thumbnail description 1-1,024                                              S MediaGallery-
                                                                           ItemRequest
media ``url`` required, <= 2,048             REQUIRED / MAX_LENGTH         S UnfurledMedia-
                                                                           Request
``attachment://NAME`` names a file of this   UNFURLED_MEDIA_ITEM_          D Unfurled Media
message (uploaded, or kept on an edit)       REFERENCED_ATTACHMENT_        Item; O code
                                             NOT_FOUND at url
a file component's url is ``attachment://``  FILE_COMPONENT_URL_NOT_       D File (code
                                             ATTACHMENT                    ours)
separator spacing 1 or 2                     BASE_TYPE_CHOICES             D; S Separator
``id``: a 32-bit integer >= 0, unique in     NUMBER_TYPE_* / COMPONENT_    D Anatomy; S
the message (0 counts as none)               ID_DUPLICATED (ours)          ``id``
a row holds buttons and selects only         UNION_TYPE_CHOICES            S ActionRow...
===========================================  ============================  ==============

Files uploaded with a V2 message that no component shows are accepted (D: "Attachments
won't show by default - they must be exposed through components"); the stored message
lists them in ``attachments`` and :attr:`bot.sandbox.model.SimMessage.shown_filenames`
leaves them out. Messages and codes marked "ours" are plausible wording where Discord's is
not published.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

#: Message flag IS_COMPONENTS_V2.
FLAG_COMPONENTS_V2 = 1 << 15
MAX_TEXT_TOTAL = 4000
MAX_TEXT_DISPLAY = 4000
MAX_SECTION_TEXTS = 3
MAX_CONTAINER_CHILDREN = 40
MAX_GALLERY_ITEMS = 10
MAX_MEDIA_DESCRIPTION = 1024
MAX_MEDIA_URL = 2048
MAX_ACCENT_COLOR = 0xFFFFFF
MAX_COMPONENT_ID = 2 ** 31 - 1
ATTACHMENT = "attachment://"

#: What may stand where (component types).
TOP_LEVEL = (1, 9, 10, 12, 13, 14, 17)
IN_CONTAINER = (1, 9, 10, 12, 13, 14)
IN_SECTION = (10,)
ACCESSORY = (2, 11)
IN_ROW = (2, 3, 5, 6, 7, 8)
_SELECTS = (3, 5, 6, 7, 8)

#: Legacy fields a V2 message may not carry, with the message field an edit must reset.
LEGACY_FIELDS = (("content", "content"), ("embeds", "embeds"),
                 ("sticker_ids", "sticker_items"), ("poll", "poll"),
                 ("shared_client_theme", "shared_client_theme"))

Path = tuple[str | int, ...]


class Errors(Protocol):
    """The error collector of :mod:`bot.sandbox.limits` (Discord's nested ``errors``)."""

    def add(self, path: Path, code: str, message: str) -> None: ...
    def required(self, path: Path) -> None: ...
    def length(self, path: Path, value: Any, lo: int, hi: int) -> None: ...
    def number(self, path: Path, value: Any, lo: int, hi: int) -> None: ...


class Interactive(Protocol):
    """The walker of legacy components (rows, buttons, selects) and its component count."""

    count: int

    def any(self, path: Path, c: Mapping[str, Any]) -> None: ...


def flags_of(message: Mapping[str, Any] | None) -> int:
    return int((message or {}).get("flags") or 0)


def is_v2(body: Mapping[str, Any], current: Mapping[str, Any] | None) -> bool:
    """True when the message will be a V2 one: the body sets the flag or the edited message
    has it (it cannot be removed)."""
    return bool((flags_of(body) | flags_of(current)) & FLAG_COMPONENTS_V2)


def _filled(value: Any) -> bool:
    """A legacy field that is used: anything but ``null`` and an empty list."""
    return value is not None and value != []


def check_fields(err: Errors, prefix: Path, body: Mapping[str, Any],
                 current: Mapping[str, Any] | None) -> None:
    """The flag and the legacy fields of a V2 message (create or edit): ``content``,
    ``embeds``, ``sticker_ids``, ``poll`` and ``shared_client_theme`` must be absent or empty;
    an edit may not clear the flag; an edit that sets it must reset every legacy field the
    message has (content and poll to ``null``, embeds to ``[]``)."""
    was_v2 = bool(flags_of(current) & FLAG_COMPONENTS_V2)
    if was_v2 and body.get("flags") is not None and not flags_of(body) & FLAG_COMPONENTS_V2:
        err.add((*prefix, "flags"), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message")  # message ours
    if not is_v2(body, current):
        return
    upgrading = current is not None and not was_v2
    for field, stored in LEGACY_FIELDS:
        used = _filled(body[field]) if field in body else (
            upgrading and bool((current or {}).get(stored)))
        if used:
            err.add((*prefix, field), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{field}' field cannot be used when using "
                    "MessageFlags.IS_COMPONENTS_V2")


def check_components(err: Errors, path: Path, components: Sequence[Any], walker: Interactive,
                     files: set[str]) -> None:
    """Walk a V2 message's components: what may stand where, the layout components' rules,
    media references into ``files`` (the names ``attachment://`` may use), ``id`` uniqueness
    and the text total. Rows, buttons and selects go to ``walker`` (which counts every
    component)."""
    layout = _Layout(err, walker, files)
    for i, c in enumerate(components):
        layout.child((*path, i), c, TOP_LEVEL)
    if layout.text > MAX_TEXT_TOTAL:  # code ours
        err.add(path, "COMPONENTS_V2_TEXT_TOO_LONG",
                f"The text displays of a message hold at most {MAX_TEXT_TOTAL} characters "
                f"in total ({layout.text} given)")


class _Layout:
    def __init__(self, err: Errors, walker: Interactive, files: set[str]):
        self.err = err
        self.walker = walker
        self.files = files
        self.ids: set[int] = set()
        self.text = 0

    def child(self, path: Path, c: Any, allowed: tuple[int, ...]) -> None:
        """One component where only ``allowed`` types may stand."""
        if not isinstance(c, Mapping) or c.get("type") not in allowed:
            choices = ", ".join(str(t) for t in allowed)
            self.err.add((*path, "type"), "UNION_TYPE_CHOICES",
                         f"Value of field \"type\" must be one of ({choices}).")
            return
        self.one(path, c)

    def one(self, path: Path, c: Mapping[str, Any]) -> None:
        self.component_id(path, c)
        t = c.get("type")
        if t in (2, *_SELECTS):
            self.walker.any(path, c)
            return
        if t == 1:
            items = c.get("components") or []
            for j, item in enumerate(items):
                if not isinstance(item, Mapping) or item.get("type") not in IN_ROW:
                    self.err.add((*path, "components", j, "type"), "UNION_TYPE_CHOICES",
                                 "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).")
                else:
                    self.component_id((*path, "components", j), item)
            self.walker.any(path, c)
            return
        self.walker.count += 1
        if t == 9:
            self.section(path, c)
        elif t == 10:
            self.text_display(path, c)
        elif t == 11:
            self.media_item(path, c)
        elif t == 12:
            self.gallery(path, c)
        elif t == 13:
            self.file(path, c)
        elif t == 14:
            spacing = c.get("spacing")
            if spacing is not None and spacing not in (1, 2):
                self.err.add((*path, "spacing"), "BASE_TYPE_CHOICES",
                             "Value must be one of (1, 2).")
        elif t == 17:
            self.container(path, c)

    def component_id(self, path: Path, c: Mapping[str, Any]) -> None:
        cid = c.get("id")
        if cid is None or not self.integer((*path, "id"), cid, 0, MAX_COMPONENT_ID):
            return
        if cid == 0:  # D: an id of 0 is treated as empty and replaced
            return
        if cid in self.ids:  # code ours
            self.err.add((*path, "id"), "COMPONENT_ID_DUPLICATED",
                         "Component id was already specified")
        self.ids.add(cid)

    def integer(self, path: Path, value: Any, lo: int, hi: int) -> bool:
        """``value`` must be an integer in ``lo..hi``; False when it is not an integer."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.err.add(path, "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not int.")
            return False
        self.err.number(path, value, lo, hi)
        return True

    def children(self, path: Path, c: Mapping[str, Any], lo: int, hi: int,
                 allowed: tuple[int, ...]) -> None:
        items = c.get("components")
        cp: Path = (*path, "components")
        if items is None:
            self.err.required(cp)
            return
        self.err.length(cp, items, lo, hi)
        for i, sub in enumerate(items):
            self.child((*cp, i), sub, allowed)

    def section(self, path: Path, c: Mapping[str, Any]) -> None:
        self.children(path, c, 1, MAX_SECTION_TEXTS, IN_SECTION)
        accessory = c.get("accessory")
        if accessory is None:
            self.err.required((*path, "accessory"))
        else:
            self.child((*path, "accessory"), accessory, ACCESSORY)

    def container(self, path: Path, c: Mapping[str, Any]) -> None:
        if c.get("accent_color") is not None:
            self.integer((*path, "accent_color"), c["accent_color"], 0, MAX_ACCENT_COLOR)
        self.children(path, c, 1, MAX_CONTAINER_CHILDREN, IN_CONTAINER)

    def text_display(self, path: Path, c: Mapping[str, Any]) -> None:
        content = c.get("content")
        if content is None:
            self.err.required((*path, "content"))
            return
        self.err.length((*path, "content"), str(content), 1, MAX_TEXT_DISPLAY)
        self.text += len(str(content))

    def gallery(self, path: Path, c: Mapping[str, Any]) -> None:
        items = c.get("items")
        if items is None:
            self.err.required((*path, "items"))
            return
        self.err.length((*path, "items"), items, 1, MAX_GALLERY_ITEMS)
        for i, item in enumerate(items):
            self.media_item((*path, "items", i), item)

    def media_item(self, path: Path, c: Mapping[str, Any]) -> None:
        """A thumbnail or a media gallery item: ``media`` and its alternative text."""
        description = c.get("description")
        if description is not None:
            self.err.length((*path, "description"), str(description), 1,
                            MAX_MEDIA_DESCRIPTION)
        self.media((*path, "media"), c.get("media"))

    def file(self, path: Path, c: Mapping[str, Any]) -> None:
        url = self.media((*path, "file"), c.get("file"))
        if url is not None and not url.startswith(ATTACHMENT):  # code ours
            self.err.add((*path, "file", "url"), "FILE_COMPONENT_URL_NOT_ATTACHMENT",
                         "A file component shows an uploaded file (attachment://<filename>)")

    def media(self, path: Path, media: Any) -> str | None:
        """An unfurled media item: its ``url`` (returned), refused when it names no file."""
        if not isinstance(media, Mapping):
            self.err.required(path)
            return None
        url = media.get("url")
        if url is None:
            self.err.required((*path, "url"))
            return None
        url = str(url)
        self.err.length((*path, "url"), url, 0, MAX_MEDIA_URL)
        if url.startswith(ATTACHMENT) and url[len(ATTACHMENT):] not in self.files:
            name = url[len(ATTACHMENT):]
            self.err.add((*path, "url"), "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
                         f"No attachment named {name} in this message.")  # message ours
        return url


# ---------------------------------------------------------------------------- stored messages


def media_items(components: Sequence[Any]) -> list[dict[str, Any]]:
    """Every unfurled media item of ``components`` (thumbnails, gallery items, files), in
    display order."""
    out: list[dict[str, Any]] = []
    for c in components or []:
        if not isinstance(c, dict):
            continue
        t = c.get("type")
        if t == 11 and isinstance(c.get("media"), dict):
            out.append(c["media"])
        elif t == 12:
            out += [i["media"] for i in c.get("items") or [] if isinstance(i.get("media"), dict)]
        elif t == 13 and isinstance(c.get("file"), dict):
            out.append(c["file"])
        out += media_items(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            out += media_items([c["accessory"]])
    return out


def message_attachments(message: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The files a stored message holds, as ``{"id", "filename"}`` dicts: its ``attachments``
    and, for a V2 message, the files its components show (Discord leaves those out of
    ``attachments``; D message object ``attachments``)."""
    if message is None:
        return []
    out = [dict(a) for a in message.get("attachments") or []]
    seen = {str(a.get("id")) for a in out}
    for media in media_items(message.get("components") or []):
        aid = media.get("attachment_id")
        if aid is not None and str(aid) not in seen:
            seen.add(str(aid))
            out.append({"id": str(aid), "filename": str(media.get("url", "")).rsplit("/", 1)[-1]})
    return out
