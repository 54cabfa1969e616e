"""The spec checker itself (bot.sandbox.conformance), on hand-made requests: route
matching with literal segments, query and path parameters, body schemas through
``$ref``/unions (Components V2 ones too), multipart file parts, integer snowflakes, the
report."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from discord import ui

from bot.sandbox.conformance import SPEC_ENV, Spec, find_spec, spec_candidates

CALLBACK = "/interactions/11/tok/callback"


def _one(violations):
    assert len(violations) == 1, violations
    v = violations[0]
    return v.where, v.field, v.message


def _row(*components):
    return {"type": 1, "components": list(components)}


def _select(n, custom_id="hb:pick"):
    return {"type": 3, "custom_id": custom_id,
            "options": [{"label": f"Card {i}", "value": str(i)} for i in range(n)]}


@pytest.mark.parametrize(("method", "path", "template"), [
    ("PATCH", "/webhooks/1/tok/messages/@original",
     "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/1/tok/messages/22", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("POST", "/webhooks/1/tok", "/webhooks/{webhook_id}/{webhook_token}"),
    ("POST", CALLBACK, "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("GET", "/users/@me", "/users/@me"),
    ("GET", "/users/5", "/users/{user_id}"),
    ("PUT", "/channels/3/thread-members/@me", "/channels/{channel_id}/thread-members/@me"),
    ("PUT", "/channels/3/thread-members/7", "/channels/{channel_id}/thread-members/{user_id}"),
    ("POST", "/channels/3/messages/4/threads", "/channels/{channel_id}/messages/{message_id}/threads"),
])
def test_a_path_matches_its_template_and_literal_segments_win(spec: Spec, method, path, template):
    op, values = spec.match(method, path)
    assert op is not None and op.template == template
    assert values == [s for s, t in zip(path.split("/"), template.split("/"), strict=True)
                      if t.startswith("{")]


def test_a_route_the_spec_does_not_have_is_a_violation(spec: Spec):
    assert _one(spec.check_request("GET", "/channels/3/nothing", {}, None)) == (
        "route", "/channels/3/nothing", "the spec declares GET for none of its paths")
    assert _one(spec.check_request("DELETE", "/users/@me", {}, None)) == (
        "route", "/users/@me",
        "the spec declares DELETE for none of ['/users/@me', '/users/@me', '/users/{user_id}']")


def test_a_path_parameter_must_fit_its_schema(spec: Spec):
    assert _one(spec.check_request("PATCH", "/channels/abc/messages/4", {}, {"content": "x"})) == (
        "path", "channel_id", "'abc' does not match '^(0|[1-9][0-9]*)$'")
    # A literal the spec does not have falls to the {message_id} template and fails there.
    assert _one(spec.check_request("PATCH", "/webhooks/1/tok/messages/@first", {}, {})) == (
        "path", "message_id", "'@first' does not match '^(0|[1-9][0-9]*)$'")


def test_query_parameters_are_declared_ones_with_values_of_their_type(spec: Spec):
    ok = {"content": "hi"}
    for flag in ("1", "true", "True", "0", "false", "False"):  # Discord's boolean query strings
        assert spec.check_request("POST", "/webhooks/1/tok", {"wait": flag}, ok) == []
    assert _one(spec.check_request("POST", "/webhooks/1/tok", {"wait": "yes"}, ok)) == (
        "query", "wait", "'yes' is not of type 'boolean'")
    assert _one(spec.check_request("GET", "/channels/3/messages", {"limit": "101"}, None)) == (
        "query", "limit", "101 is greater than the maximum of 100")
    assert _one(spec.check_request("PATCH", "/webhooks/1/tok/messages/@original", {"x": "1"}, ok)) == (
        "query", "x", "not a query parameter of PATCH "
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original "
        "(declared: ['thread_id', 'with_components'])")


def test_a_callback_body_is_checked_in_the_branch_of_its_type(spec: Spec):
    assert spec.check_request("POST", CALLBACK, {"with_response": "1"},
                              {"type": 4, "data": {"content": "x" * 2000, "flags": 64}}) == []
    assert _one(spec.check_request("POST", CALLBACK, {}, {"type": 4, "data": {"content": "x" * 2001}})) == (
        "body", "$.data.content", "'" + "x" * 59 + "... (2001 long) is too long")
    label = "L" * 81
    body = {"type": 7, "data": {"components": [_row(
        {"type": 2, "style": 1, "label": label, "custom_id": "a"})]}}
    assert _one(spec.check_request("POST", CALLBACK, {}, body)) == (
        "body", "$.data.components[0].components[0].label", "'" + "L" * 59 + "... (81 long) is too long")


def test_component_and_embed_limits_of_the_schema_are_found(spec: Spec):
    path = "/channels/3/messages"
    assert spec.check_request("POST", path, {}, {"components": [_row(_select(25))]}) == []
    where, field, message = _one(spec.check_request("POST", path, {}, {"components": [_row(_select(26))]}))
    assert (where, field, message.endswith("(26 long) is too long")) == (
        "body", "$.components[0].components[0].options", True)
    assert _one(spec.check_request("POST", path, {}, {"embeds": [{"title": "t" * 257}]}))[:2] == (
        "body", "$.embeds[0].title")
    assert _one(spec.check_request("POST", path, {}, {"components": [_row(_select(2, ""))]})) == (
        "body", "$.components[0].components[0].custom_id", "'' should be non-empty")


def test_a_request_without_the_body_its_route_requires_or_with_one_it_takes_none(spec: Spec):
    assert _one(spec.check_request("POST", "/channels/3/messages", {}, None)) == (
        "body", "$", "POST /channels/{channel_id}/messages requires a body; none was sent")
    assert _one(spec.check_request("GET", "/users/@me", {}, {"x": 1})) == (
        "body", "$", "GET /users/@me takes no body; one was sent")


def test_multipart_file_parts_are_the_declared_files_n(spec: Spec):
    body = {"content": "t", "attachments": [{"id": "0", "filename": "table.png"}]}
    part = SimpleNamespace(name="files[0]")
    assert spec.check_request("POST", "/channels/3/messages", {}, body, [part]) == []
    assert _one(spec.check_request("POST", "/channels/3/messages", {}, body,
                                   [SimpleNamespace(name="file")])) == (
        "files", "file", "not a file part the spec declares")
    # The callback's multipart schema declares no file parts: Discord's files[n] applies.
    cb = {"type": 4, "data": {"content": "t"}}
    assert spec.check_request("POST", CALLBACK, {}, cb, [part]) == []
    assert _one(spec.check_request("POST", CALLBACK, {}, cb, [SimpleNamespace(name="files[10]")])) == (
        "files", "files[10]", "not a documented files[n] part")


def test_an_integer_snowflake_is_read_as_the_id_and_counted(spec: Spec):
    ints: list[str] = []
    assert spec.check_request("POST", "/users/@me/channels", {}, {"recipient_id": 123},
                              integer_snowflakes=ints) == []
    assert ints == ["$.recipient_id"]
    assert _one(spec.check_request("POST", "/users/@me/channels", {}, {"recipient_id": "abc"})) == (
        "body", "$.recipient_id", "'abc' does not match '^(0|[1-9][0-9]*)$'")
    # An integer outside the snowflake range is no ID; embed flags (an integer field) are
    # not counted as snowflakes.
    assert spec.check_request("POST", "/users/@me/channels", {}, {"recipient_id": -1})[0].field == (
        "$.recipient_id")
    ints = []
    body = {"embeds": [{"title": "x", "flags": 0}], "attachments": [{"id": 0}]}
    assert spec.check_request("POST", "/channels/3/messages", {}, body,
                              [SimpleNamespace(name="files[0]")], integer_snowflakes=ints) == []
    assert ints == ["$.attachments[0].id"]


def test_the_report_counts_and_lists_the_first_three(spec: Spec):
    def req(method, path, query=None, json=None):
        return SimpleNamespace(method=method, path=path, query=query or {}, json=json, files=[])

    good = req("POST", "/channels/3/messages", json={"content": "hi"})
    bad = [req("POST", "/channels/3/messages", json={"content": 5}) for _ in range(4)]
    report = spec.check([good, req("GET", "/users/@me"), *bad,
                         req("POST", "/users/@me/channels", json={"recipient_id": 9})])
    assert (report.checked, report.with_body, len(report.violations)) == (7, 6, 4)
    assert report.routes == {"POST /channels/{channel_id}/messages": 5, "GET /users/@me": 1,
                             "POST /users/@me/channels": 1}
    assert dict(report.integer_snowflakes) == {"POST /users/@me/channels $.recipient_id": 1}
    assert report.summary().splitlines() == [
        "7 requests checked (6 with a body) over 3 routes; 4 violation(s)",
        "IDs sent as JSON integers: POST /users/@me/channels $.recipient_id x1",
        *["  POST /channels/3/messages: body $.content: 5 is not of type 'string', 'null'"] * 3,
        "  ... and 1 more"]


def test_the_spec_is_found_from_the_environment_variable_or_above_the_repo(monkeypatch, tmp_path):
    monkeypatch.delenv(SPEC_ENV, raising=False)
    # Every folder looked in is inside tmp_path: a spec above it (wherever the tests run)
    # cannot be found; one folder further up than the lookup goes is not found either.
    repo = tmp_path / "top" / "main" / "wt" / "repo"
    repo.mkdir(parents=True)
    too_high = tmp_path / "shared" / "discord-api-spec" / "openapi.json"
    too_high.parent.mkdir(parents=True)
    too_high.write_text("{}")
    assert find_spec(repo) is None
    assert spec_candidates(repo) == [
        tmp_path / "top" / "main" / "wt" / "shared/discord-api-spec/openapi.json",
        tmp_path / "top" / "main" / "shared/discord-api-spec/openapi.json",
        tmp_path / "top" / "shared/discord-api-spec/openapi.json"]
    found = tmp_path / "top" / "shared" / "discord-api-spec" / "openapi.json"
    found.parent.mkdir(parents=True)
    found.write_text("{}")
    assert find_spec(repo) == found
    other = tmp_path / "spec.json"
    monkeypatch.setenv(SPEC_ENV, str(other))
    assert (spec_candidates(repo), find_spec(repo)) == ([other], None)
    other.write_text("{}")
    assert find_spec(repo) == Path(other)


def test_a_components_v2_table_is_checked_against_the_v2_schemas(spec: Spec):
    view = ui.LayoutView()
    view.add_item(ui.Container(
        ui.MediaGallery(discord.MediaGalleryItem("attachment://table.png",
                                                 description="Ana to play")),
        ui.TextDisplay("**Turn 1**"), ui.Separator(),
        ui.Section(ui.TextDisplay("Ana"), accessory=ui.Thumbnail("attachment://me.png")),
        ui.ActionRow(ui.Button(label="Take", custom_id="t:take")),
        accent_colour=0x2E8B57))
    body = {"content": None, "flags": 1 << 15, "components": view.to_components(),
            "attachments": [{"id": "0", "filename": "table.png"}]}
    path = "/channels/3/messages"
    assert spec.check_request("POST", path, {}, body) == []
    assert spec.check_request("POST", CALLBACK, {}, {"type": 4, "data": body}) == []
    gallery = body["components"][0]["components"][0]
    gallery["items"] = gallery["items"] * 11
    where, field, message = _one(spec.check_request("POST", path, {}, body))
    assert (where, field) == ("body", "$.components[0].components[0].items")
