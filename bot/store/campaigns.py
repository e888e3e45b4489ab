"""Campaign queries: a campaign with the caller's seat, found by id, by name, or by where a command came from."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import JSON, Select, Text, and_, bindparam, cast, exists, func, select, union
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_state, set_committed_value

from bot.store.db import session_rows
from bot.store.models import Campaign, CampaignStatus, Seat

Found = tuple[Campaign, Seat | None]  # a campaign, and the caller's seat in it (None: not seated)


def _with_seat() -> Select[Campaign, Seat]:
    """A campaign joined with the seat of the user bound as `user`: one round trip finds both."""
    return select(Campaign, Seat).outerjoin(
        Seat, and_(Seat.campaign_id == Campaign.id, Seat.user_id == bindparam("user")))


# Built once at import: SQLAlchemy memoizes a statement's cache key, so the hot path skips building and keying it.
_BY_ID = _with_seat().where(Campaign.id == bindparam("id"), Campaign.guild_id == bindparam("guild"))
_BY_NAME = _with_seat().where(Campaign.guild_id == bindparam("guild"),
                              func.lower(Campaign.name) == bindparam("name"))
# PostgreSQL: the campaign's row lock taken by the same statement (not the seat's: it is the outer join's side)
_BY_ID_LOCKED = _BY_ID.with_for_update(of=Campaign)
_BY_NAME_LOCKED = _BY_NAME.with_for_update(of=Campaign)
# Where a command came from: the campaign's thread, its GM thread, a seat's thread, the channel it runs in, or
# any live campaign the caller plays in here. A UNION of indexed lookups (not an OR, which SQLite answers by
# scanning the guild's campaigns); the caller picks among them in Python by the same precedence as before.
_C, _S, _MINE = aliased(Campaign), aliased(Seat), aliased(Campaign)  # the subqueries' own tables
_CANDIDATES = union(
    select(_C.id).where(_C.thread_id == bindparam("channel")),
    select(_C.id).where(_C.gm_thread_id == bindparam("channel")),
    select(_S.campaign_id).where(_S.thread_id == bindparam("channel")),
    select(_C.id).where(_C.channel_id == bindparam("channel")),
    select(_S.campaign_id).join(_MINE, _MINE.id == _S.campaign_id).where(  # not every campaign they ever played
        # `+ 0`: not an index term, so SQLite (no ANALYZE statistics) starts from the user's seats, not the guild
        _S.user_id == bindparam("user"), _MINE.guild_id + 0 == bindparam("guild"),
        _MINE.status != CampaignStatus.ENDED),
).scalar_subquery()
_SEAT_THREAD_HERE = exists().where(_S.campaign_id == Campaign.id, _S.thread_id == bindparam("channel"))
_HERE = (select(Campaign, Seat, _SEAT_THREAD_HERE.label("seat_thread"))
         .outerjoin(Seat, and_(Seat.campaign_id == Campaign.id, Seat.user_id == bindparam("user")))
         .where(Campaign.id.in_(_CANDIDATES)).order_by(Campaign.id))


# The same look-ups as plain columns (the seat's prefixed): Core rows (on SQLite straight on the session's own sqlite3
# connection, in its transaction) made into the session's entities (see `_plain`). The campaign's JSON columns are
# read as their stored text, decoded only when used (see `_Stored`): a LotE state is 33 KB and its files 13 KB, and
# decoding them cost a status a third of its time (and the cyclic GC's passes over the objects made).
_CT, _ST = Campaign.__table__, Seat.__table__
_SEAT_AS = "seat__"
_STORED = [c.key for c in _CT.c if isinstance(c.type, JSON)]  # each as its text (CAST: PostgreSQL's driver decodes)
_CT_COLUMNS = [cast(c, Text).label(c.key) if c.key in _STORED else c for c in _CT.c]


def _plain_with_seat() -> Select[Any]:
    return select(*_CT_COLUMNS, *[c.label(_SEAT_AS + c.key) for c in _ST.c]).select_from(_CT.outerjoin(
        _ST, and_(_ST.c.campaign_id == _CT.c.id, _ST.c.user_id == bindparam("user"))))


_PLAIN_BY_ID = _plain_with_seat().where(_CT.c.id == bindparam("id"), _CT.c.guild_id == bindparam("guild"))
_PLAIN_BY_NAME = _plain_with_seat().where(_CT.c.guild_id == bindparam("guild"),
                                          func.lower(_CT.c.name) == bindparam("name"))
_PLAIN_HERE = (_plain_with_seat().add_columns(_SEAT_THREAD_HERE.label("seat_thread"))
               .where(_CT.c.id.in_(_CANDIDATES)).order_by(_CT.c.id))
# PostgreSQL: the campaign's row lock taken by the same statement (not the seat's: it is the outer join's side)
_PLAIN_BY_ID_LOCKED = _PLAIN_BY_ID.with_for_update(of=_CT)
_PLAIN_BY_NAME_LOCKED = _PLAIN_BY_NAME.with_for_update(of=_CT)
# and the campaigns a channel may mean, each locked (in id order, as every statement here locks campaigns): the
# one chosen among them in Python is then read under its lock without a second round trip
_PLAIN_HERE_LOCKED = _PLAIN_HERE.with_for_update(of=_CT)
_PLAIN_LOCK = select(*_CT_COLUMNS).where(_CT.c.id == bindparam("id")).with_for_update()


class _Stored:
    """The loader of one JSON column of an entity made from plain rows, holding the column's stored text: the
    attribute reads as usual (the value decoded on first use, by SQLAlchemy's per-instance loader callables, as a
    deferred column's), and each entity decodes its own (a writer may change what it gets)."""

    __slots__ = ("text",)

    def __init__(self, text: str | None) -> None:
        self.text = text

    def __call__(self, _state: Any, _passive: Any) -> Any:
        return None if self.text is None else json.loads(self.text)  # the engines set no json_deserializer


def _defer_stored(obj: Any, texts: dict[str, str | None]) -> None:
    """The JSON columns `texts` (stored text by attribute) decoded when used: after make_transient_to_detached,
    which marks every attribute it was not given as expired (to load from the database)."""
    state = instance_state(obj)
    if "callables" not in state.__dict__:
        state.callables = {}
    for key, text in texts.items():
        state.expired_attributes.discard(key)
        state.callables[key] = _Stored(text)


def stored_text(campaign: Campaign, key: str = "state") -> str | None:
    """A JSON column's stored text while it is not decoded yet (the campaign read by a plain look-up, the attribute
    neither used nor set since): what it was read from, to compare without decoding; None otherwise."""
    if key in campaign.__dict__:
        return None
    loader = instance_state(campaign).callables.get(key)
    return loader.text if isinstance(loader, _Stored) else None


def _entity(session: AsyncSession, cls: type[Any], values: dict[str, Any],
            stored: dict[str, str | None] | None = None) -> Any:
    """The entity of these column values as the session would have loaded it, without the ORM's query machinery:
    made, marked as loaded from the database (detached), then attached to the session (persistent: a change to
    it is flushed, checked against the version read here, as for any entity the session loaded). `stored`: JSON
    columns as their stored text, decoded when used (see `_Stored`)."""
    obj = cls.__mapper__.class_manager.new_instance()
    obj.__dict__.update(values)
    make_transient_to_detached(obj)
    if stored:
        _defer_stored(obj, stored)
    session.add(obj)
    return obj


_CAMPAIGN_KEYS = [(p.columns[0].key, p.key) for p in Campaign.__mapper__.column_attrs]
_CAMPAIGN_VALUES = [(col, key) for col, key in _CAMPAIGN_KEYS if col not in _STORED]
_CAMPAIGN_STORED = [(col, key) for col, key in _CAMPAIGN_KEYS if col in _STORED]
_SEAT_KEYS = [(_SEAT_AS + p.columns[0].key, p.key) for p in Seat.__mapper__.column_attrs]


async def _plain(session: AsyncSession, stmt: Select[Any], params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(campaign, seat or None, the rest of the row's columns…) for each row: one statement on the session's own
    sqlite3 connection, in its transaction, rows made into the session's entities (see `_entity`). The ORM's query
    machinery costs ten times SQLite's own time for this look-up, which nearly every command makes."""
    out = []
    for row in await session_rows(session, stmt, params):
        values = row._asdict()
        campaign = _entity(session, Campaign, {key: values[col] for col, key in _CAMPAIGN_VALUES},
                           {key: values[col] for col, key in _CAMPAIGN_STORED})
        seat = (_entity(session, Seat, {key: values[col] for col, key in _SEAT_KEYS})
                if values[_SEAT_AS + "id"] is not None else None)
        _remember(session, params["user"], (campaign, seat))
        out.append((campaign, seat, *row[len(_CAMPAIGN_KEYS) + len(_SEAT_KEYS):]))
    return out


def _found(row: Any) -> Found | None:
    return (row[0], row[1]) if row is not None else None


def _remember(session: AsyncSession, user_id: int, found: Found | None) -> Found | None:
    if found is not None and found[1] is not None:  # seats.of_user reuses it instead of asking again
        session.info[("seat", found[0].id, user_id)] = found[1]
    return found


async def lock(session: AsyncSession, campaign: Campaign) -> None:
    """Take the campaign's row lock (PostgreSQL; SQLite's BEGIN IMMEDIATE already holds the database), the
    campaign's columns read again under it into the (unchanged) entity, as loaded: the version checked when it is
    written is the one locked (its JSON columns decoded when used, as `_plain`'s)."""
    if not locks(session):
        return
    rows = await session_rows(session, _PLAIN_LOCK, {"id": campaign.id})
    if rows:
        values = rows[0]._asdict()
        for col, key in _CAMPAIGN_VALUES:
            set_committed_value(campaign, key, values[col])
        state = instance_state(campaign)
        for _col, key in _CAMPAIGN_STORED:  # unchanged (see the docstring): what was read before is dropped
            campaign.__dict__.pop(key, None)
            state.committed_state.pop(key, None)
        _defer_stored(campaign, {key: values[col] for col, key in _CAMPAIGN_STORED})


def locks(session: AsyncSession) -> bool:
    """Whether row locks mean anything here (PostgreSQL); SQLite's BEGIN IMMEDIATE holds the whole database."""
    return session.get_bind().dialect.name != "sqlite"


async def by_id(session: AsyncSession, guild_id: int, user_id: int, campaign_id: int, *,
                lock: bool = False, plain: bool = False) -> Found | None:
    """By id; `lock`: under the campaign's row lock, taken by the same statement; `plain`: from plain rows (see
    `_plain`)."""
    if plain:
        plain_stmt = _PLAIN_BY_ID_LOCKED if lock and locks(session) else _PLAIN_BY_ID
        rows = await _plain(session, plain_stmt, {"id": campaign_id, "guild": guild_id, "user": user_id})
        return (rows[0][0], rows[0][1]) if rows else None
    stmt = _BY_ID_LOCKED if lock and locks(session) else _BY_ID
    row = (await session.execute(stmt, {"id": campaign_id, "guild": guild_id, "user": user_id})).first()
    return _remember(session, user_id, _found(row))


async def by_name(session: AsyncSession, guild_id: int, user_id: int, name: str, *,
                  lock: bool = False, plain: bool = False) -> Found | None:
    """By name, case-insensitively (`name` already folded to lower case); `lock` and `plain` as in `by_id`."""
    if plain:
        plain_stmt = _PLAIN_BY_NAME_LOCKED if lock and locks(session) else _PLAIN_BY_NAME
        rows = await _plain(session, plain_stmt, {"name": name, "guild": guild_id, "user": user_id})
        return (rows[0][0], rows[0][1]) if rows else None
    stmt = _BY_NAME_LOCKED if lock and locks(session) else _BY_NAME
    row = (await session.execute(stmt, {"name": name, "guild": guild_id, "user": user_id})).first()
    return _remember(session, user_id, _found(row))


class Here:
    """The campaigns a command's channel may mean, each with the caller's seat, in one round trip."""

    def __init__(self, rows: Sequence[Any], guild_id: int, channel_id: int, *, locked: bool = False) -> None:
        self.rows = [(r[0], r[1], bool(r[2])) for r in rows if r[0].guild_id == guild_id]
        self.channel_id = channel_id
        self.locked = locked  # each campaign's row lock taken by the look-up itself

    def threads(self) -> list[Found]:
        ch = self.channel_id
        return [(c, s) for c, s, seat_thread in self.rows if c.thread_id == ch or c.gm_thread_id == ch or seat_thread]

    def in_channel(self) -> list[Found]:
        return [(c, s) for c, s, _ in self.rows if c.channel_id == self.channel_id]

    def mine(self) -> list[Found]:
        return [(c, s) for c, s, _ in self.rows if s is not None and c.status != CampaignStatus.ENDED]


async def here(session: AsyncSession, guild_id: int, user_id: int, channel_id: int, *,
               plain: bool = False, lock: bool = False) -> Here:
    """The campaigns this channel may mean; `plain` and `lock` as in `by_id` (`lock` with `plain` only)."""
    params = {"channel": channel_id, "user": user_id, "guild": guild_id}
    if plain:
        locked = lock and locks(session)
        return Here(await _plain(session, _PLAIN_HERE_LOCKED if locked else _PLAIN_HERE, params), guild_id,
                    channel_id, locked=locked)
    rows = (await session.execute(_HERE, params)).all()
    for campaign, seat, _ in rows:
        _remember(session, user_id, (campaign, seat))
    return Here(rows, guild_id, channel_id)


_LOCK_BY_ID = select(Campaign).where(Campaign.id == bindparam("id")).with_for_update()
_NAME_TAKEN = select(Campaign.id).where(Campaign.guild_id == bindparam("guild"),
                                        func.lower(Campaign.name) == bindparam("name"))
_IN_GUILD = (select(Campaign).where(Campaign.guild_id == bindparam("guild"))
             .order_by(Campaign.status != CampaignStatus.RUNNING, Campaign.name))


async def locked(session: AsyncSession, campaign_id: int) -> Campaign | None:
    """The campaign under its row lock (background tasks: a timer, a delivery)."""
    return await session.scalar(_LOCK_BY_ID, {"id": campaign_id})


async def name_taken(session: AsyncSession, guild_id: int, name: str) -> bool:
    return await session.scalar(_NAME_TAKEN, {"guild": guild_id, "name": name.lower()}) is not None


async def in_guild(session: AsyncSession, guild_id: int) -> list[Campaign]:
    """The server's campaigns, running ones first, by name."""
    return list(await session.scalars(_IN_GUILD, {"guild": guild_id}))


async def names_starting(session: AsyncSession, guild_id: int, prefix: str, limit: int = 25) -> list[str]:
    return list(await session.scalars(select(Campaign.name).where(
        Campaign.guild_id == guild_id, Campaign.name.ilike(f"{prefix}%")).order_by(Campaign.name).limit(limit)))
