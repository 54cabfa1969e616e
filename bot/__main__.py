"""``python -m bot`` is the ``herdbot`` command."""

from bot.cli import main

raise SystemExit(main())
