"""Discord's rules for the components only a modal holds: a Label (type 18) around one
input, and the inputs that exist only inside a label: Radio Group (21), Checkbox Group (22)
and Checkbox (23) (and File Upload, 19, not checked further here).

:mod:`bot.sandbox.limits` calls these while it walks a modal, so every error of one body
lands in the same 50035 ``errors`` object. Sources: S = the schemas of
``discord-api-spec/openapi.json`` (``ModalInteractionCallbackRequestData``,
``LabelComponentForModalRequest``, ``RadioGroupComponentForModalRequest``,
``RadioGroupOptionForRequest``, ``CheckboxGroupComponentForModalRequest``,
``CheckboxGroupOptionForRequest``, ``CheckboxComponentForModalRequest``), D = Discord's
components reference (Label, Radio Group, Checkbox Group, Checkbox):

========================================  =============================  ================
rule                                      answer (code at path)          source
========================================  =============================  ================
modal top level: action row, text         UNION_TYPE_CHOICES at type     S ModalInteraction
display or label (1, 10, 18)                                             CallbackRequestData
label's component: a select (3, 5-8), a   UNION_TYPE_CHOICES at type     S Label...
text input, a file upload, a radio group,
a checkbox group or a checkbox
21, 22, 23 anywhere but in a modal's      UNION_TYPE_CHOICES at type     S (no message
label                                                                    schema holds them)
radio group: custom_id, 2-10 options      REQUIRED / BAD_LENGTH          S, D Radio Group
checkbox group: custom_id, 1-10 options,  REQUIRED / BAD_LENGTH /        S, D Checkbox Group
min_values 0-10, max_values 1-10          NUMBER_TYPE_*
option label, value 1-100; description    BAD_LENGTH / MAX_LENGTH        S ...OptionForRequest
<= 100; values unique (ours)
radio group: at most one default (ours);  ..._DEFAULT_COUNT (ours)       D Radio Group
checkbox group: min <= max <= options,
defaults <= max (ours)
checkbox: custom_id; ``default`` a bool   REQUIRED / BASE_TYPE_BOOLEAN   S Checkbox...
========================================  =============================  ================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

#: The types a modal holds at its top level.
MODAL_TOP = (1, 10, 18)
#: The types a label may hold.
IN_LABEL = (3, 4, 5, 6, 7, 8, 19, 21, 22, 23)
#: The types that exist only inside a modal's label.
LABEL_ONLY = (19, 21, 22, 23)
MAX_RADIO_OPTIONS = 10
MAX_CHECKBOX_OPTIONS = 10
MAX_OPTION_TEXT = 100

Path = tuple[str | int, ...]


class Errors(Protocol):
    """The error collector of :mod:`bot.sandbox.limits`."""

    def add(self, path: Path, code: str, message: str) -> None: ...

    def required(self, path: Path) -> None: ...

    def length(self, path: Path, value: Any, lo: int, hi: int) -> None: ...

    def number(self, path: Path, value: Any, lo: int, hi: int) -> None: ...


def not_allowed(err: Errors, path: Path, allowed: tuple[int, ...]) -> None:
    """A component of a type that may not stand at ``path``."""
    err.add((*path, "type"), "UNION_TYPE_CHOICES",
            f"Value of field \"type\" must be one of {allowed}.")


def _options(err: Errors, path: Path, options: Any, lo: int, hi: int) -> list[Mapping[str, Any]]:
    if options is None:
        err.required((*path, "options"))
        return []
    err.length((*path, "options"), options, lo, hi)
    values: set[str] = set()
    for k, o in enumerate(options):
        op: Path = (*path, "options", k)
        for key in ("label", "value"):
            if o.get(key) is None:
                err.required((*op, key))
            else:
                err.length((*op, key), str(o[key]), 1, MAX_OPTION_TEXT)
        err.length((*op, "description"), o.get("description"), 0, MAX_OPTION_TEXT)
        if o.get("value") is not None:
            if str(o["value"]) in values:  # code ours
                err.add((*op, "value"), "COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Option values must be unique")
            values.add(str(o["value"]))
    return list(options)


def radio_group(err: Errors, path: Path, c: Mapping[str, Any]) -> None:
    """Type 21 (its custom_id is checked by the caller)."""
    options = _options(err, path, c.get("options"), 2, MAX_RADIO_OPTIONS)
    if sum(bool(o.get("default")) for o in options) > 1:  # code ours
        err.add((*path, "options"), "RADIO_GROUP_DEFAULT_COUNT",
                "A radio group has at most one default option")


def checkbox_group(err: Errors, path: Path, c: Mapping[str, Any]) -> None:
    """Type 22 (its custom_id is checked by the caller)."""
    options = _options(err, path, c.get("options"), 1, MAX_CHECKBOX_OPTIONS)
    lo, hi = c.get("min_values"), c.get("max_values")
    err.number((*path, "min_values"), lo, 0, MAX_CHECKBOX_OPTIONS)
    err.number((*path, "max_values"), hi, 1, MAX_CHECKBOX_OPTIONS)
    lo = 1 if lo is None else lo
    hi = max(len(options), 1) if hi is None else hi
    if lo > hi and lo <= MAX_CHECKBOX_OPTIONS:  # code ours (out of range: said above)
        err.add((*path, "min_values"), "CHECKBOX_GROUP_MIN_VALUES_ABOVE_MAX",
                f"min_values ({lo}) must not exceed max_values ({hi})")
    if options and hi > len(options):  # code ours
        err.add((*path, "max_values"), "CHECKBOX_GROUP_MAX_VALUES_ABOVE_OPTIONS",
                f"max_values ({hi}) must not exceed the number of options ({len(options)})")
    if sum(bool(o.get("default")) for o in options) > hi:  # code ours
        err.add((*path, "options"), "CHECKBOX_GROUP_DEFAULT_COUNT",
                f"At most max_values ({hi}) options may be default")


def checkbox(err: Errors, path: Path, c: Mapping[str, Any]) -> None:
    """Type 23 (its custom_id is checked by the caller)."""
    default = c.get("default")
    if default is not None and not isinstance(default, bool):
        err.add((*path, "default"), "BASE_TYPE_BOOLEAN", "Must be either true or false.")


CHECKS: dict[int, Callable[[Errors, Path, Mapping[str, Any]], None]] = {
    21: radio_group, 22: checkbox_group, 23: checkbox}


def answer(comp: Mapping[str, Any], given: Any, found: bool) -> dict[str, Any]:
    """What a member's client submits for a string select, radio group, checkbox group or
    checkbox of a modal: ``given`` (a value, a list of values, a bool) when ``found``, else
    the component's defaults. Raises ``ValueError`` for a value that is not an option."""
    t = comp["type"]
    out: dict[str, Any] = {"type": t, "custom_id": comp.get("custom_id"), "id": comp.get("id", 0)}
    values = [str(o["value"]) for o in comp.get("options") or []]
    if t == 23:
        out["value"] = bool(given) if found else bool(comp.get("default"))
        return out
    if found:
        picked = [str(v) for v in (given if isinstance(given, list) else [given])]
    else:
        picked = [str(o["value"]) for o in comp.get("options") or [] if o.get("default")]
    for v in picked:
        if v not in values:
            raise ValueError(f"{v!r} is not an option of {comp.get('custom_id')!r}")
    if t == 21:
        out["value"] = picked[0] if picked else None
    else:
        out["values"] = picked
    return out


__all__ = ["CHECKS", "IN_LABEL", "LABEL_ONLY", "MODAL_TOP", "answer", "not_allowed"]
