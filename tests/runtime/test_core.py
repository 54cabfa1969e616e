"""ServiceCore's reads: the last state a process committed serves the next read of the
same stored game (no parse, what was worked out from it kept), and only then."""

from __future__ import annotations

from bot.runtime import GameService
from tests.support.tinygame import Add, tiny_registry


async def _game(service: GameService) -> int:
    up = await service.create_lobby("tiny", guild_id=1, channel_id=2, host_id=10,
                                    host_name="Ana", seed=42)
    await service.join(up.record.id, 11, "Bo")
    await service.start(up.record.id, 10)
    return up.record.id


async def test_a_read_after_a_commit_reuses_the_committed_state_and_its_derived_values(
        service):
    gid = await _game(service)
    up = await service.act(gid, "s0", Add(n=2), expected_version=0)
    up.derived[("legal", "s1")] = ["worked out once"]
    known = await service.peek(gid)
    record, _, _, state, _ = await service.read(gid, known)
    assert record.version == 1 and state is up.state
    assert known.derived is up.derived and known.derived[("legal", "s1")] == ["worked out once"]
    loaded = await service.load(gid)
    assert loaded[3] is up.state
    assert service.derived_of(gid, up.state) is up.derived
    assert service.derived_of(gid, loaded[3].model_copy()) == {}


async def test_a_game_another_process_moved_is_parsed_again(service, store, clock):
    gid = await _game(service)
    mine = await service.act(gid, "s0", Add(n=2), expected_version=0)
    other = GameService(store, tiny_registry(), clock=clock)
    theirs = await other.act(gid, "s1", Add(n=1), expected_version=1)
    known = await service.peek(gid)
    record, _, _, state, _ = await service.read(gid, known)
    assert record.version == 2 and state is not mine.state and state is not theirs.state
    assert state == theirs.state and (state.counter, state.version) == (3, 2)
    assert known.derived == {}


async def test_only_the_newest_remembered_state_keeps_its_views(service):
    first, second = await _game(service), await _game(service)
    one = await service.act(first, "s0", Add(n=1), expected_version=0)
    one.derived[("view", None)] = "a view"
    one.derived[("legal", "s1")] = ["kept"]
    two = await service.act(second, "s0", Add(n=1), expected_version=0)
    two.derived[("view", None)] = "another view"
    assert one.derived == {("legal", "s1"): ["kept"]}
    assert two.derived == {("view", None): "another view"}


async def test_a_click_already_listed_is_applied_without_listing_again(service, monkeypatch):
    gid = await _game(service)
    engine = service.registry["tiny"].engine
    known = await service.peek(gid)
    await service.read(gid, known)  # parses known.state
    known.derived[("legal", "s0")] = [Add(n=2)]
    calls = []
    apply = type(engine).apply
    monkeypatch.setattr(type(engine), "apply_legal",
                        lambda self, *a: calls.append(("apply_legal", *a[1:])) or apply(self, *a))
    monkeypatch.setattr(type(engine), "apply",
                        lambda self, *a: calls.append(("apply", *a[1:])) or apply(self, *a))
    up = await service.act(gid, "s0", Add(n=2), known=known)
    assert calls == [("apply_legal", "s0", Add(n=2))]
    assert (up.state.counter, up.state.version) == (2, 1)
    await service.act(gid, "s1", Add(n=1))  # nothing listed: checked
    assert calls[1:] == [("apply", "s1", Add(n=1))]
