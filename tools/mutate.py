"""A mutation run of the project's own: small, meaningful changes to the encoder, the
interpreter, the concrete reader and the rulebook (`tools/mutants.toml`), each applied
alone, and the checks that should catch it. Not a test: run it by hand, on a clean work
tree (it edits the files in place, and restores each one whatever happens):

    .venv/bin/python tools/mutate.py [--only ID ...] [--list] [--check]

For each mutant it runs the killers, cheapest first, and stops at the first that fails:

1. the audit's regression tests (`tests/test_false_proofs.py`, `tests/test_bounds.py`);
2. the concrete reader against a plain reading, and the structure checks
   (`tests/test_concrete_compiled.py`, `tests/test_structure.py`);
3. the reaching traces (`tests/test_reach.py`) and the second solver's reading and
   confirmations (`tests/test_confirm.py`), with the owner step's two readings
   (`tests/test_owner_step.py`);
4. `shahrazad verify --jobs 1` on the official rules: a proof that now fails;
5. transition conformance on every step of every example, and on the refusal and the
   creating effect cases of `tests/test_conformance.py`;
6. the agreement of the two readings on the invariants, on the examples and on random
   situations (`tests/test_proofs.py -k agree`);
7. conformance on every small situation, refusals included (slow).

A mutant is *killed* when a killer fails, *equivalent* when it survives and the file gives
the reason no run can tell it from the original, and *survives* otherwise. The claims of
equivalence are checked by `tests/test_equivalent_mutants.py`, which is not a killer: it
reads the rulebook's text, so any change to the snippet it names would "kill" the mutant. The score and
the list are in `docs/mutation.md`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PYTEST = [PYTHON, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]


@dataclass(frozen=True)
class Mutant:
    """Replace `old` (which must occur once) with `new` in `file`. `equivalent` is the reason
    no run can tell the mutant from the original, when it is one."""

    id: str
    file: str
    old: str
    new: str
    what: str
    equivalent: str = ""


def load(path: Path = ROOT / "tools" / "mutants.toml") -> list[Mutant]:
    return [Mutant(**entry) for entry in tomllib.loads(path.read_text())["mutant"]]


KILLERS = [
    ("regressions", PYTEST + ["tests/test_false_proofs.py", "tests/test_bounds.py"]),
    # The slow marker only keeps a test out of the quick default run: a killer runs them all.
    ("reader", PYTEST + ["-m", "slow or not slow", "tests/test_concrete_compiled.py",
                         "tests/test_structure.py"]),
    ("reach", PYTEST + ["tests/test_reach.py"]),
    ("confirm", PYTEST + ["tests/test_confirm.py", "tests/test_owner_step.py"]),
    # The language's newer features, each in both readings (issue 10).
    ("features", PYTEST + ["-m", "slow or not slow", "tests/test_came_from.py",
                           "tests/test_karn_exempt.py", "tests/test_copies.py"]),
    ("verify", [str(ROOT / ".venv/bin/shahrazad"), "verify", "--jobs", "1"]),
    ("conformance", PYTEST + ["-m", "slow or not slow", "tests/test_conformance.py",
                              "-k", "not small"]),
    ("agreement", PYTEST + ["-m", "slow or not slow", "tests/test_proofs.py", "-k", "agree"]),
    ("small situations", PYTEST + ["-m", "slow", "tests/test_conformance.py", "-k", "small"]),
    # With the longer twins of the quick property tests (a third of their examples there).
    ("properties", PYTEST + ["-m", "slow or not slow", "tests/test_properties.py"]),
]


def check(mutant: Mutant) -> str:
    """The text of the file; raises SystemExit unless the snippet occurs exactly once."""
    text = (ROOT / mutant.file).read_text()
    if text.count(mutant.old) != 1:
        raise SystemExit(f"{mutant.id}: the snippet occurs {text.count(mutant.old)} times "
                         f"in {mutant.file}")
    return text


def run(mutant: Mutant, limit: float) -> tuple[str | None, float]:
    """Apply, run the killers until one fails, restore. Returns the killer that failed (a
    killer that runs longer than `limit` seconds fails: the mutant made it hang)."""
    path = ROOT / mutant.file
    text = check(mutant)
    start = time.perf_counter()
    env = {**os.environ, "SHAHRAZAD_MUTATION": "1"}  # tests/conftest.py: no shrinking
    try:
        path.write_text(text.replace(mutant.old, mutant.new))
        for name, command in KILLERS:
            try:
                done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                                      env=env, timeout=limit)
            except subprocess.TimeoutExpired:
                return f"{name} (hung: over {limit:.0f} s)", time.perf_counter() - start
            if done.returncode != 0:
                return name, time.perf_counter() - start
        return None, time.perf_counter() - start
    finally:
        path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="run only this mutant")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--check", action="store_true",
                        help="check that every snippet occurs exactly once, and stop")
    parser.add_argument("--limit", type=float, default=900.0,
                        help="seconds a killer may run before it counts as hung")
    args = parser.parse_args()
    mutants = load()
    unknown = set(args.only) - {m.id for m in mutants}
    if unknown:
        raise SystemExit(f"no mutant {', '.join(sorted(unknown))}")
    chosen = [m for m in mutants if not args.only or m.id in args.only]
    if args.list or args.check:
        for m in chosen:
            check(m)
            print(f"{m.id:38} {m.what}")
        return
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout
    if dirty.strip():
        raise SystemExit("the work tree has changes: commit or stash them first")
    killed = equivalent = 0
    for mutant in chosen:
        killer, seconds = run(mutant, args.limit)
        killed += killer is not None
        equivalent += killer is None and bool(mutant.equivalent)
        verdict = (f"killed by {killer}" if killer
                   else "equivalent" if mutant.equivalent else "SURVIVED")
        print(f"{mutant.id:38} {verdict:34} {seconds:6.1f} s  {mutant.what}", flush=True)
    print(f"\n{killed} of {len(chosen)} mutants killed, {equivalent} equivalent, "
          f"{len(chosen) - killed - equivalent} survived")


if __name__ == "__main__":
    main()
