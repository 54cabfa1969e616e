"""Where herdbot's data folders are: ``seeds/`` (card data) and ``assets/`` (fonts, parts).

Both sit at the top of the source tree; an editable install (as the README and Dockerfile
do) reads them there. A regular install (``pip install .``) copies them to
``<prefix>/share/herdbot/`` (``[tool.setuptools.data-files]`` in ``pyproject.toml``), where
they are found when the package does not sit in a source tree. ``HERDBOT_ROOT`` (from the
environment) overrides both.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def find_root(env: str | None, tree: Path, prefix: Path) -> Path:
    """The folder holding ``seeds/`` and ``assets/``: ``env`` when set and not empty, else
    the source tree ``tree`` when it has ``seeds/``, else ``prefix/share/herdbot`` when it
    has ``seeds/``, else ``tree`` (so an error names the source-tree path)."""
    if env:
        return Path(env)
    if (tree / "seeds").is_dir():
        return tree
    installed = prefix / "share" / "herdbot"
    if (installed / "seeds").is_dir():
        return installed
    return tree


ROOT = find_root(
    os.environ.get("HERDBOT_ROOT"), Path(__file__).resolve().parents[1], Path(sys.prefix)
)
SEEDS_DIR = ROOT / "seeds"
ASSETS_DIR = ROOT / "assets"
