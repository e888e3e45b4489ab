"""States saved by earlier code still load, and dump again to what was saved (plus any newer fields)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.rulesets import get

SAVED = Path(__file__).parent / "saved_states"
FILES = sorted(SAVED.glob("*.json"))


def holds(new: Any, old: Any) -> bool:
    """`new` says everything `old` said; dicts may have gained keys (fields added since)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and holds(new[k], v) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(new) == len(old) and all(
            holds(a, b) for a, b in zip(new, old, strict=True))
    return bool(new == old)


def test_every_ruleset_has_saved_states() -> None:
    assert {f.name.split("--")[0] for f in FILES} == {"freeform", "terra-prime", "terra-nova", "lote-modern"}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_a_saved_state_loads_and_dumps_to_what_was_saved(path: Path) -> None:
    ruleset = get(path.name.split("--")[0])
    saved = json.loads(path.read_text())
    state = ruleset.load(saved)
    again = json.loads(json.dumps(ruleset.dump(state)))
    assert holds(again, saved)
    assert ruleset.load(again) == state


def test_a_lote_state_saved_before_later_fields_loads_with_their_defaults() -> None:
    ruleset = get("lote-modern")
    saved = json.loads((SAVED / "lote-modern--start.json").read_text())
    for later in ("month", "grown", "next_id", "audit", "cartels", "pending_news", "stage"):
        saved.pop(later, None)
    state = ruleset.load(saved)
    assert (state.month, state.grown, state.next_id, state.audit, state.stage) == (1, [], 1, [], "orders")
    assert list(state.nations) == [n["name"] for n in saved["nations"]]
    assert ruleset.dump(state)["nations"] == saved["nations"]
