"""The loopback fake Discord every end-to-end test talks to."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.discord_server import FakeDiscordServer


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscordServer]:
    srv = FakeDiscordServer()
    await srv.start()
    yield srv
    await srv.stop()
