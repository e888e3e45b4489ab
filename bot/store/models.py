"""The campaign record: setup, an append-only log, snapshots at phase boundaries, and the outbox."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = dict[str, Any]


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC in and out, on SQLite (which stores no zone) as on PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: Herald stores UTC-aware times only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class CampaignStatus(StrEnum):
    """Where a campaign is in its life; stored as its value, so the column's text is unchanged."""

    LOBBY = "lobby"
    RUNNING = "running"
    ENDED = "ended"


class OrderStatus(StrEnum):
    """Where a seat's orders for one window are: open until resolved, superseded or withdrawn."""

    OPEN = "open"
    RESOLVED = "resolved"
    SUPERSEDED = "superseded"
    WITHDRAWN = "withdrawn"


E = TypeVar("E", bound=StrEnum)


class StatusText(TypeDecorator[E]):
    """A status enum kept as plain text (no database enum type, so no migration), read back as the enum."""

    impl = String
    cache_ok = True

    def __init__(self, enum: type[E], length: int) -> None:
        super().__init__(length)
        self.enum = enum

    def process_bind_param(self, value: E | None, dialect: Dialect) -> str | None:
        return None if value is None else self.enum(value).value  # a stray word fails here, not in the table

    def process_result_value(self, value: str | None, dialect: Dialect) -> E | None:
        return None if value is None else self.enum(value)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {Json: JSON, datetime: UTCDateTime()}


class Campaign(Base):
    """One campaign: its setup, its current state (a cache of the log) and its settings."""

    __tablename__ = "campaign"
    __table_args__ = (UniqueConstraint("guild_id", "name", name="uq_campaign_guild_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    # find_campaign looks a campaign up by the channel or thread a command came from: indexed, or every
    # command scans every campaign (the OR of the thread ids needs each term indexed on SQLite)
    channel_id: Mapped[int] = mapped_column(BigInteger, index=True)
    thread_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    gm_thread_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    name: Mapped[str] = mapped_column(String(100))
    ruleset: Mapped[str] = mapped_column(String(40))
    ruleset_version: Mapped[str] = mapped_column(String(20))
    options: Mapped[Json]
    settings: Mapped[Json]
    files: Mapped[Json]
    tables: Mapped[Json]
    gm_user_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[CampaignStatus] = mapped_column(StatusText(CampaignStatus, 10))
    seed: Mapped[str] = mapped_column(String(64))  # hex; secret until the campaign ends
    commitment: Mapped[str] = mapped_column(String(64))
    state: Mapped[Json | None]
    phase_key: Mapped[str | None] = mapped_column(String(80))
    phase_label: Mapped[str | None] = mapped_column(String(200))
    turn: Mapped[int] = mapped_column(default=0)
    deadline: Mapped[datetime | None]
    paused_at: Mapped[datetime | None]  # /gm pause: timers hold their remaining time until /gm resume
    log_seq: Mapped[int] = mapped_column(default=0)
    # the seq of the latest entry a player away should hear of (a phase crossed, a deadline moved, a seat's news):
    # a seat whose mark is behind it gets the "since you last looked" digest (bot/service/catchup.py)
    news_seq: Mapped[int] = mapped_column(default=0, server_default="0")
    roll_count: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None]
    # set (and committed) just before Herald asks Discord for the thread, so a crash or a lost response
    # is found and reconciled instead of opening a second thread
    thread_opening_at: Mapped[datetime | None]
    gm_thread_opening_at: Mapped[datetime | None]
    version_id: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version_id}


