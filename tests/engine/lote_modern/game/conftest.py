"""Shared fixtures: the example campaign files and a started campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "lote-modern"


@pytest.fixture(scope="session")
def map_text() -> str:
    return (EXAMPLES / "map.toml").read_text()


@pytest.fixture(scope="session")
def sheets_text() -> str:
    return (EXAMPLES / "sheets.toml").read_text()
