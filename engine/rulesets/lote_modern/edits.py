"""Audited GM edits of a sheet or the map, in one canonical text form.

    edit England treasury.gp +50 "Spanish silver"
    edit England region[Kent].status =F "pacified"
    edit England army[Home Army].units +5i 2c "levies raised"
    edit Hansa monopolies +Spain:wool "granted by treaty"
    edit map city[London].gpv +1 "the city grows"

`op` is ``+`` (add), ``-`` (take away) or ``=`` (set); ``=none`` removes an entry such as
``army[Home Army]``. Setting a field of an entry that does not exist creates it. The reason in
quotes is required: every edit is kept in the audit log and shown to the nation concerned.
"""

from __future__ import annotations

import re
from typing import Any

from engine.core.errors import IllegalAction
from engine.rulesets.lote_modern.edit_entries import ENTRIES, edit_bank, edit_monopolies, edit_pool
from engine.rulesets.lote_modern.edit_values import (
    DICT_FIELDS,
    MAP_CITY_FIELDS,
    MAP_REGION_FIELDS,
    MAP_ZONE_FIELDS,
    NAMES,
    NATION_FIELDS,
    Box,
    Change,
    Edit,
    Spec,
    combine,
    read_value,
    set_field,
    show,
)
from engine.rulesets.lote_modern.sheet import (
    QR_KINDS,
    Nation,
    fold,
)
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.text import tokens
from engine.rulesets.lote_modern.world import FEATURES

_EDIT = re.compile(r'^\s*edit\s+(?P<body>.+?)\s+"(?P<reason>[^"]*)"\s*$', re.IGNORECASE | re.DOTALL)
_ENTRY = re.compile(r"^(?P<kind>[a-z_]+)\[(?P<key>[^\]]+)\](?:\.(?P<field>[a-z_]+))?$")
MAX_REASON = 300

HELP = ('GM edits: `edit <nation|map> <path> <+|-|=><value> "<reason>"`, e.g. '
        '`edit England treasury.gp +50 "Spanish silver"` (see the notes for every path)')


def parse_edit(text: str) -> Edit:
    m = _EDIT.match(text)
    if not m:
        raise IllegalAction(HELP)
    reason = " ".join(m["reason"].split())
    if not reason:
        raise IllegalAction('an edit needs a reason in quotes, e.g. "tax windfall"')
    if len(reason) > MAX_REASON:
        raise IllegalAction(f"the reason is at most {MAX_REASON} characters")
    parts = tokens(m["body"])
    if len(parts) < 3:
        raise IllegalAction(HELP)
    target, path, rest = parts[0], parts[1], parts[2:]
    op = rest[0][0]
    if op not in "+-=":
        raise IllegalAction(f"`{rest[0]}`: the value starts with + (add), - (take away) or = (set)")
    value = " ".join([rest[0][1:], *rest[1:]]).strip()
    if not value:
        raise IllegalAction(f"`{path} {op}`: give a value after {op}")
    return Edit(target, _canonical_path(path), op, value, reason)


def _canonical_path(path: str) -> str:
    m = _ENTRY.match(path.strip())
    if m:
        key = " ".join(m["key"].split())
        return f"{m['kind'].lower()}[{key}]" + (f".{m['field'].lower()}" if m["field"] else "")
    return path.strip().lower()


def apply_edit(state: GameState, edit: Edit) -> Change:
    """Apply an edit; the returned change says what it was and what it became."""
    if fold(edit.target) == "map":
        change = _edit_map(state, edit)
        state.world.reindex()
        return change
    nation = state.nation(edit.target)
    edit = Edit(nation.name, edit.path, edit.op, edit.value, edit.reason)
    return _edit_nation(state, nation, edit)


# -- nation sheets ---------------------------------------------------------------------------
def _edit_nation(state: GameState, n: Nation, edit: Edit) -> Change:
    path = edit.path
    if path in NATION_FIELDS:
        attr, spec = NATION_FIELDS[path]
        obj: Any = n
        if attr in ("capital", "homeland") and edit.value.lower() != "none":
            place = n.city(edit.value) if attr == "capital" else n.region(edit.value)
            if place is None:
                raise IllegalAction(f"{n.name} holds no {'city' if attr == 'capital' else 'region'} `{edit.value}`")
        return set_field(state, n, obj, attr, spec, edit)
    head, _, key = path.partition(".")
    if head == "bank":
        return edit_bank(state, n, key, edit)
    if head in DICT_FIELDS and key:
        attr, spec = DICT_FIELDS[head]
        table: dict[str, Any] = getattr(n, attr)
        if head == "qr" and key not in QR_KINDS:
            raise IllegalAction(f"`{key}` is not a quality rating ({', '.join(QR_KINDS)})")
        holder = Box(table.get(key, 0))
        change = set_field(state, n, holder, "value", spec, edit)
        if holder.value:
            table[key] = holder.value
        else:
            table.pop(key, None)
        return change
    if path == "monopolies":
        return edit_monopolies(state, n, edit)
    m = _ENTRY.match(path)
    if not m:
        raise IllegalAction(f"`{path}` is not a sheet path; {HELP}")
    kind, key, field = m["kind"], m["key"], m["field"]
    handler = ENTRIES.get(kind)
    if handler is None:
        raise IllegalAction(f"`{kind}[...]` is not a sheet entry ({', '.join(ENTRIES)}[...])")
    return handler(state, n, key, field, edit)


# -- the map --------------------------------------------------------------------------------
def _edit_map(state: GameState, edit: Edit) -> Change:
    m = _ENTRY.match(edit.path)
    if not m or m["field"] is None:
        raise IllegalAction("map paths are region[<name>].<field>, city[<name>].<field>, zone[<name>].<field> or "
                            "pool[<name>].<field>")
    kind, key, field = m["kind"], m["key"], m["field"]
    world = state.world
    obj: Any
    fields: dict[str, Spec]
    if kind == "region":
        obj, fields = world.region(key), MAP_REGION_FIELDS
    elif kind == "city":
        obj, fields = world.city(key), MAP_CITY_FIELDS
    elif kind == "zone":
        obj, fields = world.zone(key), MAP_ZONE_FIELDS
    elif kind == "pool":
        return edit_pool(state, key, field, edit)
    else:
        raise IllegalAction("the map has region[...], city[...], zone[...] and pool[...] entries")
    if field not in fields:
        raise IllegalAction(f"fields here: {', '.join(fields)}")
    if field == "features":
        bad = [x for x in read_value(state, None, NAMES, edit.value) if x not in FEATURES]
        if bad:
            raise IllegalAction(f"`{bad[0]}` is not one of {', '.join(FEATURES)}")
    spec = fields[field]
    if field in ("features",):
        old = list(getattr(obj, field))
        new = combine(old, edit.op, read_value(state, None, spec, edit.value), spec)
        setattr(obj, field, tuple(new))
        return Change(edit, show(old, spec), show(new, spec))
    return set_field(state, None, obj, field, spec, edit)

