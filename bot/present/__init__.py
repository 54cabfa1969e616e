"""Presenters: what each game's table shows and offers, as plain data (see
:mod:`bot.present.base`). Pure: imports :mod:`bot.games` only."""
