"""The distribution as a new user gets it: built, installed from the wheel into a fresh
virtual environment next to another project's top-level `model` package, type-checked
downstream, and tested from the unpacked sdist.

These build and install for real (each needs a fresh venv and the package index or pip's
cache), so they sit behind the `slow` marker, which `.ci/run` runs.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

# The other project: a distribution that owns a top-level `model` package, as game engines do.
OTHER_PYPROJECT = """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "other-engine"
version = "1.0"

[tool.setuptools]
packages = ["model"]
"""

# A downstream user of the public API, type-checked with mypy --strict.
DOWNSTREAM = """\
from shahrazad.cli import main
from shahrazad.invariants.catalog import CATALOG, Invariant
from shahrazad.invariants.structure import problems
from shahrazad.model.choices import SeededChooser
from shahrazad.model.interpreter import Interpreter, Outcome
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario, parse_scenario
from shahrazad.proofs.solving.obligations import Result, Status
from shahrazad.proofs.verdicts.run import verify


def count_clauses(rulebook: Rulebook) -> int:
    return len(rulebook.clauses)


def first_invariant() -> Invariant:
    return CATALOG[0]


def run(scenario: Scenario) -> list[str]:
    interpreter = Interpreter(official(), SeededChooser(1))
    state = scenario.situation.copy()
    for index, event in enumerate(scenario.events, start=1):
        outcome: Outcome = interpreter.step(state, event, index)
        state = outcome.situation
    return problems(state)


def statuses(results: list[Result]) -> set[Status]:
    return {r.status for r in results}


_ = (main, parse_scenario, verify, count_clauses(official()))
"""


def _run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, (f"{' '.join(map(str, args))} exited {done.returncode}\n"
                                  f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return done


def _venv(where: Path) -> Path:
    _run(sys.executable, "-m", "venv", where)
    return where / "bin" / "python"


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Our wheel and sdist, and the other project's wheel, built once for the module."""
    out = tmp_path_factory.mktemp("dist")
    # The module's tests may run in two pytest-xdist workers, each building from the one
    # source tree: two builds at once race on its `build/` and `*.egg-info` (setuptools:
    # "No such file or directory"). The workers share the parent of their temporary
    # folders, and a lock there lets one build at a time.
    with open(tmp_path_factory.getbasetemp().parent / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _run(sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", out, ROOT)
    other = tmp_path_factory.mktemp("other")
    (other / "pyproject.toml").write_text(OTHER_PYPROJECT)
    (other / "model").mkdir()
    (other / "model" / "__init__.py").write_text('ENGINE = "other"\n')
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, other)
    yield {"wheel": next(out.glob("shahrazad-*.whl")),
           "sdist": next(out.glob("shahrazad-*.tar.gz")),
           "other": next(out.glob("other_engine-*.whl"))}


def test_wheel_installs_only_under_shahrazad(dists: dict[str, Path]) -> None:
    import zipfile

    names = zipfile.ZipFile(dists["wheel"]).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"shahrazad"}
    for package in ("shahrazad", "shahrazad/model", "shahrazad/invariants", "shahrazad/proofs",
                    "shahrazad/report"):
        assert f"{package}/py.typed" in names, package
    assert "shahrazad/model/rulebook.toml" in names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(dists["wheel"]).read(metadata).decode()
    assert "License-Expression: MIT" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_clash_with_another_model_package(dists: dict[str, Path], tmp_path: Path) -> None:
    """Another distribution's top-level `model` and ours live side by side, in either
    order, and uninstalling the other one leaves ours whole."""
    python = _venv(tmp_path / "venv")
    shahrazad = python.parent / "shahrazad"
    pip = (python, "-m", "pip", "install", "-q")
    use_both = ("import model, shahrazad.model.rulebook as r; "
                "assert model.ENGINE == 'other'; print(len(r.official().clauses))")
    # The other project first, then ours.
    _run(*pip, dists["other"])
    _run(*pip, dists["wheel"])
    assert int(_run(python, "-c", use_both, cwd=tmp_path).stdout) > 30
    version = _run(shahrazad, "--version").stdout
    assert "shahrazad" in version and "z3" in version and "cvc5" in version
    # Uninstalling the other one leaves ours whole.
    _run(python, "-m", "pip", "uninstall", "-q", "-y", "other-engine")
    _run(python, "-c", "import shahrazad.model.rulebook as r; r.official()", cwd=tmp_path)
    _run(shahrazad, "--version")
    # Ours first, then the other; then uninstalling ours leaves the other's `model`.
    _run(*pip, dists["other"])
    assert int(_run(python, "-c", use_both, cwd=tmp_path).stdout) > 30
    _run(python, "-m", "pip", "uninstall", "-q", "-y", "shahrazad")
    _run(python, "-c", "import model; assert model.ENGINE == 'other'", cwd=tmp_path)


def test_downstream_mypy_strict(dists: dict[str, Path], tmp_path: Path) -> None:
    """A downstream project that imports the public API type-checks under mypy --strict
    against the installed wheel (every package ships py.typed)."""
    python = _venv(tmp_path / "venv")
    _run(python, "-m", "pip", "install", "-q", dists["wheel"])
    (tmp_path / "downstream.py").write_text(DOWNSTREAM)
    done = _run(sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                "--python-executable", python, "downstream.py", cwd=tmp_path)
    assert "Success" in done.stdout


def test_sdist_tests_pass_from_the_unpacked_sdist(dists: dict[str, Path], tmp_path: Path) -> None:
    """The sdist holds its tests, examples, docs and license, and its tests pass there
    against the package installed from it (not an editable install)."""
    with tarfile.open(dists["sdist"]) as tar:
        tar.extractall(tmp_path, filter="data")
    unpacked = next(tmp_path.glob("shahrazad-*"))
    for needed in ("LICENSE", "README.md", "tests/conftest.py", "tests/situations.py",
                   "examples/amendments", "examples/findings", "docs/invariants.md",
                   "model/rulebook.toml", "src/shahrazad/py.typed"):
        assert (unpacked / needed).exists(), needed
    python = _venv(tmp_path / "venv")
    _run(python, "-m", "pip", "install", "-q", f"{unpacked}[test]")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    done = _run(python, "-m", "pytest", "-p", "no:cacheprovider", "-m", "not slow",
                cwd=unpacked, env=env)
    where = _run(python, "-c", "import shahrazad; print(shahrazad.__file__)", cwd=unpacked)
    assert "site-packages" in where.stdout
    assert " passed" in done.stdout and " failed" not in done.stdout
