"""What ``herdbot`` prints is in its operator's language, read from the environment as
gettext programs read it (``LC_ALL``, ``LC_MESSAGES``, ``LANG``; GNU's ``LANGUAGE``),
English for ``C``/``POSIX``, unset or a language herdbot does not speak."""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys

import pytest

from bot.cli import main
from bot.config import _ALLOWED, MAX_SHARDS
from bot.i18n import operator_language
from bot.store.lock import DatabaseInUse


@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "en"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT@euro"}, "de"),
    ({"LANG": "fr_CA.utf8"}, "fr"),
    ({"LANG": "es_MX.UTF-8"}, "es"),
    ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
    ({"LANG": "pt_PT.UTF-8"}, "en"),  # gettext: pt_PT, then pt; herdbot has pt_BR only
    ({"LANG": "pl_PL.UTF-8"}, "pl"),
    ({"LANG": "not a locale"}, "en"),
    ({"LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "pl_PL.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "pl_PL.UTF-8"}, "de"),
    ({"LC_ALL": "", "LANG": "pl_PL.UTF-8"}, "pl"),
    ({"LC_ALL": "C", "LANG": "pl_PL.UTF-8"}, "en"),
    ({"LANG": "pl_PL.UTF-8", "LANGUAGE": "ja:es:de"}, "es"),
    ({"LANG": "pl_PL.UTF-8", "LANGUAGE": "ja"}, "en"),
    ({"LANG": "C.UTF-8", "LANGUAGE": "de"}, "en"),  # GNU: LANGUAGE is ignored in C
])
def test_the_operators_language_comes_from_the_environment(environ, lang):
    assert operator_language(environ) == lang


def test_the_operators_language_reads_os_environ(monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert operator_language() == "es"


def test_a_backup_into_an_impossible_folder_is_refused_in_german(tmp_path, monkeypatch,
                                                                 capsys):
    db = tmp_path / "herdbot.sqlite3"
    sqlite3.connect(db).close()
    (tmp_path / "afile").write_text("")
    target = tmp_path / "afile" / "backups" / "copy.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERDBOT_DATABASE", str(db))
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["backup", str(target)]) == 1
    assert capsys.readouterr() == ("", (
        f"herdbot: kann die Sicherung {target} nicht schreiben: ihr Ordner {target.parent} "
        "lässt sich nicht anlegen (Not a directory).\n"))
    assert not target.parent.exists()


