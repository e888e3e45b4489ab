"""The ruleset registry: rulesets are found by id and imported when first asked for."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from engine.core.errors import RulesError
from engine.core.names import Names, unknown_message
from engine.core.ruleset import Ruleset

_REGISTRY: dict[str, str] = {
    "freeform": "engine.rulesets.freeform:Freeform",
    "terra-prime": "engine.rulesets.terra_prime:TerraPrime",
    "terra-nova": "engine.rulesets.terra_nova:TerraNova",
    "lote-modern": "engine.rulesets.lote_modern:LotEModern",
}


@functools.cache
def get(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset with this id."""
    path = _REGISTRY.get(ruleset_id)
    if path is None:
        raise RulesError(f"no ruleset `{ruleset_id[:40]}` (rulesets: {', '.join(available())})")
    module_name, cls_name = path.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise RulesError(f"ruleset `{ruleset_id}` is not installed yet") from exc
        raise
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise RulesError(f"ruleset `{ruleset_id}` is not installed yet")
    ruleset: Ruleset[Any] = cls()
    return ruleset


def available() -> list[str]:
    """Ids of the rulesets this build can run."""
    out = []
    for ruleset_id in _REGISTRY:
        try:
            get(ruleset_id)
        except RulesError:
            continue
        out.append(ruleset_id)
    return out


def find(typed: str) -> Ruleset[Any]:
    """The ruleset a person means by an id or title, forgivingly (``Terra Nova``, ``lote``, ``FREEFORM``)."""
    if typed in _REGISTRY:
        return get(typed)
    ids = available()
    aliases = {alias: i for i in ids for alias in (i.replace("-", " "), get(i).title)}
    meant = Names(ids, aliases=aliases).match(typed)
    if meant.name is None:
        raise RulesError(f"{unknown_message(meant, what='ruleset')} (rulesets: {', '.join(ids)})")
    return get(meant.name)
