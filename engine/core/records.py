"""State records (dataclasses) to and from JSON-safe data, driven by their type hints: the one codec of every ruleset.

A ruleset's state is a tree of dataclasses; writing a dump and a load for each record invites the two to drift.
The shapes handled: str, int, float, bool, None, enums (by value), nested dataclasses, ``list[...]``,
``tuple[X, ...]``, ``set[...]``/``frozenset[...]`` (saved sorted), ``dict[K, V]`` (keys saved, and loaded, as text),
``X | None``, and any class with its own ``dump()`` and ``load(raw)``.

- Fields whose names start with ``_`` are the record's private caches: never saved, never loaded.
- Fields left out of the data take their defaults, so older saves keep loading when a field is added.
- Type hints are resolved once per type, on first use (a state load decodes thousands of values, and asking
  ``typing`` about each was most of a load's cost); the cache is filled in one assignment, so a render thread
  never sees half of it.
- Decoding copies every container: the loaded state never shares a list with the data it came from.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
Decode = Callable[[Any], Any]
Encode = Callable[[Any], Any]


def to_data(value: Any) -> Any:
    """JSON-safe data for a record, a container of records, or a plain value."""
    encode = _ENCODERS.get(type(value))
    if encode is None:
        encode = _ENCODERS[type(value)] = _encoder(type(value))
    return encode(value)


def from_data(cls: type[T], raw: Any) -> T:
    """The value of type `cls` (a record, or any hint the codec handles) from `to_data`'s output."""
    tp: Any = cls  # any type is hashable, as the decoder cache needs
    return typing.cast(T, _decoder(tp)(raw))


def record_data(value: Any) -> dict[str, Any]:
    """A record's saved fields as data, past its own `dump` (for a `dump` that writes a field or two its own way)."""
    return {f.name: to_data(getattr(value, f.name)) for f in saved_fields(type(value))}


def record_from_data(cls: type[T], raw: dict[str, Any], **given: Any) -> T:
    """A record from its saved fields, past its own `load`; the `given` fields are taken as they are."""
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _decoder(hints[f.name])(raw[f.name]) for f in saved_fields(cls)
              if f.init and f.name in raw and f.name not in given}
    return cls(**kwargs, **given)


def saved_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of a record that are saved: all but the private ones."""
    return [f for f in dataclasses.fields(cls) if not f.name.startswith("_")]


# -- writing ----------------------------------------------------------------------------------------------------
_ENCODERS: dict[type, Encode] = {}


def _same(raw: Any) -> Any:
    return raw


def _has_own_codec(cls: Any) -> bool:
    return isinstance(cls, type) and callable(getattr(cls, "dump", None)) and callable(getattr(cls, "load", None))


def _encoder(cls: type) -> Encode:
    """How to write a value of this class, worked out once per class (a dump walks thousands of values)."""
    if _has_own_codec(cls):
        return lambda value: value.dump()
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in saved_fields(cls)]
        return lambda value: {name: to_data(getattr(value, name)) for name in names}
    if issubclass(cls, enum.Enum):
        return lambda value: to_data(value.value)
    if issubclass(cls, list | tuple):
        return lambda value: [to_data(v) for v in value]
    if issubclass(cls, set | frozenset):
        return lambda value: sorted(to_data(v) for v in value)
    if issubclass(cls, dict):
        return lambda value: {str(to_data(k)): to_data(v) for k, v in value.items()}
    return _same


# -- reading ----------------------------------------------------------------------------------------------------
def _to_float(raw: Any) -> Any:
    return float(raw) if isinstance(raw, int) and not isinstance(raw, bool) else raw


@functools.cache
def _decoder(tp: Any) -> Decode:
    """How to rebuild a value of type `tp`, worked out once per type."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return _same
    if origin in (typing.Union, types.UnionType):
        inner = [_decoder(a) for a in args if a is not type(None)]
        some = next((d for d in inner if d is not _same), _same)
        return _same if some is _same else (lambda raw: None if raw is None else some(raw))
    if _has_own_codec(tp):
        return typing.cast(Decode, tp.load)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _record_decoder(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if origin is list:
        each = _decoder(args[0]) if args else _same
        return list if each is _same else (lambda raw: [each(v) for v in raw])
    if origin is tuple:
        each = _decoder(args[0]) if args else _same
        return tuple if each is _same else (lambda raw: tuple([each(v) for v in raw]))
    if origin in (set, frozenset):
        each = _decoder(args[0]) if args else _same
        kind = origin
        return kind if each is _same else (lambda raw: kind(each(v) for v in raw))
    if origin is dict:
        key, value = (_decoder(args[0]), _decoder(args[1])) if args else (_same, _same)
        if key is _same and value is _same:
            return dict
        return lambda raw: {key(k): value(v) for k, v in raw.items()}
    if tp is float:
        return _to_float
    return _same


def _record_decoder(cls: type) -> Decode:
    # (fields whose data is already the value, copied without a call each; fields to decode), resolved on first
    # use, as a record type may contain itself
    layout: tuple[list[str], list[tuple[str, Decode]]] | None = None

    def decode(raw: Any) -> Any:
        nonlocal layout
        if layout is None:
            hints = typing.get_type_hints(cls)
            items = [(f.name, _decoder(hints[f.name])) for f in saved_fields(cls) if f.init]
            layout = ([name for name, item in items if item is _same],
                      [(name, item) for name, item in items if item is not _same])
        plain, decoded = layout
        kwargs = {name: raw[name] for name in plain if name in raw}
        for name, item in decoded:
            if name in raw:
                kwargs[name] = item(raw[name])
        return cls(**kwargs)
    return decode