def test_a_backup_of_a_database_in_a_missing_folder_is_refused_in_german(tmp_path):
    """The whole process (``python -m bot``) with ``LANG`` set as a shell sets it."""
    db = tmp_path / "missing" / "herdbot.sqlite3"
    env = {**{k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
           "LANG": "de_DE.UTF-8", "HERDBOT_DATABASE": str(db)}
    proc = subprocess.run([sys.executable, "-m", "bot", "backup", "copy.sqlite3"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        1, "", f"herdbot: kann die Datenbank {db} nicht verwenden: keine solche Datei.\n")
    assert not db.parent.exists()


def test_a_backup_is_reported_in_polish_with_the_plural_form(tmp_path, monkeypatch, capsys):
    db = tmp_path / "herdbot.sqlite3"
    sqlite3.connect(db).close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERDBOT_DATABASE", str(db))
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")
    assert main(["backup", "copy.sqlite3"]) == 0
    copy = tmp_path / "copy.sqlite3"
    assert capsys.readouterr().out == (
        f"herdbot: zapisano kopię {db} w copy.sqlite3 (0 gier, wersja schematu 0, "
        f"{copy.stat().st_size} bajtów).\n")


def _refusal(monkeypatch, capsys, lang_env: str) -> tuple[int, str]:
    monkeypatch.setenv("LANG", lang_env)
    monkeypatch.setenv("HERDBOT_RENDER_PROCESSES", "9")
    code = main(["simulate", "pacapaca", "--games", "1"])
    return code, capsys.readouterr().err


def test_a_bad_setting_is_refused_in_french(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _refusal(monkeypatch, capsys, "fr_FR.UTF-8") == (2, (
        "herdbot: HERDBOT_RENDER_PROCESSES='9' n'est pas autorisé ; utilise un nombre entier "
        "de processus de 0 à 8 (à définir dans l'environnement ou dans .env).\n"))


@pytest.mark.parametrize("lang_env", ["C", "ja_JP.UTF-8"])
def test_c_and_an_unsupported_language_are_english(tmp_path, monkeypatch, capsys, lang_env):
    monkeypatch.chdir(tmp_path)
    assert _refusal(monkeypatch, capsys, lang_env) == (2, (
        "herdbot: HERDBOT_RENDER_PROCESSES='9' is not allowed; use a whole number of "
        "processes from 0 to 8 (set in the environment or .env).\n"))


def test_a_refused_pair_of_settings_in_portuguese(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.setenv("HERDBOT_SHARD_IDS", "0,1")
    assert main(["simulate", "pacapaca", "--games", "1"]) == 2
    assert capsys.readouterr().err == (
        "herdbot: HERDBOT_SHARD_IDS=0,1 precisa de HERDBOT_SHARD_COUNT, o número de shards em "
        "todos os processos (defina no ambiente ou no .env).\n")


def test_a_subcommands_help_is_in_polish(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    with pytest.raises(SystemExit) as stop:
        main(["local-discord", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("użycie: herdbot local-discord [-h] [--port PORT]")
    assert "\nopcje:\n  -h, --help         pokazuje tę pomoc i kończy\n" in out
    assert "\n  --port PORT        port TCP (domyślnie 8555)\n" in out
    assert "\n  --members MEMBERS  członkowie na serwer (domyślnie 4)\n" in out
    assert ("Tylko do programowania. Udostępnia symulowany Discord (serwery, kanały, wątki i "
            "członków\n") in out


def test_a_usage_error_is_in_spanish(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    with pytest.raises(SystemExit) as stop:
        main(["demo", "--game", "pacapaca", "--players", "9"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("uso: herdbot [-h] [--version]\n")
    assert err.endswith("\nherdbot: error: Alpaca Pacapaca es para 2-6 jugadores\n")


def test_a_simulation_refusal_is_in_spanish(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert main(["simulate", "pacapaca", "--players", "3", "--seats", "normal"]) == 2
    assert capsys.readouterr().err == (
        "herdbot: --seats nombra 1 asiento para una partida de 3 jugadores\n")


def test_a_store_refusal_is_english_in_str_and_translated_in_text(tmp_path):
    refusal = DatabaseInUse(tmp_path / "herdbot.sqlite3", 42)
    assert str(refusal) == (
        f"herdbot: another herdbot (process 42) is already running on the database "
        f"{tmp_path / 'herdbot.sqlite3'}: stop it first, or set HERDBOT_DATABASE to another "
        "file.")
    assert refusal.text("de") == (
        f"herdbot: ein anderer herdbot (Prozess 42) läuft bereits auf der Datenbank "
        f"{tmp_path / 'herdbot.sqlite3'}: Halte ihn zuerst an oder setze HERDBOT_DATABASE auf "
        "eine andere Datei.")


def test_the_shard_counts_refusal_names_the_limit():
    assert f"from 1 to {MAX_SHARDS}," in _ALLOWED["shard_count"][1]


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es", "pt_BR", "pl", "en_XA"])
def test_every_help_renders_in_every_language(lang):
    """argparse fills help texts with ``%`` formatting: a translation with a lone ``%``
    would break ``--help``; each screen renders, and in a language other than English its
    usage line is translated."""
    from bot.cli import _parser

    parser = _parser(lang)
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    screens = [parser.format_help(), *(p.format_help() for p in sub.choices.values())]
    assert len(screens) == 7
    for screen in screens:
        assert screen.startswith("usage: herdbot") == (lang == "en")
