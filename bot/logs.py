"""Logging that never carries a secret: Herald at the configured level, payload loggers capped, a redactor last."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

HEX_SECRET = re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{64}(?![0-9A-Fa-f])")  # a campaign seed's shape
HERALD_LOGGERS = ("bot", "engine", "bench")
# Their DEBUG lines carry request bodies and gateway events (message text, private threads) or
# the driver's calls with their parameters (seeds, orders, notes): never below INFO, whatever the level.
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook.async_", "discord.webhook.sync",
                   "discord.state", "aiosqlite", "asyncpg")
QUIET_LOGGERS = {"alembic": logging.WARNING,
                 # SQL at INFO is every statement, at DEBUG every row (seeds, private text): warnings only
                 "sqlalchemy": logging.WARNING,
                 "discord.client": logging.ERROR}  # "PyNaCl is not installed": no voice, by design


class Redactor:
    """The last line of defence: known secrets and anything shaped like a seed become [redacted]."""

    def __init__(self) -> None:
        self.secrets: set[str] = set()

    def add(self, secret: str | None) -> None:
        if secret and len(secret) >= 8:  # a short "secret" would redact ordinary words
            self.secrets.add(secret)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, "[redacted]")
        return HEX_SECRET.sub("[redacted]", text)

    def record_factory(self, make: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
        """Wrap a LogRecord factory so that every record is redacted as it is made, for every handler."""

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = make(*args, **kwargs)
            try:
                message = record.getMessage()
            except Exception:  # a malformed call: logging reports it at emit time, as usual
                return record
            cleaned = self.redact(message)
            if cleaned != message or record.args:
                record.msg, record.args = cleaned, None
            if record.exc_info and not record.exc_text:
                record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
            if record.stack_info:
                record.stack_info = self.redact(record.stack_info)
            return record

        factory.herald_redactor = self  # type: ignore[attr-defined]
        return factory


REDACTOR = Redactor()


# What a log line is about (interaction, guild, campaign, shard…): set where it becomes known, carried by
# every line logged in the same task after that (a command's task, a delivery).
CONTEXT: ContextVar[dict[str, Any]] = ContextVar("herald_log_context", default={})  # noqa: B039 - never mutated
FIELDS = "herald_fields"  # a record's own fields (`extra={FIELDS: {...}}`): a command line's latency, outcome


def bind(**fields: Any) -> None:
    """Add fields to every later line of this task (and the tasks it starts)."""
    CONTEXT.set({**CONTEXT.get(), **{k: v for k, v in fields.items() if v is not None}})


@contextmanager
def bound(**fields: Any) -> Iterator[None]:
    """Fields for the lines logged inside the block only."""
    token = CONTEXT.set({**CONTEXT.get(), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        CONTEXT.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the bound context and the record's own fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        line.update(getattr(record, "herald_context", None) or {})
        line.update(getattr(record, FIELDS, None) or {})
        if record.exc_info and not record.exc_text:
            record.exc_text = REDACTOR.redact(self.formatException(record.exc_info))
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """The plain line, with the bound context and fields appended as key=value."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        text = super().formatMessage(record)
        extra = {**(getattr(record, "herald_context", None) or {}), **(getattr(record, FIELDS, None) or {})}
        return text + "".join(f" {k}={v}" for k, v in extra.items()) if extra else text


def _with_context(make: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        record.herald_context = CONTEXT.get()
        return record

    factory.herald_context = True  # type: ignore[attr-defined]
    return factory


def configure(level: str, *, token: str | None = None, handler: logging.Handler | None = None,
              fmt: str = "text") -> None:
    """Herald's loggers and the root at `level`; payload loggers never below INFO; every record redacted.
    `fmt` "json" writes one JSON object a line (for a log shipper), "text" a readable line."""
    REDACTOR.add(token)
    make = logging.getLogRecordFactory()
    if not hasattr(make, "herald_redactor"):
        if not hasattr(make, "herald_context"):
            make = _with_context(make)
        logging.setLogRecordFactory(REDACTOR.record_factory(make))
    if handler is None:
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    logging.basicConfig(level=level, handlers=[handler], force=True)
    numeric = logging.getLevelName(level)
    for name in HERALD_LOGGERS:
        logging.getLogger(name).setLevel(numeric)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(max(numeric, logging.INFO))
    for name, quiet in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(max(numeric, quiet))
