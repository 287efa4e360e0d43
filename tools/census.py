"""Census of refutations: are they legal, reached and the same every time?

For every example amendment (the whole catalog) and for `shahrazad protection
--removals-only` (or, with `--full-protection`, every change `shahrazad protection` makes),
three runs with different `--jobs` and `PYTHONHASHSEED`; then counts:

* refutations: refuted obligations (amendments) and caught removals (protection);
* legal: the counterexample's situation breaks no structure invariant;
* reached: its trace starts at a game's beginning and replays under the rulebook checked;
* identical: the three runs gave the same JSON, time figures aside;
* faults: obligations the tool could not give a reaching trace (never shown as refuted);
* unknown: protection changes the solver could not decide (not faults, not refutations).

Usage: `python tools/census.py [--runs N] [--parallel] [--full-protection]
[--amendment NAME]... [--clause NAME]...`; prints one line per source (and where its runs
differ, if they do) and a total. `--clause` checks only the protection of those clauses.
`--parallel` starts a source's runs at once (they share the machine; the solver's budgets
are counted in its own units, so the answers do not depend on the load).
"""

from __future__ import annotations

import argparse
import functools
import glob
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from shahrazad.invariants.catalog import by_id
from shahrazad.invariants.structure import catalog_problems
from shahrazad.model.amendment import load_amendment
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import parse_scenario
from shahrazad.proofs.analyses.protection import Change, changes
from shahrazad.proofs.evidence.reach import is_beginning, refuted, replay_reached

ROOT = Path(__file__).resolve().parent.parent
RUNS = (("1", "0"), ("2", "1"), ("2", "4242"))


SAVE: Path | None = None  # where to keep each run's JSON (`--save`)


def _run(args: list[str], jobs: str, hashseed: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    done = subprocess.run([sys.executable, "-m", "shahrazad", *args, "--jobs", jobs,
                           "--format", "json"], capture_output=True, text=True, env=env,
                          cwd=ROOT, check=False)
    if SAVE is not None:
        SAVE.mkdir(parents=True, exist_ok=True)
        name = "_".join(a.replace("/", "-") for a in args[:3]) + f".jobs{jobs}.seed{hashseed}"
        (SAVE / f"{name}.json").write_text(done.stdout, encoding="utf-8")
        (SAVE / f"{name}.stderr").write_text(done.stderr, encoding="utf-8")
    if not done.stdout.strip():
        tail = done.stderr.strip().splitlines()[-1:] or [""]
        return {"crashed": f"exit {done.returncode}: {tail[0]}"}
    data: dict[str, Any] = json.loads(done.stdout)
    data.pop("time", None)
    for ob in data.get("obligations", []):
        for key in ("seconds", "solving-seconds", "encoding-seconds"):
            ob.pop(key, None)
    return data


def _difference(reports: list[dict[str, Any]]) -> str:
    """Where the first run and another part: a crash, or the first obligation that differs."""
    for report in reports:
        if "crashed" in report:
            return str(report["crashed"])
    for report in reports[1:]:
        for a, b in zip(reports[0].get("obligations", []), report.get("obligations", []),
                        strict=False):
            if a != b:
                return f"{a['invariant']} @ {a['event']}: {a['status']} / {b['status']}"
    return "the summaries"


def _scenario(data: dict[str, Any]) -> Any:
    return parse_scenario(json.dumps(data), file="census.json", fmt="json")


def _tally(counts: dict[str, int], rulebook: Rulebook, invariant: str,
           refutation: dict[str, Any], same: bool) -> None:
    """Count one refutation: is its counterexample legal, its trace reached, its run the
    same three times?"""
    cex, trace = refutation.get("counterexample", refutation.get("scenario")), \
        refutation.get("trace")
    counts["refutations"] += 1
    counts["legal"] += cex is not None and catalog_problems(_scenario(cex).situation) == []
    if trace is not None:
        scenario = _scenario(trace)
        counts["reached"] += not is_beginning(scenario.situation) and replay_reached(
            scenario, rulebook, refuted(by_id(invariant))) is None
    counts["identical"] += same


@functools.cache
def _changes_of(clause: str) -> list[tuple[Change, Rulebook]]:
    """Every change `shahrazad protection` makes of one clause, built once per clause."""
    return changes(official(), clause)


def _changed(change: dict[str, Any]) -> Rulebook:
    """The rulebook that a protection change (as its JSON tells it) checked."""
    said = change.get("change", {"parameter": "removed", "from": "", "to": ""})
    for made, rulebook in _changes_of(change["clause"]):
        if (made.parameter, made.old, made.new) == (said["parameter"], said["from"],
                                                    said["to"]):
            return rulebook
    raise LookupError(f"no change {said} of {change['clause']}")


def _runs(args: list[str], runs: tuple[tuple[str, str], ...], parallel: bool
          ) -> tuple[dict[str, Any], bool]:
    """The first run's report, and whether every run gave the same (saying where not)."""
    with ThreadPoolExecutor(len(runs) if parallel else 1) as pool:
        reports = list(pool.map(lambda run: _run(args, *run), runs))
    same = all(r == reports[0] for r in reports)
    if not same:
        print("  the runs differ:", _difference(reports), flush=True)
    return reports[0], same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--amendment", action="append", default=[],
                        help="only this example amendment (its file name without .toml); "
                        "the protection run is then left out")
    parser.add_argument("--parallel", action="store_true",
                        help="start a source's runs at once")
    parser.add_argument("--full-protection", action="store_true",
                        help="every change of `shahrazad protection`, not only removals")
    parser.add_argument("--clause", action="append", default=[],
                        help="protection of this clause only (repeatable); the "
                        "amendments are then left out")
    parser.add_argument("--save", type=Path, default=None,
                        help="keep each run's JSON and stderr in this folder")
    args = parser.parse_args()
    global SAVE
    SAVE = args.save
    runs = RUNS[:args.runs]
    total = {"refutations": 0, "legal": 0, "reached": 0, "identical": 0, "faults": 0,
             "unknown": 0}
    sources: list[tuple[str, list[str]]] = [
        (Path(path).stem, ["verify", "--amendment", path])
        for path in sorted(glob.glob(str(ROOT / "examples" / "amendments" / "*.toml")))
        if not args.clause and (not args.amendment or Path(path).stem in args.amendment)]
    if not args.amendment:
        only = [arg for clause in args.clause for arg in ("--clause", clause)]
        sources.append(("protection", ["protection", *only]) if args.full_protection else
                       ("protection --removals-only", ["protection", "--removals-only", *only]))
    for name, command in sources:
        report, same = _runs(command, runs, args.parallel)
        counts = dict.fromkeys(total, 0)
        if command[0] == "verify":
            rulebook = load_amendment(command[2]).apply(official())
            for ob in report.get("obligations", []):
                counts["faults"] += ob["status"] == "fault"
                if ob["status"] == "refuted":
                    _tally(counts, rulebook, ob["invariant"], ob, same)
        else:
            for change in report.get("changes", []):
                fault = change["detail"].startswith("fault")
                counts["faults"] += change["status"] == "unknown" and fault
                counts["unknown"] += change["status"] == "unknown" and not fault
                if change["status"] == "protected":
                    _tally(counts, _changed(change), change["caught-by"], change, same)
        print(name, counts, flush=True)
        for key in total:
            total[key] += counts[key]
    print("total", total)
    ok = total["refutations"] == total["legal"] == total["reached"] == total["identical"]
    return 0 if ok and not total["faults"] else 1

if __name__ == "__main__":
    sys.exit(main())
