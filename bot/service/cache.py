"""Per-process caches of what is costly to rebuild: decoded campaign states and rendered maps.

Decoded states are keyed by the campaign's version column, maps by the campaign, the turn and the viewer (what
a picture depends on: a /roll or an order bumps the version but draws nothing new); both also check the stored
data itself (equal JSON, or for a state still undecoded its equal stored text), so an entry is served only for
exactly the data it was built from: a miss is always correct, and a write that changed the state can never be
answered from the cache.

Decoded states are mutable objects: the cache hands them only to readers that promise not to change them
(`record.state_of(..., shared=True)`); writers always decode their own.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from bot.ops import metrics
from engine.core import Ruleset, Viewer

STATE_ENTRIES = 32  # decoded states kept, with the stored data (or its JSON text) each came from (a big LotE
# state: ~2 ms to decode)
MAP_BYTES = 32 * 2**20  # rendered PNGs kept, in bytes
MAP_ENTRIES = 256  # and at most this many (each also holds the data it was drawn from: shared, see `_drawn_from`)
DRAWN_ENTRIES = 32  # the stored data maps were drawn from, one object per (campaign, turn)
RENDER_SLOTS = asyncio.Semaphore(2)  # CPU-heavy work (renders, big decodes) running in threads at once


class _Lru:
    """A bounded LRU of (data it was built from, value), bounded by total weight; safe across threads."""

    def __init__(self, budget: int, weigh: Callable[[Any], int], *, most: int | None = None) -> None:
        self.budget = budget
        self.most = most if most is not None else budget
        self._weigh = weigh
        self._entries: OrderedDict[Hashable, tuple[Any, Any, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable, data: Any) -> Any | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
        # outside the lock: comparing big JSON takes a while, and the entry itself is never changed in place
        if entry[0] is not data and entry[0] != data:
            self.misses += 1
            return None
        self.hits += 1
        return entry[1]

    def put(self, key: Hashable, data: Any, value: Any) -> None:
        weight = self._weigh(value)
        if weight > self.budget:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[2]
            self._entries[key] = (data, value, weight)
            self._weight += weight
            while self._weight > self.budget or len(self._entries) > self.most:
                _, (_, _, dropped) = self._entries.popitem(last=False)
                self._weight -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._weight = 0


STATES = _Lru(STATE_ENTRIES, lambda _state: 1)
MAPS = _Lru(MAP_BYTES, lambda png: len(png) if png else 1, most=MAP_ENTRIES)
_DRAWN = _Lru(DRAWN_ENTRIES, lambda _data: 1)
_rendering: dict[Hashable, tuple[Any, asyncio.Future[bytes | None]]] = {}  # renders under way, by key


def shared_state(campaign_id: int, version: int, ruleset: Ruleset[Any], data: dict[str, Any]) -> Any:
    """The decoded state of `data` (a campaign's stored state at `version`), shared: the caller must not change it."""
    key = (campaign_id, version, ruleset.id)
    state = STATES.get(key, data)
    if state is None:
        state = ruleset.load(data)
        STATES.put(key, data, state)
    return state


def shared_state_of_text(campaign_id: int, version: int, ruleset: Ruleset[Any], text: str) -> Any:
    """As `shared_state`, of the stored JSON text of the data (checked by comparing text: no decoding on a hit);
    the data decoded on a miss belongs to the entry alone (a state may share parts of the data it was loaded from)."""
    key = (campaign_id, version, ruleset.id, "text")  # apart from `shared_state`'s: a text never equals a dict
    state = STATES.get(key, text)
    if state is None:
        state = ruleset.load(json.loads(text))
        STATES.put(key, text, state)
    return state


def _drawn_from(key: Hashable, data: dict[str, Any]) -> dict[str, Any]:
    """One object for equal data under one key, so every viewer's kept map holds the same data (memory), and
    finding a kept map after this one comparison is an identity check."""
    kept = _DRAWN.get(key, data)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    _DRAWN.put(key, data, data)
    return data


def _draw(ruleset: Ruleset[Any], data: dict[str, Any], viewer: Viewer, state: Any) -> bytes | None:
    with metrics.RENDER_SECONDS.time():
        return ruleset.render(state if state is not None else ruleset.load(data), viewer)


def _draw_focus(ruleset: Ruleset[Any], data: dict[str, Any], viewer: Viewer) -> bytes | None:
    with metrics.RENDER_SECONDS.time():
        return ruleset.render_focus(ruleset.load(data), viewer)


async def render_focus(ruleset: Ruleset[Any], data: dict[str, Any], viewer: Viewer) -> bytes | None:
    """The focused crop posted beside a turn's map (Ruleset.render_focus), drawn in a thread like a map."""
    async with RENDER_SLOTS:
        return await asyncio.to_thread(_draw_focus, ruleset, data, viewer)


async def render(ruleset: Ruleset[Any], data: dict[str, Any], viewer: Viewer, *, key: Hashable | None = None,
                 state: Any = None) -> bytes | None:
    """The map of `data` as `viewer` sees it, drawn in a thread (at most RENDER_SLOTS at once).

    With a `key` (campaign, turn; the viewer is added) the PNG is kept and served again for the same data, and
    concurrent requests for one key draw it once. `state`, if given, is `data` already decoded (and not changed)."""
    if key is None:
        async with RENDER_SLOTS:
            return await asyncio.to_thread(_draw, ruleset, data, viewer, state)
    data = _drawn_from(key, data)
    key = (key, ruleset.id, viewer.kind, viewer.seat)  # the viewer always: a seat never gets the GM's map
    cached = MAPS.get(key, data)
    if cached is not None:
        return bytes(cached) or None
    pending = _rendering.get(key)
    if pending is not None and (pending[0] is data or pending[0] == data):
        try:
            return await asyncio.shield(pending[1])
        except asyncio.CancelledError:
            if not pending[1].cancelled():
                raise  # this request itself was cancelled
            # the request drawing it was cancelled: draw it here instead
    if key in _rendering:  # different data under the same key (never expected): draw it apart, keep nothing
        async with RENDER_SLOTS:
            return await asyncio.to_thread(_draw, ruleset, data, viewer, state)
    future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
    _rendering[key] = (data, future)
    try:
        async with RENDER_SLOTS:
            png = await asyncio.to_thread(_draw, ruleset, data, viewer, state)
        MAPS.put(key, data, png or b"")
        future.set_result(png)
        return png
    except asyncio.CancelledError:
        future.cancel()
        raise
    except Exception as exc:
        future.set_exception(exc)
        future.exception()  # marked retrieved, so a future no one else awaited logs nothing
        raise
    finally:
        del _rendering[key]
