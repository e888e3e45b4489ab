"""Dataclass records to and from JSON-compatible data, driven by their type hints.

Sheets have many small record types; writing a dump and a load for each invites the two to drift.
These two functions handle the shapes the sheet uses: str, int, float, bool, None, nested record
dataclasses, ``list[...]``, ``tuple[X, ...]``, ``dict[str, ...]`` and ``X | None``. Fields left out
of the data take their defaults, so older dumps keep loading when a field is added.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, TypeVar

T = TypeVar("T")


def to_data(value: Any) -> Any:
    """JSON-compatible data for a record, a container of records, or a plain value."""
    if hasattr(value, "dump") and hasattr(type(value), "load"):
        return value.dump()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not f.name.startswith("_")}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(to_data(v) for v in value)
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(cls: type[T], raw: Any) -> T:
    """The record of type `cls` from `to_data`'s output."""
    return typing.cast(T, _convert(cls, raw))


def _convert(tp: Any, raw: Any) -> Any:
    origin = typing.get_origin(tp)
    if tp is Any:
        return raw
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        if raw is None:
            return None
        return _convert(options[0], raw)
    if isinstance(tp, type) and hasattr(tp, "load") and hasattr(tp, "dump"):
        return tp.load(raw)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = _hints(tp)
        kwargs = {f.name: _convert(hints[f.name], raw[f.name]) for f in dataclasses.fields(tp)
                  if f.init and f.name in raw and not f.name.startswith("_")}
        return tp(**kwargs)
    if origin is list:
        (item,) = typing.get_args(tp)
        return [_convert(item, v) for v in raw]
    if origin is tuple:
        args = typing.get_args(tp)
        return tuple([_convert(args[0], v) for v in raw])
    if origin is set:
        (item,) = typing.get_args(tp)
        return {_convert(item, v) for v in raw}
    if origin is dict:
        key, val = typing.get_args(tp)
        return {_convert(key, k): _convert(val, v) for k, v in raw.items()}
    if tp is float and isinstance(raw, int):
        return float(raw)
    return raw
