"""House-rule presets in the store (bot/store/presets.py), on each backend: saved, replaced,
listed per game, deleted, and read again after the store is reopened."""

from __future__ import annotations

from bot.store import Store


async def test_presets_round_trip_and_survive_reopening(database):
    store = await Store.open(database)
    try:
        first = await store.save_preset(1, "**Fast** @everyone", "tiny",
                                        {"turn_timer": "2m", "target": 30}, 10)
        assert (first.name, first.kind, first.options, first.created_by) == (
            "**Fast** @everyone", "tiny", {"turn_timer": "2m", "target": 30}, 10)
        await store.save_preset(1, "Long", "pacapaca", {"babies": True}, 11)
        await store.save_preset(2, "Other server", "tiny", {}, 12)
        await store.save_preset(1, "**Fast** @everyone", "tiny", {"turn_timer": "1h"}, 11)
    finally:
        await store.close()
    store = await Store.open(database)
    try:
        assert [(p.name, p.kind, p.options, p.created_by) for p in await store.presets(1)] == [
            ("**Fast** @everyone", "tiny", {"turn_timer": "1h"}, 11),
            ("Long", "pacapaca", {"babies": True}, 11)]
        assert [p.name for p in await store.presets(1, "pacapaca")] == ["Long"]
        assert [p.name for p in await store.presets(2)] == ["Other server"]
        found = await store.preset(1, "Long")
        assert found is not None and found.options == {"babies": True}
        assert await store.preset(2, "Long") is None
        assert await store.delete_preset(1, "Long") is True
        assert await store.delete_preset(1, "Long") is False
        assert [p.name for p in await store.presets(1)] == ["**Fast** @everyone"]
    finally:
        await store.close()
