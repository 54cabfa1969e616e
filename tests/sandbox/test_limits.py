"""The sandbox refuses what Discord refuses (bot/sandbox/limits.py), each documented limit
on plain bodies: one rule per test, with the exact field path and code. The same refusals
through discord.py are in tests/sandbox/test_limits_dispatch.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.sandbox import limits
from bot.sandbox.limits import Refusal, check_callback, check_channel_name, check_message

# ---------------------------------------------------------------------------- each rule alone


def _err(path: str, code: str, message: str) -> dict[str, Any]:
    """The ``errors`` object for one error at dotted ``path``."""
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path.split(".")):
        node = {key: node}
    return node


def _max(path: str, n: int) -> dict[str, Any]:
    return _err(path, "BASE_TYPE_MAX_LENGTH", f"Must be {n} or fewer in length.")


def _bad(path: str, lo: int, hi: int) -> dict[str, Any]:
    return _err(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")


def _required(path: str) -> dict[str, Any]:
    return _err(path, "BASE_TYPE_REQUIRED", "This field is required")


def _refused(fn: Callable[[], None]) -> dict[str, Any]:
    with pytest.raises(Refusal) as caught:
        fn()
    r = caught.value
    assert (r.status, r.code, r.message) == (400, 50035, "Invalid Form Body")
    assert r.body == {"message": "Invalid Form Body", "code": 50035, "errors": r.errors}
    assert r.errors is not None
    return r.errors


def _msg(**body: Any) -> dict[str, Any]:
    return _refused(lambda: check_message(body, create=True))


def button(cid: str | None = "b", label: str | None = "Go", **kw: Any) -> dict[str, Any]:
    b: dict[str, Any] = {"type": 2, "style": 1, **kw}
    if cid is not None:
        b["custom_id"] = cid
    if label is not None:
        b["label"] = label
    return b


def select(cid: str = "s", n: int = 2, **kw: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": cid,
            "options": [{"label": f"Option {i}", "value": f"v{i}"} for i in range(n)], **kw}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def _comp(*rows: dict[str, Any]) -> dict[str, Any]:
    return _msg(components=list(rows))


def test_content_at_most_2000():
    check_message({"content": "a" * 2000}, create=True)
    assert _msg(content="a" * 2001) == _max("content", 2000)


def test_at_most_10_embeds():
    check_message({"embeds": [{"title": "t"}] * 10}, create=True)
    assert _msg(embeds=[{"title": "t"}] * 11) == _max("embeds", 10)


def test_embed_title_256_and_description_4096():
    check_message({"embeds": [{"title": "t" * 256, "description": "d" * 4096}]}, create=True)
    assert _msg(embeds=[{"title": "t" * 257}]) == _max("embeds.0.title", 256)
    assert _msg(embeds=[{"title": "t"}, {"description": "d" * 4097}]) == _max(
        "embeds.1.description", 4096)


def test_embed_at_most_25_fields():
    fields = [{"name": "n", "value": "v"}] * 26
    assert _msg(embeds=[{"fields": fields}]) == _max("embeds.0.fields", 25)
    check_message({"embeds": [{"fields": fields[:25]}]}, create=True)


def test_field_name_256_and_value_1024():
    assert _msg(embeds=[{"fields": [{"name": "n" * 257, "value": "v"}]}]) == _max(
        "embeds.0.fields.0.name", 256)
    assert _msg(embeds=[{"fields": [{"name": "n", "value": "v" * 1025}]}]) == _max(
        "embeds.0.fields.0.value", 1024)


def test_field_name_and_value_required_non_empty():
    assert _msg(embeds=[{"fields": [{"name": "", "value": "v"}, {"name": "n"}]}]) == {
        "embeds": {"0": {"fields": {
            "0": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED",
                                        "message": "This field is required"}]}},
            "1": {"value": {"_errors": [{"code": "BASE_TYPE_REQUIRED",
                                         "message": "This field is required"}]}}}}}}


def test_footer_text_2048_and_author_name_256():
    assert _msg(embeds=[{"footer": {"text": "f" * 2049}}]) == _max("embeds.0.footer.text", 2048)
    assert _msg(embeds=[{"author": {"name": "a" * 257}}]) == _max("embeds.0.author.name", 256)


def test_all_embed_text_at_most_6000():
    ok = [{"title": "t" * 200, "description": "d" * 3800},
          {"fields": [{"name": "n" * 200, "value": "v" * 1000}],
           "footer": {"text": "f" * 600}, "author": {"name": "a" * 200}}]
    assert sum(limits.embed_text_length(e) for e in ok) == 6000
    check_message({"embeds": ok}, create=True)
    ok[1]["author"]["name"] += "a"
    assert _msg(embeds=ok) == _err("embeds", "MAX_EMBED_SIZE_EXCEEDED",
                                   "Embed size exceeds maximum size of 6000")


def test_at_most_5_action_rows():
    rows = [row(button(f"b{i}")) for i in range(6)]
    check_message({"components": rows[:5]}, create=True)
    assert _comp(*rows) == _max("components", 5)


def test_top_level_components_are_action_rows():
    assert _msg(components=[button("b")]) == _err(
        "components.0.type", "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')


def test_action_row_holds_1_to_5_buttons():
    check_message({"components": [row(*[button(f"b{i}") for i in range(5)])]}, create=True)
    assert _comp(row(*[button(f"b{i}") for i in range(6)])) == _bad(
        "components.0.components", 1, 5)
    assert _comp(row()) == _bad("components.0.components", 1, 5)


def test_a_select_is_alone_in_its_row():
    assert _comp(row(select("s"), button("b"))) == _err(
        "components.0.components.1", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        "The specified component exceeds the maximum width")
    assert _comp(row(button("b"), select("s"))) == _err(
        "components.0.components.1", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        "The specified component exceeds the maximum width")
    check_message({"components": [row(select("s")), row(button("b"))]}, create=True)


def test_custom_id_1_to_100_characters():
    check_message({"components": [row(button("c" * 100))]}, create=True)
    assert _comp(row(button("c" * 101))) == _bad("components.0.components.0.custom_id", 1, 100)
    assert _comp(row(button(""))) == _bad("components.0.components.0.custom_id", 1, 100)
    assert _comp(row(select("c" * 101))) == _bad("components.0.components.0.custom_id", 1, 100)


def test_custom_id_unique_across_rows():
    dup = _err("components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
               "Component custom id was already specified")
    assert _comp(row(select("x")), row(select("x"))) == dup
    assert _comp(row(button("x")), row(button("x"))) == dup
    assert _comp(row(button("a"), button("a"))) == _err(
        "components.0.components.1.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
        "Component custom id was already specified")


def test_button_label_at_most_80():
    check_message({"components": [row(button("b", "L" * 80))]}, create=True)
    assert _comp(row(button("b", "L" * 81))) == _max("components.0.components.0.label", 80)


def test_non_link_button_needs_a_custom_id():
    assert _comp(row(button(None))) == _required("components.0.components.0.custom_id")


def test_link_button_has_a_url_and_no_custom_id():
    check_message({"components": [row(button(None, style=5, url="https://x.test"))]},
                  create=True)
    assert _comp(row(button(None, style=5))) == _required("components.0.components.0.url")
    assert _comp(row(button("b", style=5, url="https://x.test"))) == _err(
        "components.0.components.0.custom_id", "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
        "A link button cannot have a custom id")


def test_button_needs_a_label_or_an_emoji():
    check_message({"components": [row(button("b", None, emoji={"name": "🦙"}))]}, create=True)
    assert _comp(row(button("b", None))) == _err(
        "components.0.components.0.label", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
        "A button needs a label or an emoji")


def test_select_has_1_to_25_options():
    check_message({"components": [row(select("s", 25))]}, create=True)
    assert _comp(row(select("s", 26))) == _bad("components.0.components.0.options", 1, 25)
    assert _comp(row(select("s", 0))) == _bad("components.0.components.0.options", 1, 25)


def test_option_label_value_description_at_most_100():
    s = select("s", 1)
    s["options"][0] = {"label": "l" * 101, "value": "v" * 101, "description": "d" * 101}
    p = "components.0.components.0.options.0"
    assert _comp(row(s)) == {"components": {"0": {"components": {"0": {"options": {"0": {
        "label": _bad("x", 1, 100)["x"], "value": _bad("x", 1, 100)["x"],
        "description": _max("x", 100)["x"]}}}}}}}
    s["options"][0] = {"label": "l" * 100, "value": "v" * 100, "description": "d" * 100}
    check_message({"components": [row(s)]}, create=True)
    s["options"][0] = {"value": "v"}
    assert _comp(row(s)) == _required(f"{p}.label")
    s["options"][0] = {"label": "l", "value": ""}
    assert _comp(row(s)) == _bad(f"{p}.value", 1, 100)


def test_option_values_unique_within_a_select():
    s = select("s", 3)
    s["options"][2]["value"] = "v0"
    assert _comp(row(s)) == _err(
        "components.0.components.0.options.2.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        "Select option values must be unique")
    # the same value in two different selects is fine
    check_message({"components": [row(select("a")), row(select("b"))]}, create=True)


def test_select_placeholder_at_most_150():
    check_message({"components": [row(select("s", placeholder="p" * 150))]}, create=True)
    assert _comp(row(select("s", placeholder="p" * 151))) == _max(
        "components.0.components.0.placeholder", 150)


def test_min_values_0_to_25_and_max_values_1_to_25():
    p = "components.0.components.0"
    assert _comp(row(select("s", 25, min_values=-1))) == _err(
        f"{p}.min_values", "NUMBER_TYPE_MIN", "int value should be greater than or equal to 0.")
    assert _comp(row(select("s", 25, max_values=0, min_values=0))) == _err(
        f"{p}.max_values", "NUMBER_TYPE_MIN", "int value should be greater than or equal to 1.")
    errors = _comp(row(select("s", 25, min_values=26, max_values=26)))
    assert sorted(limits.error_paths(errors)) == [
        (f"{p}.max_values", "NUMBER_TYPE_MAX"),
        (f"{p}.max_values", "SELECT_COMPONENT_MAX_VALUES_ABOVE_OPTIONS"),
        (f"{p}.min_values", "NUMBER_TYPE_MAX")]
    check_message({"components": [row(select("s", 25, min_values=0, max_values=25))]},
                  create=True)


def test_min_values_at_most_max_values_at_most_options():
    p = "components.0.components.0"
    assert _comp(row(select("s", 5, min_values=3, max_values=2))) == _err(
        f"{p}.min_values", "SELECT_COMPONENT_MIN_VALUES_ABOVE_MAX",
        "min_values (3) must not exceed max_values (2)")
    assert _comp(row(select("s", 2, max_values=3))) == _err(
        f"{p}.max_values", "SELECT_COMPONENT_MAX_VALUES_ABOVE_OPTIONS",
        "max_values (3) must not exceed the number of options (2)")
    # a user select has no options to count
    check_message({"components": [row({"type": 5, "custom_id": "u", "max_values": 25})]},
                  create=True)


def test_at_most_10_files():
    check_message({"content": "x"}, [f"f{i}.png" for i in range(10)], create=True)
    errors = _refused(lambda: check_message({"content": "x"}, [f"f{i}.png" for i in range(11)],
                                            create=True))
    assert errors == _max("attachments", 10)


def test_attachment_references_in_embeds_name_a_file():
    embed = {"thumbnail": {"url": "attachment://a.png"},
             "author": {"name": "n", "icon_url": "attachment://b.png"},
             "footer": {"text": "f", "icon_url": "attachment://c.png"},
             "image": {"url": "https://example.test/x.png"}}
    check_message({"embeds": [embed]}, ["a.png", "b.png", "c.png"], create=True)
    errors = _refused(lambda: check_message({"embeds": [embed]}, ["b.png"], create=True))
    assert sorted(limits.error_paths(errors)) == [
        ("embeds.0.footer.icon_url", "EMBED_ATTACHMENT_NOT_FOUND"),
        ("embeds.0.thumbnail.url", "EMBED_ATTACHMENT_NOT_FOUND")]


def test_edit_may_reference_kept_attachments_and_send_files():
    current = {"flags": 0, "attachments": [{"id": "77", "filename": "old.png"}]}
    embed = {"image": {"url": "attachment://old.png"}}
    check_message({"embeds": [embed]}, create=False, current=current)
    check_message({"embeds": [embed], "attachments": [{"id": "77"}]}, create=False,
                  current=current)
    assert _refused(lambda: check_message({"embeds": [embed], "attachments": []},
                                          create=False, current=current)) == _err(
        "embeds.0.image.url", "EMBED_ATTACHMENT_NOT_FOUND",
        "No attachment named old.png in this message.")
    check_message({"embeds": [{"image": {"url": "attachment://new.png"}}],
                   "attachments": [{"id": 0, "filename": "new.png"}]}, ["new.png"],
                  create=False, current=current)


def test_empty_message_refused_on_create_only():
    for body in ({}, {"content": ""}, {"content": "", "embeds": [], "components": []}):
        with pytest.raises(Refusal) as caught:
            check_message(body, create=True)
        assert caught.value.body == {"message": "Cannot send an empty message", "code": 50006}
        assert caught.value.status == 400
        check_message(body, create=False, current={"content": "old"})
    check_message({}, ["a.txt"], create=True)
    check_message({"sticker_ids": ["1"]}, create=True)
    check_message({"poll": {"question": {"text": "?"}}}, create=True)
    check_message({"components": [row(button("b"))]}, create=True)


def test_components_v2_messages_have_no_row_rule_but_at_most_40_components():
    v2 = 1 << 15
    texts = [{"type": 10, "content": f"line {i}"} for i in range(7)]
    check_message({"flags": v2, "components": texts}, create=True)
    box = {"type": 17, "components": [{"type": 10, "content": "x"}] * 39}
    assert _msg(flags=v2, components=[box, {"type": 10, "content": "y"}]) == _err(
        "components", "COMPONENTS_V2_TOO_MANY_COMPONENTS", "A message holds at most 40 components")
    # rules still apply inside containers and sections, and on an edit of a v2 message
    section = {"type": 9, "components": [{"type": 10, "content": "x"}],
               "accessory": button("dup")}
    inner = {"type": 17, "components": [section, row(button("dup"))]}
    assert _refused(lambda: check_message({"components": [inner]}, create=False,
                                          current={"flags": v2})) == _err(
        "components.0.components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
        "Component custom id was already specified")


def _modal(**data: Any) -> dict[str, Any]:
    body = {"title": "Name", "custom_id": "m",
            "components": [row({"type": 4, "custom_id": "t", "style": 1, "label": "Name"})]}
    body.update(data)
    return _refused(lambda: check_callback({"type": 9, "data": body}))


def text_input(**kw: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": "t", "style": 1, "label": "Name", **kw}


def test_modal_title_1_to_45():
    check_callback({"type": 9, "data": {"title": "T" * 45, "custom_id": "m",
                                        "components": [row(text_input())]}})
    assert _modal(title="T" * 46) == _bad("data.title", 1, 45)
    assert _modal(title="") == _bad("data.title", 1, 45)


def test_modal_custom_id_1_to_100():
    assert _modal(custom_id="m" * 101) == _bad("data.custom_id", 1, 100)


def test_modal_holds_1_to_5_rows_of_one_text_input():
    rows = [row(text_input(custom_id=f"t{i}")) for i in range(6)]
    assert _modal(components=rows) == _bad("data.components", 1, 5)
    assert _modal(components=[]) == _bad("data.components", 1, 5)
    assert _modal(components=[row(text_input(custom_id="a"), text_input(custom_id="b"))]) == \
        _bad("data.components.0.components", 1, 1)
    assert _modal(components=[row(button("b"))]) == _err(
        "data.components.0.components.0.type", "UNION_TYPE_CHOICES",
        'Value of field "type" must be one of (4,).')


def test_text_input_label_placeholder_value():
    p = "data.components.0.components.0"
    assert _modal(components=[row(text_input(label="L" * 46))]) == _bad(f"{p}.label", 1, 45)
    assert _modal(components=[row(text_input(label=None))]) == _required(f"{p}.label")
    assert _modal(components=[row(text_input(placeholder="P" * 101))]) == _max(
        f"{p}.placeholder", 100)
    assert _modal(components=[row(text_input(value="V" * 4001))]) == _max(f"{p}.value", 4000)


def test_text_input_min_and_max_length():
    p = "data.components.0.components.0"
    assert _modal(components=[row(text_input(min_length=4001))]) == _err(
        f"{p}.min_length", "NUMBER_TYPE_MAX", "int value should be less than or equal to 4000.")
    assert _modal(components=[row(text_input(max_length=0))]) == _err(
        f"{p}.max_length", "NUMBER_TYPE_MIN", "int value should be greater than or equal to 1.")
    assert _modal(components=[row(text_input(min_length=10, max_length=5))]) == _err(
        f"{p}.min_length", "TEXT_INPUT_MIN_LENGTH_ABOVE_MAX",
        "min_length (10) must not exceed max_length (5)")
    check_callback({"type": 9, "data": {"title": "T", "custom_id": "m", "components": [
        row(text_input(min_length=0, max_length=4000, value="v" * 4000))]}})


def test_modal_label_components():
    label = {"type": 18, "label": "L" * 46, "description": "d" * 101,
             "component": {"type": 4, "custom_id": "t", "style": 1}}
    assert _modal(components=[label]) == {"data": {"components": {"0": {
        "label": _bad("x", 1, 45)["x"], "description": _max("x", 100)["x"]}}}}
    label.update(label="Target", description="d")
    check_callback({"type": 9, "data": {"title": "T", "custom_id": "m", "components": [
        label, {"type": 18, "label": "Animal", "component": select("a")}]}})


def test_callback_types_without_a_message_are_not_checked():
    for rtype in (1, 5, 6):
        check_callback({"type": rtype, "data": {"flags": 64}})
    assert _refused(lambda: check_callback({"type": 7, "data": {"content": "c" * 2001}})) == \
        _max("data.content", 2000)


def test_thread_and_channel_names_1_to_100():
    check_channel_name({"name": "n" * 100}, required=True)
    check_channel_name({"topic": "no name"}, required=False)
    assert _refused(lambda: check_channel_name({"name": "n" * 101}, required=True)) == _bad(
        "name", 1, 100)
    assert _refused(lambda: check_channel_name({"name": ""}, required=False)) == _bad(
        "name", 1, 100)
    assert _refused(lambda: check_channel_name({}, required=True)) == _required("name")


def test_all_errors_of_a_body_are_reported_together():
    errors = _msg(content="c" * 2001, embeds=[{"title": "t" * 257}],
                  components=[row(button("b", "L" * 81))])
    assert sorted(limits.error_paths(errors)) == [
        ("components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"),
        ("content", "BASE_TYPE_MAX_LENGTH"),
        ("embeds.0.title", "BASE_TYPE_MAX_LENGTH")]
