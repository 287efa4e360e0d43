"""Golden files of the report writers: each format, written from a fixed input, must equal
its file in `tests/golden/` byte for byte.

The verification input is `verify` on the official rulebook, restricted to two invariants
that are proved (one of them bounded, so that the bound shows), with every time figure of
the results set to 0; the simulation input is an example scenario run with `--seed 1`.

After a deliberate change of a report, regenerate the files and review their diff:

    SHAHRAZAD_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_report_golden.py
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from shahrazad.model.rulebook import official
from shahrazad.proofs.solving.obligations import Result, Status
from shahrazad.proofs.verdicts.run import verify

from shahrazad.cli import main
from shahrazad.report.jsondoc import verify_json
from shahrazad.report.junit import verify_junit
from shahrazad.report.markdown import verify_markdown
from shahrazad.report.sarif import verify_sarif
from shahrazad.report.text import verify_text

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("SHAHRAZAD_REGEN_GOLDEN") == "1"

INVARIANTS = ["start.short-library-loses", "end.cards-conserved"]
SCENARIO = "examples/subgame.start.libraries.toml"

VERIFY: dict[str, Callable[[list[Result]], str]] = {
    "verify.txt": lambda results: verify_text(results, "official", []),
    "verify.json": lambda results: json.dumps(verify_json(results, "official", []), indent=2,
                                              ensure_ascii=False) + "\n",
    "verify.junit.xml": lambda results: verify_junit(results, official(), []),
    "verify.sarif.json": lambda results: verify_sarif(results, official(), []),
    "verify.md": lambda results: verify_markdown(results, "official", []),
}


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}; write it with SHAHRAZAD_REGEN_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8"), (
        f"{name} differs from its golden file; if the change is meant, regenerate it with "
        "SHAHRAZAD_REGEN_GOLDEN=1 and review the diff")


@pytest.fixture(scope="module")
def results() -> list[Result]:
    found = verify(official(), only=INVARIANTS, timeout=30.0, jobs=1)
    assert [r.status for r in found] == [Status.PROVED] * len(found), \
        "the solver did not prove the golden input (a slow machine?), not a report change"
    assert {r.obligation.invariant.id for r in found} == set(INVARIANTS)
    return [dataclasses.replace(r, seconds=0.0, solving=0.0, encoding=0.0) for r in found]


@pytest.mark.parametrize("name", sorted(VERIFY))
def test_verify_report(name: str, results: list[Result]) -> None:
    check_golden(name, VERIFY[name](results))


@pytest.mark.parametrize(("name", "fmt"), [("simulate.txt", "text"), ("simulate.json", "json")])
def test_simulate_report(name: str, fmt: str, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the scenario's path, as given, is part of the report
    code = main(["simulate", SCENARIO, "--seed", "1", "--format", fmt])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    check_golden(name, out)
