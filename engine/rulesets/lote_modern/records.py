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
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def to_data(value: Any) -> Any:
    """JSON-compatible data for a record, a container of records, or a plain value."""
    encode = _ENCODERS.get(type(value))
    if encode is None:
        encode = _ENCODERS[type(value)] = _encoder(type(value))
    return encode(value)


_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def _encoder(cls: type) -> Callable[[Any], Any]:
    """How to write a value of this class, worked out once per class (a dump walks thousands of values)."""
    if hasattr(cls, "dump") and hasattr(cls, "load"):
        return lambda value: value.dump()
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]
        return lambda value: {name: to_data(getattr(value, name)) for name in names}
    if issubclass(cls, list | tuple):
        return lambda value: [to_data(v) for v in value]
    if issubclass(cls, set | frozenset):
        return lambda value: sorted(to_data(v) for v in value)
    if issubclass(cls, dict):
        return lambda value: {str(k): to_data(v) for k, v in value.items()}
    return _same


def from_data(cls: type[T], raw: Any) -> T:
    """The record of type `cls` from `to_data`'s output."""
    tp: Any = cls  # any type is hashable, as the decoder cache needs
    return typing.cast(T, _decoder(tp)(raw))


Decode = Callable[[Any], Any]


def _same(raw: Any) -> Any:
    return raw


def _to_float(raw: Any) -> Any:
    return float(raw) if isinstance(raw, int) else raw


@functools.cache
def _decoder(tp: Any) -> Decode:
    """How to rebuild a value of type `tp`, worked out once per type rather than for each of the thousands of
    values a state load decodes (asking `typing` about a type each time was most of a load's cost)."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return _same
    if origin in (typing.Union, types.UnionType):
        some = _decoder(next(a for a in typing.get_args(tp) if a is not type(None)))
        return lambda raw: None if raw is None else some(raw)
    if isinstance(tp, type) and hasattr(tp, "load") and hasattr(tp, "dump"):
        return typing.cast(Decode, tp.load)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _record_decoder(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        each = _decoder(item)
        return list if each is _same else (lambda raw: [each(v) for v in raw])
    if origin is tuple:
        each = _decoder(typing.get_args(tp)[0])
        return lambda raw: tuple([each(v) for v in raw])
    if origin is set:
        (item,) = typing.get_args(tp)
        each = _decoder(item)
        return lambda raw: {each(v) for v in raw}
    if origin is dict:
        key_type, value_type = typing.get_args(tp)
        key, value = _decoder(key_type), _decoder(value_type)
        if key is _same and value is _same:
            return dict
        return lambda raw: {key(k): value(v) for k, v in raw.items()}
    if tp is float:
        return _to_float
    return _same


def _record_decoder(cls: type) -> Decode:
    # (fields whose data is already the value, copied without a call each; fields to decode), resolved on first
    # use, as a record type may contain itself; one assignment, so a render thread never sees half of it
    layout: tuple[list[str], list[tuple[str, Decode]]] | None = None

    def decode(raw: Any) -> Any:
        nonlocal layout
        if layout is None:
            hints = typing.get_type_hints(cls)
            items = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls)
                     if f.init and not f.name.startswith("_")]
            layout = ([name for name, item in items if item is _same],
                      [(name, item) for name, item in items if item is not _same])
        plain, decoded = layout
        kwargs = {name: raw[name] for name in plain if name in raw}
        for name, item in decoded:
            if name in raw:
                kwargs[name] = item(raw[name])
        return cls(**kwargs)
    return decode
