"""``herdbot demo`` writes everything a member sees: every version of every message with
its buttons and selects, and each member's private panels and pictures in a folder of
their own."""

from __future__ import annotations

import json
from collections import Counter

from bot.sandbox.demo import run_demo
from bot.sandbox.record import component_lines, folder_name


async def test_the_demo_writes_every_members_panels_pictures_and_buttons(tmp_path, capsys):
    (tmp_path / "Maya").mkdir()
    (tmp_path / "Maya" / "999-old.png").write_bytes(b"old")
    assert await run_demo(game="pacapaca", players=2, seed=1, out=str(tmp_path)) == 0
    assert capsys.readouterr().out.endswith(
        "16 messages (43 versions) and 27 pictures written to "
        f"{tmp_path}/, and 60 private messages to a folder per member\n")
    entries = json.loads((tmp_path / "transcript.json").read_text())
    assert Counter(e["where"] for e in entries) == {
        "thread": 40, "Tomasz": 33, "Maya": 27, "channel": 3}
    # Edits are versions of their own: a table edited in place is read each time.
    assert max(e["version"] for e in entries if e["where"] == "thread") == 3
    # The buttons and selects of every message.
    table = next(e for e in entries if e["where"] == "thread"
                 and {"button": "Draw 2", "style": 1} in e["components"])
    assert {"button": "My hand", "emoji": "\N{OPEN BOOK}", "style": 2} in table["components"]
    first = next(e for e in entries if e["where"] == "Maya")
    # A private panel is a Components V2 message: its words, the close-up with its
    # alternative text (the member's own cards), its buttons.
    assert first["content"] == "" and first["components"][0]["text"].startswith(
        "You drew **Leaf charm; Heart charm**.")
    media = first["components"][1]
    assert (media["media"].rsplit("/", 1)[-1], media["alt"]) == (
        "drawn.png", "The two cards you drew: Leaf charm; Heart charm.")
    assert first["components"][2:] == [{"button": "Keep Leaf charm", "style": 3},
                                       {"button": "Keep Heart charm", "style": 3}]
    assert first["files"] == [{"name": "drawn.png", "saved": "Maya/001-drawn.png"}]
    # Each member's pictures in their folder (an earlier demo's are gone).
    for name in ("Maya", "Tomasz"):
        kinds = Counter(p.name.split("-", 1)[1] for p in (tmp_path / name).glob("*.png"))
        assert set(kinds) == {"drawn.png", "my-alpaca.png", "my-discards.png"}
        for p in (tmp_path / name).glob("*.png"):
            assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        text = (tmp_path / name / "transcript.txt").read_text()
        assert f"[{name}] message " in text and f"[file {name}/001-" in text
        assert "[thread]" not in text
    assert not (tmp_path / "Maya" / "999-old.png").exists()
    public = (tmp_path / "transcript.txt").read_text()
    assert "[button: \N{OPEN BOOK}My hand]" in public and "[button: Draw 2]" in public
    assert "[file turn-001.png]" in public
    assert "You drew" not in public and "[Maya]" not in public  # private stays private


async def test_a_demo_with_fewer_players_leaves_no_folder_of_an_earlier_demos_member(
        tmp_path, capsys):
    (tmp_path / "Ana").mkdir()
    (tmp_path / "Ana" / "001-drawn.png").write_bytes(b"old")
    (tmp_path / "Ana" / "transcript.txt").write_text("old")
    (tmp_path / "Kofi").mkdir()
    (tmp_path / "Kofi" / "notes.txt").write_text("mine")
    assert await run_demo(game="pacapaca", players=2, seed=1, out=str(tmp_path)) == 0
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["Kofi", "Maya", "Tomasz"]
    assert [p.name for p in (tmp_path / "Kofi").iterdir()] == ["notes.txt"]  # not the demo's


def test_component_lines_read_buttons_selects_and_v2_pictures_with_their_alt_text():
    components = [
        {"type": 1, "components": [
            {"type": 2, "label": "Draw 2", "style": 1, "custom_id": "a"},
            {"type": 2, "label": "Pass", "style": 2, "custom_id": "b", "disabled": True}]},
        {"type": 1, "components": [
            {"type": 3, "custom_id": "s", "placeholder": "Pick", "options": [
                {"label": "One", "value": "0", "description": "the first"}]}]},
        {"type": 17, "components": [
            {"type": 10, "content": "Ana's turn"},
            {"type": 12, "items": [{"media": {"url": "attachment://table.png"},
                                    "description": "Ana leads with 3 Animals"}]}]},
    ]
    assert component_lines(components) == [
        {"button": "Draw 2", "style": 1},
        {"button": "Pass", "style": 2, "disabled": True},
        {"select": "Pick", "options": [{"label": "One", "description": "the first"}]},
        {"text": "Ana's turn"},
        {"media": "attachment://table.png", "alt": "Ana leads with 3 Animals"},
    ]
    assert folder_name("Zoë & Bo") == "Zo-Bo"
