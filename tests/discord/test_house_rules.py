"""House rules in one form: the lobby's Options modal (label, radio group, checkbox group,
select, text input), its checks, server presets (/play preset:, /settings presets) and
their survival of a restart, through the real bot in the sandbox (tiny game: a target,
Double steps and Take-backs)."""

from __future__ import annotations

import pytest

from bot.app import builtin_games
from bot.games.registry import Registry
from bot.sandbox import World
from bot.sandbox.model import SandboxError
from tests.discord.conftest import make_bot
from tests.support import headline, texts


def pinged(message) -> list[int]:
    return [int(u["id"]) for u in message.data["mentions"]]


def options_field(lobby) -> str:
    """The lobby's options lines, whether the lobby is an embed or a Components V2
    message (the text that holds the turn timer)."""
    if lobby.embeds:
        return lobby.embeds[0]["fields"][1]["value"]
    return next(t for t in texts(lobby) if "Turn timer:" in t)


async def lobby_of(world, *joiners: str, game: str = "tiny"):
    ana = world.member("Ana")
    await ana.slash("play", game=game)
    lobby = ana.last_reply
    for name in joiners:
        await world.member(name).click(lobby, "Join")
    return ana, lobby


async def test_the_form_holds_every_option_in_modal_components(world, sb):
    ana, lobby = await lobby_of(world, "Bo")
    await ana.click(lobby, "Options")
    modal = ana.modal["data"]
    assert modal["title"] == "Tiny Race: options"
    top = modal["components"]
    assert [c["type"] for c in top] == [18, 18, 18, 18]
    assert [c["label"] for c in top] == ["Turn timer", "Rules", "Target",
                                         "Save as a server preset (optional)"]
    assert [c["component"]["type"] for c in top] == [21, 22, 3, 4]
    timer = top[0]["component"]
    assert [(o["value"], o.get("default", False)) for o in timer["options"]] == [
        ("off", True), ("2m", False), ("10m", False), ("1h", False), ("24h", False)]
    rules = top[1]["component"]
    assert [(o["label"], o["value"], o.get("default", False)) for o in rules["options"]] == [
        ("Double steps", "double", False), ("Take-backs", "take_backs", False)]
    assert (rules["min_values"], rules["max_values"]) == (0, 2)
    target = top[2]["component"]
    assert [o["value"] for o in target["options"]] == [
        "5", "10", "15", "20", "30", "45"]
    assert [o["value"] for o in target["options"] if o.get("default")] == ["20"]


async def test_the_host_sets_every_option_at_once_and_saves_a_preset(world, sb):
    ana, lobby = await lobby_of(world, "Bo")
    await ana.click(lobby, "Options")
    name = "**Fast** @everyone <@1>"
    await ana.submit_modal({"turn_timer": "10m", "rules": ["double", "take_backs"],
                            "n.target": "30", "preset": name})
    field = options_field(lobby)
    assert "Turn timer: 10 minutes per turn" in field
    assert "Double steps: on" in field and "Take-backs: on" in field
    record = await sb.bot.store.get_game(1)
    assert {k: record.options[k] for k in ("turn_timer", "double", "take_backs", "target")} == {
        "turn_timer": "10m", "double": True, "take_backs": True, "target": 30}
    reply = ana.last_reply
    assert reply.ephemeral
    assert headline(reply) == ("Saved as the server preset “\\*\\*Fast\\*\\* @\u200beveryone "
                               "<@\u200b1>”: open a lobby with it with /play preset:.")
    assert pinged(reply) == []
    presets = await sb.bot.store.presets(world.guild_id)
    assert [(p.name, p.kind, p.options) for p in presets] == [
        ("**Fast** @everyone <@1>", "tiny",
         {"double": True, "take_backs": True, "target": 30, "turn_timer": "10m"})]
    # the preset opens a lobby with those options; autocomplete offers it as typed
    bo = world.member("Bo")
    assert await bo.autocomplete("play", game="tiny", preset="fast") == [
        {"name": name, "value": name}]
    await bo.slash("play", game="tiny", preset=name)
    second = bo.last_reply
    record = await sb.bot.store.get_game(2)
    assert {k: record.options[k] for k in ("turn_timer", "double", "take_backs", "target")} == {
        "turn_timer": "10m", "double": True, "take_backs": True, "target": 30}
    assert "Take-backs: on" in options_field(second)


