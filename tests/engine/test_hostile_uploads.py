"""Every upload kind of every ruleset, fed its own example file with values of the wrong type or size swapped in:
it is accepted or refused with an `UploadError`, never an exception of another kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import RulesError
from engine.rulesets import get

EXAMPLES = Path(__file__).parents[2] / "examples"
FILES = [("freeform", "regions", EXAMPLES / "freeform" / "regions.toml"),
         ("lote-modern", "sheets", EXAMPLES / "lote-modern" / "sheets.toml"),
         ("lote-modern", "map", EXAMPLES / "lote-modern" / "map.toml")]
VALUES = ["[1, 2]", "5", "-1", "0", "99999999999999999999", "1e400", "nan", "true", '"x"', '""', '"²"',
          "{a = 1}", "[[1], [2]]", '["a", 1]', "[]", "{}", '"' + "x" * 3000 + '"', "1979-05-27", '"\\u0000"',
          '"@everyone"', "-99999999999999999999", "3.5"]


@pytest.mark.parametrize(("ruleset", "kind", "path"), FILES, ids=[f"{r}-{k}" for r, k, _ in FILES])
def test_the_example_file_is_accepted(ruleset, kind, path):
    assert get(ruleset).check_upload(kind, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("ruleset", "kind", "path"), FILES, ids=[f"{r}-{k}" for r, k, _ in FILES])
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_a_value_of_the_wrong_type_is_an_upload_error(ruleset, kind, path, data):
    lines = path.read_text(encoding="utf-8").splitlines()
    assignments = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    for _ in range(data.draw(st.integers(1, 3), label="swaps")):
        i = data.draw(st.sampled_from(assignments), label="line")
        key = lines[i].split("=", 1)[0]
        lines[i] = f"{key}= {data.draw(st.sampled_from(VALUES), label='value')}"
    try:
        get(ruleset).check_upload(kind, "\n".join(lines))
    except RulesError as exc:
        assert str(exc) and len(str(exc)) < 1000
