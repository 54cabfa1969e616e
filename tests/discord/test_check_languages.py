"""discord.py's own check failures (``app_commands.CheckFailure`` and its kinds) answered
in our own sentence in the member's language (:func:`bot.discord.permissions.check_refusal`),
never discord.py's English: through the real dispatch against the sandbox, with test
commands carrying discord.py's real checks added to the bot's command tree."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.discord.permissions import check_refusal, permission_names
from tests.support import headline

NO = "\N{NO ENTRY SIGN}"


def _probes():  # type: ignore[no-untyped-def]
    async def answer(interaction: discord.Interaction) -> None:
        await interaction.followup.send("ok", ephemeral=True)

    perm = app_commands.command(name="probe-perm", description="probe")(answer)
    perm = app_commands.checks.has_permissions(manage_guild=True, manage_roles=True)(perm)
    mine = app_commands.command(name="probe-bot", description="probe")(answer)
    mine = app_commands.checks.bot_has_permissions(manage_threads=True)(mine)
    slow = app_commands.command(name="probe-slow", description="probe")(answer)
    slow = app_commands.checks.cooldown(1, 60.0)(slow)
    dm = app_commands.command(name="probe-dm", description="probe")(answer)
    dm = app_commands.checks.has_role("Herders")(dm)
    dm = app_commands.allowed_installs(guilds=True, users=True)(dm)
    dm = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(dm)
    never = app_commands.command(name="probe-never", description="probe")(answer)
    never = app_commands.check(lambda interaction: False)(never)
    return [perm, mine, slow, dm, never]


@pytest.fixture
def probed(sb):
    for command in _probes():
        sb.bot.tree.add_command(command)
    return sb


async def test_each_check_failure_is_our_sentence_in_the_members_language(world, probed):
    ana = world.member("Ana")
    ana.locale = "de"
    await ana.slash("probe-perm")
    assert headline(ana.last_reply) == (
        f"{NO} Für diesen Befehl brauchst du die Berechtigungen Server verwalten und Rollen "
        "verwalten.")
    await ana.slash("probe-bot")
    assert headline(ana.last_reply) == (
        f"{NO} Mir fehlt hier die Berechtigung Threads verwalten. Ein Server-Admin kann sie "
        "herdbot in den Einstellungen dieses Kanals geben (Kanal bearbeiten > Berechtigungen).")
    ana.locale = "fr"
    await ana.slash("probe-slow")
    assert ana.last_reply.content == "ok"
    await ana.slash("probe-slow")
    assert headline(ana.last_reply) in {
        f"{NO} Doucement : tu pourras réutiliser cette commande dans {n} secondes."
        for n in (59, 60)}
    ana.locale = "pl"
    await ana.slash("probe-dm")
    assert headline(ana.last_reply) == (
        f"{NO} Ta komenda jest tylko dla członków z określoną rolą.")
    dm = world.channel((await probed.bot.create_dm(ana)).id)  # type: ignore[arg-type]
    ana.locale = "es"
    await ana.slash("probe-dm", in_channel=dm)
    assert headline(ana.last_reply) == (
        f"{NO} Este comando solo funciona en un servidor, no en mensajes directos.")
    ana.locale = "pt-BR"
    await ana.slash("probe-never")
    assert headline(ana.last_reply) == f"{NO} Você não pode usar este comando aqui."
    texts = [headline(m) for m in ana.ephemerals]
    assert not any("check" in t or "You are missing" in t or "cooldown" in t for t in texts)


def test_the_mapping_names_permissions_as_discord_does():
    assert permission_names("de", ["view_channel", "read_message_history"]) == (
        "Kanäle ansehen und Nachrichtenverlauf anzeigen")
    assert permission_names("en", ["manage_guild", "moderate_members"]) == (
        "Manage Server and Moderate Members")
    refusal = check_refusal(app_commands.MissingPermissions(["send_messages"]))
    assert refusal.text("pl") == "Do tej komendy potrzebujesz uprawnienia Wysyłanie wiadomości."
    assert refusal.message == "You need the permission Send Messages to use this command."
    cooldown = check_refusal(app_commands.CommandOnCooldown(app_commands.Cooldown(1, 5.0), 0.2))
    assert cooldown.text("pl") == "Zwolnij: tej komendy możesz znowu użyć za 1 sekundę."
    assert check_refusal(app_commands.CommandOnCooldown(
        app_commands.Cooldown(1, 5.0), 4.5)).text("pl") == (
        "Zwolnij: tej komendy możesz znowu użyć za 5 sekund.")
    assert check_refusal(app_commands.MissingAnyRole(["a", 2])).text("fr") == (
        "Cette commande est réservée aux membres qui ont un certain rôle.")
    assert check_refusal(app_commands.CheckFailure("The check functions for command 'x' "
                                                   "failed.")).text("de") == (
        "Diesen Befehl kannst du hier nicht verwenden.")