async def test_invalid_combinations_and_seat_counts_are_refused_with_a_sentence(world, sb):
    ana, lobby = await lobby_of(world, "Bo", "Cy", "Di")
    await ana.click(lobby, "Options")
    await ana.submit_modal({"rules": ["double"], "n.target": "5"})
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} These options do not work: Some "
                                        "of these options do not go together.")
    await ana.click(lobby, "Options")
    await ana.submit_modal({"rules": ["double"], "n.target": "30"})
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} With 4 players these options do not "
                                        "work: double steps are for 2 or 3 players.")
    record = await sb.bot.store.get_game(1)
    assert "double" not in record.options and record.options.get("target") is None
    assert "Double steps: off" in options_field(lobby)


async def test_only_the_host_opens_the_form(world, sb):
    ana, lobby = await lobby_of(world, "Bo")
    bo = world.member("Bo")
    await bo.click(lobby, "Options")
    assert bo.modal is None
    assert headline(bo.last_reply) == "\N{NO ENTRY SIGN} Only the host can change the options."


async def test_the_sandbox_refuses_a_value_the_form_does_not_offer(world, sb):
    ana, lobby = await lobby_of(world, "Bo")
    await ana.click(lobby, "Options")
    with pytest.raises(SandboxError):
        await ana.submit_modal({"n.target": "99"})


async def test_presets_are_listed_deleted_and_survive_a_restart(world, sb, clock, tmp_path):
    ana, lobby = await lobby_of(world, "Bo")
    await ana.click(lobby, "Options")
    await ana.submit_modal({"turn_timer": "1h", "preset": "Sunday"})
    await world.disconnect()
    again = await world.connect(make_bot(tmp_path / "bot.sqlite3", clock))
    mo = world.member("Mo")
    await mo.slash("settings", presets=True)
    text = headline(mo.last_reply)
    assert text.endswith("House-rule presets:\n\N{BULLET} “Sunday” (Tiny Race): double: False, "
                         "take backs: False, target: 20, turn timer: 1h")
    await ana.slash("play", game="tiny", preset="Sunday")
    record = await again.bot.store.get_game(2)
    assert record.options["turn_timer"] == "1h"
    await mo.slash("settings", delete_preset="Sunday")
    assert "Preset “Sunday” deleted." in headline(mo.last_reply)
    assert "House-rule presets: none yet" in headline(mo.last_reply)
    await ana.slash("play", game="tiny", preset="Sunday")
    assert headline(ana.last_reply) == ("\N{NO ENTRY SIGN} This server has no Tiny Race preset "
                                        "called “Sunday”.")


SHIPPED = builtin_games()


@pytest.mark.parametrize("key", [s.key for s in SHIPPED])
async def test_every_shipped_game_s_form_opens_and_keeps_its_options(key, tmp_path, clock):
    """Each shipped game's form passes the strict sandbox, offers every option, and a
    submit with its defaults keeps the lobby's options as they were."""
    world = World()
    world.add_member("Ana")
    world.add_member("Bo")
    extensions = ("cogs.lobby", "cogs.game", "cogs.admin", SHIPPED[key].cog)
    sb = await world.connect(make_bot(tmp_path / "g.sqlite3", clock,
                                      registry=Registry([SHIPPED[key]]), extensions=extensions))
    try:
        ana, lobby = await lobby_of(world, "Bo", game=key)
        before = dict((await sb.bot.store.get_game(1)).options)
        await ana.click(lobby, "Options")
        top = ana.modal["data"]["components"]
        labels = [c["label"] for c in top]
        expected = {
            "llamas-alpacas": ["Turn timer", "Rules", "Save as a server preset (optional)"],
            "pacapaca": ["Turn timer", "Rules", "Save as a server preset (optional)"],
            "llamas-unleashed": ["Turn timer", "Rules", "Reaction window",
                                 "Time to choose a Baby", "Save as a server preset (optional)"],
        }[key]
        assert labels == expected
        rules = [o["value"] for o in top[1]["component"]["options"]]
        assert rules == {"llamas-alpacas": ["hints", "take_backs"],
                         "pacapaca": ["babies", "hints", "take_backs"],
                         "llamas-unleashed": ["open_windows", "hints", "take_backs"]}[key]
        await ana.submit_modal()
        after = (await sb.bot.store.get_game(1)).options
        assert after == {**before, "take_backs": False, **{
            "llamas-alpacas": {},
            "pacapaca": {"babies": False},
            "llamas-unleashed": {"open_windows": True, "reaction_seconds": 20.0,
                                 "setup_seconds": 60.0},
        }[key]}
    finally:
        await world.disconnect()
