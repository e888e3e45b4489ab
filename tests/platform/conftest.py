"""Platform fixtures: Herald's own logging set up at DEBUG, everything it lets through captured."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot import logs


class Capture(logging.Handler):
    """Every line a handler on the root logger would write, formatted as the real one formats it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.fixture
def debug_log() -> Iterator[Capture]:
    """`herald run` with HERALD_LOG_LEVEL=DEBUG, logging into a capture; put back as it was afterwards."""
    root = logging.getLogger()
    names = (*logs.HERALD_LOGGERS, *logs.PAYLOAD_LOGGERS, *logs.QUIET_LOGGERS)
    saved = (list(root.handlers), root.level, logging.getLogRecordFactory(),
             {n: logging.getLogger(n).level for n in names})
    capture = Capture()
    logs.configure("DEBUG", token="MTIz.token-for-tests.xyz", handler=capture)
    assert logging.getLogger("bot").isEnabledFor(logging.DEBUG)  # the capture really sees DEBUG
    try:
        yield capture
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.setLogRecordFactory(saved[2])
        for name, level in saved[3].items():
            logging.getLogger(name).setLevel(level)
