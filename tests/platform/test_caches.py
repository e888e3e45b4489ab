"""The per-process caches: a decoded state and a map are served again only for the very data they came from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from bot.console.runner import Console
from bot.service import cache, campaigns, record
from bot.service.clock import ManualClock
from bot.service.context import Caller, Services
from bot.service.errors import ServiceError
from bot.service.unit import campaign_tx
from bot.store.db import Database
from bot.store.models import Campaign
from engine.core import Viewer
from engine.rulesets import get as get_ruleset

SETUP = """
gm @gaius
@gaius #forum /campaign create name:"Punic Wars" ruleset:freeform
@gaius /gm upload kind:regions file:@regions.toml
@hanno /campaign join seat:Carthage
@livia /campaign join seat:Rome
@ptolemy /campaign join seat:Egypt
@gaius /campaign start
expect "Dice commitment"
"""


async def _started(con: Console) -> None:
    con.base_dir = Path(__file__).parents[2] / "examples" / "freeform"
    await con.run_script(SETUP)


async def _campaign_state(con: Console) -> tuple[Any, dict[str, Any], int]:
    """The shared decoded state a reader gets now, the stored data and the version it was read at."""
    async with con.services.db.read() as session:
        campaign = (await session.scalars(select(Campaign))).one()
        return (record.state_of(campaign, record.ruleset_of(campaign), shared=True), campaign.state or {},
                campaign.version_id)


def _maps_sent(con: Console, since: int) -> list[bytes]:
    return [f[1] for s in con.fake.sent[since:] for f in s.files if f[0].endswith("-map.png")]


async def test_a_reader_shares_one_decode_until_a_write_changes_the_state(console: Console) -> None:
    await _started(console)
    first, data, version = await _campaign_state(console)
    again, _, _ = await _campaign_state(console)
    assert again is first  # decoded once, served from the cache to the next reader
    await console.run_line('@gaius #forum /gm act action:"region Gaul owner Carthage"')
    after, new_data, new_version = await _campaign_state(console)
    assert new_version != version and new_data != data
    assert after is not first
    assert get_ruleset("freeform").dump(after) == new_data  # the new state, never the cached old one
    said = "\n".join(await console.run_line("@gaius #forum /campaign status"))
    assert "Punic Wars" in said


async def test_a_write_with_the_same_version_never_gets_the_old_decode() -> None:
    """Even if the version column were not bumped (a Core update, say), different data is a miss."""
    ruleset = get_ruleset("freeform")
    cache.STATES.clear()
    old = {"seats": ["A"], "turn": 1, "title": "t", "reveal_orders": False, "regions": [], "pending": [],
           "sheets": {}}
    new = {**old, "turn": 2}
    assert cache.shared_state(7, 3, ruleset, old).turn == 1
    assert cache.shared_state(7, 3, ruleset, new).turn == 2
    assert cache.shared_state(7, 3, ruleset, dict(new)) is cache.shared_state(7, 3, ruleset, new)


async def test_readers_leave_the_shared_state_as_stored(console: Console) -> None:
    await _started(console)
    for line in ["@gaius #forum /campaign status", "@hanno #forum /act", "@hanno #forum /sheet",
                 "@gaius #forum /sheet seat:Rome", "@livia #forum /map", "@gaius #forum /campaign status"]:
        await console.run_line(line)
    state, data, _ = await _campaign_state(console)
    assert get_ruleset("freeform").dump(state) == data


async def test_the_map_is_drawn_once_per_version_and_again_after_a_change(console: Console) -> None:
    await _started(console)
    cache.MAPS.clear()
    mark = len(console.fake.sent)
    hits = cache.MAPS.hits
    await console.run_line("@livia #forum /map")
    await console.run_line("@hanno #forum /map")
    await console.run_line("@hanno #forum /map")
    first, second, third = _maps_sent(console, mark)
    assert first[:4] == b"\x89PNG" and third == second
    assert cache.MAPS.hits == hits + 1  # Rome and Carthage are different viewers; Carthage's second was kept
    await console.run_line('@gaius #forum /gm act action:"region Gaul owner Carthage"')
    mark = len(console.fake.sent)
    await console.run_line("@hanno #forum /map")
    (changed,) = _maps_sent(console, mark)
    assert changed != second  # Gaul changed hands: a new map, not the kept one
    mark = len(console.fake.sent)
    await console.run_line("@hanno #forum /map turn:1")
    assert _maps_sent(console, mark) == [changed]


async def test_a_roll_or_an_order_that_changes_nothing_drawn_keeps_the_map(console: Console) -> None:
    await _started(console)
    cache.MAPS.clear()
    mark = len(console.fake.sent)
    await console.run_line("@livia #forum /map")
    hits = cache.MAPS.hits
    await console.run_line("@livia #forum /roll notation:2d6")  # logged in the campaign: a new version
    await console.run_line('@hanno #forum /orders submit text:"hold Carthago"')  # another seat's, not drawn here
    await console.run_line("@livia #forum /map")
    first, again = _maps_sent(console, mark)
    assert again == first and cache.MAPS.hits == hits + 1  # served from the cache, not drawn again


async def test_the_map_posted_at_a_phase_change_is_the_one_a_spectator_gets(console: Console) -> None:
    cache.MAPS.clear()
    await _started(console)  # the start posts the opening map to the campaign's thread (for spectators)
    await console.pump()
    posted = [f for s in console.fake.sent if s.kind == "channel_message" for _, f in s.files if f[:4] == b"\x89PNG"]
    hits = cache.MAPS.hits
    mark = len(console.fake.sent)
    await console.run_line("@onlooker #forum /map")
    (shown,) = _maps_sent(console, mark)
    assert shown == posted[-1] and cache.MAPS.hits == hits + 1  # drawn once, by the outbox


class _Seeing:
    """A ruleset whose map shows each viewer something different (the GM sees everything)."""

    id = "seeing"

    def __init__(self) -> None:
        self.drawn: list[Viewer] = []

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def render(self, state: dict[str, Any], viewer: Viewer) -> bytes:
        self.drawn.append(viewer)
        return f"{viewer.kind}:{viewer.seat}:{state['secret'] if viewer.kind == 'gm' else '?'}".encode()


async def test_a_spectator_never_gets_the_gms_kept_map() -> None:
    seeing: Any = _Seeing()
    data = {"secret": "the fleet sails at dawn"}
    key = (1, 1, 1)
    gm = await cache.render(seeing, data, Viewer.gm(), key=key)
    assert await cache.render(seeing, data, Viewer.gm(), key=key) == gm
    spectator = await cache.render(seeing, data, Viewer.spectator(), key=key)
    seat = await cache.render(seeing, data, Viewer.of_seat("Rome"), key=key)
    assert spectator is not None and seat is not None
    assert b"dawn" in gm and b"dawn" not in spectator and b"dawn" not in seat
    assert seeing.drawn == [Viewer.gm(), Viewer.spectator(), Viewer.of_seat("Rome")]


def test_the_caches_stay_within_their_bounds() -> None:
    maps = cache._Lru(100, len, most=3)
    for i in range(5):
        maps.put(i, {"i": i}, b"x" * 30)
    assert [maps.get(i, {"i": i}) for i in range(5)] == [None, None, b"x" * 30, b"x" * 30, b"x" * 30]
    maps.put("big", {}, b"x" * 101)  # more than the whole budget: not kept, and nothing else dropped for it
    assert maps.get("big", {}) is None and maps.get(4, {"i": 4}) is not None
    maps.put("wide", {}, b"x" * 80)  # the bytes bound drops the least recently used
    assert maps.get("wide", {}) is not None and maps.get(2, {"i": 2}) is None and maps.get(4, {"i": 4}) is None


async def test_concurrent_requests_for_one_map_draw_it_once() -> None:
    import asyncio

    seeing: Any = _Seeing()
    data = {"secret": "s"}
    got = await asyncio.gather(*[cache.render(seeing, dict(data), Viewer.gm(), key=(2, 1, 1)) for _ in range(6)])
    assert len(set(got)) == 1 and seeing.drawn == [Viewer.gm()]
    assert cache._rendering == {}


TABLE = 777
GM = Caller(user_id=1, name="gm", guild_id=1, channel_id=TABLE)
ROME = Caller(user_id=11, name="cato", guild_id=1, channel_id=TABLE)


async def _running(db: Database) -> Services:
    services = Services(db=db, clock=ManualClock())
    await campaigns.create(services, GM, "Punic Wars", "freeform", None)
    await campaigns.join(services, ROME, "Rome", None)
    await campaigns.start(services, GM, None)
    return services


async def _status(services: Services) -> str:
    return (await campaigns.status(services, ROME, None)).text


async def test_a_status_after_the_state_changed_shows_the_new_state_even_at_the_same_version(db: Database) -> None:
    """Status reads the state's stored text and serves the decode kept for it: a different text is a miss, even
    if the version column were not bumped (a Core update, say)."""
    services = await _running(db)
    cache.STATES.clear()
    assert "Turn 1 — orders" in await _status(services)
    assert "Turn 1 — orders" in await _status(services)  # served from the cache
    async with db.write_rows() as conn:
        table = Campaign.__table__
        data = (await conn.execute(select(table.c.state))).scalar_one()
        await conn.execute(update(table).values(state={**data, "turn": 7}))  # version_id left as it was
    said = await _status(services)
    assert "Turn 7 — orders" in said and "Turn 1" not in said


async def test_a_writer_never_gets_what_a_reader_was_served_from_the_cache(db: Database) -> None:
    services = await _running(db)
    cache.STATES.clear()
    assert "Turn 1 — orders" in await _status(services)  # a reader's decode, kept
    with pytest.raises(RuntimeError):
        async with campaign_tx(services, GM) as tx:
            shared = tx.shared_state()
            data = tx.campaign.state
            assert data is not None
            own = record.state_of(tx.campaign, tx.ruleset)
            assert own is not shared
            data["turn"] = 99  # a writer changes what it got in place (then gives up: nothing saved)
            data["seats"].append("Carthage")
            own.turn = 99
            own.seats.append("Egypt")
            raise RuntimeError("given up")
    said = await _status(services)
    assert "Turn 1 — orders" in said and "Carthage" not in said and "Egypt" not in said
    async with campaign_tx(services, GM) as tx:  # the next writer gets the state as stored
        assert tx.campaign.state is not None and tx.campaign.state["turn"] == 1
        assert tx.campaign.state["seats"] == ["Rome"] and tx.state.seats == ["Rome"]
    async with db.read() as session:  # and so do the next readers (text or data)
        campaign = (await session.scalars(select(Campaign))).one()
        stored = campaign.state
        assert stored is not None and stored["turn"] == 1 and stored["seats"] == ["Rome"]
        assert get_ruleset("freeform").dump(record.state_of(campaign, record.ruleset_of(campaign),
                                                            shared=True)) == stored


async def test_a_state_a_writer_set_is_what_it_reads_back_in_its_own_transaction(db: Database) -> None:
    """A campaign found by the plain look-up keeps its stored text for the shared decode only until its state is
    set: a reader in the same transaction after that gets the new state, and the new state is saved."""
    services = await _running(db)
    cache.STATES.clear()
    assert "Turn 1 — orders" in await _status(services)
    async with db.read() as session:
        stored = (await session.scalars(select(Campaign))).one().state
        assert stored is not None
    async with campaign_tx(services, GM) as tx:
        tx.campaign.state = {**stored, "turn": 3}  # set without being read first
        assert tx.shared_state().turn == 3
    assert "Turn 3 — orders" in await _status(services)


async def test_a_sheet_before_the_start_says_so_and_after_it_shows_the_stored_state(db: Database) -> None:
    """Whether a campaign has started is read from its stored text (a lobby's state is stored as null)."""
    from bot.service import play

    services = Services(db=db, clock=ManualClock())
    await campaigns.create(services, GM, "Punic Wars", "freeform", None)
    await campaigns.join(services, ROME, "Rome", None)
    with pytest.raises(ServiceError, match="has not started yet"):
        await play.sheet(services, ROME, None, None)
    await campaigns.start(services, GM, None)
    assert "Rome" in (await play.sheet(services, ROME, None, None)).text
