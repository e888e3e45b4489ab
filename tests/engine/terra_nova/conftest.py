"""Helpers for the Terra Nova scenarios: a rules-ready state, and dice whose faces a test chooses."""

from __future__ import annotations

import pytest

from engine.core import Dice, Roll, Setup, Viewer, Visibility
from engine.core.visibility import PUBLIC
from engine.rulesets import get
from engine.rulesets.terra_nova.context import Ctx
from engine.rulesets.terra_nova.sequence import steps
from engine.rulesets.terra_nova.state import TNState

SEED = b"\x07" * 32
QUIET = {"random_events": "off", "deflation": "off", "uprisings": "off"}


class ScriptedDice(Dice):
    """Dice that give the faces a test chose for purposes containing a key; every other roll comes
    from the seeded streams. Each scripted face is used once, in order."""

    def __init__(self, script: dict[str, list[int]] | None = None, scope: str = "test") -> None:
        super().__init__(SEED, scope)
        self.script = {k: list(v) for k, v in (script or {}).items()}

    def roll(self, count: int, sides: int, *, purpose: str, visibility: Visibility = PUBLIC, modifier: int = 0,
             table: str | None = None, result: str | None = None) -> Roll:
        for key, faces in self.script.items():
            if key in purpose and faces:
                picked = tuple(faces.pop(0) for _ in range(count))
                assert all(1 <= f <= sides for f in picked), (purpose, picked)
                stream_key, _ = self._stream(purpose)
                return self._log(Roll(stream_key, purpose, "dice", f"{count}d{sides}", picked, sum(picked),
                                      visibility, modifier, table, result))
        return super().roll(count, sides, purpose=purpose, visibility=visibility, modifier=modifier, table=table,
                            result=result)

    def unused(self) -> dict[str, list[int]]:
        return {k: v for k, v in self.script.items() if v}


@pytest.fixture
def tn():
    return get("terra-nova")


def new_game(seats=("Spain", "Portugal", "England"), script=None, **options) -> TNState:
    """A fresh campaign (quiet: no GM questions unless asked for), resting at its first window."""
    tn = get("terra-nova")
    raw = {**QUIET, **options}
    return tn.setup(Setup(tuple(seats), tn.parse_options({k: str(v) for k, v in raw.items()}),
                          ScriptedDice(script, "setup")))


def at_step(state: TNState, name: str, stage: str = "window") -> TNState:
    """Put the machine's cursor on a step (to test one window or procedure on a prepared board)."""
    state.step = next(i for i, s in enumerate(steps()) if s.name == name)
    state.stage = stage
    state.questions.clear()
    state.battles.clear()
    return state


def ctx_for(state: TNState, step: str, script=None, orders=None) -> Ctx:
    return Ctx(state, ScriptedDice(script, step), [], step, orders or {})


def texts(events, viewer: Viewer | None = None) -> str:
    return "\n".join(e.text for e in events if viewer is None or e.visibility.allows(viewer))
