"""Where the card data and fonts are found (``bot/paths.py``): the source tree for an
editable install, ``<prefix>/share/herdbot`` for a regular one (``pip install .`` copies
``seeds/`` and ``assets/`` there), ``HERDBOT_ROOT`` above both."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from bot.paths import ROOT, find_root

REPO = Path(__file__).resolve().parents[1]


def _tree(base: Path, *, seeds: bool) -> Path:
    base.mkdir(parents=True)
    if seeds:
        (base / "seeds").mkdir()
    return base


def test_the_source_tree_comes_first(tmp_path):
    tree = _tree(tmp_path / "src", seeds=True)
    prefix = tmp_path / "venv"
    _tree(prefix / "share" / "herdbot", seeds=True)
    assert find_root(None, tree, prefix) == tree
    assert find_root("", tree, prefix) == tree  # an empty value means the default


def test_an_installed_copy_reads_the_shared_data_folder(tmp_path):
    tree = _tree(tmp_path / "site-packages", seeds=False)
    installed = _tree(tmp_path / "venv" / "share" / "herdbot", seeds=True)
    assert find_root(None, tree, tmp_path / "venv") == installed


def test_herdbot_root_wins_and_a_missing_folder_falls_back_to_the_tree(tmp_path):
    tree = _tree(tmp_path / "src", seeds=False)
    assert find_root("/srv/herd", tree, tmp_path / "venv") == Path("/srv/herd")
    assert find_root(None, tree, tmp_path / "venv") == tree


def test_this_checkout_reads_its_own_tree_and_ships_every_data_file():
    assert ROOT == (Path(os.environ["HERDBOT_ROOT"]) if os.environ.get("HERDBOT_ROOT") else REPO)
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    shipped = {p for patterns in data.values() for pattern in patterns for p in REPO.glob(pattern)}
    wanted = {p for folder in ("seeds", "assets/fonts") for p in (REPO / folder).iterdir()}
    assert wanted <= shipped
