"""The sandbox's rules for a modal's Label, Radio Group, Checkbox Group and Checkbox
(bot/sandbox/limits_modal.py), each alone, and what a member's client submits for them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.sandbox import limits_modal
from bot.sandbox.limits import check_message, check_modal
from tests.sandbox.test_limits import _bad, _err, _refused, _required


def radio(n: int = 2, **kw: Any) -> dict[str, Any]:
    return {"type": 21, "custom_id": "r",
            "options": [{"label": f"L{i}", "value": f"v{i}"} for i in range(n)], **kw}


def group(n: int = 2, **kw: Any) -> dict[str, Any]:
    return {"type": 22, "custom_id": "g",
            "options": [{"label": f"L{i}", "value": f"v{i}"} for i in range(n)], **kw}


def label(component: dict[str, Any], text: str = "Pick") -> dict[str, Any]:
    return {"type": 18, "label": text, "component": component}


def modal(*components: dict[str, Any]) -> dict[str, Any]:
    return {"title": "Options", "custom_id": "m", "components": list(components)}


def test_a_modal_of_labelled_radio_checkbox_select_and_text_passes():
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    check_modal(modal(label(radio(10)), label(group(10, min_values=0, max_values=10)),
                      label({"type": 23, "custom_id": "c", "default": True}),
                      label(select), label({"type": 4, "custom_id": "t", "style": 1})))


def test_radio_group_bounds():
    assert _refused(lambda: check_modal(modal(label(radio(1))))) == _bad(
        "data.components.0.component.options", 2, 10)
    assert _refused(lambda: check_modal(modal(label(radio(11))))) == _bad(
        "data.components.0.component.options", 2, 10)
    two = radio(2)
    two["options"][0]["default"] = two["options"][1]["default"] = True
    assert _refused(lambda: check_modal(modal(label(two)))) == _err(
        "data.components.0.component.options", "RADIO_GROUP_DEFAULT_COUNT",
        "A radio group has at most one default option")
    assert _refused(lambda: check_modal(modal(label({"type": 21, "custom_id": "r"})))) == \
        _required("data.components.0.component.options")
    long = radio(2)
    long["options"][0]["label"] = "x" * 101
    assert _refused(lambda: check_modal(modal(label(long)))) == _bad(
        "data.components.0.component.options.0.label", 1, 100)


def test_checkbox_group_bounds():
    assert _refused(lambda: check_modal(modal(label(group(0))))) == _bad(
        "data.components.0.component.options", 1, 10)
    assert _refused(lambda: check_modal(modal(label(group(2, max_values=3))))) == _err(
        "data.components.0.component.max_values", "CHECKBOX_GROUP_MAX_VALUES_ABOVE_OPTIONS",
        "max_values (3) must not exceed the number of options (2)")
    assert _refused(lambda: check_modal(modal(label(group(2, min_values=2, max_values=1))))) \
        == _err("data.components.0.component.min_values",
                "CHECKBOX_GROUP_MIN_VALUES_ABOVE_MAX", "min_values (2) must not exceed "
                "max_values (1)")
    assert _refused(lambda: check_modal(modal(label(group(2, min_values=11))))) == _err(
        "data.components.0.component.min_values", "NUMBER_TYPE_MAX",
        "int value should be less than or equal to 10.")


def test_checkbox_default_is_a_bool_and_custom_ids_are_required_and_unique():
    assert _refused(lambda: check_modal(modal(label({"type": 23, "custom_id": "c",
                                                       "default": "yes"})))) == _err(
        "data.components.0.component.default", "BASE_TYPE_BOOLEAN",
        "Must be either true or false.")
    assert _refused(lambda: check_modal(modal(label({"type": 23})))) == _required(
        "data.components.0.component.custom_id")
    assert _refused(lambda: check_modal(modal(label(radio()), label(radio())))) == _err(
        "data.components.1.component.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
        "Component custom id was already specified")


def test_the_new_inputs_stand_only_in_a_modal_label():
    assert _refused(lambda: check_modal(modal(radio()))) == _err(
        "data.components.0.type", "UNION_TYPE_CHOICES",
        "Value of field \"type\" must be one of (1, 10, 18).")
    assert _refused(lambda: check_modal(modal(label({"type": 2, "style": 1, "label": "b",
                                                       "custom_id": "b"})))) == _err(
        "data.components.0.component.type", "UNION_TYPE_CHOICES",
        "Value of field \"type\" must be one of (3, 4, 5, 6, 7, 8, 19, 21, 22, 23).")
    row = {"type": 1, "components": [radio()]}
    errors = _refused(lambda: check_message({"components": [row]}, create=True))
    assert errors == _err("components.0.components.0.type", "UNION_TYPE_CHOICES",
                          "Value of field \"type\" must be one of "
                          "(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17).")


def test_what_a_client_submits():
    r = radio(3)
    r["options"][1]["default"] = True
    assert limits_modal.answer(r, None, False) == {"type": 21, "custom_id": "r", "id": 0,
                                                   "value": "v1"}
    assert limits_modal.answer(r, "v2", True)["value"] == "v2"
    assert limits_modal.answer(radio(2), None, False)["value"] is None
    assert limits_modal.answer(group(3), ["v0", "v2"], True)["values"] == ["v0", "v2"]
    assert limits_modal.answer(group(3), None, False)["values"] == []
    assert limits_modal.answer({"type": 23, "custom_id": "c", "default": True}, None,
                               False)["value"] is True
    assert limits_modal.answer({"type": 23, "custom_id": "c"}, True, True)["value"] is True
    with pytest.raises(ValueError):
        limits_modal.answer(group(2), ["nope"], True)
