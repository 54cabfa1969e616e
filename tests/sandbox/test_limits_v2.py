"""The sandbox refuses what Discord refuses in a Components V2 message
(bot/sandbox/limits_v2.py through bot/sandbox/limits.py): each rule alone on plain bodies,
with the exact field path and code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.sandbox import limits
from bot.sandbox.limits import Refusal, check_callback, check_message
from tests.support.component_rules import component_problems

V2 = 1 << 15
LEGACY = ("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",)


def _err(path: str, code: str, message: str) -> dict[str, Any]:
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path.split(".")):
        node = {key: node}
    return node


def _bad(path: str, lo: int, hi: int) -> dict[str, Any]:
    return _err(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")


def _required(path: str) -> dict[str, Any]:
    return _err(path, "BASE_TYPE_REQUIRED", "This field is required")


def _types(path: str, choices: str) -> dict[str, Any]:
    return _err(f"{path}.type", "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of ({choices}).')


def _legacy(path: str, field: str) -> dict[str, Any]:
    return _err(path, LEGACY[0],
                f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")


def _refused(fn: Callable[[], None]) -> dict[str, Any]:
    with pytest.raises(Refusal) as caught:
        fn()
    r = caught.value
    assert (r.status, r.code, r.message) == (400, 50035, "Invalid Form Body")
    assert r.errors is not None
    return r.errors


def _v2(*components: Any, files: tuple[str, ...] = (), **body: Any) -> dict[str, Any]:
    """The errors of a new V2 message holding ``components``."""
    return _refused(lambda: check_message({"flags": V2, "components": list(components),
                                           **body}, list(files), create=True))


def _ok(*components: Any, files: tuple[str, ...] = (), **body: Any) -> None:
    check_message({"flags": V2, "components": list(components), **body}, list(files),
                  create=True)


def text(content: str = "Ana's turn", **kw: Any) -> dict[str, Any]:
    return {"type": 10, "content": content, **kw}


def button(cid: str = "b", **kw: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": cid, **kw}


def row(*items: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"type": 1, "components": list(items), **kw}


def box(*children: Any, **kw: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **kw}


def section(*texts: Any, accessory: Any = None) -> dict[str, Any]:
    s: dict[str, Any] = {"type": 9, "components": list(texts)}
    if accessory is not None:
        s["accessory"] = accessory
    return s


def thumb(url: str = "https://x.test/a.png", **kw: Any) -> dict[str, Any]:
    return {"type": 11, "media": {"url": url}, **kw}


def gallery(*urls: str, description: str | None = None) -> dict[str, Any]:
    items: list[dict[str, Any]] = [{"media": {"url": u}} for u in urls]
    if description is not None:
        for item in items:
            item["description"] = description
    return {"type": 12, "items": items}


# ---------------------------------------------------------------------------- legacy fields


def test_a_v2_message_has_no_content_embeds_stickers_or_poll():
    errors = _v2(text(), content="Ana's turn", embeds=[{"title": "Table"}], sticker_ids=["1"],
                 poll={"question": {"text": "?"}}, shared_client_theme={"colors": []})
    assert sorted(limits.error_paths(errors)) == [
        ("content", LEGACY[0]), ("embeds", LEGACY[0]), ("poll", LEGACY[0]),
        ("shared_client_theme", LEGACY[0]), ("sticker_ids", LEGACY[0])]
    assert errors["content"] == _legacy("content", "content")["content"]
    assert errors["embeds"] == _legacy("embeds", "embeds")["embeds"]
    # an empty string is content too: only null resets it
    assert _v2(text(), content="") == _legacy("content", "content")


def test_null_content_and_empty_lists_are_no_legacy_fields():
    # discord.py sends "content": null with every channel.send(view=...)
    _ok(text(), content=None, embeds=[], sticker_ids=[], poll=None)
    _ok(text(), embeds=None, sticker_ids=None)


def test_an_edit_of_a_v2_message_keeps_its_flag_and_its_rules():
    current = {"flags": V2, "content": "", "components": [text()]}
    assert _refused(lambda: check_message({"flags": 0, "components": [text()]},
                                          create=False, current=current)) == _err(
        "flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
        "The IS_COMPONENTS_V2 flag cannot be removed from a message")
    check_message({"flags": V2 | 4, "components": [text("Bob's turn")]}, create=False,
                  current=current)
    check_message({"flags": None, "components": [text("Bob's turn")]}, create=False,
                  current=current)
    # without flags in the body the message is still V2: no content, no embeds, no 5-row rule
    assert _refused(lambda: check_message({"content": "Bob's turn"}, create=False,
                                          current=current)) == _legacy("content", "content")
    assert _refused(lambda: check_message({"embeds": [{"title": "T"}]}, create=False,
                                          current=current)) == _legacy("embeds", "embeds")
    check_message({"components": [text(str(i)) for i in range(7)]}, create=False,
                  current=current)


def test_a_legacy_message_becomes_v2_only_with_its_legacy_fields_reset():
    current = {"flags": 0, "content": "Table", "embeds": [{"title": "T"}],
               "components": [row(button())]}
    errors = _refused(lambda: check_message({"flags": V2, "components": [text()]},
                                            create=False, current=current))
    assert errors == {**_legacy("content", "content"), **_legacy("embeds", "embeds")}
    assert _refused(lambda: check_message({"flags": V2, "content": None, "components": [text()]},
                                          create=False, current=current)) == _legacy(
        "embeds", "embeds")
    check_message({"flags": V2, "content": None, "embeds": [], "components": [text()]},
                  create=False, current=current)
    # a message whose legacy fields are empty (a deferred placeholder) needs no reset
    check_message({"flags": V2, "components": [text()]}, create=False,
                  current={"flags": 128, "content": "", "embeds": []})


def test_legacy_messages_are_unchanged_by_the_v2_rules():
    check_message({"content": "Table", "embeds": [{"title": "T"}],
                   "components": [row(button())]}, create=True)
    assert component_problems([text()]) == ["components.0.type: UNION_TYPE_CHOICES"]
    assert component_problems([text()], flags=V2) == []


# ---------------------------------------------------------------------------- layout


def test_top_level_components_are_layout_components_or_rows():
    top = "1, 9, 10, 12, 13, 14, 17"
    _ok(row(button()), section(text(), accessory=button("s")), text(), gallery("https://x.test/a.png"),
        {"type": 14}, box(text()))
    assert _v2(button()) == _types("components.0", top)
    assert _v2(text(), thumb()) == _types("components.1", top)
    assert _v2({"type": 4, "custom_id": "t", "style": 1, "label": "L"}) == _types(
        "components.0", top)


def test_container_children_and_no_container_in_a_container():
    inner = "1, 9, 10, 12, 13, 14"
    assert _v2(box(text(), box(text()))) == _types("components.0.components.1", inner)
    assert _v2(box(button())) == _types("components.0.components.0", inner)
    assert _v2(box()) == _bad("components.0.components", 1, 40)
    assert _v2({"type": 17}) == _required("components.0.components")


def test_container_accent_color_is_a_24_bit_rgb():
    _ok(box(text(), accent_color=0), box(text(), accent_color=0xFFFFFF),
        box(text(), accent_color=None))
    assert _v2(box(text(), accent_color=-1)) == _err(
        "components.0.accent_color", "NUMBER_TYPE_MIN",
        "int value should be greater than or equal to 0.")
    assert _v2(box(text(), accent_color=0x1000000)) == _err(
        "components.0.accent_color", "NUMBER_TYPE_MAX",
        "int value should be less than or equal to 16777215.")
    assert _v2(box(text(), accent_color="green")) == _err(
        "components.0.accent_color", "NUMBER_TYPE_COERCE", 'Value "green" is not int.')


def test_section_holds_1_to_3_text_displays_and_one_accessory():
    _ok(section(text("a"), text("b"), text("c"), accessory=thumb()))
    assert _v2(section(accessory=button())) == _bad("components.0.components", 1, 3)
    assert _v2(section(*[text(str(i)) for i in range(4)], accessory=button())) == _bad(
        "components.0.components", 1, 3)
    assert _v2(section(row(button("r")), accessory=button())) == _types(
        "components.0.components.0", "10")
    assert _v2(section(text())) == _required("components.0.accessory")
    assert _v2(section(text(), accessory=text())) == _err(
        "components.0.accessory.type", "UNION_TYPE_CHOICES",
        'Value of field "type" must be one of (2, 11).')
    # the accessory button follows the button rules
    assert _v2(section(text(), accessory={"type": 2, "style": 1, "label": "Go"})) == \
        _required("components.0.accessory.custom_id")


def test_a_row_holds_buttons_and_selects_only():
    assert _v2(box(row(text()))) == _types("components.0.components.0.components.0",
                                           "2, 3, 5, 6, 7, 8")
    assert _v2(row(*[button(f"b{i}") for i in range(6)])) == _bad(
        "components.0.components", 1, 5)


def test_text_display_content_1_to_4000():
    _ok(text("t" * 4000))
    assert _v2(text("")) == _bad("components.0.content", 1, 4000)
    assert sorted(limits.error_paths(_v2(text("t" * 4001)))) == [
        ("components", "COMPONENTS_V2_TEXT_TOO_LONG"),
        ("components.0.content", "BASE_TYPE_BAD_LENGTH")]
    assert _v2({"type": 10}) == _required("components.0.content")


def test_all_text_displays_together_hold_at_most_4000_characters():
    _ok(text("a" * 2000), box(text("b" * 1000), section(text("c" * 1000), accessory=button())))
    assert _v2(text("a" * 2000), box(text("b" * 1000), section(
        text("c" * 1001), accessory=button()))) == _err(
        "components", "COMPONENTS_V2_TEXT_TOO_LONG",
        "The text displays of a message hold at most 4000 characters in total (4001 given)")
    # button labels and alternative text do not count
    _ok(text("a" * 4000), row(button(label="L" * 80)),
        gallery("https://x.test/a.png", description="d" * 1024))


def test_at_most_40_components_nested_counted():
    # a container, 13 sections of a text display and a thumbnail: 1 + 13 * 3 = 40
    full = box(*[section(text(str(i)), accessory=thumb()) for i in range(13)])
    _ok(full)
    assert _v2(full, {"type": 14}) == _err(
        "components", "COMPONENTS_V2_TOO_MANY_COMPONENTS",
        "A message holds at most 40 components")
    # a row and its 5 buttons count 6; gallery items are not components
    _ok(*[row(*[button(f"b{r}{i}") for i in range(5)]) for r in range(6)],
        gallery(*["https://x.test/a.png"] * 10), text(), text(), text())
    assert _v2(*[row(*[button(f"b{r}{i}") for i in range(5)]) for r in range(6)],
               text(), text(), text(), text(), text()) == _err(
        "components", "COMPONENTS_V2_TOO_MANY_COMPONENTS",
        "A message holds at most 40 components")


def test_media_gallery_holds_1_to_10_items_with_alt_text_up_to_1024():
    _ok(gallery(*["https://x.test/a.png"] * 10, description="d" * 1024))
    assert _v2(gallery()) == _bad("components.0.items", 1, 10)
    assert _v2(gallery(*["https://x.test/a.png"] * 11)) == _bad("components.0.items", 1, 10)
    assert _v2({"type": 12}) == _required("components.0.items")
    assert _v2(gallery("https://x.test/a.png", description="d" * 1025)) == _bad(
        "components.0.items.0.description", 1, 1024)
    assert _v2(gallery("https://x.test/a.png", description="")) == _bad(
        "components.0.items.0.description", 1, 1024)
    assert _v2({"type": 12, "items": [{"description": "d"}]}) == _required(
        "components.0.items.0.media")
    assert _v2({"type": 12, "items": [{"media": {}}]}) == _required(
        "components.0.items.0.media.url")
    assert _v2(gallery("https://x.test/" + "a" * 2034)) == _err(
        "components.0.items.0.media.url", "BASE_TYPE_MAX_LENGTH",
        "Must be 2048 or fewer in length.")


def test_thumbnail_alt_text_up_to_1024():
    _ok(section(text(), accessory=thumb(description="d" * 1024)))
    assert _v2(section(text(), accessory=thumb(description="d" * 1025))) == _bad(
        "components.0.accessory.description", 1, 1024)
    assert _v2(section(text(), accessory={"type": 11})) == _required(
        "components.0.accessory.media")


def test_separator_spacing_is_1_or_2():
    _ok({"type": 14, "spacing": 1}, {"type": 14, "spacing": 2, "divider": False},
        {"type": 14, "spacing": None})
    assert _v2({"type": 14, "spacing": 3}) == _err(
        "components.0.spacing", "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")


def test_component_ids_are_32_bit_non_negative_and_unique():
    _ok(box(text(id=1), row(button(id=2), id=3), id=4), text(id=0), text(id=0))
    assert _v2(text(id=-1)) == _err("components.0.id", "NUMBER_TYPE_MIN",
                                    "int value should be greater than or equal to 0.")
    assert _v2(text(id=2 ** 31)) == _err("components.0.id", "NUMBER_TYPE_MAX",
                                         "int value should be less than or equal to "
                                         "2147483647.")
    dup = "Component id was already specified"
    assert _v2(text(id=7), box(row(button(id=7)))) == _err(
        "components.1.components.0.components.0.id", "COMPONENT_ID_DUPLICATED", dup)
    assert _v2(section(text(id=5), accessory=button(id=5))) == _err(
        "components.0.accessory.id", "COMPONENT_ID_DUPLICATED", dup)


# ---------------------------------------------------------------------------- attachments


def test_an_attachment_reference_names_an_uploaded_file():
    _ok(box(gallery("attachment://table.png", description="Ana to play")), files=("table.png",))
    assert _v2(box(gallery("attachment://table.png"))) == _err(
        "components.0.components.0.items.0.media.url",
        "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
        "No attachment named table.png in this message.")
    assert _v2(section(text(), accessory=thumb("attachment://me.png")),
               files=("table.png",)) == _err(
        "components.0.accessory.media.url", "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
        "No attachment named me.png in this message.")
    # a file nobody shows is accepted (Discord does not show it)
    _ok(text(), files=("unshown.png",))


def test_a_file_component_shows_an_uploaded_file_only():
    _ok({"type": 13, "file": {"url": "attachment://rules.txt"}}, files=("rules.txt",))
    assert _v2({"type": 13, "file": {"url": "attachment://rules.txt"}}) == _err(
        "components.0.file.url", "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
        "No attachment named rules.txt in this message.")
    assert _v2({"type": 13, "file": {"url": "https://x.test/rules.txt"}}) == _err(
        "components.0.file.url", "FILE_COMPONENT_URL_NOT_ATTACHMENT",
        "A file component shows an uploaded file (attachment://<filename>)")
    assert _v2({"type": 13}) == _required("components.0.file")


def test_an_edit_may_show_a_kept_file_even_one_only_its_components_showed():
    # a stored V2 message lists in "attachments" only the files no component shows
    current = {"flags": V2, "attachments": [{"id": "70", "filename": "unshown.png"}],
               "components": [box(gallery(
                   "https://cdn.discordapp.com/attachments/1/71/table.png"))]}
    current["components"][0]["components"][0]["items"][0]["media"]["attachment_id"] = "71"
    body = {"components": [box(gallery("attachment://table.png", "attachment://unshown.png"))]}
    check_message(body, create=False, current=current)
    check_message({**body, "attachments": [{"id": "71", "filename": "table.png"},
                                           {"id": "70", "filename": "unshown.png"}]},
                  create=False, current=current)
    assert _refused(lambda: check_message({**body, "attachments": [{"id": "70"}]},
                                          create=False, current=current)) == _err(
        "components.0.components.0.items.0.media.url",
        "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
        "No attachment named table.png in this message.")
    # a new file comes with the edit
    check_message({"components": [box(gallery("attachment://t2.png"))],
                   "attachments": [{"id": 0, "filename": "t2.png"}]}, ["t2.png"],
                  create=False, current=current)


# ---------------------------------------------------------------------------- callbacks


def test_interaction_callbacks_get_the_same_checks_under_data():
    check_callback({"type": 4, "data": {"flags": V2 | 64, "components": [box(text())]}})
    assert _refused(lambda: check_callback({"type": 4, "data": {
        "flags": V2, "content": "Hi", "components": [text()]}})) == _legacy(
        "data.content", "content")
    current = {"flags": V2, "components": [text()]}
    assert _refused(lambda: check_callback({"type": 7, "data": {"flags": 64}},
                                           current=current)) == _err(
        "data.flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
        "The IS_COMPONENTS_V2 flag cannot be removed from a message")
    assert _refused(lambda: check_callback({"type": 7, "data": {"components": [
        box(gallery("attachment://x.png"))]}}, current=current)) == _err(
        "data.components.0.components.0.items.0.media.url",
        "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
        "No attachment named x.png in this message.")
    check_callback({"type": 7, "data": {"components": [box(gallery("attachment://x.png"))],
                                        "attachments": [{"id": 0, "filename": "x.png"}]}},
                   ["x.png"], current=current)


def test_all_errors_of_a_v2_body_are_reported_together():
    errors = _v2(box(text(""), gallery(), accent_color=-5), {"type": 14, "spacing": 0},
                 content="x")
    assert sorted(limits.error_paths(errors)) == [
        ("components.0.accent_color", "NUMBER_TYPE_MIN"),
        ("components.0.components.0.content", "BASE_TYPE_BAD_LENGTH"),
        ("components.0.components.1.items", "BASE_TYPE_BAD_LENGTH"),
        ("components.1.spacing", "BASE_TYPE_CHOICES"),
        ("content", LEGACY[0])]
