"""The board picture (placeholder until the renderer lands)."""

from __future__ import annotations

from engine.core.visibility import Viewer
from engine.rulesets.terra_prime.state import GameState


def render_board(state: GameState, viewer: Viewer) -> bytes | None:
    return None
