"""The upload guard: shapes that would hang or crash tomllib are refused by a linear scan, and fair files pass."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import UploadError
from engine.core.upload import LIMITS, load_toml, scan_toml

HOSTILE = {
    "deep array": ("a = " + "[" * 1000 + "]" * 1000, "nested more than"),
    "deep inline table": ("a = " + "{b = " * 200 + "1" + "}" * 200, "nested more than"),
    "long dotted key": ("a" + ".a" * 40_000 + " = 1", "dotted key"),
    "long dotted header": ("[" + ".".join(["x"] * 5000) + "]", "dotted key"),
    "quoted dotted key": ('"a"' + '."a"' * 500 + " = 1", "dotted key"),
    "long key": ('"' + "k" * 300 + '" = 1', "key longer"),
    "too big": ("# " + "x" * (LIMITS.chars + 1), "KiB"),
    "too many lines": ("\n" * LIMITS.lines, "lines"),
    "too many values": ("a = [" + "1," * (LIMITS.items + 1) + "]", "keys and values"),
    "NUL": ("a = 1\x00", "NUL"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_toml_is_refused_before_parsing(case):
    text, words = HOSTILE[case]
    with pytest.raises(UploadError, match=words):
        load_toml("sheets", text)


FAIR = """\
# a fair file: strings may hold anything the scan counts outside them
title = "a.b.c.d.e.f.g.h.i.j.k [[[[[[[[[[[[[[[[[[[[ {{{{{{{{{{{{{{{{{{{{"
notes = '''
= = = , , , . . . . . . . . . . [ [ [ [ [ [ [ [ [ [ [ [ [ [ [ [ [ [ [ [
'''
when = 1979-05-27T07:32:00.999
floats = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5]
a.b.c = 1
inline = {x = 1, y = [1, 2, [3, [4]]], "z.w" = "v"}

[[region]]
name = "Gaul"   # a comment with . . . . . . . . . . . . and [[[[[[[[[[[[[[[[[[
links = ["Iberia", "Italia"]
"""


def test_a_fair_file_reads_as_tomllib_reads_it():
    assert load_toml("regions", FAIR) == tomllib.loads(FAIR)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab.=[]{},\"'#\n \\1")), max_size=400))
def test_any_text_is_read_or_refused_with_an_upload_error(text):
    try:
        load_toml("tables", text)
    except UploadError as exc:  # anything else (RecursionError, ValueError…) fails the test
        assert str(exc).startswith("tables")


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.integers() | st.text(max_size=5), lambda inner: st.lists(inner, max_size=3), max_leaves=20))
def test_whatever_the_guard_passes_parses_like_tomllib(value):
    text = f"v = {_toml(value)}\n"
    try:
        scan_toml("x", text)
    except UploadError:
        return
    assert load_toml("x", text) == tomllib.loads(text)


def _toml(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + "".join(c if c.isalnum() else "" for c in value) + '"'
    return str(value)
