"""Crash points for the kill -9 tests: with HERALD_CRASH_AT=name[,name…] the process kills itself (SIGKILL,
no cleanup, exactly like `kill -9`) when it reaches a named point. Unset in normal runs: a no-op."""

from __future__ import annotations

import os
import signal

# after-commit: a command's change is committed, its reply not yet sent
# before-send / after-send: an outbox part is marked in flight / sent to Discord but not yet recorded
# thread-opening: the thread is marked as opening, Discord not yet asked / thread-opened: asked, id not stored
POINTS = ("after-commit", "before-send", "after-send", "thread-opening", "thread-opened")


def crash_point(name: str) -> None:
    wanted = os.environ.get("HERALD_CRASH_AT")
    if wanted and name in wanted.split(","):
        os.kill(os.getpid(), signal.SIGKILL)
