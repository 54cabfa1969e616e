"""Where herdbot's data folders are: ``seeds/`` (card data) and ``assets/`` (fonts, parts).

Both sit at the top of the source tree (the package is installed editable, as the README
and Dockerfile do). ``HERDBOT_ROOT`` overrides the location.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("HERDBOT_ROOT") or Path(__file__).resolve().parents[1])
SEEDS_DIR = ROOT / "seeds"
ASSETS_DIR = ROOT / "assets"