class Seat(Base):
    """A seat at the table; its user may change (replace) while the seat and its secrets stay."""

    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("campaign_id", "name", name="uq_seat_campaign_name"),
        Index("uq_seat_campaign_user", "campaign_id", "user_id", unique=True,
              sqlite_where=text("user_id IS NOT NULL"), postgresql_where=text("user_id IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[int | None] = mapped_column(BigInteger, index=True)  # "the one campaign you play in"
    automatic: Mapped[bool] = mapped_column(Boolean, default=False)
    position: Mapped[int]
    thread_id: Mapped[int | None] = mapped_column(BigInteger, index=True)  # a command from a seat's thread
    thread_opening_at: Mapped[datetime | None]
    joined_at: Mapped[datetime]
    # "since you last looked": the log seq and time its holder last caught up to, read with the seat (no query of
    # its own), and whether they want the digest shown by itself (bot/service/catchup.py)
    looked_seq: Mapped[int] = mapped_column(default=0, server_default="0")
    looked_at: Mapped[datetime | None]
    catchup_auto: Mapped[bool] = mapped_column(Boolean, default=True, server_default=text("true"))


class LogEntry(Base):
    """One accepted thing, never changed: setup, action, orders, resolution, GM edit, roll, rollback…"""

    __tablename__ = "log_entry"
    __table_args__ = (UniqueConstraint("campaign_id", "seq", name="uq_log_entry_campaign_seq"),
                      Index("ix_log_entry_campaign_turn", "campaign_id", "turn"),  # /history pages by turn
                      Index("ix_log_entry_campaign_kind", "campaign_id", "kind", "seq"))  # and finds the rollbacks

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int]
    at: Mapped[datetime]
    kind: Mapped[str] = mapped_column(String(20))
    actor: Mapped[str] = mapped_column(String(60))
    actor_user_id: Mapped[int | None] = mapped_column(BigInteger)
    turn: Mapped[int]
    phase_key: Mapped[str | None] = mapped_column(String(80))
    visibility: Mapped[Json]
    body: Mapped[Json]


class Snapshot(Base):
    """The state at the start of a phase; rollback returns to one."""

    __tablename__ = "snapshot"
    __table_args__ = (Index("ix_snapshot_campaign_seq", "campaign_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    seq: Mapped[int]
    turn: Mapped[int]
    phase_key: Mapped[str] = mapped_column(String(80))
    phase_label: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(12), default="start")  # start | before (a resolution)
    state: Mapped[Json]
    at: Mapped[datetime]
    undone: Mapped[bool] = mapped_column(Boolean, default=False)


class OrderSet(Base):
    """A seat's orders for one order window: private, editable until the window resolves."""

    __tablename__ = "order_set"
    __table_args__ = (UniqueConstraint("campaign_id", "seat", "phase_key", name="uq_order_set_window"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(40))
    phase_key: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    checks: Mapped[list[Json]] = mapped_column(JSON)
    status: Mapped[OrderStatus] = mapped_column(StatusText(OrderStatus, 12))
    submitted_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class Follower(Base):
    __tablename__ = "follower"

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)


class Timer(Base):
    """A due time: a deadline, a reminder or a turn timer. One task sleeps until the earliest."""

    __tablename__ = "timer"
    __table_args__ = (Index("ix_timer_pending_due", "fired", "due_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))  # deadline | reminder | turn
    phase_key: Mapped[str] = mapped_column(String(80))
    due_at: Mapped[datetime]
    fired: Mapped[bool] = mapped_column(Boolean, default=False)
    payload: Mapped[Json]


class OutboxPost(Base):
    """A post written in the same transaction as the change it announces; delivered once."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_pending", "sent_at", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int | None] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    target: Mapped[str] = mapped_column(String(60))  # thread | channel | gm | seat:<name>
    content: Mapped[str] = mapped_column(Text)
    file_name: Mapped[str | None] = mapped_column(String(100))
    file_data: Mapped[bytes | None] = mapped_column(LargeBinary)
    components: Mapped[Json]
    created_at: Mapped[datetime]
    attempts: Mapped[int] = mapped_column(default=0)
    sent_at: Mapped[datetime | None]
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    error: Mapped[str | None] = mapped_column(Text)
    # delivery claims a post with a lease (a process that dies lets it lapse); a post is sent in parts
    # (chunks), each recorded as it is sent; `sending_since` is committed before a part is sent, so a
    # post found with it set is uncertain and is reconciled against the channel before sending again
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None]
    sent_parts: Mapped[list[int]] = mapped_column(JSON, default=list)
    sending_since: Mapped[datetime | None]


class Receipt(Base):
    """What a command did and whether its answer reached the person, so a retried command is not applied twice."""

    __tablename__ = "receipt"
    # the read before every command: this user's unanswered receipts of the command (see store.receipts._EARLIER)
    __table_args__ = (Index("ix_receipt_unanswered", "user_id", "command", "answered", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    interaction_id: Mapped[int] = mapped_column(BigInteger, unique=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    campaign_id: Mapped[int | None] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    command: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime]
    outcome: Mapped[str] = mapped_column(Text)
    answered: Mapped[bool] = mapped_column(Boolean, default=False)


class Confirmation(Base):
    """A question Herald asked before something that cannot be undone; its buttons carry only the random token,
    so a button cannot be forged into confirming someone else's action, and it is answered once."""

    __tablename__ = "confirmation"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    command: Mapped[str] = mapped_column(String(40))
    args: Mapped[Json]
    asked_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    answered_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(Text)


class UndoPoint(Base):
    """The state just before a seat's latest action, kept while that action may still be taken back."""

    __tablename__ = "undo_point"

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(40))
    log_seq: Mapped[int]  # the action's entry: taking it back is allowed only while it is the last one
    phase_key: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(Text)
    state: Mapped[Json]
    at: Mapped[datetime]


class LookMark(Base):
    """Where someone not seated (the GM, a spectator) last caught up to with /catchup (a seat keeps its own)."""

    __tablename__ = "look_mark"

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    seq: Mapped[int]
    at: Mapped[datetime]


class TurnNotice(Base):
    """How a player wants to hear that a campaign waits for them: a DM or a ping in the thread."""

    __tablename__ = "turn_notice"

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    how: Mapped[str] = mapped_column(String(8))  # dm | ping | off (not even the campaign's ping)


class IdentifyBucket(Base):
    """When a process last sent an IDENTIFY in this bucket (`shard_id % max_concurrency`), in milliseconds since
    the epoch: the next one, from any process, a restarted one too, waits until Discord's window has passed."""

    __tablename__ = "identify_bucket"

    bucket: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    sent_ms: Mapped[int] = mapped_column(BigInteger)
