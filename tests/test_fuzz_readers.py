"""Bad input never reaches the model: a fuzz test of the readers.

Each example is a real input file (a scenario, an amendment, the official rulebook) with
one value somewhere replaced by an arbitrary one: a number where a list belongs, a list
where a name belongs, a huge integer, deep nesting, a float, a table. Reading it must
either succeed or raise `InputError` (one line naming the file, exit 2 in the CLI); any
other exception is an internal error of the tool.

The quick suite tries 50 inputs per reader, `pytest -m slow` 150;
`SHAHRAZAD_FUZZ_EXAMPLES=10000 pytest -m slow tests/test_fuzz_readers.py` runs the long
offline campaign (see the issue notes for its figures).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shahrazad.model.amendment import parse_amendment
from shahrazad.model.errors import InputError
from shahrazad.model.inputs import parse_toml
from shahrazad.model.rulebook import parse_rulebook
from shahrazad.model.scenario import parse_scenario

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("SHAHRAZAD_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# The quick suite fuzzes each reader with a third as many files; `slow` (which `.ci/run`
# runs) with all EXAMPLES (issue 9: the quick suite within 90 s).
QUICK = settings(FUZZ, max_examples=max(1, EXAMPLES // 3))

SCENARIOS = sorted((ROOT / "examples").glob("*.toml"))
AMENDMENTS = sorted((ROOT / "examples" / "amendments").glob("*.toml"))
RULEBOOK = ROOT / "model" / "rulebook.toml"

# Values a malformed file can hold, the nasty ones included.
LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**63, -(2**63) - 1, 10**25]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["main", "Ann", "main/library/Ann", "outside/Ann", "sub", "", "card"]),
)
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out += _paths(value, (*prefix, index))
    return out


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {k: (_replace(v, rest, value) if k == head else v) for k, v in data.items()}
    return [(_replace(v, rest, value) if i == head else v) for i, v in enumerate(data)]


@st.composite
def mutated(draw: st.DrawFn, files: list[Path]) -> tuple[str, str]:
    """A file's text after one of its values was replaced; as JSON or as TOML."""
    path = draw(st.sampled_from(files))
    data = parse_toml(path.read_text(), file=str(path))
    where = draw(st.sampled_from(_paths(data)))
    changed = _replace(data, where, draw(VALUES))
    if not isinstance(changed, dict):
        changed = {"value": changed}
    as_json = draw(st.booleans())
    if not as_json:
        try:
            return tomli_w.dumps(changed), "toml"
        except (TypeError, ValueError):  # TOML cannot say it (a None, mixed arrays, ...)
            pass
    return json.dumps(changed), "json"


TALLY: Counter[str] = Counter()  # inputs read, and refused with an InputError


@pytest.fixture(scope="module", autouse=True)
def _report_tally() -> Iterator[None]:
    yield
    if "SHAHRAZAD_FUZZ_EXAMPLES" in os.environ:  # the offline campaign reports its figures
        print(f"\nfuzz: {sum(TALLY.values())} inputs, {TALLY['read']} read, "
              f"{TALLY['refused']} refused with one line (exit 2), 0 internal errors")


def _read_or_refuse(read: Any, text: str, file: str) -> None:
    try:
        read(text, file=file)
        TALLY["read"] += 1
    except InputError as err:
        assert "\n" not in str(err), str(err)
        TALLY["refused"] += 1


def _scenario(case: tuple[str, str]) -> None:
    text, fmt = case
    _read_or_refuse(parse_scenario, text, f"fuzz.{fmt}")


def _amendment(case: tuple[str, str]) -> None:
    text, fmt = case
    if fmt == "toml":
        _read_or_refuse(parse_amendment, text, "fuzz.toml")


def _rulebook(case: tuple[str, str]) -> None:
    text, fmt = case
    if fmt == "toml":
        _read_or_refuse(parse_rulebook, text, "fuzz.toml")


@QUICK
@given(mutated(SCENARIOS))
def test_scenario_reader_refuses_cleanly(case: tuple[str, str]) -> None:
    _scenario(case)


@QUICK
@given(mutated(AMENDMENTS))
def test_amendment_reader_refuses_cleanly(case: tuple[str, str]) -> None:
    _amendment(case)


@QUICK
@given(mutated([RULEBOOK]))
def test_rulebook_reader_refuses_cleanly(case: tuple[str, str]) -> None:
    _rulebook(case)


@pytest.mark.slow
@FUZZ
@given(mutated(SCENARIOS))
def test_scenario_reader_refuses_cleanly_longer(case: tuple[str, str]) -> None:
    _scenario(case)


@pytest.mark.slow
@FUZZ
@given(mutated(AMENDMENTS))
def test_amendment_reader_refuses_cleanly_longer(case: tuple[str, str]) -> None:
    _amendment(case)


@pytest.mark.slow
@FUZZ
@given(mutated([RULEBOOK]))
def test_rulebook_reader_refuses_cleanly_longer(case: tuple[str, str]) -> None:
    _rulebook(case)
